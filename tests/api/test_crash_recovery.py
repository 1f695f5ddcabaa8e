"""The embedded server killed (SIGKILL) between a command's commit and its projection: after a
restart the read models catch up from where their last commit left them."""

from __future__ import annotations

import signal
import subprocess
import time
from pathlib import Path

import httpx
import pytest

from infra.bootstrap import build_service
from infra.readside.projector import Projector
from infra.readside.readmodels import MemoryStore, SqliteStore, readmodels_path
from infra.settings import Settings
from projections.registry import PROJECTION_NAMES
from tests.support.http import auth
from tests.support.server import start_server

pytestmark = pytest.mark.slow


def wait_until_ready(url: str) -> dict:
    deadline = time.monotonic() + 30
    while (ready := httpx.get(f"{url}/readyz")).status_code != 200:
        assert ready.status_code == 503 and time.monotonic() < deadline, ready.text
        time.sleep(0.05)
    return dict(ready.json())


def kill(process: subprocess.Popen[bytes]) -> None:
    process.send_signal(signal.SIGKILL)
    process.wait()


def guess(url: str, game: dict, seat: int) -> int:
    response = httpx.post(
        f"{url}/games/{game['game_id']}/commands",
        json={"type": "commit_guess", "guess": 2},
        headers=auth(game["seats"][seat]["token"]),
    )
    assert response.status_code == 200, response.text
    return int(response.json()["version"])


def test_a_server_killed_before_projecting_a_command_catches_up_after_a_restart(tmp_path: Path) -> None:
    events, log = tmp_path / "events.sqlite", tmp_path / "server.log"
    first, url = start_server(events, log)
    try:
        game = httpx.post(f"{url}/games", json={"game": "sealed_guess", "players": 2, "seed": "crash"}).json()
        version = guess(url, game, 0)
        assert httpx.get(f"{url}/games/{game['game_id']}", params={"min_version": version}).status_code == 200
        wait_until_ready(url)  # every read model has the command (readiness counts from the first ask)
    finally:
        kill(first)

    # A server whose projection never runs: the command commits, the server dies before any
    # projection of it (the same point as a crash right after the commit).
    second, url = start_server(events, log, {"ALEXANDRIA_PROJECT_IN_SERVE": "false"})
    try:
        committed = guess(url, game, 1)
    finally:
        kill(second)
    store = SqliteStore(readmodels_path(str(events)))
    service = build_service(Settings(database_url=f"sqlite:///{events}"))
    try:
        target = service.recorder.max_notification_id()
        stored = {name: store.position(name) for name in PROJECTION_NAMES}
        assert all(0 < position < target for position in stored.values()), (stored, target)
    finally:
        store.close()

    third, url = start_server(events, log)
    try:
        view = httpx.get(f"{url}/games/{game['game_id']}", params={"min_version": committed})
        assert view.status_code == 200 and view.json()["version"] == committed
        ready = wait_until_ready(url)
        assert ready["ready"] and all(p >= target for p in ready["read_models"].values())
    finally:
        kill(third)

    # What the restarted server holds is exactly a rebuild from the event store.
    store = SqliteStore(readmodels_path(str(events)))
    rebuilt = MemoryStore()
    try:
        Projector(service, rebuilt).catch_up()
        for name in PROJECTION_NAMES:
            assert store.position(name) == rebuilt.position(name) == target
            assert store.export(name) == rebuilt.export(name)
    finally:
        store.close()
        service.close()
