"""PostgreSQL and Redis for the integration tests.

Use the servers on 127.0.0.1 (the CI has both); else start our own from the binaries on PATH;
else skip, naming what is missing, except under CI=true, where a missing service is a failure.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
import redis

from tests.support.server import free_port

HOST = "127.0.0.1"


def reachable(port: int, host: str = HOST) -> bool:
    with socket.socket() as probe:
        probe.settimeout(0.5)
        return probe.connect_ex((host, port)) == 0


def unavailable(reason: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI=true and {reason}")
    pytest.skip(reason)


def wait_for_port(port: int, process: subprocess.Popen[bytes], what: str, seconds: float = 20) -> None:
    deadline = time.monotonic() + seconds
    while not reachable(port):
        if process.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"{what} did not start on port {port}")
        time.sleep(0.1)


def redis_server() -> Iterator[str]:
    """A Redis URL (database 15: tests also use a unique key prefix and delete their keys)."""
    if reachable(6379):
        yield f"redis://{HOST}:6379/15"
        return
    binary = shutil.which("redis-server")
    if binary is None:
        unavailable("no Redis on 127.0.0.1:6379 and no redis-server binary to start one")
    port = free_port()
    process = subprocess.Popen(
        [binary, "--port", str(port), "--save", "", "--appendonly", "no"], stdout=subprocess.DEVNULL
    )
    try:
        wait_for_port(port, process, "redis-server")
        yield f"redis://{HOST}:{port}/15"
    finally:
        process.terminate()
        process.wait()


def postgres_server() -> Iterator[str]:
    """A PostgreSQL server URL without the database (user postgres, trust authentication)."""
    if reachable(5432):
        yield f"postgresql://postgres@{HOST}:5432"
        return
    pg_ctl, initdb = shutil.which("pg_ctl"), shutil.which("initdb")
    if pg_ctl is None or initdb is None:
        unavailable("no PostgreSQL on 127.0.0.1:5432 and no pg_ctl/initdb to start one")
    if os.geteuid() == 0:
        unavailable("no PostgreSQL on 127.0.0.1:5432, and PostgreSQL refuses to run as root")
    data = Path(tempfile.mkdtemp(prefix="alexandria-pg-"))
    port = free_port()
    subprocess.run([initdb, "-D", str(data), "-U", "postgres", "--auth=trust"], check=True, capture_output=True)
    options = f"-p {port} -k {data} -c listen_addresses={HOST} -c fsync=off"
    subprocess.run([pg_ctl, "-D", str(data), "-o", options, "-w", "start"], check=True, capture_output=True)
    try:
        yield f"postgresql://postgres@{HOST}:{port}"
    finally:
        subprocess.run([pg_ctl, "-D", str(data), "-m", "immediate", "stop"], capture_output=True)
        shutil.rmtree(data, ignore_errors=True)


def fresh_database(server: str) -> Iterator[str]:
    """A database of our own on ``server``, dropped afterwards."""
    name = f"alexandria_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(f"{server}/postgres", autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield f"{server}/{name}"
    finally:
        with psycopg.connect(f"{server}/postgres", autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def fresh_prefix(url: str) -> Iterator[str]:
    """A Redis key prefix of our own; its keys are deleted afterwards."""
    prefix = f"alexandria_test_{uuid.uuid4().hex[:12]}"
    try:
        yield prefix
    finally:
        client = redis.Redis.from_url(url)
        keys = list(client.scan_iter(match=f"{prefix}:*", count=1000))
        if keys:
            client.delete(*keys)
        client.close()
