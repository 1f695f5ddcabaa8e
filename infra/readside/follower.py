"""The one way to follow a notification log: a batch after a position, applied, committed with
the batch's last position.

Everything that keeps something current from the event store follows its log this way: the read
models (``infra.readside.projector``), the analytics tables (``infra.analytics.runner``), the
tournament results and list (``infra.tournaments``), the clock keeper's index and the games the
bot seats watch. Each is three things:

- a **log** to read: ``read(after, limit)``, the items (notifications, or records decoded from
  them) after a position, in order, and ``position_of(item)``, the position an item leaves;
- a **projection**: ``apply(start, batch)`` turns a batch, never seen before, into its changes
  (None: the batch is moot, another follower got there first while it was applied);
- a **position store**: ``cursor()``, where the follower stands, and ``commit(start, position,
  changes)``, which stores the changes and the new position together (atomically, and only if
  the cursor is still ``start``, where the store allows it: a read model, the analytics
  database, a result's tracking record) and says whether it did.

A follower that stopped (or was killed) resumes from the stored position: nothing is skipped,
and a compare-and-set keeps a batch from being applied twice. Who may follow at a time is the
business of a ``Lease`` (``infra.readside.lease``), how often of each follower's own loop.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import count
from typing import Generic, NamedTuple, Protocol, TypeVar

from eventsourcing.persistence import ApplicationRecorder, Notification

from infra.readside.readmodels import Announcements, Changes, Cursor, ReadModelStore

Item = TypeVar("Item")  # what the log's reader gives: a notification, or a record decoded from one
Batch = TypeVar("Batch")  # what a projection makes of a batch (the store's to commit)
Item_contra = TypeVar("Item_contra", contravariant=True)
Batch_co = TypeVar("Batch_co", covariant=True)
Batch_contra = TypeVar("Batch_contra", contravariant=True)


class BatchProjection(Protocol[Item_contra, Batch_co]):
    def apply(self, start: Cursor, batch: Sequence[Item_contra]) -> Batch_co | None:
        """The changes of ``batch`` (read after ``start``); None: the batch is moot."""
        ...


class PositionStore(Protocol[Batch_contra]):
    def cursor(self) -> Cursor: ...

    def commit(self, start: Cursor, position: int, changes: Batch_contra) -> bool:
        """Store ``changes`` and move to ``position`` together; False (nothing stored) when the
        cursor is no longer ``start``."""
        ...


class Step(NamedTuple):
    start: Cursor  # where the batch was read after
    seen: int  # the items read (0: the follower is up to date)
    committed: bool  # the batch's changes and position are stored (False: nothing read, or overtaken)
    full: bool  # the batch was as large as allowed: more may be waiting
    end: int  # the position the follower moved to (``start.position`` when nothing was committed)


def notification_id(notification: Notification) -> int:
    return notification.id


class Follower(Generic[Item, Batch]):
    def __init__(
        self,
        read: Callable[[int, int], Sequence[Item]],
        projection: BatchProjection[Item, Batch],
        store: PositionStore[Batch],
        *,
        batch_size: int,
        position_of: Callable[[Item], int],
    ) -> None:
        self.read = read
        self.projection = projection
        self.store = store
        self.batch_size = batch_size
        self.position_of = position_of

    def step(self) -> Step:
        """One batch: read after the stored position, apply, commit."""
        start = self.store.cursor()
        batch = self.read(start.position, self.batch_size)
        if not batch:
            return Step(start, 0, False, False, start.position)
        changes = self.projection.apply(start, batch)
        end = self.position_of(batch[-1])
        committed = changes is not None and self.store.commit(start, end, changes)
        full = len(batch) >= self.batch_size
        return Step(start, len(batch), committed, full, end if committed else start.position)

    def catch_up(self, attempts: int | None = None) -> int:
        """Batch after batch until one that was not full is committed (or there is nothing to
        read), at most ``attempts`` batches; the items seen. An overtaken batch is read again
        from where the store now stands."""
        seen = 0
        for _ in count() if attempts is None else range(attempts):
            step = self.step()
            seen += step.seen
            if step.seen == 0 or (step.committed and not step.full):
                break
        return seen


def log_reader(recorder: ApplicationRecorder) -> Callable[[int, int], Sequence[Notification]]:
    """``read`` of an event store's notification log."""

    def read(after: int, limit: int) -> Sequence[Notification]:
        return recorder.select_notifications(start=after + 1, limit=limit)

    return read


def log_follower(
    recorder: ApplicationRecorder,
    projection: BatchProjection[Notification, Batch],
    store: PositionStore[Batch],
    batch_size: int,
) -> Follower[Notification, Batch]:
    """A follower of an event store's notification log itself (not of records decoded from it)."""
    return Follower(log_reader(recorder), projection, store, batch_size=batch_size, position_of=notification_id)


class MemoryPosition(Generic[Batch]):
    """A position kept in this process only (a follower that rebuilds what it keeps on every
    start, as the bot seats and the clock keeper do): ``keep`` takes each batch's changes."""

    def __init__(self, keep: Callable[[Batch], object]) -> None:
        self.keep = keep
        self.position: int | None = None  # None: not started

    def begin(self, at: int) -> None:
        """Follow from ``at`` on, unless following already."""
        if self.position is None:
            self.position = at

    def cursor(self) -> Cursor:
        return Cursor(0, self.position or 0)

    def commit(self, start: Cursor, position: int, changes: Batch) -> bool:
        self.keep(changes)
        self.position = position
        return True


class DocumentBatch(NamedTuple):
    """A read model's batch: its document writes, and the news to announce with them."""

    changes: Changes
    announcements: Announcements = ()


class ReadModelPosition:
    """A read model's position in a ``ReadModelStore``: documents and position are committed in
    one transaction, compare-and-set on the cursor."""

    def __init__(self, store: ReadModelStore, name: str) -> None:
        self.store = store
        self.name = name

    def cursor(self) -> Cursor:
        return self.store.cursor(self.name)

    def commit(self, start: Cursor, position: int, changes: DocumentBatch) -> bool:
        return self.store.commit(self.name, start, position, changes.changes, changes.announcements)
