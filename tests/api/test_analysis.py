"""``GET /games/{id}/analysis``: any version of an ended game; a hint for a person's awaited seat
against bots only; never a running tournament game; the same lines for the same budget and seed;
bad parameters refused."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from domain.catalog import GAMES
from domain.kernel.messages import parse_command
from tests.api.test_bot_seats import play_seat_to_end
from tests.support.http import auth

QUICK = {"playouts": 30}


@pytest.fixture
def quick_bots(client: TestClient) -> TestClient:
    seats = client.app.state.bot_seats  # type: ignore[attr-defined]
    seats.playouts, seats.seconds = 10, None
    return client


@pytest.fixture
def ended_game(quick_bots: TestClient) -> tuple[str, str]:
    """A 2-player Peloponnes played to its end: seat 0 at random over HTTP, seat 1 by the random bot."""
    created = quick_bots.post(
        "/games", json={"game": "peloponnes", "players": 2, "seed": "analysis", "bots": {"1": "random"}}
    ).json()
    game_id, token = created["game_id"], created["seats"][0]["token"]
    assert play_seat_to_end(quick_bots, game_id, token)["status"] == "ended"
    return game_id, token


def command_versions(client: TestClient, game_id: str) -> list[int]:
    """The versions at which a command was awaited: one before each accepted command."""
    records = client.get(f"/games/{game_id}/events").json()
    return [r["position"] - 1 for r in records if r["type"] == "CommandAccepted"]


def legal_at(client: TestClient, game_id: str, version: int, seat: int, move: dict[str, Any]) -> bool:
    """Whether ``move`` is one of the seat's legal moves at ``version`` (asked of the engine)."""
    service = client.app.state.service  # type: ignore[attr-defined]
    match = service.load(game_id, version).match
    game = GAMES.get("peloponnes")
    return parse_command(game.command_types, move) in game.legal_moves(match.state, seat, match.chance)


