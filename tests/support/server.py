"""``alexandria serve`` in a process of its own, for the tests that stop, kill or restart it."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Mapping
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parents[2]
# Generous: it bounds a hang, not a speed (a loaded 2-core machine may be slow to start a server).
START_SECONDS = 120
# A request to a server process: httpx's default of 5 s is too short where several servers, the
# suite's other workers and a CPU hog share two cores; this bounds a hang, not a speed.
REQUEST_SECONDS = 60


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as probe:
        probe.bind((host, 0))
        return int(probe.getsockname()[1])


def wait_until_serving(
    url: str, process: subprocess.Popen[bytes], log: Path | None = None, seconds: float = START_SECONDS
) -> None:
    """Returns once the server at ``url`` answers; fails (killing it) if it dies or never answers,
    with its log when there is one."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            process.wait()
            output = log.read_text() if log is not None else "(no log)"
            raise RuntimeError(f"the server on {url} did not start:\n{output}")
        time.sleep(0.1)


def start_server(
    events: Path, log: Path, env: Mapping[str, str] | None = None, *, module: str = "tests.infra.launch"
) -> tuple[subprocess.Popen[bytes], str]:
    """``alexandria serve`` in the embedded mode (the SQLite event store ``events``, no Redis) on a
    free port, started through ``module`` (by default the CLI with the kernel's fixture game
    registered) with the settings ``env`` added and its output appended to ``log``; returned with
    its URL once it answers."""
    port = free_port()
    environment = {
        **os.environ,
        "PYTHONPATH": str(REPO),
        "ALEXANDRIA_DATABASE_URL": f"sqlite:///{events}",
        **(env or {}),
    }
    environment.pop("ALEXANDRIA_REDIS_URL", None)
    with log.open("ab") as output:
        process = subprocess.Popen(
            [sys.executable, "-m", module, "serve", "--port", str(port)],
            cwd=REPO,
            env=environment,
            stdout=output,
            stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}"
    wait_until_serving(url, process, log)
    return process, url


def stop(process: subprocess.Popen[bytes], seconds: float = 30) -> None:
    """Ask a server to stop (SIGTERM), killing it if it has not after ``seconds``."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
