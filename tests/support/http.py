"""Playing games through the HTTP API as the seats' clients would."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from domain.kernel.chance import Chance


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def error_code(response: Any) -> str:
    """The code of an error answer (``{"error": {"code": ...}}``)."""
    return str(response.json()["error"]["code"])


def projected(client: TestClient) -> None:
    """Wait until the app's read models have applied everything in the event store (the lobby,
    which no ``min_version`` read covers): the background projector's own catch-up, run here."""
    projector = client.app.state.read_side.projector  # type: ignore[attr-defined]
    assert projector is not None, "an app whose read models this process keeps"
    projector.catch_up()


def create_game(client: TestClient, game: str, players: int, seed: str, options: dict[str, Any] | None = None) -> dict:
    response = client.post("/games", json={"game": game, "players": players, "seed": seed, "options": options})
    assert response.status_code == 201, response.text
    return response.json()


def play_to_end(client: TestClient, created: dict, bot_seed: bytes = b"http-bot", max_commands: int = 5000) -> int:
    """Random clients, one per seat token, each seeing only its view and legal moves. Returns commands sent."""
    game = created["game_id"]
    tokens = [s["token"] for s in created["seats"]]
    rng = Chance(bot_seed)
    version = created["version"]
    for sent in range(max_commands):
        # The read models follow in the background: read (at least) what the last command wrote.
        view = client.get(f"/games/{game}", params={"min_version": version}).json()
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
        version = response.json()["version"]
    raise AssertionError(f"no end after {max_commands} commands")
