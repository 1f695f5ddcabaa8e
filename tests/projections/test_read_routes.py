"""The read routes served from the read models: min_version, the scoreboard, unknown games."""

from __future__ import annotations

import json

from fastapi.testclient import TestClient

from api.http.app import create_app
from infra.games.service import GameService
from infra.readside.projector import Projector
from infra.readside.reader import ReadSide
from infra.readside.readmodels import MemoryStore
from projections.board import board_view
from tests.infra.test_service import play as play_game
from tests.projections.test_projections import play
from tests.support.http import auth


def test_min_version_reads_your_own_write_and_waits_for_a_version_the_game_has_not_reached(
    service: GameService,
) -> None:
    store = MemoryStore()
    client = TestClient(create_app(service, ReadSide(service, store, Projector(service, store), wait_seconds=0.2)))
    game_id = play(service, "min-version", commands=1).game_id  # written behind the API's back
    version = service.load(game_id).match.version
    assert client.get(f"/games/{game_id}", params={"min_version": version}).json()["version"] == version
    ahead = client.get(f"/games/{game_id}", params={"min_version": version + 1})
    assert ahead.status_code == 409 and ahead.json()["error"]["code"] == "VERSION_NOT_REACHED"
    assert f"(it is at {version})" in ahead.json()["error"]["message"]
    assert client.get(f"/games/{game_id}", params={"min_version": 0}).json()["error"]["code"] == "BAD_INPUT"


def test_a_read_model_that_stays_behind_answers_503(service: GameService) -> None:
    store = MemoryStore()
    created = play(service, "stalled", commands=1)
    Projector(service, store).catch_up()
    projected = service.load(created.game_id).match.version
    play_game(service, created, b"bot-stalled-2", 1)  # a move the stalled read models never see
    version = service.load(created.game_id).match.version
    client = TestClient(create_app(service, ReadSide(service, store, None, wait_seconds=0.2)))
    behind = client.get(f"/games/{created.game_id}", params={"min_version": version})
    assert behind.status_code == 503 and behind.json()["error"]["code"] == "READ_MODEL_BEHIND"
    assert "ask again" in behind.json()["error"]["message"]
    assert client.get(f"/games/{created.game_id}").json()["version"] == projected < version


def test_a_game_the_read_models_do_not_know_yet_is_read_from_the_event_store(service: GameService) -> None:
    """A game just created (on another worker, say) that no projection has seen yet: every read
    answers from the event store, none says the game does not exist or names internals."""
    store = MemoryStore()
    client = TestClient(create_app(service, ReadSide(service, store, None, wait_seconds=0.2)))
    created = play(service, "unseen", commands=1)
    game_id = created.game_id
    aggregate = service.load(game_id)
    assert store.position("boards") == 0
    for viewer, headers in [(None, {}), (0, auth(created.tokens[0])), (1, auth(created.tokens[1]))]:
        view = client.get(f"/games/{game_id}", headers=headers)
        assert view.status_code == 200, view.text
        assert view.json() == json.loads(json.dumps(board_view(game_id, aggregate.match, viewer)))
    scoreboard = client.get(f"/games/{game_id}/scoreboard", params={"min_version": aggregate.match.version})
    assert scoreboard.status_code == 200 and scoreboard.json()["version"] == aggregate.match.version
    assert client.get(f"/games/{game_id}/versions/2").json()["version"] == 2
    assert client.get(f"/games/{game_id}", headers=auth("not-a-seat")).json()["error"]["code"] == "BAD_TOKEN"
    ahead = client.get(f"/games/{game_id}", params={"min_version": aggregate.match.version + 1})
    assert ahead.status_code == 409 and ahead.json()["error"]["code"] == "VERSION_NOT_REACHED"
    assert "read model" not in ahead.json()["error"]["message"]


def test_the_scoreboard_follows_the_game(service: GameService) -> None:
    client = TestClient(create_app(service))
    created = play(service, "scores")
    scoreboard = client.get(f"/games/{created.game_id}/scoreboard").json()
    assert scoreboard["final"] and scoreboard["status"] == "ended"
    assert scoreboard["scores"] == service.load(created.game_id).match.state.scores
    for path in ["/games/nope/scoreboard", "/games/00000000-0000-0000-0000-000000000000/scoreboard"]:
        missing = client.get(path)
        assert missing.status_code == 404 and missing.json()["error"]["code"] == "UNKNOWN_GAME_ID"


def test_a_game_the_read_models_do_not_know_yet_streams(service: GameService) -> None:
    from tests.support.stream import read_stream

    created = play(service, "unseen-stream")  # to the end, never projected
    client = TestClient(create_app(service, ReadSide(service, MemoryStore(), None, wait_seconds=0.2)))
    messages = read_stream(client, f"/games/{created.game_id}/stream", auth(created.tokens[0]))  # asserts 200
    records = service.records(created.game_id)
    assert [data["position"] for event, data in messages if event == "record"] == [r.position for r in records]
    assert messages[-1] == ("end", {"version": len(records)})


def test_a_read_that_races_the_first_batches_of_a_game_is_served_from_the_event_store(service: GameService) -> None:
    """The projection started on the game after the read found it unknown: the read still
    answers the version it was promised, from the event store."""
    created = play(service, "racing", commands=4)
    store = MemoryStore()
    Projector(service, store, batch_size=2).step()  # the board read model has the game's first records only
    reads = ReadSide(service, store, None)
    version = service.load(created.game_id).match.version
    assert 0 < reads.head("boards", created.game_id) < version
    view = reads.board(created.game_id, None, min_version=version)
    assert view == json.loads(json.dumps(board_view(created.game_id, service.load(created.game_id).match, None)))
