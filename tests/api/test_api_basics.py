"""The HTTP API on the kernel's fixture game (sealed guesses): routes, errors, filters."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.support.http import auth, play_to_end, projected


def create(client: TestClient, players: int = 2, seed: str = "s") -> dict:
    response = client.post("/games", json={"game": "sealed_guess", "players": players, "seed": seed})
    assert response.status_code == 201, response.text
    return response.json()


def test_create_returns_one_token_per_seat(client: TestClient) -> None:
    created = create(client, 3)
    assert [s["seat"] for s in created["seats"]] == [0, 1, 2]
    assert len({s["token"] for s in created["seats"]}) == 3
    assert created["version"] == 1


def test_bad_creation_requests_get_clear_errors(client: TestClient) -> None:
    unknown = client.post("/games", json={"game": "chess", "players": 2})
    assert unknown.status_code == 422 and unknown.json()["error"]["code"] == "UNKNOWN_GAME"
    count = client.post("/games", json={"game": "sealed_guess", "players": 9})
    assert count.status_code == 422 and count.json()["error"]["code"] == "BAD_PLAYER_COUNT"
    malformed = client.post("/games", json={"game": "sealed_guess"})
    assert malformed.status_code == 400 and malformed.json()["error"]["code"] == "BAD_INPUT"
    assert client.get("/games").json() == []


def test_unknown_game_id_is_404(client: TestClient) -> None:
    for path in ["/games/nope", "/games/00000000-0000-0000-0000-000000000000/events"]:
        response = client.get(path)
        assert response.status_code == 404
        assert response.json()["error"]["code"] == "UNKNOWN_GAME_ID"


def test_commands_need_a_seat_token_of_the_game(client: TestClient) -> None:
    created = create(client)
    other = create(client, seed="t")
    game = created["game_id"]
    command = {"type": "commit_guess", "guess": 3}
    assert client.post(f"/games/{game}/commands", json=command).status_code == 401
    wrong = client.post(f"/games/{game}/commands", json=command, headers=auth(other["seats"][0]["token"]))
    assert wrong.status_code == 401 and wrong.json()["error"]["code"] == "BAD_TOKEN"


def test_a_command_returns_the_events_as_the_sender_sees_them(client: TestClient) -> None:
    created = create(client)
    game, token = created["game_id"], created["seats"][0]["token"]
    response = client.post(f"/games/{game}/commands", json={"type": "commit_guess", "guess": 3}, headers=auth(token))
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["version"] == 3
    assert [e["type"] for e in body["events"]] == ["CommandAccepted", "GuessCommitted"]
    assert body["events"][1]["data"] == {"seat": 0, "guess": 3}
    # The other seat and spectators see only that seat 0 committed.
    for headers in [auth(created["seats"][1]["token"]), {}]:
        log = client.get(f"/games/{game}/events", params={"after": 1}, headers=headers).json()
        assert [e["data"] for e in log] == [{"seat": 0, "command": {"type": "commit_guess"}}, {"seat": 0}]


def test_refusals_have_codes_and_statuses_and_record_nothing(client: TestClient) -> None:
    created = create(client)
    game, token0 = created["game_id"], created["seats"][0]["token"]
    client.post(f"/games/{game}/commands", json={"type": "commit_guess", "guess": 3}, headers=auth(token0))
    cases = [
        ({"type": "commit_guess", "guess": 4}, token0, 409, "NOT_YOUR_TURN"),
        ({"type": "commit_guess", "guess": 9}, created["seats"][1]["token"], 422, "GUESS_RANGE"),
        ({"type": "commit_guess", "guess": "x"}, created["seats"][1]["token"], 400, "BAD_INPUT"),
        ({"type": "fly"}, created["seats"][1]["token"], 400, "UNKNOWN_COMMAND"),
        (
            {"type": "commit_guess", "guess": 2, "expected_version": 1},
            created["seats"][1]["token"],
            409,
            "STALE_VERSION",
        ),
    ]
    for command, token, status, code in cases:
        response = client.post(f"/games/{game}/commands", json=command, headers=auth(token))
        assert (response.status_code, response.json()["error"]["code"]) == (status, code), command
        assert response.json()["error"]["message"]
    assert client.get(f"/games/{game}", params={"min_version": 3}).json()["version"] == 3


def test_retrying_a_command_id_records_nothing_new(client: TestClient) -> None:
    created = create(client)
    game, token = created["game_id"], created["seats"][0]["token"]
    command = {"type": "commit_guess", "guess": 3, "command_id": "abc"}
    first = client.post(f"/games/{game}/commands", json=command, headers=auth(token)).json()
    again = client.post(f"/games/{game}/commands", json=command, headers=auth(token)).json()
    assert again["duplicate"] and not first["duplicate"]
    assert again["events"] == first["events"]
    assert len(client.get(f"/games/{game}/events").json()) == 3
    reused = client.post(f"/games/{game}/commands", json={**command, "guess": 5}, headers=auth(token))
    assert reused.status_code == 409 and reused.json()["error"]["code"] == "CONFLICT"


def test_after_the_end_everything_is_public_and_verifies(client: TestClient) -> None:
    created = create(client)
    play_to_end(client, created)
    game = created["game_id"]
    log = client.get(f"/games/{game}/events").json()
    assert all(
        e["data"] == e.get("public", e["data"]) or "guess" in e["data"] or e["type"] != "GuessCommitted" for e in log
    )
    assert all("guess" in e["data"] for e in log if e["type"] == "GuessCommitted")
    spectator = client.get(f"/games/{game}").json()
    assert spectator["seat_views"] == [
        client.get(f"/games/{game}", headers=auth(seat["token"])).json()["state"] for seat in created["seats"]
    ]
    report = client.get(f"/games/{game}/verify").json()
    assert report["chain_ok"] and report["seed_ok"]
    assert report["fingerprint"] == log[-1]["hash"]
    projected(client)
    listed = client.get("/games", params={"status": "ended"}).json()
    assert [g["game_id"] for g in listed] == [game]


def test_time_travel_and_fork(client: TestClient) -> None:
    created = create(client)
    play_to_end(client, created)
    game = created["game_id"]
    past = client.get(f"/games/{game}/versions/3").json()
    assert past["version"] == 3 and past["state"]["committed"] == [0]
    missing = client.get(f"/games/{game}/versions/999")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "UNKNOWN_VERSION"
    fork = client.post(f"/games/{game}/fork", json={"version": 6})
    assert fork.status_code == 201, fork.text
    forked = fork.json()
    view = client.get(f"/games/{forked['game_id']}").json()
    assert view["version"] == 6 and view["status"] == "running"
    assert view["state"]["round"] == past["state"]["round"] + 1
    play_to_end(client, forked)
    assert client.get(f"/games/{forked['game_id']}/verify").json()["seed_ok"] is True


def test_a_running_game_cannot_be_forked(client: TestClient) -> None:
    created = create(client)
    response = client.post(f"/games/{created['game_id']}/fork", json={"version": 1})
    assert response.status_code == 409


def test_legal_moves_are_only_for_the_bearers_seat(client: TestClient) -> None:
    created = create(client)
    game = created["game_id"]
    assert client.get(f"/games/{game}/legal-moves").json()["moves"] == []
    mine = client.get(f"/games/{game}/legal-moves", headers=auth(created["seats"][0]["token"])).json()
    assert mine["seat"] == 0 and len(mine["moves"]) == 6


def test_openapi_documents_the_routes(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    for path in ["/games", "/games/{game_id}/commands/peloponnes", "/games/{game_id}/verify", "/games/{game_id}/fork"]:
        assert path in paths


def test_the_replay_viewer_page_is_served(client: TestClient) -> None:
    page = client.get("/viewer")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "/static/js/core/viewer.js" in page.text  # the page is the web client's viewer module
    module = client.get("/static/js/core/viewer.js").text
    assert "/versions/" in module and "/events" in module


def test_absurd_versions_are_bad_input_not_server_errors(client: TestClient) -> None:
    game = create(client)["game_id"]
    huge = 10**30
    for path, params in [
        (f"/games/{game}", {"min_version": huge}),
        (f"/games/{game}/events", {"after": huge}),
        (f"/games/{game}/stream", {"after": huge}),
        (f"/games/{game}/versions/{huge}", {}),
    ]:
        response = client.get(path, params=params)
        assert response.status_code == 400, (path, response.text)
        assert response.json()["error"]["code"] == "BAD_INPUT"
    fork = client.post(f"/games/{game}/fork", json={"version": huge})
    assert fork.status_code == 400