def test_an_ended_game_is_analysed_at_any_version_for_its_awaited_seat(
    quick_bots: TestClient, ended_game: tuple[str, str]
) -> None:
    client = quick_bots
    game_id, _ = ended_game
    versions = command_versions(client, game_id)
    for version in (versions[0], versions[len(versions) // 2]):
        answer = client.get(f"/games/{game_id}/analysis", params={"v": version, **QUICK})  # a spectator
        assert answer.status_code == 200, answer.text
        body = answer.json()
        assert body["version"] == version and body["seat"] in body["awaited"]
        assert body["budget"]["playouts"] == 30 and body["budget"]["max_playouts"] >= 30
        lines = body["lines"]
        assert lines and all(0.0 <= line["win_chance"] <= 1.0 for line in lines)
        assert [line["playouts"] for line in lines] == sorted((line["playouts"] for line in lines), reverse=True)
        if len(lines) > 1:
            assert sum(line["playouts"] for line in lines) == body["budget"]["searched"] == 30
        for line in lines:
            assert legal_at(client, game_id, version, body["seat"], line["move"]), line
    last = client.get(f"/games/{game_id}/analysis", params=QUICK).json()  # the end: nobody moves
    assert last["seat"] is None and last["lines"] == [] and last["awaited"] == []


def test_a_version_midway_through_a_moves_consequences_has_nobody_to_move(
    quick_bots: TestClient, ended_game: tuple[str, str]
) -> None:
    """Every version answers: one inside a command's records (its automatic consequences half
    applied, where the rules' steps cannot run) has no awaited seat, and a seat asked about there
    is refused with a reason."""
    client = quick_bots
    game_id, _ = ended_game
    records = client.get(f"/games/{game_id}/events").json()
    # Inside a command's records: from its CommandAccepted up to the record before its last.
    starts = [r["position"] for r in records if r["type"] == "CommandAccepted"]
    midway = [v for v in range(starts[0], len(records)) if v + 1 not in starts]
    assert midway, "the game has no version inside a command's records"
    for version in range(1, len(records) + 1):
        answer = client.get(f"/games/{game_id}/analysis", params={"v": version, "playouts": 1})
        assert answer.status_code == 200, (version, answer.text)
        if version in midway:
            assert answer.json()["awaited"] == [] and answer.json()["lines"] == [], version
    refused = client.get(f"/games/{game_id}/analysis", params={"v": midway[0], "seat": 0, "playouts": 1})
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "SEAT_NOT_AWAITED"
    assert "midway through a move's consequences" in refused.json()["error"]["message"]


def test_the_same_budget_and_seed_give_the_same_lines(quick_bots: TestClient, ended_game: tuple[str, str]) -> None:
    client = quick_bots
    game_id, _ = ended_game
    version = command_versions(client, game_id)[3]
    params = {"v": version, "playouts": 40, "seed": "s1"}
    first = client.get(f"/games/{game_id}/analysis", params=params).json()
    again = client.get(f"/games/{game_id}/analysis", params=params).json()
    assert first == again and first["budget"]["seed"] == "s1"
    default = client.get(f"/games/{game_id}/analysis", params={"v": version, "playouts": 40}).json()
    assert default == client.get(f"/games/{game_id}/analysis", params={"v": version, "playouts": 40}).json()


BAD_PARAMETERS: list[dict[str, Any]] = [
    {"playouts": 0},
    {"playouts": 1_000_000},
    {"v": 0},
    {"v": "x"},
    {"seat": -1},
    {"seed": ""},
    {"seed": "s" * 65},
]


def test_bad_parameters_are_refused(quick_bots: TestClient, ended_game: tuple[str, str]) -> None:
    game_id, _ = ended_game
    for params in BAD_PARAMETERS:
        answer = quick_bots.get(f"/games/{game_id}/analysis", params=params)
        assert answer.status_code == 400 and answer.json()["error"]["code"] == "BAD_INPUT", (params, answer.text)
    unknown = quick_bots.get("/games/00000000-0000-0000-0000-000000000000/analysis", params=QUICK)
    assert unknown.status_code == 404


def test_a_version_the_game_has_not_and_a_seat_not_awaited_are_refused(
    quick_bots: TestClient, ended_game: tuple[str, str]
) -> None:
    client = quick_bots
    game_id, _ = ended_game
    past = client.get(f"/games/{game_id}/analysis", params={"v": 100_000, **QUICK})
    assert past.status_code == 409 and past.json()["error"]["code"] == "VERSION_NOT_REACHED", past.text
    version = command_versions(client, game_id)[0]
    awaited = client.get(f"/games/{game_id}/analysis", params={"v": version, **QUICK}).json()["awaited"]
    other = next(seat for seat in (0, 1) if seat not in awaited)
    refused = client.get(f"/games/{game_id}/analysis", params={"v": version, "seat": other, **QUICK})
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "SEAT_NOT_AWAITED", refused.text


def wait_for_my_turn(client: TestClient, game_id: str, token: str) -> int:
    for _ in range(2_000):
        listed = client.get(f"/games/{game_id}/legal-moves", headers=auth(token)).json()
        if listed["moves"]:
            return int(listed["version"])
        client.get(f"/games/{game_id}", params={"min_version": listed["version"] + 1})
    raise AssertionError("the seat was never awaited")


def test_a_hint_is_for_a_persons_awaited_seat_against_bots_only(quick_bots: TestClient) -> None:
    client = quick_bots
    created = client.post(
        "/games", json={"game": "peloponnes", "players": 2, "seed": "hint", "bots": {"1": "greedy"}}
    ).json()
    game_id, token = created["game_id"], created["seats"][0]["token"]
    version = wait_for_my_turn(client, game_id, token)
    hint = client.get(f"/games/{game_id}/analysis", params=QUICK, headers=auth(token))
    assert hint.status_code == 200, hint.text
    assert hint.json()["seat"] == 0 and hint.json()["version"] >= version and hint.json()["lines"]
    spectator = client.get(f"/games/{game_id}/analysis", params=QUICK)
    assert spectator.status_code == 403 and spectator.json()["error"]["code"] == "ANALYSIS_FORBIDDEN"
    the_bots = client.get(f"/games/{game_id}/analysis", params={"seat": 1, **QUICK}, headers=auth(token))
    assert the_bots.status_code == 403 and the_bots.json()["error"]["code"] == "ANALYSIS_FORBIDDEN"
    earlier = client.get(f"/games/{game_id}/analysis", params={"v": 1, **QUICK}, headers=auth(token))
    assert earlier.status_code == 409 and earlier.json()["error"]["code"] == "SEAT_NOT_AWAITED"
    forged = client.get(f"/games/{game_id}/analysis", params=QUICK, headers=auth("forged"))
    assert forged.status_code == 401


def test_no_hint_while_the_bots_seat_is_awaited(quick_bots: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    client = quick_bots
    seats = client.app.state.bot_seats  # type: ignore[attr-defined]
    seats.stop()  # the bot never moves: its seat stays awaited (a new game with bots would start them again)
    monkeypatch.setattr(seats, "start", lambda resume=None: None)
    created = client.post(
        "/games", json={"game": "peloponnes", "players": 2, "seed": "stalled", "bots": {"1": "greedy"}}
    ).json()
    game_id, token = created["game_id"], created["seats"][0]["token"]
    for _ in range(50):  # seat 0 plays until the bot's seat is awaited
        listed = client.get(f"/games/{game_id}/legal-moves", headers=auth(token)).json()
        if not listed["moves"]:
            break
        body = {**listed["moves"][0], "expected_version": listed["version"]}
        assert client.post(f"/games/{game_id}/commands", json=body, headers=auth(token)).status_code == 200
    view = client.get(f"/games/{game_id}", params={"min_version": listed["version"]}, headers=auth(token)).json()
    assert view["status"] == "running" and list(view["awaited"]) == ["1"], view["awaited"]
    refused = client.get(f"/games/{game_id}/analysis", params=QUICK, headers=auth(token))
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "SEAT_NOT_AWAITED", refused.text
    assert "seat 0 has no move" in refused.json()["error"]["message"]


def test_no_hint_in_a_game_against_people(quick_bots: TestClient) -> None:
    client = quick_bots
    created = client.post("/games", json={"game": "peloponnes", "players": 2, "seed": "people"}).json()
    game_id = created["game_id"]
    for seat in created["seats"]:
        refused = client.get(f"/games/{game_id}/analysis", params=QUICK, headers=auth(seat["token"]))
        assert refused.status_code == 403 and refused.json()["error"]["code"] == "ANALYSIS_FORBIDDEN", refused.text
        assert "played by people" in refused.json()["error"]["message"]


def test_a_running_tournament_game_is_never_analysed(quick_bots: TestClient) -> None:
    client = quick_bots
    created = client.post("/tournaments", json={"game": "peloponnes", "settings": {"table_size": 2, "rounds": 1}})
    tid, organiser = created.json()["tournament_id"], created.json()["organiser_token"]
    players = []
    for name in ("Ada", "Bo"):
        registered = client.post(f"/tournaments/{tid}/players", json={"name": name}, headers=auth(organiser))
        assert registered.status_code == 201, registered.text
        players.append(registered.json()["token"])
    seated = client.post(f"/tournaments/{tid}/rounds", headers=auth(organiser))
    assert seated.status_code == 201, seated.text
    game_id = seated.json()["tables"][0]["game_id"]
    for headers in ({}, auth(organiser), auth(players[0])):
        refused = client.get(f"/games/{game_id}/analysis", params=QUICK, headers=headers)
        assert refused.status_code == 403, refused.text
        assert refused.json()["error"]["code"] == "TOURNAMENT_GAME_RUNNING", refused.text
        assert "running tournament game" in refused.json()["error"]["message"]
