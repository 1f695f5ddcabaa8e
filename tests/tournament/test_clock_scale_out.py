"""The scale-out mode: API processes on one PostgreSQL database sharing one Redis read-model
store each have a clock keeper, and exactly one keeps the clocks at a time (by the store's lease);
when it stops, another takes over, and the tournament still verifies."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from domain.catalog import GAMES
from domain.tournament.verification import verify_bundle
from infra.bootstrap import build_service
from infra.readside.redis_store import RedisStore
from infra.settings import Settings
from infra.tournaments.clock_keeper import ClockKeeper
from infra.tournaments.service import TournamentService
from tests.infra.conftest import database_url, postgres_server, redis_prefix, redis_url
from tests.tournament.conftest import FakeClock

__all__ = ["database_url", "postgres_server", "redis_prefix", "redis_url"]  # the integration fixtures

BASE_MS = 2_000


@pytest.fixture
def api_processes(database_url: str) -> Iterator[list[TournamentService]]:
    """Two API processes' services (each with its own caches) on one database, one fake clock."""
    clock = FakeClock()
    services = [TournamentService(build_service(Settings(database_url=database_url)), now=clock) for _ in range(2)]
    yield services
    for service in services:
        service.close()
        service.games.close()


def test_one_api_process_at_a_time_keeps_the_clocks_and_another_takes_over(
    api_processes: list[TournamentService], redis_url: str, redis_prefix: str
) -> None:
    first, second = api_processes
    clock = first.now
    assert isinstance(clock, FakeClock)
    settings = {"rounds": 1, "table_size": 4, "time_control": {"base_seconds": BASE_MS / 1000}}
    created = first.create("peloponnes", settings)
    tid = created.tournament_id
    for i in range(8):
        first.register(tid, created.organiser_token, f"p{i}")
    first.seat_next_round(tid, created.organiser_token)
    keepers = [ClockKeeper(service, RedisStore(redis_url, redis_prefix)) for service in api_processes]
    assert [keeper.step() for keeper in keepers] == [0, 0]
    assert keepers[0].hold_lease() and not keepers[1].hold_lease()  # the first to ask keeps the clocks
    clock.advance(BASE_MS + 1)
    played = [keeper.step() for keeper in keepers]
    assert played[0] >= 2 and played[1] == 0  # both games ruled on, by one process only
    keepers[0].release_lease()  # that process stops
    keepers.pop(0)
    keeper = keepers[0]
    for _ in range(20_000):
        state = second.state(tid)
        if len(state.results) == 2:
            break
        moment = keeper.next_look()
        clock.ms = max(clock.ms, moment if moment is not None else clock.ms)
        keeper.step()
    else:
        raise AssertionError("the games did not end")
    assert keeper.hold_lease()
    state = second.state(tid)
    assert {t["player"] for t in state.timeouts} == set(range(8))
    second.end(tid, created.organiser_token)
    report = verify_bundle(json.loads(json.dumps(second.bundle(tid))), GAMES.get)
    assert report.ok, report.problems
