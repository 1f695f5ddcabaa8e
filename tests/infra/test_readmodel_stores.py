"""The two read-model stores keep the same contract (Redis: a real server, see services.py)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest

from infra.readmodels import Cursor, MemoryStore, ReadModelStore, RedisStore


@pytest.fixture(params=["memory", pytest.param("redis", marks=pytest.mark.services)])
def store(request: pytest.FixtureRequest) -> Iterator[ReadModelStore]:
    if request.param == "memory":
        yield MemoryStore()
        return
    redis_store = RedisStore(request.getfixturevalue("redis_url"), request.getfixturevalue("redis_prefix"))
    yield redis_store
    redis_store.close()


def test_documents_and_position_move_together_and_only_from_the_expected_position(store: ReadModelStore) -> None:
    assert store.position("boards") == 0
    assert store.commit("boards", Cursor(0, 0), 7, {("views", "g/public"): '{"v":1}', ("seats", "g"): '["h"]'})
    assert not store.commit("boards", Cursor(0, 3), 9, {("views", "g/public"): '{"v":2}'})
    assert not store.commit("boards", Cursor(0, 0), 9, {("views", "other"): '{"v":2}'})
    assert store.position("boards") == 7
    assert store.export("boards") == {"views": {"g/public": '{"v":1}'}, "seats": {"g": '["h"]'}}
    assert store.commit("boards", Cursor(0, 7), 8, {("views", "g/public"): None, ("views", "g/0"): "1"})
    assert store.get_all("boards", "views") == {"g/0": "1"}
    assert store.position("lobby") == 0, "positions are per projection"


def test_reset_forgets_one_projection_only(store: ReadModelStore) -> None:
    store.commit("boards", Cursor(0, 0), 4, {("views", "a"): "1"})
    store.commit("lobby", Cursor(0, 0), 4, {("games", "a"): "2"})
    store.reset("boards")
    assert store.position("boards") == 0 and store.export("boards") == {}
    assert store.position("lobby") == 4 and store.get("lobby", "games", "a") == "2"


def test_a_batch_begun_before_a_reset_cannot_commit_after_it_even_at_the_same_position(store: ReadModelStore) -> None:
    store.commit("boards", Cursor(0, 0), 4, {("views", "a"): "1"})
    begun = store.cursor("boards")
    store.reset("boards")
    assert store.commit("boards", store.cursor("boards"), 4, {("views", "a"): "rebuilt"})
    assert store.position("boards") == begun.position
    assert not store.commit("boards", begun, 6, {("views", "a"): "stale"})
    assert store.get("boards", "views", "a") == "rebuilt"


def test_leases_exclude_other_owners_until_released_or_expired(store: ReadModelStore) -> None:
    assert store.acquire_lease("frames", "a", ttl=0.2)
    assert not store.acquire_lease("frames", "b", ttl=5)
    assert store.acquire_lease("frames", "a", ttl=0.2)
    time.sleep(0.3)
    assert store.acquire_lease("frames", "b", ttl=5)
    store.release_lease("frames", "a")  # not a's any more: changes nothing
    assert not store.acquire_lease("frames", "a", ttl=5)
    store.release_lease("frames", "b")
    assert store.acquire_lease("frames", "a", ttl=5)


def test_a_waiting_reader_wakes_on_the_announcement(store: ReadModelStore) -> None:
    def later() -> None:
        time.sleep(0.2)
        store.commit("boards", Cursor(0, 0), 1, {("heads", "g"): "3"})
        store.announce("g", {"projection": "boards", "version": 3})

    threading.Thread(target=later).start()
    started = time.monotonic()
    assert store.wait_until("g", lambda: store.get("boards", "heads", "g") == "3", timeout=5)
    assert time.monotonic() - started < 1
    assert not store.wait_until("g", lambda: False, timeout=0.1)
