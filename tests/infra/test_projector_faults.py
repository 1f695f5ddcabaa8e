"""A projection worker survives its back-ends going away (real PostgreSQL and Redis): it logs
the loss, reconnects with backoff and catches up, skipping nothing and applying nothing twice."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator
from urllib.parse import urlparse

import psycopg
import pytest

from infra.bootstrap import build_service
from infra.games.service import GameService
from infra.readside.projector import Projector
from infra.readside.readmodels import MemoryStore, ReadModelStore
from infra.readside.redis_store import RedisStore
from infra.settings import Settings
from projections.registry import PROJECTION_NAMES
from tests.infra.tcp_proxy import CuttableProxy
from tests.infra.test_service import play as play_game

pytestmark = pytest.mark.services


def read_models(store: ReadModelStore) -> dict[str, object]:
    return {name: {"position": store.position(name), **store.export(name)} for name in PROJECTION_NAMES}


def play(service: GameService, seed: str, commands: int = 3) -> None:
    created = service.create_game("sealed_guess", 2, None, seed.encode())
    play_game(service, created, f"bot-{seed}".encode(), commands)


def caught_up(service: GameService, store: ReadModelStore, seconds: float = 60) -> None:
    """Wait (bounded) until every read model has applied the whole log."""
    target = service.recorder.max_notification_id()
    deadline = time.monotonic() + seconds
    while any(store.position(name) != target for name in PROJECTION_NAMES):
        assert time.monotonic() < deadline, {name: store.position(name) for name in PROJECTION_NAMES}
        time.sleep(0.05)


class Running:
    """A projector's ``run_forever`` in a thread."""

    def __init__(self, projector: Projector) -> None:
        self.stop = threading.Event()
        self.thread = threading.Thread(target=projector.run_forever, args=(self.stop, 0.1))
        self.thread.start()

    def close(self) -> None:
        self.stop.set()
        self.thread.join(timeout=30)


@pytest.fixture
def postgres_service(database_url: str, redis_url: str, redis_prefix: str) -> Iterator[GameService]:
    service = build_service(Settings(database_url=database_url, redis_url=redis_url, redis_prefix=redis_prefix))
    yield service
    service.close()


def expected_read_models(service: GameService) -> dict[str, object]:
    rebuilt = MemoryStore()
    Projector(service, rebuilt).catch_up()
    return read_models(rebuilt)


def test_the_worker_reconnects_after_postgresql_drops_its_connections(
    postgres_service: GameService,
    database_url: str,
    redis_url: str,
    redis_prefix: str,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.WARNING, logger="infra.readside.projector")
    store = RedisStore(redis_url, redis_prefix)
    worker_service = build_service(Settings(database_url=database_url))
    running = Running(Projector(worker_service, store))
    try:
        play(postgres_service, "before")
        caught_up(postgres_service, store)
        database = urlparse(database_url).path.lstrip("/")
        with psycopg.connect(database_url, autocommit=True) as admin:
            killed = admin.execute(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                "WHERE datname = %s AND pid <> pg_backend_pid()",
                (database,),
            ).fetchone()
        assert killed is not None and killed[0] >= 1, "the worker's connections should have been dropped"
        play(postgres_service, "after")
        caught_up(postgres_service, store)
        assert running.thread.is_alive(), "the worker keeps running"
        assert read_models(store) == expected_read_models(postgres_service)
        messages = [r.getMessage() for r in caplog.records]
        assert any(m.startswith("lost the event store") for m in messages), messages
        assert any(m.startswith("reconnected") for m in messages), messages
    finally:
        running.close()
        worker_service.close()
        store.close()


def test_the_worker_reconnects_after_losing_redis(
    postgres_service: GameService, redis_url: str, redis_prefix: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    redis_address = urlparse(redis_url)
    proxy = CuttableProxy(redis_address.hostname or "127.0.0.1", redis_address.port or 6379)
    through_proxy = f"redis://127.0.0.1:{proxy.port}{redis_address.path}"
    store = RedisStore(through_proxy, redis_prefix)
    running = Running(Projector(postgres_service, store))
    try:
        play(postgres_service, "before")
        caught_up(postgres_service, store)
        proxy.cut()
        play(postgres_service, "while-redis-is-gone")  # the worker fails to read or commit these
        deadline = time.monotonic() + 30
        while not any(r.getMessage().startswith("lost ") for r in caplog.records):
            assert time.monotonic() < deadline, "the worker should notice that Redis is gone"
            time.sleep(0.05)
        proxy.restore()
        play(postgres_service, "after")
        direct = RedisStore(redis_url, redis_prefix)
        try:
            caught_up(postgres_service, direct)
            assert running.thread.is_alive(), "the worker keeps running"
            assert read_models(direct) == expected_read_models(postgres_service)
        finally:
            direct.close()
        assert any(r.getMessage().startswith("reconnected") for r in caplog.records)
    finally:
        running.close()
        store.close()
        proxy.close()
