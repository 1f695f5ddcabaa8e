"""The read-model stores keep the same contract (Redis: a real server, see services.py)."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from infra.readside.readmodels import Cursor, MemoryStore, ReadModelStore, SqliteStore
from infra.readside.redis_store import RedisStore
from infra.readside.waiting import TooManyWaiters, Waiters


@pytest.fixture(params=["memory", "sqlite", pytest.param("redis", marks=pytest.mark.services)])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[ReadModelStore]:
    if request.param == "memory":
        yield MemoryStore()
        return
    if request.param == "sqlite":
        sqlite_store = SqliteStore(tmp_path / "readmodels.sqlite")
        yield sqlite_store
        sqlite_store.close()
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
    heads = lambda projection, games: {  # noqa: E731
        g: int(v) for g, v in store.get_many(projection, "heads", games).items()
    }
    waiters = Waiters(heads, limit=10, recheck_seconds=30)  # no re-check in this test: announcements only
    store.listen(waiters.announced)

    def later() -> None:
        time.sleep(0.2)
        store.commit("boards", Cursor(0, 0), 1, {("heads", "g"): "3"})
        store.announce("g", {"projection": "boards", "version": 3})

    async def scenario() -> tuple[bool, bool, bool]:
        threading.Thread(target=later).start()
        woken = await waiters.wait("boards", "g", 3, timeout=10)
        other_projection = await waiters.wait("lobby", "g", 3, timeout=0.1)
        beyond = await waiters.wait("boards", "g", 4, timeout=0.1)
        return woken, other_projection, beyond

    try:
        assert asyncio.run(scenario()) == (True, False, False)
    finally:
        waiters.close()
        store.close()


def test_waiters_see_a_head_without_an_announcement_by_one_re_check_for_all() -> None:
    """A lost announcement (or a projector in another process) delays waiters, never strands them;
    the re-check reads every waited-for head in one call, not one call per waiter."""
    heads: dict[str, int] = {}
    calls: list[list[str]] = []

    def read(projection: str, games: list[str]) -> dict[str, int]:
        calls.append(games)
        return {g: heads[g] for g in games if g in heads}

    waiters = Waiters(read, limit=100, recheck_seconds=0.05)

    async def scenario() -> list[bool]:
        waits = [asyncio.create_task(waiters.wait("boards", f"g{i % 3}", 2, timeout=10)) for i in range(30)]
        await asyncio.sleep(0.2)
        heads.update({"g0": 2, "g1": 2, "g2": 5})
        return list(await asyncio.gather(*waits))

    try:
        assert asyncio.run(scenario()) == [True] * 30
    finally:
        waiters.close()
    assert calls and all(sorted(games) == games and len(games) <= 3 for games in calls)


def test_one_waiter_over_the_bound_is_refused_at_once_with_a_clear_error() -> None:
    waiters = Waiters(lambda projection, games: {}, limit=2, recheck_seconds=30)

    async def scenario() -> Any:
        first = [asyncio.create_task(waiters.wait("boards", "g", 2, timeout=2)) for _ in range(2)]
        await asyncio.sleep(0.05)
        assert waiters.waiting == 2
        with pytest.raises(TooManyWaiters) as refused:
            await waiters.wait("boards", "g", 2, timeout=0.5)
        assert await asyncio.gather(*first) == [False, False]
        assert waiters.waiting == 0
        return refused.value

    try:
        refusal = asyncio.run(scenario())
    finally:
        waiters.close()
    assert refusal.code == "TOO_MANY_WAITERS" and "ask again" in refusal.message


def test_sqlite_read_models_outlive_the_process_that_wrote_them(tmp_path: Path) -> None:
    path = tmp_path / "readmodels.sqlite"
    first = SqliteStore(path)
    first.commit("boards", Cursor(0, 0), 5, {("match", "g"): '{"v":5}'})
    first.close()
    again = SqliteStore(path)
    assert again.cursor("boards") == Cursor(0, 5) and again.get("boards", "match", "g") == '{"v":5}'
    assert again.get_many("boards", "match", ["g", "missing"]) == {"g": '{"v":5}'}
    again.close()


def test_a_commit_announces_its_games_once_committed_and_a_refused_one_nothing(store: ReadModelStore) -> None:
    heard: list[tuple[str, dict[str, Any]]] = []
    listening, everything_heard = threading.Event(), threading.Event()

    def listener(game_id: str, message: dict[str, Any]) -> None:
        if game_id == "probe":
            listening.set()
            return
        heard.append((game_id, message))
        if game_id == "last":
            everything_heard.set()

    store.listen(listener)
    deadline = time.monotonic() + 30
    while not listening.is_set():  # Redis subscribes in a thread of its own: until it hears
        assert time.monotonic() < deadline, "the store's listener never heard an announcement"
        store.announce("probe", {})
        listening.wait(0.05)
    refused = store.commit("boards", Cursor(0, 5), 6, {("heads", "g"): "2"}, [("g", {"version": 2})])
    committed = store.commit(
        "boards", Cursor(0, 0), 1, {("heads", "g"): "3"}, [("g", {"version": 3}), ("last", {"version": 1})]
    )
    assert (refused, committed) == (False, True)
    assert everything_heard.wait(30)
    assert heard == [("g", {"version": 3}), ("last", {"version": 1})]
    assert store.get("boards", "heads", "g") == "3"
