"""Projection runners on a shared Redis store: racing runners and a rebuild under a running worker."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator, Sequence

import pytest

from infra.projector import Projector
from infra.readmodels import MemoryStore, ReadModelStore
from infra.redis_store import RedisStore
from infra.service import GameService
from projections.base import Documents, ProjectedRecord, Projection
from projections.registry import PROJECTION_NAMES, all_projections
from tests.projections.test_projections import play

pytestmark = pytest.mark.services


def read_models(store: ReadModelStore) -> dict[str, object]:
    return {name: {"position": store.position(name), **store.export(name)} for name in PROJECTION_NAMES}


class Slow:
    """A projection that takes its time, so that two runners overlap on the same batch."""

    def __init__(self, inner: Projection) -> None:
        self.inner = inner
        self.name = inner.name

    def apply(self, documents: Documents, batch: Sequence[ProjectedRecord]) -> None:
        time.sleep(0.003)
        self.inner.apply(documents, batch)


@pytest.fixture
def store(redis_url: str, redis_prefix: str) -> Iterator[RedisStore]:
    store = RedisStore(redis_url, redis_prefix)
    yield store
    store.close()


@pytest.fixture
def expected(service: GameService) -> dict[str, object]:
    for i in range(4):
        play(service, f"race-{i}")
    play(service, "unfinished", commands=2)
    one_pass = MemoryStore()
    Projector(service, one_pass).catch_up()
    return read_models(one_pass)


def test_runners_whose_leases_keep_running_out_still_apply_each_batch_once(
    service: GameService, store: RedisStore, expected: dict[str, object]
) -> None:
    # Leases of a millisecond: both runners work on every projection at once, and only the
    # compare-and-set of the position keeps a batch from being applied twice.
    runners = [
        Projector(service, store, [Slow(p) for p in all_projections()], batch_size=4, lease_seconds=0.001)
        for _ in range(2)
    ]
    threads = [threading.Thread(target=runner.catch_up) for runner in runners]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert read_models(store) == expected
    assert sum(r.lost_races for r in runners) > 0, "the runners should have raced (or this test proves little)"


def test_a_rebuild_while_a_worker_holds_the_lease_ends_in_the_same_read_model(
    service: GameService, store: RedisStore, expected: dict[str, object]
) -> None:
    worker = Projector(service, store, batch_size=4)
    stop = threading.Event()
    running = threading.Thread(target=worker.run_forever, args=(stop, 0.02))
    running.start()
    try:
        rebuilder = Projector(service, store)
        rebuilder.rebuild("boards", timeout=30)  # the worker holds the lease: it does the work
        assert rebuilder.store.position("boards") == service.recorder.max_notification_id()
        worker.catch_up()  # the other read models too, before the worker stops
    finally:
        stop.set()
        running.join()
    assert read_models(store) == expected
