"""A player's own tournament token at /games/{id} for their table (what the web viewer uses): read
as their seat there, named, and their commands go through the tournament's rules; anyone else's
token there is refused."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.support.http import auth


def seated_table(client: TestClient, names: str) -> tuple[str, str, dict[str, str], dict[str, Any]]:
    """A tournament of alexandros tables of 2, its players joined by the code, round 1 seated."""
    created = client.post("/tournaments", json={"game": "alexandros", "settings": {"rounds": 1, "table_size": 2}})
    assert created.status_code == 201, created.text
    tid, organiser, code = (created.json()[k] for k in ("tournament_id", "organiser_token", "registration_code"))
    tokens = {}
    for name in names:
        joined = client.post(f"/tournaments/{tid}/join", json={"name": name, "code": code})
        assert joined.status_code == 201, joined.text
        tokens[name] = joined.json()["token"]
    seated = client.post(f"/tournaments/{tid}/rounds", headers=auth(organiser))
    assert seated.status_code == 201, seated.text
    return tid, organiser, tokens, seated.json()


def test_a_players_token_reads_and_plays_their_own_table_at_the_games_routes(client: TestClient) -> None:
    tid, _, tokens, seated = seated_table(client, "AB")
    table = seated["tables"][0]
    game_id = table["game_id"]
    names = {str(seat): "AB"[player] for seat, player in enumerate(table["players"])}
    spectator = client.get(f"/games/{game_id}").json()
    mover = int(next(iter(spectator["awaited"])))
    token = tokens["AB"[table["players"][mover]]]

    view = client.get(f"/games/{game_id}", headers=auth(token)).json()
    assert view["viewer"] == mover and view["names"] == names
    # The view says whose table the game is (a client opened on the game alone learns it there).
    assert spectator["tournament"] == view["tournament"] == tid
    plain = client.post("/games", json={"game": "peloponnes", "players": 2}).json()
    assert "tournament" not in client.get(f"/games/{plain['game_id']}").json()
    moves = client.get(f"/games/{game_id}/legal-moves", headers=auth(token))
    assert moves.status_code == 200 and moves.json()["moves"], moves.text
    move = moves.json()["moves"][0]
    sent = client.post(
        f"/games/{game_id}/commands", json={**move, "expected_version": view["version"]}, headers=auth(token)
    )
    assert sent.status_code == 200, sent.text
    assert sent.json()["version"] > view["version"]
    # The command is the tournament's (the same game as its own route shows), at the player's seat.
    mine = client.get(f"/tournaments/{tid}/games/{game_id}", headers=auth(token)).json()
    assert mine["version"] == sent.json()["version"] and mine["seat"] == mover and mine["names"] == names
    events = client.get(f"/games/{game_id}/events", headers=auth(token))
    assert events.status_code == 200 and events.json()[-1]["position"] == sent.json()["version"]
    past = client.get(f"/games/{game_id}/versions/1", headers=auth(token)).json()
    assert past["viewer"] == mover and past["names"] == names and past["tournament"] == tid


def test_another_players_or_the_organisers_token_is_refused_at_a_table_and_changes_nothing(
    client: TestClient,
) -> None:
    _, organiser, tokens, seated = seated_table(client, "ABC")  # three players: one has the bye
    (bye,) = seated["byes"]
    game_id = seated["tables"][0]["game_id"]
    before = client.get(f"/games/{game_id}").json()["version"]
    for token in (tokens["ABC"[bye]], organiser, "not-a-token"):
        assert client.get(f"/games/{game_id}", headers=auth(token)).status_code == 401
        assert client.get(f"/games/{game_id}/legal-moves", headers=auth(token)).status_code == 401
        refused = client.post(
            f"/games/{game_id}/commands", json={"type": "pass_turn", "expected_version": before}, headers=auth(token)
        )
        assert refused.status_code == 401 and refused.json()["error"]["code"] == "BAD_TOKEN", refused.text
    assert client.get(f"/games/{game_id}").json()["version"] == before


def test_a_voided_tables_commands_are_refused_at_the_games_route_as_at_the_tournaments(client: TestClient) -> None:
    tid, organiser, tokens, seated = seated_table(client, "AB")
    table = seated["tables"][0]
    game_id = table["game_id"]
    ruled = client.post(
        f"/tournaments/{tid}/adjudications",
        json={"kind": "void", "game_id": game_id, "reason": "the wrong table was played"},
        headers=auth(organiser),
    )
    assert ruled.status_code == 201, ruled.text
    view = client.get(f"/games/{game_id}").json()
    mover = int(next(iter(view["awaited"])))
    token = tokens["AB"[table["players"][mover]]]
    move = client.get(f"/games/{game_id}/legal-moves", headers=auth(token)).json()["moves"][0]
    body = {**move, "expected_version": view["version"]}
    at_games = client.post(f"/games/{game_id}/commands", json=body, headers=auth(token))
    at_tournament = client.post(f"/tournaments/{tid}/games/{game_id}/commands", json=body, headers=auth(token))
    assert at_games.status_code == at_tournament.status_code == 409, at_games.text
    assert at_games.json()["error"]["code"] == at_tournament.json()["error"]["code"]
    assert client.get(f"/games/{game_id}").json()["version"] == view["version"]
