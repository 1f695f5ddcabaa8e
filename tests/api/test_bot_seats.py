"""Seats played by the server's bots (``POST /games`` with ``"bots"``), and ``simulate --bots``."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from api.cli.main import main
from api.client.bot_client import BotClient
from api.http.app import create_app
from domain.kernel.bots import make_bot
from domain.kernel.chance import Chance
from domain.kernel.sampling import clone_state
from infra.bootstrap import build_service
from infra.games.bot_seats import BotSeats
from infra.games.service import GameService, Unauthorized
from infra.readside.reader import build_read_side
from infra.settings import Settings
from infra.tournaments.service import TournamentService
from tests.support.http import auth


@pytest.fixture
def quick_bots(client: TestClient) -> TestClient:
    """The server's search bot on a small budget of playouts (the test plays a whole game)."""
    seats = client.app.state.bot_seats  # type: ignore[attr-defined]
    seats.playouts, seats.seconds = 20, None
    return client


def wait_a_little() -> None:
    """The server's bots move in its background: give them a moment before looking again."""
    threading.Event().wait(0.02)


def play_seat_to_end(client: TestClient, game_id: str, token: str, max_polls: int = 20_000) -> dict[str, Any]:
    """The one person's seat, random among its legal moves, until the game ends; the final view."""
    rng = Chance(b"person")
    for _ in range(max_polls):
        listed = client.get(f"/games/{game_id}/legal-moves", headers=auth(token)).json()
        if listed["moves"]:
            move = rng.choice("move", listed["moves"])
            sent = client.post(
                f"/games/{game_id}/commands",
                json={**move, "expected_version": listed["version"]},
                headers=auth(token),
            )
            assert sent.status_code in (200, 409), sent.text  # 409: a bot moved between listing and sending
            continue
        view = client.get(f"/games/{game_id}", params={"min_version": listed["version"]}, headers=auth(token)).json()
        if view["status"] == "ended":
            return view
        wait_a_little()
    raise AssertionError("the game did not end")


def test_a_game_with_two_bot_seats_is_played_to_the_end_through_the_remaining_seat(quick_bots: TestClient) -> None:
    client = quick_bots
    response = client.post(
        "/games", json={"game": "peloponnes", "players": 3, "seed": "bots", "bots": {"1": "search", "2": "greedy"}}
    )
    assert response.status_code == 201, response.text
    created = response.json()
    assert [seat["seat"] for seat in created["seats"]] == [0], "no token for the bots' seats"
    assert created["bots"] == {"1": "search", "2": "greedy"}
    game_id, token = created["game_id"], created["seats"][0]["token"]

    view = play_seat_to_end(client, game_id, token)
    assert view["status"] == "ended"

    records = client.get(f"/games/{game_id}/events", headers=auth(token)).json()
    taken = {r["data"]["seat"]: r["data"]["name"] for r in records if r["type"] == "SeatTaken"}
    assert taken == {0: "seat 0", 1: "bot:search:1", 2: "bot:greedy:2"}, "the record names the bots"
    commanders = {r["data"]["seat"] for r in records if r["type"] == "CommandAccepted"}
    assert commanders == {0, 1, 2}, "the bots' moves are recorded as their seats'"
    verified = client.get(f"/games/{game_id}/verify").json()
    assert verified["verified"] and verified["problems"] == [], verified


def test_only_the_server_plays_a_bot_seat_and_only_a_bot_seat(quick_bots: TestClient) -> None:
    client = quick_bots
    created = client.post("/games", json={"game": "alexandros", "players": 2, "seed": "x", "bots": {"1": "greedy"}})
    game_id = created.json()["game_id"]
    service = client.app.state.service  # type: ignore[attr-defined]
    with pytest.raises(Unauthorized, match="seat 0 is not played by the server"):
        service.execute(game_id, None, {"type": "end_turn"}, bot_seat=0)
    refused = client.post(f"/games/{game_id}/commands", json={"type": "end_turn"})
    assert refused.status_code == 401, "no token, no seat: the bot's seat has none"


@pytest.mark.parametrize(
    ("bots", "says"),
    [
        ({"0": "search", "1": "greedy", "2": "random"}, "at least one seat"),
        ({"5": "search"}, "no seat 5"),
        ({"1": "alphazero"}, None),
        ({"one": "search"}, None),
    ],
)
def test_bad_bot_seats_are_refused_and_create_nothing(quick_bots: TestClient, bots: dict, says: str | None) -> None:
    client = quick_bots
    before = client.get("/games").json()
    response = client.post("/games", json={"game": "peloponnes", "players": 3, "bots": bots})
    assert response.status_code in (400, 422), response.text
    body = response.json()
    assert body["error"]["code"] in ("BAD_BOTS", "BAD_INPUT"), body
    if says is not None:
        assert says in body["error"]["message"]
    assert client.get("/games").json() == before


