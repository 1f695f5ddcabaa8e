"""The embedded server killed (``kill -9``) and started again, a few times: its reads are current
at once after each restart, whatever lease the killed process held on its read models.

A killed process never releases its projection leases. The restarted server's projector used to
wait for them to run out (up to five seconds after the kill), serving the read models as the
killed process left them meanwhile: clients that chose their seat from ``GET /games/{id}`` saw an
old turn, and none of their commands was accepted for seconds after a restart. A lease now names
the process that holds it, and a lease of a process that no longer runs is free at once.
"""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from infra.bootstrap import build_service
from infra.readside.readmodels import ReadModelStore, SqliteStore, lease_owner, readmodels_path
from infra.readside.redis_store import RedisStore
from infra.settings import Settings
from tests.support.http import auth
from tests.support.server import REPO, REQUEST_SECONDS, start_server

KILLS = 3
# A bound on a hang, not a speed (the restarted server's reads are current in milliseconds).
CURRENT_WITHIN_SECONDS = 10.0


def kill(process: subprocess.Popen[bytes]) -> None:
    process.send_signal(signal.SIGKILL)
    process.wait()


def guess(url: str, game: dict[str, Any], seat: int) -> int:
    response = httpx.post(
        f"{url}/games/{game['game_id']}/commands",
        json={"type": "commit_guess", "guess": 4},
        headers=auth(game["seats"][seat]["token"]),
        timeout=REQUEST_SECONDS,
    )
    assert response.status_code == 200, response.text
    return int(response.json()["version"])


def as_if_restarted_at_once(events: Path) -> None:
    """Leave the killed process's leases as a restart right after the kill finds them: running
    for a while yet (a loaded machine takes longer to start a server than a lease lasts, which
    would hide the wait)."""
    with sqlite3.connect(readmodels_path(str(events))) as connection:
        held = connection.execute("UPDATE readmodel_leases SET expires = ?", (time.time() + 60,)).rowcount
    assert held > 0, "the killed server should have held its projections' leases"


HOLD_A_LEASE = """
import json, sys, time
from infra.readside.readmodels import SqliteStore, lease_owner
from infra.readside.redis_store import RedisStore
kind, where = sys.argv[1], json.loads(sys.argv[2])
store = SqliteStore(where["path"]) if kind == "sqlite" else RedisStore(where["url"], where["prefix"])
assert store.acquire_lease("boards", lease_owner("projector"), ttl=60)
print("held", flush=True)
time.sleep(600)
"""


@pytest.fixture(params=["sqlite", pytest.param("redis", marks=pytest.mark.services)])
def shared_store(
    request: pytest.FixtureRequest, tmp_path: Path
) -> Iterator[tuple[ReadModelStore, str, dict[str, str]]]:
    """A read-model store that several processes share, and how another process opens it."""
    if request.param == "sqlite":
        path = tmp_path / "readmodels.sqlite"
        store: ReadModelStore = SqliteStore(path)
        where = {"path": str(path)}
    else:
        where = {"url": request.getfixturevalue("redis_url"), "prefix": request.getfixturevalue("redis_prefix")}
        store = RedisStore(where["url"], where["prefix"])
    yield store, request.param, where
    store.close()


def test_a_lease_of_a_killed_process_is_free_at_once_and_a_running_ones_is_not(
    shared_store: tuple[ReadModelStore, str, dict[str, str]],
) -> None:
    store, kind, where = shared_store
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD_A_LEASE, kind, json.dumps(where)],
        cwd=REPO,
        stdout=subprocess.PIPE,
        env={"PYTHONPATH": str(REPO)},
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == b"held\n"
        assert not store.acquire_lease("boards", lease_owner("projector"), ttl=5), "its holder still runs"
        kill(holder)
        assert store.acquire_lease("boards", lease_owner("projector"), ttl=5), "its holder was killed"
        # Owners that say nothing of their process keep their lease until it runs out.
        assert store.acquire_lease("frames", "someone", ttl=60)
        assert not store.acquire_lease("frames", lease_owner("projector"), ttl=5)
    finally:
        kill(holder)


@pytest.mark.slow
def test_reads_are_current_at_once_after_each_kill_and_restart(tmp_path: Path) -> None:
    events, log = tmp_path / "events.sqlite", tmp_path / "server.log"
    process, url = start_server(events, log)
    body = {"game": "sealed_guess", "players": 2, "seed": "restarts", "options": {"rounds": 100}}
    game = httpx.post(f"{url}/games", json=body, timeout=REQUEST_SECONDS).json()
    seat = 0
    waits = []
    try:
        for _ in range(KILLS):
            version = guess(url, game, seat)
            seat = 1 - seat
            # The projector has applied it (and holds its leases) when the server is killed.
            read = httpx.get(f"{url}/games/{game['game_id']}", params={"min_version": version}, timeout=REQUEST_SECONDS)
            assert read.status_code == 200, read.text
            kill(process)
            # A command committed but never projected, as when the kill comes between the two.
            service = build_service(Settings(database_url=f"sqlite:///{events}"))
            try:
                _, result = service.execute(
                    game["game_id"], game["seats"][seat]["token"], {"type": "commit_guess", "guess": 1}
                )
            finally:
                service.close()
            seat = 1 - seat
            as_if_restarted_at_once(events)

            process, url = start_server(events, log)
            serving = time.monotonic()
            deadline = serving + CURRENT_WITHIN_SECONDS
            while True:
                view = httpx.get(
                    f"{url}/games/{game['game_id']}", params={"min_version": result.version}, timeout=REQUEST_SECONDS
                )
                if view.status_code == 200:
                    break
                assert view.status_code == 503 and view.json()["error"]["code"] == "READ_MODEL_BEHIND", view.text
                assert time.monotonic() < deadline, f"reads not current {CURRENT_WITHIN_SECONDS} s after a restart"
            waits.append(time.monotonic() - serving)
            assert waits[-1] < CURRENT_WITHIN_SECONDS, f"reads not current {CURRENT_WITHIN_SECONDS} s after a restart"
            assert view.json()["version"] == result.version
        print(f"\nseconds after each restart until a read served the last committed command: {waits}")
    finally:
        kill(process)
