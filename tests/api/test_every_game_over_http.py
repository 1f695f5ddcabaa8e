"""Every registered game plays through the API like any other: seat tokens, legal moves, verify."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from domain.catalog import GAME_PACKAGES
from tests.support.http import auth, create_game, play_to_end

PLAYERS = {"peloponnes": 2, "empire_builder": 3, "alexandros": 2, "catan_alexander": 3}


@pytest.mark.slow
@pytest.mark.parametrize("game", GAME_PACKAGES)
def test_a_full_game_over_http_verifies(client: TestClient, game: str) -> None:
    created = create_game(client, game, PLAYERS[game], seed=f"every-{game}")
    play_to_end(client, created, max_commands=20_000)
    game_id = created["game_id"]
    report = client.get(f"/games/{game_id}/verify").json()
    assert report["chain_ok"] and report["seed_ok"], report["problems"]
    ended = client.get(f"/games/{game_id}", headers=auth(created["seats"][0]["token"])).json()
    assert ended["status"] == "ended" and ended["scoreboard"]["final"]
