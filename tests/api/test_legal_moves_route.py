"""`/legal-moves` passes on whether the domain's list is complete or a sample."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.support.http import auth


def test_the_listing_says_whether_it_is_complete(client: TestClient) -> None:
    sealed = client.post("/games", json={"game": "sealed_guess", "players": 2, "seed": "s"}).json()
    mine = client.get(f"/games/{sealed['game_id']}/legal-moves", headers=auth(sealed["seats"][0]["token"])).json()
    assert mine["complete"] is True and len(mine["moves"]) == 6
    spectator = client.get(f"/games/{sealed['game_id']}/legal-moves").json()
    assert spectator == {"game": "sealed_guess", "version": 1, "seat": None, "moves": [], "complete": True}
    empire = client.post("/games", json={"game": "empire_builder", "players": 3, "seed": "s"}).json()
    allocation = client.get(f"/games/{empire['game_id']}/legal-moves", headers=auth(empire["seats"][0]["token"])).json()
    assert allocation["moves"] and allocation["complete"] is False, "816 splits, a sample is listed"
