"""Look-alike and invisible names over HTTP: a join and a tournament registration refuse them alike
(``domain.kernel.names``), 409 NAME_TAKEN and 400 BAD_NAME, and record nothing."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.support.http import auth

IMPOSTORS = ["\u0410nn", "ANN", "\uff21nn", "Ann\u200b", "\u200dAnn", "\u202eAnn", "Ann\u2066", "\ufeffAnn"]
VISIBLE_IMPOSTORS = IMPOSTORS[:3]


@pytest.mark.parametrize("impostor", IMPOSTORS)
def test_a_join_cannot_pass_for_a_seated_player(client: TestClient, impostor: str) -> None:
    game = client.post("/games", json={"game": "sealed_guess", "players": 3, "open_seats": True}).json()["game_id"]
    assert client.post(f"/games/{game}/join", json={"name": "Ann"}).status_code == 201
    before = client.get(f"/games/{game}", params={"min_version": 2}).json()  # Ann's join read back
    refused = client.post(f"/games/{game}/join", json={"name": impostor})
    expected = (409, "NAME_TAKEN") if impostor in VISIBLE_IMPOSTORS else (400, "BAD_NAME")
    assert (refused.status_code, refused.json()["error"]["code"]) == expected, refused.text
    after = client.get(f"/games/{game}", params={"min_version": before["version"]}).json()
    assert after["names"] == {"0": "Ann"} and after["version"] == before["version"]


@pytest.mark.parametrize("impostor", IMPOSTORS)
def test_a_registration_cannot_pass_for_a_registered_player(client: TestClient, impostor: str) -> None:
    created = client.post("/tournaments", json={"game": "peloponnes", "settings": {"table_size": 2, "rounds": 1}})
    tid, organiser = created.json()["tournament_id"], created.json()["organiser_token"]
    ann = client.post(f"/tournaments/{tid}/players", json={"name": "Ann"}, headers=auth(organiser))
    assert ann.status_code == 201, ann.text
    refused = client.post(f"/tournaments/{tid}/players", json={"name": impostor}, headers=auth(organiser))
    expected = (409, "NAME_TAKEN") if impostor in VISIBLE_IMPOSTORS else (400, "BAD_NAME")
    assert (refused.status_code, refused.json()["error"]["code"]) == expected, refused.text
    assert client.get(f"/tournaments/{tid}").json()["version"] == 2  # created, Ann


def test_a_name_is_recorded_nfkc_normalised(client: TestClient) -> None:
    game = client.post("/games", json={"game": "sealed_guess", "players": 2, "open_seats": True}).json()["game_id"]
    joined = client.post(f"/games/{game}/join", json={"name": "\uff22o"})
    assert joined.status_code == 201 and joined.json()["name"] == "Bo"
    assert client.get(f"/games/{game}", params={"min_version": 2}).json()["names"] == {"0": "Bo"}  # the join read back
