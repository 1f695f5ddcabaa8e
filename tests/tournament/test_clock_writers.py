"""Two processes writing one store: a server on an SQLite file and a clock worker beside it (as
the documented ``alexandria tournament clocks`` was run), each with its own cached games. Every
timeout is decided against the game as the store has it, the server answers a clear 409 (or
succeeds) when its cached game is stale, never 500, and the bundle verifies."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.http.app import create_app
from domain.catalog import GAMES
from domain.kernel.bots import RandomBot
from domain.kernel.chance import Chance
from domain.kernel.match import Match
from domain.tournament.clock import timeout_problems
from domain.tournament.log import TournamentState
from domain.tournament.verification import verify_bundle
from infra.bootstrap import build_service
from infra.games.service import GameService
from infra.settings import Settings
from infra.tournaments.service import TournamentService
from tests.tournament.conftest import FakeClock, recorded_clock

BASE_SECONDS = 5


@pytest.fixture
def store_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path}/events.sqlite"


@pytest.fixture
def server_games(store_url: str) -> Iterator[GameService]:
    service = build_service(Settings(database_url=store_url))
    yield service
    service.close()


@pytest.fixture
def worker_games(store_url: str) -> Iterator[GameService]:
    service = build_service(Settings(database_url=store_url))
    yield service
    service.close()


def current_match(games: GameService, game_id: str) -> Match:
    """The game as the store has it (never a cache): what a player's client would read."""
    records = games.records(game_id)
    created = records[0].data
    match = Match(GAMES.get(created["game"]), created["players"], created["options"], Chance(b"client"))
    for record in records:
        match.apply_record(record)
    return match


