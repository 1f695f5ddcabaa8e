"""The embedded read side as served: probes, the lobby's pages, game ids in any spelling,
optional back-ends not imported, read-your-writes while projections follow in the background."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from pathlib import Path
from uuid import UUID

import pytest
from fastapi.testclient import TestClient

from api.http.app import create_app
from infra.games.service import GameService
from infra.readside.reader import build_read_side
from infra.settings import Settings
from tests.support.http import auth, create_game, projected

REPO = Path(__file__).resolve().parents[2]


def test_healthz_answers_and_readyz_says_when_the_read_models_have_caught_up(client: TestClient) -> None:
    assert client.get("/healthz").json() == {"status": "alive"}
    ready = client.get("/readyz")
    assert ready.status_code == 200 and ready.json()["ready"], ready.text
    assert set(ready.json()["read_models"]) == {"boards", "lobby"}


def test_a_command_answers_before_its_projection_and_min_version_reads_it(client: TestClient) -> None:
    created = create_game(client, "sealed_guess", 2, seed="ryw")
    game, tokens = created["game_id"], [s["token"] for s in created["seats"]]
    for round_ in range(3):
        for seat in (0, 1):
            sent = client.post(
                f"/games/{game}/commands", json={"type": "commit_guess", "guess": 2}, headers=auth(tokens[seat])
            )
            version = sent.json()["version"]
            view = client.get(f"/games/{game}", params={"min_version": version}, headers=auth(tokens[seat]))
            assert view.status_code == 200 and view.json()["version"] >= version, (round_, view.text)
            scoreboard = client.get(f"/games/{game}/scoreboard", params={"min_version": version})
            assert scoreboard.json()["version"] >= version


def test_the_lobby_comes_in_pages_with_a_cursor_and_filters(client: TestClient) -> None:
    made = [create_game(client, "sealed_guess", 2, seed=f"lobby-{i}")["game_id"] for i in range(7)]
    made.append(create_game(client, "peloponnes", 3, seed="lobby-p")["game_id"])
    projected(client)
    everything = client.get("/games").json()
    assert {g["game_id"] for g in everything} == set(made)
    seen: list[str] = []
    cursor = None
    while True:
        page = client.get("/games", params={"limit": 3, **({"cursor": cursor} if cursor else {})})
        assert page.status_code == 200
        seen += [g["game_id"] for g in page.json()]
        cursor = page.headers.get("X-Next-Cursor")
        if cursor is None:
            assert "Link" not in page.headers
            break
        assert page.headers["Link"].endswith('rel="next"') and len(page.json()) == 3
    assert seen == [g["game_id"] for g in everything], "the pages together are the whole lobby, in order"
    only = client.get("/games", params={"game": "peloponnes"}).json()
    assert [g["game_id"] for g in only] == [made[-1]]
    assert {g["game_id"] for g in client.get("/games", params={"players": 2}).json()} == set(made[:-1])
    assert client.get("/games", params={"status": "ended"}).json() == []
    for bad in [{"limit": 0}, {"limit": 501}, {"cursor": "not-a-cursor"}, {"players": "x"}]:
        refused = client.get("/games", params=bad)
        assert refused.status_code == 400 and refused.json()["error"]["code"] == "BAD_INPUT", bad


def test_a_game_id_in_another_spelling_is_the_same_game(client: TestClient) -> None:
    created = create_game(client, "sealed_guess", 2, seed="spelling")
    game = created["game_id"]
    projected(client)
    for spelling in [game.upper(), UUID(game).hex, "{" + game + "}"]:
        view = client.get(f"/games/{spelling}", headers=auth(created["seats"][0]["token"]))
        assert view.status_code == 200, (spelling, view.text)
        assert view.json()["game_id"] == game and view.json()["viewer"] == 0
        assert client.get(f"/games/{spelling}/scoreboard").json()["game_id"] == game
        sent = client.post(
            f"/games/{spelling}/commands",
            json={"type": "commit_guess", "guess": 1, "command_id": "once"},
            headers=auth(created["seats"][0]["token"]),
        )
        assert sent.status_code == 200, sent.text
    assert len(client.get(f"/games/{game}/events").json()) == 3, "one command, whatever the spelling"
    missing = client.get("/games/not-a-game-id")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "UNKNOWN_GAME_ID"


def test_the_embedded_mode_imports_no_postgresql_or_redis_client(tmp_path: Path) -> None:
    script = f"""
