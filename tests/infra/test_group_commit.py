"""Saves queued behind a write are written together, each told what it would have been told alone
(``infra/games/group_commit.py``), and under concurrent commands nothing is lost."""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from eventsourcing.persistence import IntegrityError, OperationalError

from infra.bootstrap import build_service
from infra.games.group_commit import GroupCommit
from infra.settings import Settings
from tests.benchmarks.bench_real_games import SALT, played_game


class SlowStore:
    """A store whose first write waits until ``queued`` saves have queued behind it."""

    def __init__(self, queued: int, refuse: type[Exception] | None = None, refused_event: str = "") -> None:
        self.queued = queued
        self.refuse = refuse
        self.refused_event = refused_event
        self.written: list[list[str]] = []
        self.first_done = False
        self.group: GroupCommit[Any] = GroupCommit(self.put)

    def put(self, events: Sequence[Any]) -> list[Any]:
        if not self.first_done:
            self.first_done = True
            deadline = time.monotonic() + 10
            while len(self.group._queue) < self.queued:
                assert time.monotonic() < deadline, "the saves did not queue"
                time.sleep(0.001)
        if self.refuse is not None and self.refused_event in events:
            raise self.refuse("refused")
        self.written.append(list(events))
        return [f"recorded {event}" for event in events]


def save_concurrently(store: SlowStore, saves: list[list[str]]) -> dict[str, Any]:
    """The first save, then the others once it is being written; what each was told."""
    told: dict[str, Any] = {}

    def save(events: list[str]) -> None:
        try:
            told[events[0]] = store.group.put(events)
        except Exception as error:
            told[events[0]] = error

    first = threading.Thread(target=save, args=(saves[0],))
    first.start()
    while not store.first_done:
        time.sleep(0.001)
    others = [threading.Thread(target=save, args=(events,)) for events in saves[1:]]
    for thread in others:
        thread.start()
    for thread in [first, *others]:
        thread.join(10)
    return told


def test_the_saves_queued_behind_a_write_are_written_together_each_told_its_own() -> None:
    store = SlowStore(queued=3)
    told = save_concurrently(store, [["a1"], ["b1", "b2"], ["c1"], ["d1", "d2", "d3"]])
    assert store.written[0] == ["a1"]
    assert sorted(store.written[1]) == ["b1", "b2", "c1", "d1", "d2", "d3"]
    assert len(store.written) == 2 and (store.group.batches, store.group.saves) == (2, 4)
    assert told == {
        "a1": ["recorded a1"],
        "b1": ["recorded b1", "recorded b2"],
        "c1": ["recorded c1"],
        "d1": ["recorded d1", "recorded d2", "recorded d3"],
    }


def test_a_conflict_refuses_the_save_in_conflict_only() -> None:
    store = SlowStore(queued=3, refuse=IntegrityError, refused_event="c1")
    told = save_concurrently(store, [["a1"], ["b1"], ["c1"], ["d1"]])
    assert isinstance(told["c1"], IntegrityError)
    assert {key: told[key] for key in ("a1", "b1", "d1")} == {
        "a1": ["recorded a1"],
        "b1": ["recorded b1"],
        "d1": ["recorded d1"],
    }
    assert sorted(e for batch in store.written for e in batch) == ["a1", "b1", "d1"]


def test_a_store_out_of_reach_refuses_every_save_of_the_batch() -> None:
    store = SlowStore(queued=3, refuse=OperationalError, refused_event="b1")
    told = save_concurrently(store, [["a1"], ["b1"], ["c1"], ["d1"]])
    assert told["a1"] == ["recorded a1"]
    assert all(isinstance(told[key], OperationalError) for key in ("b1", "c1", "d1"))
    assert store.written == [["a1"]]


def test_a_lone_save_is_written_at_once_and_its_error_is_its_own() -> None:
    store = SlowStore(queued=0, refuse=IntegrityError, refused_event="x")
    assert store.group.put(["a"]) == ["recorded a"]
    with pytest.raises(IntegrityError):
        store.group.put(["x"])
    assert store.group.put(["b"]) == ["recorded b"]
    assert store.written == [["a"], ["b"]]


def test_concurrent_commands_share_transactions_and_every_one_is_recorded(tmp_path: Path) -> None:
    service = build_service(Settings(database_url=f"sqlite:///{tmp_path}/events.sqlite"))
    try:
        games = [played_game("peloponnes", 3, f"group-{n}".encode()) for n in range(6)]
        created = [service.create_game(g.game, g.players, None, g.seed, salt=SALT) for g in games]
        put = service.writes._put

        def slow_put(events: Sequence[Any]) -> Any:
            time.sleep(0.005)  # a slow disk: the commands behind it queue
            return put(events)

        service.writes._put = slow_put
        saves, batches = service.writes.saves, service.writes.batches
        errors: list[BaseException] = []

        def play(game: Any, made: Any) -> None:
            try:
                for seat, command in game.commands:
                    service.execute(made.game_id, made.tokens[seat], dict(command))
            except BaseException as error:
                errors.append(error)

        threads = [threading.Thread(target=play, args=pair) for pair in zip(games, created, strict=True)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(120)
        assert errors == []
        commands = sum(len(g.commands) for g in games)
        assert service.writes.saves - saves == commands
        assert service.writes.batches - batches < commands / 2  # most commands shared a transaction
        for made in created:
            service._evict(service.load(made.game_id).id)  # read back from the store, not the cache
            match = service.load(made.game_id).match
            assert match.is_over
            records = service.records(made.game_id)
            assert [r.position for r in records] == list(range(1, match.version + 1))
            assert all(later.prev == earlier.hash for earlier, later in itertools.pairwise(records))
        ids = [n.id for n in service.recorder.select_notifications(start=1, limit=100_000)]
        assert ids == list(range(1, len(ids) + 1))
    finally:
        service.close()