def test_a_game_whose_seats_must_be_keyed_takes_no_bots(quick_bots: TestClient) -> None:
    client = quick_bots
    before = client.get("/games").json()
    body = {"game": "peloponnes", "players": 3, "bots": {"1": "greedy"}, "keys_required": True}
    response = client.post("/games", json=body)
    assert response.status_code == 422 and response.json()["error"]["code"] == "BAD_BOTS", response.text
    assert "keyed" in response.json()["error"]["message"]
    assert client.get("/games").json() == before


def test_bots_fill_their_seats_of_a_game_with_open_seats_and_wait_for_the_people(quick_bots: TestClient) -> None:
    client = quick_bots
    created = client.post(
        "/games", json={"game": "alexandros", "players": 3, "open_seats": True, "bots": {"2": "greedy"}}
    ).json()
    assert created["seats"] == [] and created["open_seats"] == [0, 1]
    game_id = created["game_id"]
    first = client.post(f"/games/{game_id}/join", json={"name": "Ada"}).json()
    second = client.post(f"/games/{game_id}/join", json={"name": "Bo"}).json()
    assert second["started"] is True
    view = client.get(f"/games/{game_id}", params={"min_version": second["version"]}).json()
    assert view["names"] == {"0": "Ada", "1": "Bo", "2": "bot:greedy:2"}
    assert first["seat"] == 0


