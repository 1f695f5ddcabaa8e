"""Games with open seats: players join by name, each gets a token nobody else ever sees, the
lobby shows the open seats, and the game starts (setup, first draws) when the last seat is taken."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from api.http.app import create_app
from domain.catalog import GAMES
from domain.kernel.verification import verify_records
from infra.bootstrap import build_service
from infra.settings import Settings
from tests.support.http import auth, play_to_end, projected


def open_game(client: TestClient, players: int = 3, game: str = "peloponnes") -> dict[str, Any]:
    answer = client.post("/games", json={"game": game, "players": players, "seed": "open", "open_seats": True})
    assert answer.status_code == 201, answer.text
    return answer.json()


def join(client: TestClient, game_id: str, name: str, **more: Any) -> Any:
    return client.post(f"/games/{game_id}/join", json={"name": name, **more})


def test_the_creator_gets_no_token_and_the_lobby_shows_the_open_seats(client: TestClient) -> None:
    created = open_game(client)
    assert created["seats"] == [] and created["open_seats"] == [0, 1, 2]
    projected(client)  # the read models follow in the background
    (entry,) = client.get("/games", params={"status": "waiting"}).json()
    assert entry["game_id"] == created["game_id"] and entry["open_seats"] == [0, 1, 2]
    joined = join(client, created["game_id"], "Ann").json()
    assert joined["seat"] == 0 and joined["name"] == "Ann" and not joined["started"]
    projected(client)  # the read models follow in the background
    (entry,) = client.get("/games").json()
    assert entry["status"] == "waiting" and entry["open_seats"] == [1, 2] and entry["names"] == {"0": "Ann"}
    projected(client)  # the read models follow in the background
    view = client.get(f"/games/{created['game_id']}").json()
    assert view["status"] == "waiting" and view["open_seats"] == [1, 2] and view["awaited"] == {}


def test_the_game_starts_when_the_last_seat_is_taken(client: TestClient) -> None:
    created = open_game(client)
    game = created["game_id"]
    tokens = {}
    for name in ["Ann", "Bo"]:
        tokens[name] = join(client, game, name).json()["token"]
    early = client.post(f"/games/{game}/commands/peloponnes", json={"type": "pass_turn"}, headers=auth(tokens["Ann"]))
    assert early.status_code == 409 and early.json()["error"]["code"] == "GAME_NOT_STARTED"
    records = client.get(f"/games/{game}/events").json()
    assert [r["type"] for r in records] == ["GameCreated", "SeatTaken", "SeatTaken"]  # no setup, no draw yet
    assert all(r.get("chance") is None for r in records)
    last = join(client, game, "Cy").json()
    assert last["started"] and last["seat"] == 2
    records = client.get(f"/games/{game}/events").json()
    assert records[3]["type"] == "SeatTaken" and len(records) > 4  # the setup follows the last join
    projected(client)  # the read models follow in the background
    view = client.get(f"/games/{game}").json()
    assert (
        view["status"] == "running" and view["open_seats"] == [] and view["names"] == {"0": "Ann", "1": "Bo", "2": "Cy"}
    )
    projected(client)  # the read models follow in the background
    assert client.get("/games").json()[0]["status"] == "running"


def test_each_token_is_the_joiners_own(client: TestClient) -> None:
    created = open_game(client, players=2)
    game = created["game_id"]
    first = join(client, game, "Ann").json()
    second = join(client, game, "Bo").json()
    assert first["token"] != second["token"]
    projected(client)  # the read models follow in the background
    assert client.get(f"/games/{game}", headers=auth(first["token"])).json()["viewer"] == 0
    projected(client)  # the read models follow in the background
    assert client.get(f"/games/{game}", headers=auth(second["token"])).json()["viewer"] == 1
    for text in [
        client.get("/games").text,
        client.get(f"/games/{game}").text,
        client.get(f"/games/{game}/events").text,
    ]:
        assert first["token"] not in text and second["token"] not in text


def test_a_joined_game_plays_to_the_end_and_verifies(client: TestClient) -> None:
    created = open_game(client, players=2)
    game = created["game_id"]
    seats = [join(client, game, name).json() for name in ["Ann", "Bo"]]
    tokens = [{"seat": s["seat"], "token": s["token"]} for s in seats]
    play_to_end(client, {"game_id": game, "version": seats[-1]["version"], "seats": tokens})
    report = client.get(f"/games/{game}/verify").json()
    assert report["chain_ok"] and report["seed_ok"], report["problems"]
    # The verifier re-executes the joins too: a join that is not what happened breaks it.
    records = client.get(f"/games/{game}/events").json()
    assert verify_records(records, GAMES.get).seed_ok
    forged = [dict(r) for r in records]
    forged[1] = {**forged[1], "data": {"seat": 1, "name": "Ann"}}
    assert not verify_records(forged, GAMES.get).chain_ok


def test_a_waiting_game_survives_a_restart(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/events.sqlite"
    first = build_service(Settings(database_url=url))
    created = first.create_game("peloponnes", 2, None, b"restart", open_seats=True)
    ann = first.join(created.game_id, "Ann")
    first.close()
    second = build_service(Settings(database_url=url))
    try:
        with second.reading(created.game_id) as aggregate:
            assert aggregate.match.waiting and aggregate.match.open_seats == [1]
        bo = second.join(created.game_id, "Bo")
        assert bo.started and bo.seat == 1
        client = TestClient(create_app(second))
        projected(client)  # the read models follow in the background
        assert client.get(f"/games/{created.game_id}", headers=auth(ann.token)).json()["viewer"] == 0
        play_to_end(
            client,
            {"game_id": created.game_id, "version": bo.version, "seats": [{"token": ann.token}, {"token": bo.token}]},
        )
    finally:
        second.close()


def test_joins_are_refused_clearly(client: TestClient) -> None:
    created = open_game(client, players=2)
    game = created["game_id"]
    assert join(client, game, "Ann", seat=1).json()["seat"] == 1
    taken = join(client, game, "Bo", seat=1)
    assert taken.status_code == 409 and taken.json()["error"]["code"] == "SEAT_TAKEN"
    same = join(client, game, "ann")
    assert same.status_code == 409 and same.json()["error"]["code"] == "NAME_TAKEN"
    for body in [{"name": ""}, {"name": "x" * 41}, {"name": 3}, {"name": "Bo", "colour": "red"}, {}]:
        bad = client.post(f"/games/{game}/join", json=body)
        assert bad.status_code == 400 and bad.json()["error"]["code"] == "BAD_INPUT", body
    assert join(client, game, "Bo").json()["started"]
    full = join(client, game, "Cy")
    assert full.status_code == 409 and full.json()["error"]["code"] == "SEATS_FULL"
    closed = client.post("/games", json={"game": "peloponnes", "players": 2}).json()
    assert join(client, closed["game_id"], "Ann").json()["error"]["code"] == "SEATS_FULL"
    assert join(client, "nope", "Ann").status_code == 404


def test_a_fork_of_a_joined_game_keeps_the_names_and_verifies(client: TestClient) -> None:
    created = open_game(client, players=2)
    game = created["game_id"]
    seats = [join(client, game, name).json() for name in ["Ann", "Bo"]]
    tokens = [{"seat": s["seat"], "token": s["token"]} for s in seats]
    play_to_end(client, {"game_id": game, "version": seats[-1]["version"], "seats": tokens})
    starts = [r["position"] - 1 for r in client.get(f"/games/{game}/events").json() if r["type"] == "CommandAccepted"]
    fork = client.post(f"/games/{game}/fork", json={"version": starts[3]})
    assert fork.status_code == 201, fork.text
    forked = fork.json()
    projected(client)  # the read models follow in the background
    assert client.get(f"/games/{forked['game_id']}").json()["names"] == {"0": "Ann", "1": "Bo"}
    play_to_end(client, forked)
    report = client.get(f"/games/{forked['game_id']}/verify").json()
    assert report["verified"], report["problems"]
