"""Saves that arrive while another is being written are written together: one transaction, one
commit and one disk sync for all of them (group commit).

A command's save costs its thread the store's transaction: taking a connection, beginning,
inserting, committing, and the disk sync of the commit, which costs CPU in the kernel as well as
time. Under concurrent commands they queue for the store's one writer anyway; here, the first
save in the queue writes every save waiting behind it at once, then hands the writing on to the
first save that queued meanwhile. A lone save is written at once, as before.

What each save is told is what it would have been told alone: its own recordings, or its own
refusal. A batch that the store refuses for a conflict (a version another writer took: one save's
fault) is written again save by save, so that only the save in conflict is refused; any other
failure (a store out of reach or locked) is every save's, since none of them was written."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar
from uuid import UUID

from eventsourcing.persistence import RecordConflictError, Recording

Id = TypeVar("Id", bound=UUID | str)
Put = Callable[[Sequence[Any]], list[Recording[Id]]]  # domain events -> their recordings, in order

# Saves written in one transaction at most (a bound on the transaction, not a pause: a batch is
# whatever queued while the one before it was written).
MAX_BATCH = 64


class _Save(Generic[Id]):
    __slots__ = ("done", "error", "events", "leads", "recordings")

    def __init__(self, events: Sequence[Any]) -> None:
        self.events = events
        self.done = threading.Event()
        self.leads = False  # handed the writing of the next batch
        self.recordings: list[Recording[Id]] = []
        self.error: BaseException | None = None

    def result(self) -> list[Recording[Id]]:
        if self.error is not None:
            raise self.error
        return self.recordings


class GroupCommit(Generic[Id]):
    def __init__(self, put: Put[Id]) -> None:
        self._put = put
        self._guard = threading.Lock()
        self._queue: list[_Save[Id]] = []
        self._writing = False
        self.batches = 0  # transactions written (a counter for tests and benchmarks)
        self.saves = 0

    def put(self, events: Sequence[Any]) -> list[Recording[Id]]:
        """Write ``events`` (with those of the saves queued beside them); their recordings."""
        save: _Save[Id] = _Save(events)
        with self._guard:
            self._queue.append(save)
            leads = not self._writing
            self._writing = True
        if not leads:
            save.done.wait()
            if not save.leads:
                return save.result()
        self._write_next_batch()
        return save.result()

    def _write_next_batch(self) -> None:
        with self._guard:
            batch, self._queue = self._queue[:MAX_BATCH], self._queue[MAX_BATCH:]
        try:
            self._write(batch)
        finally:
            with self._guard:
                if self._queue:
                    following = self._queue[0]
                    following.leads = True
                    following.done.set()
                else:
                    self._writing = False
            for save in batch:
                if save is not batch[0]:
                    save.done.set()

    def _write(self, batch: list[_Save[Id]]) -> None:
        self.batches += 1
        self.saves += len(batch)
        if len(batch) == 1:
            self._write_alone(batch[0])
            return
        try:
            recordings = self._put([event for save in batch for event in save.events])
        except RecordConflictError:
            for save in batch:  # one save's conflict: the others are written on their own
                self._write_alone(save)
            return
        except BaseException as error:
            for save in batch:
                save.error = error
            return
        start = 0
        for save in batch:
            save.recordings = recordings[start : start + len(save.events)]
            start += len(save.events)

    def _write_alone(self, save: _Save[Id]) -> None:
        try:
            save.recordings = self._put(save.events)
        except BaseException as error:
            save.error = error
