"""The tournament API over HTTP: organise, play at the given seat, read standings and clocks,
adjudicate, end and export; every refusal in the error envelope."""

from __future__ import annotations

import secrets

from fastapi.testclient import TestClient

from api.contract.models import board_view_model
from domain.catalog import GAMES
from domain.tournament.verification import verify_bundle
from tests.support.http import auth, error_code
from tests.tournament.conftest import FakeClock


def test_a_tournament_over_http(client: TestClient, clock: FakeClock) -> None:
    settings = {"rounds": 1, "table_size": 2, "time_control": {"base_seconds": 600, "increment_seconds": 5}}
    created = client.post("/tournaments", json={"game": "peloponnes", "settings": settings, "master_seed": "http"})
    assert created.status_code == 201
    tid, organiser = created.json()["tournament_id"], created.json()["organiser_token"]
    players = []
    for name in ("Ada", "Bo"):
        response = client.post(f"/tournaments/{tid}/players", json={"name": name}, headers=auth(organiser))
        assert response.status_code == 201
        players.append(response.json()["token"])
    seated = client.post(f"/tournaments/{tid}/rounds", headers=auth(organiser))
    assert seated.status_code == 201
    game_id = seated.json()["tables"][0]["game_id"]
    me = client.get(f"/tournaments/{tid}/me", headers=auth(players[0])).json()
    assert me["tables"][0]["game_id"] == game_id
    # The game's own view route shows the clocks of a clocked tournament game.
    assert client.get(f"/games/{game_id}").json()["clock"]["base_ms"] == 600_000
    sent = 0
    contributed: set[str] = set()
    while client.get(f"/games/{game_id}").json()["status"] != "ended":
        for token in players:
            view = client.get(f"/tournaments/{tid}/games/{game_id}", headers=auth(token)).json()
            assert "clock" in view and view["seat"] in (0, 1)
            assert set(view) <= set(board_view_model("peloponnes").model_fields)  # every key is in the contract
            moves = client.get(f"/tournaments/{tid}/games/{game_id}/legal-moves", headers=auth(token)).json()
            if moves["moves"]:
                clock.advance(1000)
                body = {**moves["moves"][0], "expected_version": moves["version"]}
                if token not in contributed:  # each player mixes entropy of their own into the game's chance
                    body["contribution"] = secrets.token_hex(32)
                    contributed.add(token)
                response = client.post(f"/tournaments/{tid}/games/{game_id}/commands", json=body, headers=auth(token))
                assert response.status_code == 200, response.json()
                sent += 1
    assert sent > 10
    standings = client.get(f"/tournaments/{tid}/standings").json()
    assert [row["games"] for row in standings["standings"]] == [1, 1]
    assert client.get(f"/tournaments/{tid}").json()["rounds"][0]["tables"][0]["result"] is not None
    ended = client.post(f"/tournaments/{tid}/end", headers=auth(organiser))
    # The master seed the organiser chose comes after the server's secret salt.
    assert ended.status_code == 200 and ended.json()["master_seed"].endswith(b"http".hex())
    assert len(bytes.fromhex(ended.json()["master_seed"])) == 32 + len(b"http")
    bundle = client.get(f"/tournaments/{tid}/bundle").json()
    report = verify_bundle(bundle, GAMES.get)
    assert report.ok, report.problems
    commands = [r for r in bundle["games"][game_id] if r["type"] == "CommandAccepted"]
    assert sorted(r["data"]["seat"] for r in commands if "contribution" in r["data"]) == [0, 1]


def test_refusals_come_in_the_error_envelope(client: TestClient) -> None:
    assert error_code(client.post("/tournaments", json={"game": "chess"})) == "UNKNOWN_GAME"
    bad = client.post("/tournaments", json={"game": "peloponnes", "settings": {"table_size": 9}})
    assert bad.status_code == 422 and error_code(bad) == "BAD_TOURNAMENT"
    assert client.post("/tournaments", json={"game": "peloponnes", "colour": 1}).status_code == 400
    missing = client.get("/tournaments/00000000-0000-0000-0000-000000000000")
    assert missing.status_code == 404 and error_code(missing) == "UNKNOWN_TOURNAMENT_ID"
    assert client.get("/tournaments/not-an-id/standings").status_code == 404
    created = client.post("/tournaments", json={"game": "peloponnes", "settings": {"table_size": 2, "rounds": 1}})
    tid, organiser = created.json()["tournament_id"], created.json()["organiser_token"]
    anonymous = client.post(f"/tournaments/{tid}/players", json={"name": "Ada"})
    assert anonymous.status_code == 401 and error_code(anonymous) == "BAD_TOKEN"
    forged = client.post(f"/tournaments/{tid}/players", json={"name": "Ada"}, headers=auth("forged"))
    assert forged.status_code == 403 and error_code(forged) == "FORBIDDEN"
    assert client.post(f"/tournaments/{tid}/players", json={"name": ""}, headers=auth(organiser)).status_code == 400
    early = client.post(f"/tournaments/{tid}/rounds", headers=auth(organiser))
    assert early.status_code == 422 and error_code(early) == "NOT_ENOUGH_PLAYERS"
    ruling = client.post(
        f"/tournaments/{tid}/adjudications", json={"kind": "void", "reason": "x"}, headers=auth(organiser)
    )
    assert ruling.status_code == 422 and error_code(ruling) == "NOT_A_TABLE"
    not_over = client.post(f"/tournaments/{tid}/end", headers=auth(organiser))
    assert not_over.status_code == 422 and error_code(not_over) == "ROUND_NOT_FINISHED"
    assert client.get(f"/tournaments/{tid}").json()["version"] == 1  # nothing was recorded
