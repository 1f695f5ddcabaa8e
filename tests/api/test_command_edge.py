"""A game's commands are answered at the app's edge (``api/http/command_edge.py``), before
FastAPI's stack; when the server allows cross-origin calls, a request that names its origin goes
through the stack's route instead. Both must answer every command request alike: the same status,
error code, headers and effect on the game."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.http import web
from api.http.app import create_app
from api.http.routes import commands as command_routes
from infra.games.service import GameService
from infra.settings import Settings
from tests.support.http import auth

ORIGIN = "https://play.example"
MAX_BODY = 1_000
Post = Callable[[str, dict[str, Any]], Any]  # (game id, the client.post arguments) -> the answer


@pytest.fixture
def client(service: GameService) -> Iterator[TestClient]:
    app = create_app(service, settings=Settings(max_body_bytes=MAX_BODY), cors_origins=[ORIGIN])
    with TestClient(app) as client:
        yield client


def new_game(client: TestClient) -> tuple[str, str, int, dict[str, Any]]:
    """A 2-seat test game: its id, seat 0's token, its version and a legal move of seat 0."""
    created = client.post("/games", json={"game": "sealed_guess", "players": 2}).json()
    game_id, token = created["game_id"], created["seats"][0]["token"]
    moves = client.get(f"/games/{game_id}/legal-moves", headers=auth(token)).json()
    assert moves["version"] == stored_version(client, game_id)
    return game_id, token, moves["version"], moves["moves"][0]


def stored_version(client: TestClient, game_id: str) -> int:
    """The game's version in the event store (the read models follow it in the background)."""
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    with service.reading(game_id) as game:
        return game.match.version


def requests(token: str, version: int, move: dict[str, Any]) -> dict[str, tuple[str, dict[str, Any]]]:
    """Every kind of command request: (the path after the game's id, the client.post arguments)."""
    json_type = {"Content-Type": "application/json"}
    return {
        "a legal move": ("/commands", {"json": {**move, "expected_version": version}, "headers": auth(token)}),
        "on the game's typed route": ("/commands/sealed_guess", {"json": move, "headers": auth(token)}),
        "on another game's typed route": ("/commands/peloponnes", {"json": move, "headers": auth(token)}),
        "on a typed route of no game": ("/commands/chess", {"json": move, "headers": auth(token)}),
        "a stale version": ("/commands", {"json": {**move, "expected_version": version + 5}, "headers": auth(token)}),
        "no token": ("/commands", {"json": move}),
        "a malformed bearer": ("/commands", {"json": move, "headers": {"Authorization": "Bearer two words"}}),
        "another token": ("/commands", {"json": move, "headers": auth("not-a-seat-token")}),
        "an empty body": ("/commands", {"content": b"", "headers": {**auth(token), **json_type}}),
        "no JSON": ("/commands", {"content": b"{", "headers": {**auth(token), **json_type}}),
        "not UTF-8": ("/commands", {"content": b'{"type": "\xff"}', "headers": {**auth(token), **json_type}}),
        "a JSON array": ("/commands", {"json": [move], "headers": auth(token)}),
        "a non-finite number": (
            "/commands",
            {"content": b'{"type": "commit_guess", "guess": NaN}', "headers": {**auth(token), **json_type}},
        ),
        "a body above the limit": (
            "/commands",
            {"json": {**move, "command_id": "x" * MAX_BODY}, "headers": auth(token)},
        ),
        "an unknown command": ("/commands", {"json": {"type": "fly"}, "headers": auth(token)}),
        "a malformed field": ("/commands", {"json": {"type": "commit_guess", "guess": "x"}, "headers": auth(token)}),
        "a bad control": ("/commands", {"json": {**move, "expected_version": "one"}, "headers": auth(token)}),
    }


def answered(client: TestClient, case: str, spell: Callable[[str], str], origin: str | None) -> dict[str, Any]:
    """What a fresh game's server answers to ``case``, and what became of the game."""
    game_id, token, version, move = new_game(client)
    path, arguments = requests(token, version, move)[case]
    headers = {**arguments.pop("headers", {}), **({"Origin": origin} if origin else {})}
    response = client.post(f"/games/{spell(game_id)}{path}", headers=headers, **arguments)
    body = response.json()
    return {
        "status": response.status_code,
        "code": body["error"]["code"] if "error" in body else None,
        "message": body["error"]["message"].replace(game_id, "GAME") if "error" in body else None,
        "version": body.get("version"),
        "events": [e["type"] for e in body.get("events", [])],
        "headers": {name: response.headers.get(name) for name in [*web.NOT_A_PAGE, "Content-Type", "Retry-After"]},
        "game's version after": stored_version(client, game_id) - version,
    }


CASES = list(requests("t", 1, {}))


@pytest.mark.parametrize("case", CASES)
def test_the_edge_answers_as_the_stack_does(client: TestClient, case: str) -> None:
    at_the_edge = answered(client, case, str, None)
    through_the_stack = answered(client, case, str, ORIGIN)
    assert at_the_edge == through_the_stack
    assert at_the_edge["headers"]["Content-Security-Policy"] == web.OTHER_POLICY


@pytest.mark.parametrize("spell", [str.upper, lambda game_id: game_id.replace("-", ""), lambda g: "{" + g + "}"])
def test_a_game_id_in_any_spelling_is_the_game(client: TestClient, spell: Callable[[str], str]) -> None:
    at_the_edge = answered(client, "a legal move", spell, None)
    assert at_the_edge["status"] == 200 and at_the_edge["game's version after"] >= 1
    assert at_the_edge == answered(client, "a legal move", spell, ORIGIN)


def test_an_unknown_game_is_404_at_the_edge(client: TestClient) -> None:
    _, token, _, move = new_game(client)
    for game_id in (str(uuid.uuid4()), "not-a-game"):
        response = client.post(f"/games/{game_id}/commands", json=move, headers=auth(token))
        assert (response.status_code, response.json()["error"]["code"]) == (404, "UNKNOWN_GAME_ID")


def test_the_edge_answers_without_the_stack_and_leaves_it_a_cross_origin_request(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The stack's route reads its body with ``parsed_body``: counted, it tells which way a request went."""
    through_the_stack: list[object] = []
    parsed = command_routes.parsed_body
    monkeypatch.setattr(command_routes, "parsed_body", lambda request: through_the_stack.append(1) or parsed(request))
    game_id, token, version, move = new_game(client)
    sent = client.post(f"/games/{game_id}/commands", json={**move, "expected_version": version}, headers=auth(token))
    assert sent.status_code == 200, sent.text
    assert through_the_stack == []
    game_id, token, version, move = new_game(client)
    headers = {**auth(token), "Origin": ORIGIN}
    sent = client.post(f"/games/{game_id}/commands", json={**move, "expected_version": version}, headers=headers)
    assert sent.status_code == 200, sent.text
    assert sent.headers["Access-Control-Allow-Origin"] == ORIGIN
    assert through_the_stack == [1]


def test_without_cors_an_origin_changes_nothing(service: GameService) -> None:
    with TestClient(create_app(service, cors_origins=())) as client:
        game_id, token, version, move = new_game(client)
        headers = {**auth(token), "Origin": ORIGIN}
        sent = client.post(f"/games/{game_id}/commands", json={**move, "expected_version": version}, headers=headers)
        assert sent.status_code == 200, sent.text
        assert "Access-Control-Allow-Origin" not in sent.headers
