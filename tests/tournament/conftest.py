from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from api.http.app import create_app
from domain.catalog import GAMES
from domain.tournament.clock import GameClock
from domain.tournament.log import TournamentState
from infra.bootstrap import build_service
from infra.games.service import GameService
from infra.settings import Settings
from infra.tournaments.service import TournamentService


class FakeClock:
    """The server's time, moved on by the test (milliseconds)."""

    def __init__(self, start: int = 1_800_000_000_000) -> None:
        self.ms = start

    def __call__(self) -> int:
        return self.ms

    def advance(self, ms: int) -> None:
        self.ms += ms


def recorded_clock(games: GameService, state: TournamentState, game_id: str) -> GameClock:
    """A clocked tournament game's clocks as its record leaves them (as the verifier builds them)."""
    table = state.table_of(game_id)
    assert table is not None and state.settings.time_control is not None
    records = games.records(game_id)
    created = records[0].data
    clock = GameClock(
        GAMES.get(created["game"]),
        created["players"],
        created["options"],
        state.settings.time_control,
        state.round_times[table.round - 1],
    )
    clock.feed(records)
    return clock


@pytest.fixture
def games() -> Iterator[GameService]:
    """In memory: these tests are about tournaments, not about the disk (a file store's commit
    waits for the disk on every command)."""
    service = build_service(Settings(database_url="sqlite:///:memory:"))
    yield service
    service.close()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def file_games(tmp_path: Path) -> Iterator[GameService]:
    service = build_service(Settings(database_url=f"sqlite:///{tmp_path}/events.sqlite"))
    yield service
    service.close()


@pytest.fixture
def tournaments(games: GameService, clock: FakeClock) -> Iterator[TournamentService]:
    service = TournamentService(games, now=clock)
    yield service
    service.close()


@pytest.fixture
def client(games: GameService, tournaments: TournamentService) -> TestClient:
    """The API over the in-memory tournaments, served without its lifespan."""
    return TestClient(create_app(games, tournaments=tournaments))