def test_simulate_seats_a_bot_per_seat_and_says_which(tmp_path: Path) -> None:
    runner = CliRunner()
    args = ["simulate", "--game", "peloponnes", "--players", "3", "--games", "2", "--seed", "b"]
    result = runner.invoke(main, [*args, "--bots", "search,random,greedy", "--bot-playouts", "10", "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert [seat["bot"] for seat in summary["seats"]] == ["search", "random", "greedy"]
    assert summary["games"] == 2
    again = runner.invoke(main, [*args, "--bots", "search,random,greedy", "--bot-playouts", "10", "--json"])
    assert json.loads(again.stdout)["seats"] == summary["seats"], "the same seeds and budget, the same games"
    table = runner.invoke(main, [*args, "--bots", "search,random,greedy", "--bot-playouts", "10"])
    assert table.exit_code == 0 and "search" in table.stdout and "greedy" in table.stdout
    timed = runner.invoke(main, [*args, "--bots", "search,random,random", "--bot-budget-ms", "5", "--json"])
    assert timed.exit_code == 0, timed.output


@pytest.mark.parametrize(
    ("bots", "says"), [("search,random", "3 seats, 2 names"), ("search,random,alphazero", "no bot 'alphazero'")]
)
def test_simulate_refuses_bad_bots_in_one_line(bots: str, says: str) -> None:
    result = CliRunner().invoke(main, ["simulate", "--game", "peloponnes", "--players", "3", "--bots", bots])
    assert result.exit_code == 2
    assert says in result.output and "Traceback" not in result.output


@pytest.mark.parametrize("game", ["alexandros"])
def test_the_bot_client_plays_a_seat_through_the_public_api_against_a_server_bot(
    quick_bots: TestClient, game: str
) -> None:
    client = quick_bots
    created = client.post("/games", json={"game": game, "players": 2, "seed": "c", "bots": {"1": "greedy"}}).json()
    game_id, token = created["game_id"], created["seats"][0]["token"]
    player = BotClient(client, game_id, token, make_bot("search", b"client", playouts=10))
    moves = player.play(wait_a_little)
    assert player.ended and moves > 0
    records = client.get(f"/games/{game_id}/events", headers=auth(token)).json()
    assert sum(r["type"] == "CommandAccepted" and r["data"]["seat"] == 0 for r in records) == moves
    verified = client.get(f"/games/{game_id}/verify").json()
    assert verified["verified"] and verified["problems"] == [], verified


def test_bot_clients_on_every_seat_play_a_catan_game_created_over_http_to_the_end(client: TestClient) -> None:
    """Catan's hidden cards (the supply, the development deck, stolen cards, the task tokens) are
    followed from each seat's own log with stand-ins (the base board's too, by the rebuilt-state
    test of the domain); every seat is a client, so every move, trade answer and robber's theft
    went through the public API."""
    created = client.post("/games", json={"game": "catan_alexander", "players": 3, "seed": "catan-clients"}).json()
    game_id = created["game_id"]
    bots = [make_bot("greedy", b"g0"), make_bot("search", b"s1", playouts=4), make_bot("random", b"r2")]
    players = [BotClient(client, game_id, seat["token"], bot) for seat, bot in zip(created["seats"], bots, strict=True)]
    moves = [0, 0, 0]
    for _ in range(20_000):
        stepped = [player.step() for player in players]
        moves = [m + moved for m, moved in zip(moves, stepped, strict=True)]
        if all(player.ended for player in players):
            break
    else:
        raise AssertionError("the game did not end")
    assert all(moves)
    records = client.get(f"/games/{game_id}/events").json()
    assert [sum(r["type"] == "CommandAccepted" and r["data"]["seat"] == s for r in records) for s in range(3)] == moves
    assert any(r["type"] == "SupplyCardDrawn" or r["type"] == "CardStolen" for r in records)
    verified = client.get(f"/games/{game_id}/verify").json()
    assert verified["verified"] and verified["problems"] == [], verified


def test_the_bot_seats_find_a_game_created_with_bots_and_a_tournaments_bot_table_in_the_log_alone() -> None:
    """Nobody tells the bot seats of a game: following the notification log, they play a game
    created with bots and a tournament's table of bot players to the end, as the records come."""
    games = build_service(Settings(database_url="sqlite:///:memory:"))
    tournaments = TournamentService(games)
    seats = BotSeats(games, playouts=10, seconds=None)
    seats.start_following()
    try:
        created = games.create_game("peloponnes", 2, None, b"log alone", bots={1: "random"})
        tournament = tournaments.create("peloponnes", {"table_size": 2, "rounds": 1})
        tid, organiser = tournament.tournament_id, tournament.organiser_token
        for name in ("Gus", "Rand"):
            tournaments.register_bot(tid, organiser, name, "random")
        seated = tournaments.seat_next_round(tid, organiser, manual={"tables": [[0, 1]], "reason": "bots only"})
        table = seated["tables"][0]["game_id"]
        person = make_bot("random", b"the person of seat 0")
        for _ in range(20_000):  # a bound on a hang
            seats.step()
            with games.reading(created.game_id) as game:
                match, version = game.match, game.match.version
            if match.is_over:
                break
            if 0 in match.game.awaited(match.state):
                command = person.choose(match.game, clone_state(match.state), 0)
                games.execute(created.game_id, created.tokens[0], {"type": command.type, **command.to_dict()}, version)
        assert games.load(created.game_id).match.is_over
        assert games.load(table).match.is_over
        assert table in tournaments.state(tid).results
        commanders = {r.data["seat"] for r in games.records(created.game_id) if r.type == "CommandAccepted"}
        assert commanders == {0, 1}, "the bot played its seat"
    finally:
        tournaments.close()
        games.close()


def test_a_restarted_server_plays_on_the_bot_seats_of_running_games(service: GameService, settings: Settings) -> None:
    """A game whose bot was to move when the server stopped: the next server finds it and moves."""
    created = service.create_game("peloponnes", 2, None, b"restart", salt=bytes(32), bots={1: "greedy"})
    with service.reading(created.game_id) as aggregate:
        assert list(aggregate.match.game.awaited(aggregate.match.state)) == [1], "the bot's seat is awaited first"
        version = aggregate.match.version
    with TestClient(create_app(service, build_read_side(service, settings))) as client:
        for _ in range(5000):
            listed = client.get(f"/games/{created.game_id}/legal-moves", headers=auth(created.tokens[0])).json()
            if listed["version"] > version:
                break
            wait_a_little()
        assert listed["version"] > version, "the bot moved"


def test_a_bot_seat_of_a_game_whose_seats_must_be_keyed_signs_with_the_key_the_seed_gives(
    quick_bots: TestClient,
) -> None:
    """With open seats each person joins with their own key; the bot's seat is keyed with a key the
    server derives from the game's seed, so the record names the bot and, once the seed is revealed,
    the verifier shows that seat's key was the server's."""
    from api.client.seat_key import SeatKey

    client = quick_bots
    body = {"game": "peloponnes", "players": 2, "open_seats": True, "bots": {"1": "greedy"}, "keys_required": True}
    created = client.post("/games", json=body)
    assert created.status_code == 201, created.text
    game_id = created.json()["game_id"]
    bare = client.post(f"/games/{game_id}/join", json={"name": "Ada"})
    assert bare.status_code == 400 and bare.json()["error"]["code"] == "KEY_REQUIRED"
    key = SeatKey.generate()
    joined = client.post(f"/games/{game_id}/join", json={"name": "Ada", "public_key": key.public_key}).json()
    token = joined["token"]
    rng = Chance(b"keyed person")
    for _ in range(20_000):
        listed = client.get(f"/games/{game_id}/legal-moves", headers=auth(token)).json()
        if listed["moves"]:
            move = rng.choice("move", listed["moves"])
            sent = client.post(
                f"/games/{game_id}/commands",
                json=key.signed_body(game_id, 0, listed["version"], None, move),
                headers=auth(token),
            )
            assert sent.status_code in (200, 409), sent.text
            continue
        view = client.get(f"/games/{game_id}", params={"min_version": listed["version"]}).json()
        if view["status"] == "ended":
            break
        wait_a_little()
    report = client.get(f"/games/{game_id}/verify").json()
    assert report["verified"] and report["keyed_seats"] == [0, 1] and report["bot_seats"] == [1], report
    records = client.get(f"/games/{game_id}/events").json()
    commands = [r for r in records if r["type"] == "CommandAccepted"]
    assert {r["data"]["seat"] for r in commands} == {0, 1} and all("signature" in r["data"] for r in commands)
    taken = [r["data"] for r in records if r["type"] == "SeatTaken"]
    assert [t["name"] for t in taken if t["seat"] == 1] == ["bot:greedy:1"]
