"""Playing games through the HTTP API as the seats' clients would."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from domain.kernel.chance import Chance


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def create_game(client: TestClient, game: str, players: int, seed: str, options: dict[str, Any] | None = None) -> dict:
    response = client.post("/games", json={"game": game, "players": players, "seed": seed, "options": options})
    assert response.status_code == 201, response.text
    return response.json()


def play_to_end(client: TestClient, created: dict, bot_seed: bytes = b"http-bot", max_commands: int = 5000) -> int:
    """Random clients, one per seat token, each seeing only its view and legal moves. Returns commands sent."""
    game = created["game_id"]
    tokens = [s["token"] for s in created["seats"]]
    rng = Chance(bot_seed)
    for sent in range(max_commands):
        view = client.get(f"/games/{game}").json()
        if view["status"] == "ended":
            return sent
        seat = int(rng.choice("seat", sorted(view["awaited"])))
        listed = client.get(f"/games/{game}/legal-moves", headers=auth(tokens[seat])).json()
        move = rng.choice("move", listed["moves"])
        response = client.post(
            f"/games/{game}/commands",
            json={**move, "expected_version": listed["version"]},
            headers=auth(tokens[seat]),
        )
        assert response.status_code == 200, response.text
    raise AssertionError(f"no end after {max_commands} commands")
