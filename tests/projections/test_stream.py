"""The live stream (server-sent events) in the embedded mode."""

from __future__ import annotations

import json

from fastapi.testclient import TestClient

from api.http.app import create_app
from domain.kernel.log import for_viewer
from infra.games.service import GameService
from infra.readside.projector import Projector
from infra.readside.reader import ReadModelBehind, ReadSide
from infra.readside.readmodels import MemoryStore
from tests.projections.test_projections import play
from tests.support.http import auth
from tests.support.stream import StreamWatcher, read_stream


def test_a_seat_streams_every_record_in_order_as_that_seat_may_see_it(client: TestClient, service: GameService) -> None:
    created = play(service, "stream")
    game_id = created.game_id
    records = service.records(game_id)
    messages = read_stream(client, f"/games/{game_id}/stream", auth(created.tokens[1]))
    streamed = [data for event, data in messages if event == "record"]
    assert [r["position"] for r in streamed] == list(range(1, len(records) + 1))
    assert streamed == [json.loads(json.dumps(for_viewer(r, 1, reveal_all=False))) for r in records]
    private_to_seat_0 = [r for r in records if r.viewers == [0]]
    assert private_to_seat_0 and all(streamed[r.position - 1]["data"] == r.public for r in private_to_seat_0)
    assert messages[-2][0] == "view" and messages[-2][1]["version"] == len(records)
    assert messages[-1] == ("end", {"version": len(records)})


def test_a_stream_after_the_last_record_of_an_ended_game_just_ends(client: TestClient, service: GameService) -> None:
    created = play(service, "ended")
    version = service.load(created.game_id).match.version
    messages = read_stream(client, f"/games/{created.game_id}/stream?after={version}", {})
    assert messages == [("end", {"version": version})]


def test_a_stream_follows_a_game_played_while_it_is_open(client: TestClient, service: GameService) -> None:
    created = service.create_game("sealed_guess", 2, None, b"live")
    watcher = StreamWatcher(client, f"/games/{created.game_id}/stream")
    for _ in range(3):  # rounds: both seats guess, then the die is rolled
        for seat in (0, 1):
            client.post(
                f"/games/{created.game_id}/commands",
                json={"type": "commit_guess", "guess": 2},
                headers=auth(created.tokens[seat]),
            )
    messages = watcher.ended()
    records = service.records(created.game_id)
    streamed = [data for event, data in messages if event == "record"]
    assert streamed == [json.loads(json.dumps(for_viewer(r, None, reveal_all=False))) for r in records]
    assert messages[-1] == ("end", {"version": len(records)})
    assert sum(event == "view" for event, _ in messages) >= 2, "the first view, then the game as it moved"


def test_a_lagging_read_model_never_stops_the_records(service: GameService) -> None:
    """A projection worker restarting mid-game delays the views, never the records."""

    class Lagging(ReadSide):
        async def caught_up(self, projection: str, game_id: str, min_version: int | None) -> None:
            if min_version is not None and min_version > 1:
                raise ReadModelBehind("the boards read model is restarting")

    created = play(service, "lagging")
    store = MemoryStore()
    client = TestClient(create_app(service, Lagging(service, store, Projector(service, store))))
    records = service.records(created.game_id)
    messages = read_stream(client, f"/games/{created.game_id}/stream", auth(created.tokens[1]))
    assert [data["position"] for event, data in messages if event == "record"] == [r.position for r in records]
    assert messages[-1] == ("end", {"version": len(records)})
