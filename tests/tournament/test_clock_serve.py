"""``serve`` keeps the clocks by itself: a real server process rules on idle seats with no
request of theirs, and the ``tournament clocks`` worker refuses to write beside it."""

from __future__ import annotations

import time
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner

from api.cli.main import main
from domain.catalog import GAMES
from domain.tournament.verification import verify_bundle
from infra.readside.readmodels import SqliteStore, readmodels_path
from infra.tournaments.clock_keeper import CLOCK_LEASE
from tests.support.server import start_server, stop

WAIT_SECONDS = 180  # bounds a hang, not a speed: the server is polled, never timed


def test_the_clocks_worker_refuses_a_store_whose_clocks_a_server_keeps(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    events = tmp_path / "events.sqlite"
    monkeypatch.setenv("ALEXANDRIA_DATABASE_URL", f"sqlite:///{events}")
    monkeypatch.delenv("ALEXANDRIA_REDIS_URL", raising=False)
    store = SqliteStore(readmodels_path(str(events)))
    assert store.acquire_lease(CLOCK_LEASE, "server-test", 60.0)  # what a running server holds
    refused = CliRunner().invoke(main, ["tournament", "clocks", "--once"])
    assert refused.exit_code == 1
    assert "another process keeps the clocks of this store" in refused.output
    store.release_lease(CLOCK_LEASE, "server-test")
    ran = CliRunner().invoke(main, ["tournament", "clocks", "--once"])
    assert ran.exit_code == 0, ran.output
    assert store.acquire_lease(CLOCK_LEASE, "server-test", 60.0)  # the worker let it go when it was done
    store.close()


def test_serve_rules_on_idle_seats_by_itself(tmp_path: Path) -> None:
    events = tmp_path / "events.sqlite"
    process, url = start_server(events, tmp_path / "server.log", module="api.cli.main")
    try:
        with httpx.Client(base_url=url, timeout=30) as http:
            settings = {"rounds": 1, "table_size": 3, "time_control": {"base_seconds": 1}}
            created = http.post("/tournaments", json={"game": "peloponnes", "settings": settings}).json()
            tid = created["tournament_id"]
            organiser = {"Authorization": f"Bearer {created['organiser_token']}"}
            for i in range(3):
                assert http.post(f"/tournaments/{tid}/players", json={"name": f"p{i}"}, headers=organiser).is_success
            assert http.post(f"/tournaments/{tid}/rounds", headers=organiser).status_code == 201
            deadline = time.monotonic() + WAIT_SECONDS
            while True:  # nobody plays: the server's own keeper moves for every seat out of time
                tournament = http.get(f"/tournaments/{tid}").json()
                if tournament["rounds"][0]["tables"][0]["result"] is not None:
                    break
                assert time.monotonic() < deadline, f"no result after {WAIT_SECONDS} s: {tournament['timeouts']}"
                time.sleep(0.2)
            assert {t["player"] for t in tournament["timeouts"]} == {0, 1, 2}
            refused = CliRunner().invoke(
                main, ["tournament", "clocks", "--once"], env={"ALEXANDRIA_DATABASE_URL": f"sqlite:///{events}"}
            )
            assert refused.exit_code == 1 and "another process keeps the clocks" in refused.output
            assert http.post(f"/tournaments/{tid}/end", headers=organiser).status_code == 200
            bundle = http.get(f"/tournaments/{tid}/bundle").json()
    finally:
        stop(process)
    report = verify_bundle(bundle, GAMES.get)
    assert report.ok, report.problems