def players_move(http: TestClient, games: GameService, tid: str, game_id: str, tokens: list[str], table: Any) -> int:
    """The awaited player sends a move chosen on the game as it stands; returns the HTTP status."""
    match = current_match(games, game_id)
    bot = RandomBot(f"client-{match.version}".encode())
    seat, command = bot.next_move(match.game, match.state)
    token = tokens[table.players[seat]]
    answer = http.post(
        f"/tournaments/{tid}/games/{game_id}/commands",
        json={"type": command.type, **command.to_dict()},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert answer.status_code != 500, answer.text
    if answer.status_code != 200:
        # The game moved before the move arrived (the clock rule played): refused as any late move is.
        assert answer.status_code in (409, 422), answer.text
        assert "error" in answer.json(), answer.text
    return answer.status_code


def timeouts_on_their_clocks(games: GameService, state: TournamentState, game_id: str) -> list[str]:
    timeouts = [t for t in state.timeouts if t["game_id"] == game_id]
    return timeout_problems(recorded_clock(games, state, game_id), timeouts)


def test_a_clock_worker_beside_a_server_leaves_no_500_and_no_timeout_off_its_clock(
    server_games: GameService, worker_games: GameService
) -> None:
    clock = FakeClock()
    server = TournamentService(server_games, now=clock)
    worker = TournamentService(worker_games, now=clock)  # what `alexandria tournament clocks` was
    app = create_app(server_games, tournaments=server, keep_clocks=False)
    with TestClient(app, raise_server_exceptions=False) as http:
        # An increment above the players' 100 ms a move: a seat that ran out plays on by itself
        # (with none, the rule plays every seat that ever ran out, and may play the game out at once).
        control = {"base_seconds": BASE_SECONDS, "increment_seconds": 0.2}
        settings = {"rounds": 1, "table_size": 3, "time_control": control}
        created = http.post("/tournaments", json={"game": "peloponnes", "settings": settings}).json()
        tid, organiser = created["tournament_id"], {"Authorization": f"Bearer {created['organiser_token']}"}
        tokens = [
            http.post(f"/tournaments/{tid}/players", json={"name": f"p{i}"}, headers=organiser).json()["token"]
            for i in range(3)
        ]
        assert http.post(f"/tournaments/{tid}/rounds", headers=organiser).status_code == 201
        table = server.state(tid).tables()[0]
        game_id = table.game_id
        for _ in range(10):  # the server's cache now holds the game
            clock.advance(100)
            assert players_move(http, server_games, tid, game_id, tokens, table) == 200
        clock.advance(BASE_SECONDS * 1000 + 1000)
        assert worker.enforce_clocks(tid) >= 1  # the worker writes the game behind the server's back
        clock.advance(BASE_SECONDS * 1000 + 1000)  # and another seat runs out, seen by the server first
        statuses = []
        while not current_match(server_games, game_id).is_over:
            clock.advance(100)
            statuses.append(players_move(http, server_games, tid, game_id, tokens, table))
            assert len(statuses) < 5_000
            if len(statuses) % 25 == 0:
                worker.enforce_clocks(tid)  # the worker keeps writing now and then
        assert 200 in statuses  # the server plays on after the other writer (never stuck on its stale game)
        state = server.state(tid)
        assert state.timeouts and timeouts_on_their_clocks(server_games, state, game_id) == []
        assert http.post(f"/tournaments/{tid}/end", headers=organiser).status_code == 200
        bundle = json.loads(json.dumps(http.get(f"/tournaments/{tid}/bundle").json()))
    report = verify_bundle(bundle, GAMES.get)
    assert report.ok, report.problems


def test_a_stale_cached_game_answers_409_and_the_retry_goes_through(
    server_games: GameService, worker_games: GameService
) -> None:
    """The server's cached game is behind the store (another writer moved it): the command is
    decided again on the store's game, or refused with 409 when the client named a version."""
    clock = FakeClock()
    server = TournamentService(server_games, now=clock)
    worker = TournamentService(worker_games, now=clock)
    created = server.create("peloponnes", {"rounds": 1, "table_size": 3, "time_control": {"base_seconds": 60}})
    tid = created.tournament_id
    tokens = [server.register(tid, created.organiser_token, f"p{i}").token for i in range(3)]
    server.seat_next_round(tid, created.organiser_token)
    table = server.state(tid).tables()[0]
    game_id = table.game_id

    def move_on(service: TournamentService, games: GameService, expected: bool) -> None:
        match = current_match(games, game_id)
        seat, command = RandomBot(f"b{match.version}".encode()).next_move(match.game, match.state)
        version = match.version if expected else None
        payload = {"type": command.type, **command.to_dict()}
        service.play(tid, game_id, tokens[table.players[seat]], payload, expected_version=version)

    move_on(server, server_games, expected=False)  # cached in the server
    move_on(worker, worker_games, expected=False)  # written by the other process
    with server_games.reading(game_id) as cached:
        assert cached.match.version < len(server_games.records(game_id))  # the server's cache is behind
    move_on(server, server_games, expected=True)  # names the store's version: accepted
    move_on(worker, worker_games, expected=False)
    move_on(server, server_games, expected=False)  # no version named: decided on the store's game
    app = create_app(server_games, tournaments=server, keep_clocks=False)
    move_on(worker, worker_games, expected=False)
    with TestClient(app, raise_server_exceptions=False) as http:
        match = current_match(server_games, game_id)
        seat, command = RandomBot(b"late").next_move(match.game, match.state)
        stale = http.post(
            f"/tournaments/{tid}/games/{game_id}/commands",
            json={"type": command.type, **command.to_dict(), "expected_version": match.version - 1},
            headers={"Authorization": f"Bearer {tokens[table.players[seat]]}"},
        )
        assert stale.status_code == 409 and stale.json()["error"]["code"] == "STALE_VERSION"
        fresh = http.post(
            f"/tournaments/{tid}/games/{game_id}/commands",
            json={"type": command.type, **command.to_dict(), "expected_version": match.version},
            headers={"Authorization": f"Bearer {tokens[table.players[seat]]}"},
        )
        assert fresh.status_code == 200, fresh.text
        assert fresh.json()["version"] > match.version
