"""Scale-out: a projection worker process (``alexandria analytics project``) keeps the DuckDB
tables of a PostgreSQL event store; the API only reads them."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from api.http.app import create_app
from domain.kernel.bots import RandomBot
from infra.bootstrap import build_service
from infra.games.simulation import play_with_bot
from infra.settings import Settings

pytestmark = [pytest.mark.services]


def ended_game_ids(client: TestClient) -> set[str] | None:
    """The games exported; None while the worker has not committed its first batch."""
    response = client.get("/analytics/games/export")
    if response.status_code == 503 and response.json()["error"]["code"] == "ANALYTICS_NOT_READY":
        return None
    assert response.status_code == 200, response.text
    return {line.split('"game_id":"')[1].split('"')[0] for line in response.text.splitlines()}


def test_a_worker_process_keeps_the_tables_and_the_api_reads_them(
    database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    analytics_path = tmp_path / "analytics.duckdb"
    env = {**os.environ, "ALEXANDRIA_DATABASE_URL": database_url, "ALEXANDRIA_ANALYTICS_PATH": str(analytics_path)}
    service = build_service(Settings(database_url=database_url))
    first = service.create_game("peloponnes", 3, None, b"scale-out-1")
    play_with_bot(service, first, RandomBot(b"bot-1"))
    monkeypatch.setenv("ALEXANDRIA_ANALYTICS_PATH", str(analytics_path))
    try:
        client = TestClient(create_app(service))
        before = client.get("/analytics/games/export")
        assert before.status_code == 503  # an API worker never projects: no worker has run yet
        assert before.json()["error"]["code"] == "ANALYTICS_NOT_READY"
        worker = subprocess.Popen(
            [sys.executable, "-m", "api.cli.main", "analytics", "project"], env=env, stderr=subprocess.PIPE
        )
        try:
            second = service.create_game("alexandros", 3, None, b"scale-out-2")
            play_with_bot(service, second, RandomBot(b"bot-2"))
            deadline = time.monotonic() + 60
            while ended_game_ids(client) != {first.game_id, second.game_id}:
                assert worker.poll() is None, worker.stderr.read() if worker.stderr else ""
                assert time.monotonic() < deadline, "the worker did not project both games within a minute"
                time.sleep(0.2)
        finally:
            worker.terminate()
            worker.wait(timeout=30)
        assert worker.returncode in (0, -15)
    finally:
        service.close()