import sys, json
from api.http.app import create_app
from infra.bootstrap import build_service
from infra.readside.reader import build_read_side
from infra.settings import Settings
settings = Settings(database_url="sqlite:///{tmp_path}/e.sqlite")
service = build_service(settings)
create_app(service, build_read_side(service, settings))
print(json.dumps(sorted(m for m in ("redis", "psycopg", "psycopg_pool", "eventsourcing.postgres") if m in sys.modules)))
"""
    out = subprocess.run([sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == []


def test_waiters_over_the_bound_are_refused_at_once_and_the_rest_answer_when_the_game_moves(
    service: GameService, settings: Settings
) -> None:
    bounded = settings.model_copy(update={"max_waiters": 2, "wait_seconds": 60.0})
    with TestClient(create_app(service, build_read_side(service, bounded))) as client:
        created = create_game(client, "sealed_guess", 2, seed="bound")
        path = f"/games/{created['game_id']}"
        ahead = {"min_version": created["version"] + 1}  # the next move
        answers: list[int] = []

        def long_poll() -> None:
            answers.append(client.get(path, params=ahead).status_code)

        waiting = [threading.Thread(target=long_poll) for _ in range(2)]
        for thread in waiting:
            thread.start()
        read_side = client.app.state.read_side  # type: ignore[attr-defined]
        while read_side.waiters.waiting < 2 and all(t.is_alive() for t in waiting):
            time.sleep(0.01)  # both long-polls are in (the bound is what this test is about)
        refused = client.get(path, params=ahead)
        assert refused.status_code == 503 and refused.json()["error"]["code"] == "TOO_MANY_WAITERS"
        assert "ask again" in refused.json()["error"]["message"]
        assert client.get(path).status_code == 200, "a plain read never waits, so it is never refused"
        moved = client.post(
            f"{path}/commands", json={"type": "commit_guess", "guess": 2}, headers=auth(created["seats"][0]["token"])
        )
        assert moved.status_code == 200
        for thread in waiting:
            thread.join(timeout=60)
        assert answers == [200, 200], "the move wakes the waiters"


def test_another_projector_runs_in_the_background_beside_the_read_models(service: GameService) -> None:
    from infra.readside.projector import Projector
    from infra.readside.reader import embedded_read_side
    from infra.readside.readmodels import MemoryStore
    from projections.lobby import LobbyProjection

    reads = embedded_read_side(service)
    extra_store = MemoryStore()
    extra = Projector(service, extra_store, [LobbyProjection()])
    reads.add_projector(extra)
    try:
        created = service.create_game("sealed_guess", 2, None, b"extra")  # the save wakes both
        deadline = time.monotonic() + 30
        while extra_store.get("lobby", "games", created.game_id) is None:
            assert time.monotonic() < deadline, "the extra projector should have applied the new game"
            time.sleep(0.01)
        assert extra.running and reads.projector is not None and reads.projector.running
    finally:
        reads.close()
    assert not extra.running


def test_closing_the_service_stops_its_background_projectors_first(settings: Settings) -> None:
    """An app used without its lifespan starts the projector on its first write; closing the service
    must stop that thread before the store closes (it once read a closed SQLite store, and crashed)."""
    from infra.bootstrap import build_service

    service = build_service(settings)
    reads = build_read_side(service, settings)
    client = TestClient(create_app(service, reads))  # no lifespan: nobody calls reads.close()
    create_game(client, "sealed_guess", 2, seed="closing")
    assert reads.projector is not None and reads.projector.running
    service.close()
    assert not reads.projector.running
    reads.start()  # a late read or write of the closed service starts nothing
    assert not reads.projector.running


def test_alexandria_project_keeps_the_embedded_read_models_beside_a_server_that_does_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from click.testing import CliRunner

    from api.cli.main import main
    from infra.readside.readmodels import SqliteStore, readmodels_path

    events = tmp_path / "events.sqlite"
    monkeypatch.setenv("ALEXANDRIA_DATABASE_URL", f"sqlite:///{events}")
    runner = CliRunner()
    created = runner.invoke(main, ["new", "peloponnes", "--players", "3", "--seed", "cli", "--json"])
    assert created.exit_code == 0, created.output
    assert runner.invoke(main, ["project", "--once"]).exit_code == 0
    store = SqliteStore(readmodels_path(str(events)))
    try:
        version = json.loads(created.output)["version"]
        assert store.get("boards", "heads", json.loads(created.output)["game_id"]) == str(version)
    finally:
        store.close()
    monkeypatch.setenv("ALEXANDRIA_DATABASE_URL", "postgresql://nobody@127.0.0.1:1/none")
    refused = runner.invoke(main, ["project", "--once"])
    assert refused.exit_code != 0 and "ALEXANDRIA_REDIS_URL" in refused.output
