"""The scale-out mode's bot seats: workers on one PostgreSQL database sharing one Redis read-model
store each follow the log, and exactly one plays the bot seats at a time (by the store's lease);
a worker that was killed holding the lease has its bot seats taken over, and the game ends and
verifies."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path

import httpx
import pytest

from domain.catalog import GAMES
from domain.kernel.chance import Chance
from domain.kernel.log import COMMAND_ACCEPTED, for_viewer
from domain.kernel.verification import verify_records
from infra.bootstrap import build_service
from infra.games.bot_seats import BOT_LEASE, BotSeats
from infra.games.service import GameService, StaleVersion
from infra.readside.redis_store import RedisStore
from infra.settings import Settings
from tests.infra import cluster as cluster_module
from tests.infra.cluster import Cluster
from tests.infra.conftest import database_url, postgres_server, redis_prefix, redis_url
from tests.support.http import auth
from tests.support.server import wait_until_serving

__all__ = ["database_url", "postgres_server", "redis_prefix", "redis_url"]  # the integration fixtures

LEASE_SECONDS = 10.0  # long enough for a loaded machine between two looks; the killed worker's runs out in the test


@pytest.fixture
def workers(database_url: str, redis_url: str, redis_prefix: str) -> Iterator[list[BotSeats]]:
    """Two workers' bot seats (each with its own service and caches) on one database and one store."""
    services = [build_service(Settings(database_url=database_url)) for _ in range(2)]
    seats = [
        BotSeats(service, 4, None, store=RedisStore(redis_url, redis_prefix), lease_seconds=LEASE_SECONDS, role=f"w{i}")
        for i, service in enumerate(services)
    ]
    yield seats
    for service in services:
        service.close()


def person_moves(service: GameService, game_id: str, token: str, rng: Chance) -> bool:
    """The person's seat (0) moves at random if it is awaited; whether it moved."""
    with service.reading(game_id) as aggregate:
        match = aggregate.match
        seat = 0
        if match.is_over or seat not in match.game.awaited(match.state):
            return False
        moves = match.game.legal_moves(match.state, seat, rng)
        version = aggregate.match.version
    move = moves[rng.below("move", len(moves))]
    try:
        service.execute(game_id, token, {"type": move.type, **move.to_dict()}, expected_version=version)
    except StaleVersion:
        return False
    return True


def is_over(service: GameService, game_id: str) -> bool:
    with service.reading(game_id) as aggregate:
        return aggregate.match.is_over


def test_one_worker_at_a_time_plays_the_bot_seats_and_a_killed_workers_are_taken_over(
    workers: list[BotSeats],
) -> None:
    first, second = workers
    created = second.service.create_game("peloponnes", 3, bots={1: "search", 2: "greedy"})
    game_id, token = created.game_id, created.tokens[0]
    rng = Chance(b"person")
    # Both follow the log (the game was created by the second worker's service); the first to ask holds the lease.
    first.step()
    assert second.step() == 0
    assert game_id in first._games and game_id in second._games
    for turn in range(200):  # the person moves (through either worker), both look: only the holder plays
        person_moves(workers[turn % 2].service, game_id, token, rng)
        first.step()
        assert second.step() == 0
        if first.moves_played >= 6:
            break
    assert first.moves_played >= 6 and second.moves_played == 0

    # The first worker is killed holding the lease: it never steps again nor releases it.
    before = first.moves_played
    waited = threading.Event()
    for _ in range(20_000):
        if is_over(second.service, game_id):
            break
        if not person_moves(second.service, game_id, token, rng) and second.step() == 0:
            waited.wait(0.05)  # the lease runs out by itself (a bound, not an assertion)
    else:
        raise AssertionError("the game did not end")
    assert first.moves_played == before and second.moves_played > 0

    records = second.service.records(game_id)
    bot_moves = [r for r in records if r.type == COMMAND_ACCEPTED and r.data["seat"] in (1, 2)]
    assert len(bot_moves) == first.moves_played + second.moves_played  # every bot move played once
    report = verify_records([for_viewer(r, None, reveal_all=True) for r in records], GAMES.get)
    assert report.verified and not report.problems, report.problems


def test_a_killed_api_workers_bot_seats_are_played_on_by_another(
    database_url: str, redis_url: str, redis_prefix: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two API workers in processes (and a projection worker): the one holding the bot seats' lease
    is killed (``kill -9``) in the middle of a game; the other takes the lease (at once: the store
    sees its holder's process is gone) and the bots play on to the end."""
    # Three processes starting at once on a loaded machine: a generous bound on their start.
    monkeypatch.setattr(cluster_module, "wait_until_serving", partial(wait_until_serving, seconds=600))
    cluster = Cluster(database_url, redis_url, redis_prefix, tmp_path)
    store = RedisStore(redis_url, redis_prefix)
    try:
        apis = cluster.start_together(apis=2, projectors=1)
        processes = dict(zip(apis, cluster.processes[:2], strict=True))
        with httpx.Client(timeout=60) as http:
            body = {"game": "peloponnes", "players": 3, "bots": {"1": "greedy", "2": "greedy"}}
            created = http.post(f"{apis[0]}/games", json=body).json()
            game_id, token = created["game_id"], created["seats"][0]["token"]
            rng = Chance(b"person")

            def play_until(api: str, done: Callable[[], bool]) -> None:
                waited = threading.Event()
                for _ in range(20_000):
                    if done():
                        return
                    listed = http.get(f"{api}/games/{game_id}/legal-moves", headers=auth(token)).json()
                    if not listed["moves"]:
                        waited.wait(0.05)  # the bots' turn: they move in a worker's background
                        continue
                    move = listed["moves"][rng.below("move", len(listed["moves"]))]
                    sent = http.post(
                        f"{api}/games/{game_id}/commands",
                        json={**move, "expected_version": listed["version"]},
                        headers=auth(token),
                    )
                    assert sent.status_code in (200, 409), sent.text
                raise AssertionError("the game did not get there")

            def bot_moves() -> int:
                records = http.get(f"{apis[-1]}/games/{game_id}/events", headers=auth(token)).json()
                return sum(r["type"] == COMMAND_ACCEPTED and r["data"]["seat"] in (1, 2) for r in records)

            def ended() -> bool:
                return bool(http.get(f"{apis[-1]}/games/{game_id}").json()["status"] == "ended")

            play_until(apis[0], lambda: bot_moves() >= 4)
            holder = store.redis.get(store.lease_key(BOT_LEASE))
            assert isinstance(holder, str)
            killed = next(api for api, p in processes.items() if f"|{p.pid}|" in holder)
            cluster.kill(processes[killed])
            apis.remove(killed)
            before = bot_moves()
            play_until(apis[0], ended)
            assert bot_moves() > before
            records = http.get(f"{apis[0]}/games/{game_id}/events").json()  # all of it: the game is over
        taken = store.redis.get(store.lease_key(BOT_LEASE))
        assert isinstance(taken, str) and taken != holder
        report = verify_records(records, GAMES.get)
        assert report.verified and not report.problems, report.problems
    finally:
        cluster.stop()
