"""The read routes served from the read models: min_version, the scoreboard, unknown games."""

from __future__ import annotations

from fastapi.testclient import TestClient

from api.app import create_app
from infra.projector import Projector
from infra.readmodels import MemoryStore
from infra.readside import ReadSide
from infra.service import GameService
from tests.projections.test_projections import play


def test_min_version_reads_your_own_write_and_waits_for_a_version_the_game_has_not_reached(
    service: GameService,
) -> None:
    store = MemoryStore()
    client = TestClient(create_app(service, ReadSide(service, store, Projector(service, store), wait_seconds=0.2)))
    game_id = play(service, "min-version", commands=1).game_id  # written behind the API's back
    version = service.load(game_id).version
    assert client.get(f"/games/{game_id}", params={"min_version": version}).json()["version"] == version
    ahead = client.get(f"/games/{game_id}", params={"min_version": version + 1})
    assert ahead.status_code == 409 and ahead.json()["error"]["code"] == "VERSION_NOT_REACHED"
    assert f"(it is at {version})" in ahead.json()["error"]["message"]
    assert client.get(f"/games/{game_id}", params={"min_version": 0}).json()["error"]["code"] == "BAD_INPUT"


def test_a_read_model_that_stays_behind_answers_503(service: GameService) -> None:
    store = MemoryStore()
    stalled = Projector(service, store, [])  # a projection worker that never gets to the boards
    client = TestClient(create_app(service, ReadSide(service, store, stalled, wait_seconds=0.2)))
    game_id = play(service, "stalled", commands=1).game_id
    behind = client.get(f"/games/{game_id}", params={"min_version": 2})
    assert behind.status_code == 503 and behind.json()["error"]["code"] == "READ_MODEL_BEHIND"


def test_the_scoreboard_follows_the_game(service: GameService) -> None:
    client = TestClient(create_app(service))
    created = play(service, "scores")
    scoreboard = client.get(f"/games/{created.game_id}/scoreboard").json()
    assert scoreboard["final"] and scoreboard["status"] == "ended"
    assert scoreboard["scores"] == service.load(created.game_id).match.state.scores
    for path in ["/games/nope/scoreboard", "/games/00000000-0000-0000-0000-000000000000/scoreboard"]:
        missing = client.get(path)
        assert missing.status_code == 404 and missing.json()["error"]["code"] == "UNKNOWN_GAME_ID"
