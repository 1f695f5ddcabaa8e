"""A tournament table's command route goes the way a game's command route does: the same bearer
(a malformed Authorization header is refused, not read as no token), the same bound on a command's
size, and the same checks of its controls, with the same status and error code."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.http.app import create_app
from infra.games.service import GameService
from infra.settings import Settings
from tests.support.http import auth

MALFORMED_HEADERS = ["Basic dXNlcjpwYXNz", "Bearer", "bearer", "Token abc", "Bearer two words", "abc"]


def app_with(service: GameService, **limits: object) -> TestClient:
    return TestClient(create_app(service, settings=Settings(**limits)))  # type: ignore[arg-type]


def seated(client: TestClient) -> dict[str, Any]:
    """A tournament of one alexandros table of 2, round 1 seated: its id, organiser, the table's
    game, and the token of the player whose move it is."""
    created = client.post("/tournaments", json={"game": "alexandros", "settings": {"rounds": 1, "table_size": 2}})
    assert created.status_code == 201, created.text
    tid, organiser, code = (created.json()[k] for k in ("tournament_id", "organiser_token", "registration_code"))
    tokens = [client.post(f"/tournaments/{tid}/join", json={"name": n, "code": code}).json()["token"] for n in "AB"]
    round_1 = client.post(f"/tournaments/{tid}/rounds", headers=auth(organiser))
    assert round_1.status_code == 201, round_1.text
    table = round_1.json()["tables"][0]
    game_id = table["game_id"]
    mover = int(next(iter(client.get(f"/games/{game_id}").json()["awaited"])))
    token = tokens[table["players"][mover]]
    moves = client.get(f"/tournaments/{tid}/games/{game_id}/legal-moves", headers=auth(token)).json()
    return {"tid": tid, "organiser": organiser, "game_id": game_id, "token": token, "moves": moves}


def refusal(response: Any) -> tuple[int, str]:
    return response.status_code, response.json()["error"]["code"]


@pytest.mark.parametrize("header", MALFORMED_HEADERS)
def test_the_tournament_routes_refuse_a_malformed_authorization_header(client: TestClient, header: str) -> None:
    table = seated(client)
    tid, game_id = table["tid"], table["game_id"]
    move = {**table["moves"]["moves"][0], "expected_version": table["moves"]["version"]}
    malformed = {"Authorization": header}
    for response in (
        client.get(f"/tournaments/{tid}/me", headers=malformed),
        client.get(f"/tournaments/{tid}/registration-code", headers=malformed),
        client.get(f"/tournaments/{tid}/games/{game_id}", headers=malformed),
        client.post(f"/tournaments/{tid}/games/{game_id}/commands", json=move, headers=malformed),
    ):
        assert refusal(response) == (401, "BAD_TOKEN"), (header, response.text)
        assert "Bearer SEAT_TOKEN" in response.json()["error"]["message"]
    assert client.get(f"/games/{game_id}").json()["version"] == table["moves"]["version"]


def test_a_tournament_command_is_bounded_as_a_game_command_is(service: GameService) -> None:
    client = app_with(service, max_command_bytes=100)
    table = seated(client)
    tid, game_id, token = table["tid"], table["game_id"], table["token"]
    padded = {**table["moves"]["moves"][0], "padding": "x" * 200}
    for route in (f"/tournaments/{tid}/games/{game_id}/commands", f"/games/{game_id}/commands"):
        refused = client.post(route, json=padded, headers=auth(token))
        assert refusal(refused) == (400, "BAD_INPUT"), (route, refused.text)
        assert "at most 100 bytes" in refused.json()["error"]["message"]
    assert client.get(f"/games/{game_id}").json()["version"] == table["moves"]["version"]


@pytest.mark.parametrize(
    "controls",
    [
        {"expected_version": "12"},
        {"expected_version": True},
        {"expected_version": 0},
        {"command_id": ""},
        {"command_id": 7},
        {"contribution": "not hex"},
        {"signature": 12},
        {"signature": "short"},
    ],
)
def test_a_tournament_commands_controls_are_checked_as_a_game_commands_are(
    client: TestClient, controls: dict[str, Any]
) -> None:
    table = seated(client)
    tid, game_id, token = table["tid"], table["game_id"], table["token"]
    body = {**table["moves"]["moves"][0], **controls}
    at_table = client.post(f"/tournaments/{tid}/games/{game_id}/commands", json=body, headers=auth(token))
    at_game = client.post(f"/games/{game_id}/commands", json=body, headers=auth(token))
    assert refusal(at_table) == refusal(at_game) == (400, "BAD_INPUT"), (at_table.text, at_game.text)
    assert client.get(f"/games/{game_id}").json()["version"] == table["moves"]["version"]


def test_a_tournament_command_that_is_no_object_is_bad_input(client: TestClient) -> None:
    table = seated(client)
    route = f"/tournaments/{table['tid']}/games/{table['game_id']}/commands"
    for body in ([], "pass", 3):
        assert refusal(client.post(route, json=body, headers=auth(table["token"]))) == (400, "BAD_INPUT"), body
