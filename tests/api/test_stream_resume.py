"""Resuming a live stream: ``Last-Event-ID`` (what a reconnecting EventSource sends) means the
same as ``after``; ``after`` beyond the game's version is refused; a stopping server ends its
streams (in process here; ``test_graceful_stop.py`` stops a real server)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from infra.games.service import GameService
from tests.projections.test_projections import play
from tests.support.http import auth
from tests.support.stream import read_stream, stream_when_the_server_stops


def record_positions(messages: list[tuple[str, Any]]) -> list[int]:
    return [data["position"] for event, data in messages if event == "record"]


def test_last_event_id_resumes_after_that_event(client: TestClient, service: GameService) -> None:
    created = play(service, "resume")
    version = service.load(created.game_id).match.version
    path = f"/games/{created.game_id}/stream"
    resumed = read_stream(client, path, {"Last-Event-ID": "3", **auth(created.tokens[0])})
    assert record_positions(resumed) == list(range(4, version + 1))
    assert resumed[-1] == ("end", {"version": version})
    # A reconnecting EventSource sends its first URL again: the header takes the place of after.
    again = read_stream(client, f"{path}?after=1", {"Last-Event-ID": "5"})
    assert record_positions(again) == list(range(6, version + 1))
    assert read_stream(client, path, {"Last-Event-ID": str(version)}) == [("end", {"version": version})]


def test_a_malformed_last_event_id_is_bad_input(client: TestClient, service: GameService) -> None:
    created = play(service, "malformed")
    for value in ("x", "-1", "1.5"):
        response = client.get(f"/games/{created.game_id}/stream", headers={"Last-Event-ID": value})
        assert response.status_code == 400, (value, response.text)
        assert response.json()["error"]["code"] == "BAD_INPUT"


def test_after_beyond_the_games_version_is_refused_clearly(client: TestClient, service: GameService) -> None:
    running = play(service, "running", commands=2)
    ended = play(service, "ended")
    for created in (ended, running):  # on a server that waits instead, the ended game fails at once
        version = service.load(created.game_id).match.version
        for headers, params in (({}, {"after": version + 1}), ({"Last-Event-ID": str(version + 7)}, {})):
            response = client.get(f"/games/{created.game_id}/stream", params=params, headers=headers)
            assert response.status_code == 409, response.text
            error = response.json()["error"]
            assert error["code"] == "VERSION_NOT_REACHED"
            assert f"is at version {version}" in error["message"]


def test_a_stopping_server_ends_its_open_streams(client: TestClient, service: GameService) -> None:
    created = service.create_game("sealed_guess", 2, None, b"stopping")
    messages = stream_when_the_server_stops(client, f"/games/{created.game_id}/stream")
    assert [event for event, _ in messages] == ["record", "view"]
    assert messages[-1][1]["status"] == "running"
