"""Processes that start at the same moment on a fresh PostgreSQL database (a container platform
starts replicas together): whatever each creates at start-up, another may be creating at the same
time, and every one of them comes up."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from infra.bootstrap import build_service
from infra.games.service import GameService
from infra.settings import Settings
from infra.tournaments.service import TournamentService
from tests.infra import services
from tests.infra.cluster import Cluster, create_game
from tests.support.server import REQUEST_SECONDS

pytestmark = pytest.mark.services

ROUNDS = 3  # the race was lost in about half the starts: one of three rounds hits it almost surely


def fresh_databases(server: str, count: int) -> Iterator[str]:
    for _ in range(count):
        yield from services.fresh_database(server)


def build_at_once(settings: Settings, processes: int) -> list[BaseException]:
    """What goes wrong when ``processes`` threads start up at once as a server does (the game
    service, then the tournaments' application beside it)."""
    start = threading.Barrier(processes)
    problems: list[BaseException] = []
    built: list[GameService | TournamentService] = []

    def start_up() -> None:
        start.wait()
        try:
            service = build_service(settings)
            built.append(service)
            built.append(TournamentService(service))
        except BaseException as problem:
            problems.append(problem)

    threads = [threading.Thread(target=start_up) for _ in range(processes)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for application in built:
        application.close()
    return problems


def test_services_built_at_once_on_a_fresh_database_all_come_up(postgres_server: str) -> None:
    for database_url in fresh_databases(postgres_server, ROUNDS):
        assert build_at_once(Settings(database_url=database_url), processes=4) == []


@pytest.mark.slow
def test_two_api_workers_and_a_projection_worker_started_together_all_stay_up(
    postgres_server: str, redis_url: str, redis_prefix: str, tmp_path: Path
) -> None:
    for round_, database_url in enumerate(fresh_databases(postgres_server, ROUNDS)):
        log_dir = tmp_path / f"round-{round_}"
        log_dir.mkdir()
        cluster = Cluster(database_url, redis_url, f"{redis_prefix}:round-{round_}", log_dir)
        try:
            apis = cluster.start_together(apis=2, projectors=1)  # fails if an API worker dies
            for api in apis:
                game = create_game(api, f"round-{round_}")
                assert httpx.get(f"{api}/games/{game['game_id']}", timeout=REQUEST_SECONDS).status_code == 200
            # The projection worker is up too: the read models catch up with the games (bounded).
            deadline = time.monotonic() + 60
            while (ready := httpx.get(f"{apis[0]}/readyz", timeout=REQUEST_SECONDS)).status_code != 200:
                assert time.monotonic() < deadline, ready.text
                time.sleep(0.1)
            dead = [p.returncode for p in cluster.processes if p.poll() is not None]
            logs = {path.name: path.read_text()[-2000:] for path in log_dir.iterdir()}
            assert dead == [], logs
        finally:
            cluster.stop()


def test_an_idle_server_holds_few_connections_whatever_its_pool_size(database_url: str) -> None:
    import psycopg

    service = build_service(Settings(database_url=database_url, postgres_pool_size=10))
    tournaments = TournamentService(service)
    created = service.create_game("peloponnes", 2)  # every pool in use once
    tournaments.tournament_of(created.game_id)
    database = database_url.rsplit("/", 1)[-1]
    counts = []
    with psycopg.connect(database_url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as admin:
        for _ in range(10):  # the pools open their connections in the background
            time.sleep(0.2)
            found = admin.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = %s", [database]).fetchone()
            counts.append(found[0] if found else 0)
    tournaments.close()
    service.close()
    assert 0 < max(counts) <= 8, counts  # a few pools of 2, not of 10
