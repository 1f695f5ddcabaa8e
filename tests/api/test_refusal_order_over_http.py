"""The shared refusal order reaches clients unchanged: a malformed command after the end is GAME_OVER."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.support.http import auth, play_to_end


def test_malformed_fields_after_the_end_are_game_over(client: TestClient) -> None:
    created = client.post("/games", json={"game": "sealed_guess", "players": 2, "seed": "s"}).json()
    play_to_end(client, created)
    game, token = created["game_id"], created["seats"][0]["token"]
    version = client.get(f"/games/{game}").json()["version"]
    for body in ({"type": "commit_guess", "guess": "x"}, {"type": "commit_guess"}, {"type": "fly"}):
        response = client.post(f"/games/{game}/commands", json=body, headers=auth(token))
        assert (response.status_code, response.json()["error"]["code"]) == (409, "GAME_OVER"), body
    assert client.get(f"/games/{game}").json()["version"] == version


def test_a_malformed_type_is_a_clear_refusal(client: TestClient) -> None:
    created = client.post("/games", json={"game": "sealed_guess", "players": 2, "seed": "s"}).json()
    game, token = created["game_id"], created["seats"][0]["token"]
    for kind in (["a"], {"a": 1}, None, 3):
        response = client.post(f"/games/{game}/commands", json={"type": kind}, headers=auth(token))
        assert (response.status_code, response.json()["error"]["code"]) == (400, "UNKNOWN_COMMAND"), kind
