"""Projection runners on a shared Redis store: racing runners and a rebuild under a running worker.

Neither test depends on timing: the race is forced (both runners hold the same batch before
either commits), and the rebuild starts once the worker has caught up and holds the lease.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator, Sequence

import pytest

from infra.games.service import GameService
from infra.readside.projector import Projector
from infra.readside.readmodels import MemoryStore, ReadModelStore
from infra.readside.redis_store import RedisStore
from projections.base import Documents, ProjectedRecord, Projection
from projections.registry import PROJECTION_NAMES, all_projections
from tests.projections.test_projections import play

pytestmark = pytest.mark.services

DEADLINE = 60.0  # seconds: generous, for a busy machine; only a broken runner gets near it


def read_models(store: ReadModelStore) -> dict[str, object]:
    return {name: {"position": store.position(name), **store.export(name)} for name in PROJECTION_NAMES}


def wait_until(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + DEADLINE
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"not after {DEADLINE:g} s: {what}")
        time.sleep(0.01)


class LeasesForAll(RedisStore):
    """Every runner gets every lease, as when leases keep running out: only the compare-and-set
    of the position keeps two runners from applying a batch twice."""

    def acquire_lease(self, projection: str, owner: str, ttl: float) -> bool:
        return True


class Rendezvous:
    """Holds a runner's first batch of a projection until the other runner has its first batch
    of it too: both then work on the same batch, and one of them must lose the race."""

    def __init__(self, inner: Projection, barrier: threading.Barrier) -> None:
        self.inner = inner
        self.name = inner.name
        self.barrier: threading.Barrier | None = barrier

    def apply(self, documents: Documents, batch: Sequence[ProjectedRecord]) -> None:
        if self.barrier is not None:
            barrier, self.barrier = self.barrier, None
            barrier.wait(DEADLINE)
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


def run_in_threads(*targets: Callable[[], None]) -> None:
    """Run the targets at once and wait for them; a target's exception fails the test."""
    problems: list[BaseException] = []

    def run(target: Callable[[], None]) -> None:
        try:
            target()
        except BaseException as problem:
            problems.append(problem)

    threads = [threading.Thread(target=run, args=(target,)) for target in targets]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if problems:
        raise problems[0]


def test_runners_that_both_hold_the_leases_still_apply_each_batch_once(
    service: GameService, redis_url: str, redis_prefix: str, expected: dict[str, object]
) -> None:
    store = LeasesForAll(redis_url, redis_prefix)
    try:
        barriers = {name: threading.Barrier(2) for name in PROJECTION_NAMES}
        runners = [
            Projector(service, store, [Rendezvous(p, barriers[p.name]) for p in all_projections()], batch_size=4)
            for _ in range(2)
        ]
        run_in_threads(*(runner.catch_up for runner in runners))
        assert read_models(store) == expected
        # Each projection's first batch was held by both runners at once: one lost each race.
        assert sum(r.lost_races for r in runners) >= len(PROJECTION_NAMES)
    finally:
        store.close()


def test_a_rebuild_while_a_worker_holds_the_lease_ends_in_the_same_read_model(
    service: GameService, store: RedisStore, expected: dict[str, object]
) -> None:
    worker = Projector(service, store, batch_size=4)
    stop = threading.Event()
    running = threading.Thread(target=worker.run_forever, args=(stop, 0.02))
    running.start()
    try:
        # The worker has applied everything and holds the leases: a rebuild must make it start
        # again (nothing new comes in to make it commit and notice the reset by itself).
        target = service.recorder.max_notification_id()
        wait_until(lambda: all(store.position(name) == target for name in PROJECTION_NAMES), "the worker caught up")
        rebuilder = Projector(service, store)
        assert not store.acquire_lease("boards", rebuilder.owner, 5.0), "the worker should hold the lease"
        rebuilder.rebuild("boards", timeout=DEADLINE)  # the worker holds the lease: it does the work
        assert store.position("boards") == target
        assert read_models(store) == expected
    finally:
        stop.set()
        running.join()
    assert read_models(store) == expected
