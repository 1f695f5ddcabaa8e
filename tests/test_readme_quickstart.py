"""The README works as written: its quickstart plays the first moves of a game against a real
server with curl, and .ci/run runs the README's test command."""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()
QUICKSTART_MARK = "<!-- quickstart:"


def quickstart() -> str:
    after = README.split(QUICKSTART_MARK, 1)[1]
    block = re.search(r"```sh\n(.*?)```", after, re.S)
    assert block is not None, "the quickstart block is missing"
    return block.group(1)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    port = free_port()
    env = {**os.environ, "ALEXANDRIA_DATABASE_URL": f"sqlite:///{tmp_path}/events.sqlite"}
    env.pop("ALEXANDRIA_REDIS_URL", None)
    process = subprocess.Popen(
        [sys.executable, "-m", "api.cli", "serve", "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(600):  # the server is up when it answers; a loaded machine may take a while
            try:
                if httpx.get(f"{url}/games/catalog").status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.05)
        else:
            raise AssertionError("the server did not start")
        yield url
    finally:
        process.terminate()
        process.wait(timeout=30)


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("curl") is None, reason="curl is not installed")
def test_the_quickstart_plays_the_first_moves(server: str, tmp_path: Path) -> None:
    script = quickstart()
    assert script.startswith("API=http://127.0.0.1:8000\n")
    script = script.replace("API=http://127.0.0.1:8000", f"API={server}", 1)
    result = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", script], cwd=tmp_path, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert '"error"' not in result.stdout, result.stdout
    (game,) = httpx.get(f"{server}/games").json()
    log = httpx.get(f"{server}/games/{game['game_id']}/events").json()
    commands = [r["data"]["command"]["type"] for r in log if r["type"] == "CommandAccepted"]
    assert commands == ["pass_turn", "place_bid"], commands


def test_ci_runs_the_readme_test_command() -> None:
    commands = re.search(r"```sh\n(.*?)```", README, re.S)
    assert commands is not None
    serve, test = commands.group(1).strip().splitlines()
    assert "python3 -m venv .venv" in serve and "alexandria serve" in serve
    assert test in (ROOT / ".ci" / "run").read_text()
