"""The projection runner: follows the event store's notification log and keeps read models current.

The same runner serves both modes: a background thread of ``alexandria serve`` in the embedded
mode (``infra.readside.reader``), ``alexandria project`` workers in the scale-out mode.

A read model is two things, and adding one means providing both:

- a **projection** (``projections.base.Projection``): a ``name`` and ``apply(documents, batch)``,
  pure, turning a batch of records (in notification order, never seen before) into document
  writes through ``Documents.get``/``put``;
- a **store** (``infra.readside.readmodels.ReadModelStore``) whose ``commit(projection, expected_cursor,
  position, changes, announcements)`` writes the batch's documents *and* the projection's new position in one
  transaction, and only if the projection's cursor is still ``expected_cursor`` (compare-and-set),
  then announces the games the batch moved on;
  ``cursor``/``get`` read back, ``reset`` starts a rebuild (a new generation), leases
  (``acquire_lease``/``release_lease``) let one worker at a time work on a projection, and
  ``announce`` tells readers which game moved on. A store of another shape (tables in another
  database) implements the same methods; its documents are then whatever ``commit`` makes of
  the changes.

``Projector(service, store, projections)`` runs any number of projections over one store;
``step``/``catch_up`` apply what is there, ``run_forever`` follows the log, ``rebuild`` starts a
projection again from position 0. Several projectors (over several stores) may run side by side:
in ``serve``, ``ReadSide.add_projector`` runs another one in the background beside the read
models' (woken after each save, started and stopped with the server).

Each projection moves on in batches: read the notifications after its position, let the pure
projection turn them into document changes, and commit the changes together with the batch's
last notification id. A lease per projection lets one worker at a time do the work, so several
workers are hot standbys rather than rivals; the compare-and-set keeps a worker whose lease ran
out from applying anything twice. While commands keep coming, batches grow by themselves (the
records that arrive during one batch make the next), so the cost per record falls under load.

Waking up: on PostgreSQL the runner LISTENs to the channel the recorder NOTIFYs on every insert;
in process, the service wakes it after each save (``wake``); it still polls every ``idle_wait``
seconds, so a lost notification (or a write by another process) only delays. A batch that was
not full is followed by a wait, not by another read (news that came in during the batch ends
the wait at once), and a batch's announcements go out with its commit (in Redis, from the
commit's script: one round trip for both): on a busy machine every round trip is a wait to be
scheduled again, which is where a projection's lag comes from.

Faults: when the event store or the read-model store goes away (a PostgreSQL restart or
``pg_terminate_backend``, a lost Redis connection), ``run_forever`` logs it, reconnects with
backoff and carries on from the stored positions; nothing is skipped or applied twice.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any, NamedTuple, cast

from eventsourcing.persistence import InterfaceError, Notification, OperationalError

from infra.games.aggregate import StoredGameEvent, records_of
from infra.games.service import GameService
from infra.readside.follower import DocumentBatch, Follower, ReadModelPosition, Step
from infra.readside.lease import Lease
from infra.readside.readmodels import Cursor, ReadModelStore, json_text, lease_owner
from infra.readside.worker import WorkerThread
from infra.retrying import Backoff
from projections.base import ProjectedRecord, Projection
from projections.registry import all_projections

log = logging.getLogger(__name__)

HEADS = "heads"  # every projection: game id -> the last version of the game it applied


class WrittenDocuments:
    """The documents this runner last committed for one projection, valid while the projection's
    cursor is still the one that commit left (no other worker has committed or reset since).

    Under a lease one runner does all the commits, so reads during a batch (a game's checkpoint,
    a lobby entry) are mostly of documents it wrote itself: this saves a store round trip each.
    Bounded by bytes (``max_bytes``: the texts and what each entry costs beside its text, as
    ``sys.getsizeof`` counts them), least recently written first out, whatever the games' sizes.
    """

    def __init__(self, max_bytes: int = 2_000_000) -> None:
        self.max_bytes = max_bytes
        self.cursor: Cursor | None = None
        self.texts: OrderedDict[tuple[str, str], str | None] = OrderedDict()
        self.bytes = 0

    @staticmethod
    def cost(address: tuple[str, str], text: str | None) -> int:
        """What an entry holds in memory: its text, its key (the tuple and the key string; the
        collection names are shared) and its slot in the ordered dict (about 100 bytes)."""
        return sys.getsizeof(text) + sys.getsizeof(address) + sys.getsizeof(address[1]) + 100

    def valid_at(self, cursor: Cursor) -> bool:
        return self.cursor == cursor

    def committed(self, cursor: Cursor, changes: Mapping[tuple[str, str], str | None]) -> None:
        self.cursor = cursor
        for address, text in changes.items():
            if address in self.texts:
                self.bytes -= self.cost(address, self.texts.pop(address))
            self.texts[address] = text
            self.bytes += self.cost(address, text)
        while self.bytes > self.max_bytes and self.texts:
            evicted, text = self.texts.popitem(last=False)
            self.bytes -= self.cost(evicted, text)

    def forget(self) -> None:
        self.cursor = None
        self.texts.clear()
        self.bytes = 0


class PendingDocuments:
    """A projection's documents during one batch: reads fall through to what this runner wrote
    (when still valid), then to the store; writes wait for the commit."""

    def __init__(self, store: ReadModelStore, projection: str, written: WrittenDocuments | None = None) -> None:
        self.store = store
        self.projection = projection
        self.written = written
        self.changes: dict[tuple[str, str], str | None] = {}

    def get(self, collection: str, key: str) -> Any | None:
        address = (collection, key)
        if address in self.changes:
            text = self.changes[address]
        elif self.written is not None and address in self.written.texts:
            text = self.written.texts[address]
        else:
            text = self.store.get(self.projection, collection, key)
        return None if text is None else json.loads(text)

    def put(self, collection: str, key: str, value: Any) -> None:
        self.changes[(collection, key)] = json_text(value)


def projected_records(service: GameService, notification: Notification) -> list[ProjectedRecord]:
    """The records of one stored game event (a command's, say), as the projections take them."""
    event = service.mapper.to_domain_event(notification)
    game_id = str(event.originator_id)
    timestamp = cast(StoredGameEvent, event).timestamp.isoformat()
    token_hashes = getattr(event, "token_hashes", None)  # only a game's Started and SeatJoined have them
    return [
        ProjectedRecord(
            game_id=game_id,
            record=record,
            notification_id=notification.id,
            timestamp=timestamp,
            token_hashes=token_hashes if i == 0 else None,
        )
        for i, record in enumerate(records_of(event))
    ]


def _notification_id(item: ProjectedRecord) -> int:
    return item.notification_id


class ReadModelBatch:
    """A read model's projection as the follower runs it: the batch's document writes, with the
    last version of each game it applied (``HEADS``) and the news of those games to announce."""

    def __init__(
        self, projection: Projection, store: ReadModelStore, written: WrittenDocuments, lost: Callable[[str], None]
    ) -> None:
        self.projection = projection
        self.store = store
        self.written = written
        self.lost = lost

    def apply(self, start: Cursor, batch: Sequence[ProjectedRecord]) -> DocumentBatch | None:
        name = self.projection.name
        if not self.written.valid_at(start):
            self.written.forget()
        documents = PendingDocuments(self.store, name, self.written)
        try:
            self.projection.apply(documents, list(batch))
        except Exception:
            # Documents are read as the batch goes: if another worker committed meanwhile, they
            # may be ahead of the batch (the projection refuses them), and this batch is moot.
            if self.store.cursor(name) != start:
                self.lost(name)
                return None
            raise
        heads = {item.game_id: item.record.position for item in batch}
        for game_id, version in heads.items():
            documents.put(HEADS, game_id, version)
        announcements = [(g, {"projection": name, "version": v}) for g, v in heads.items()]
        return DocumentBatch(documents.changes, announcements)


class WrittenPosition(ReadModelPosition):
    """A read model's position as this runner last committed it (while nobody else has: the
    commit's compare-and-set tells), remembering the documents it wrote."""

    def __init__(
        self, store: ReadModelStore, name: str, written: WrittenDocuments, lost: Callable[[str], None]
    ) -> None:
        super().__init__(store, name)
        self.written = written
        self.lost = lost

    def cursor(self) -> Cursor:
        # Under the lease nobody else commits; if someone did, the commit fails and we read again.
        if self.written.cursor is not None:
            return self.written.cursor
        return self.store.cursor(self.name)

    def commit(self, start: Cursor, position: int, changes: DocumentBatch) -> bool:
        if not super().commit(start, position, changes):
            log.info("%s: another worker applied the batch after %d first", self.name, start.position)
            self.lost(self.name)
            return False
        self.written.committed(Cursor(start.generation, position), changes.changes)
        return True


class News(NamedTuple):
    """How a runner learns that new records are in the event store: ``forget`` drops the news
    that arrived so far (just before a read, which sees those records), ``wait(timeout)``
    returns at the next news or after ``timeout`` seconds (on PostgreSQL a NOTIFY of the
    channel the recorder notifies on every insert; in process ``Projector.wake``)."""

    forget: Callable[[], object]
    wait: Callable[[float], object]


class Projector:
    def __init__(
        self,
        service: GameService,
        store: ReadModelStore,
        projections: Sequence[Projection] | None = None,
        *,
        batch_size: int = 200,
        lease_seconds: float = 5.0,
        cache_bytes: int = 4_000_000,
        gather_seconds: float = 0.0,
    ) -> None:
        self.service = service
        # After news, wait this long for more before a batch, unless a reader hurries it (``hurry``):
        # under a stream of commands a batch then holds several commands' records, and its costs
        # (a checkpoint decoded and encoded per game, a commit per projection) are paid once for them.
        self.gather_seconds = gather_seconds
        self._hurry = threading.Event()
        self.store = store
        self.projections = list(projections if projections is not None else all_projections())
        self.batch_size = batch_size
        self.owner = lease_owner("projector")
        self.lost_races = 0  # batches another worker committed first (after a lease ran out)
        # The documents it wrote, at most ``cache_bytes`` in all (shared out among the projections).
        share = cache_bytes // max(1, len(self.projections))
        self._written = {p.name: WrittenDocuments(share) for p in self.projections}
        self._leases = {p.name: Lease(store, p.name, self.owner, lease_seconds) for p in self.projections}
        self._batches: dict[int, list[ProjectedRecord]] = {}  # this step's reads, by the position read after
        self._followers = {
            p.name: Follower(
                self._read,
                ReadModelBatch(p, store, self._written[p.name], self._lost_race),
                WrittenPosition(store, p.name, self._written[p.name], self._lost_race),
                batch_size=batch_size,
                position_of=_notification_id,
            )
            for p in self.projections
        }
        # In one process, one thread at a time steps (the compare-and-set would only waste work).
        self._stepping = threading.Lock()
        self._news = threading.Event()
        self._worker = WorkerThread("projector", self.run_forever, self._news)

    def projection(self, name: str) -> Projection:
        for projection in self.projections:
            if projection.name == name:
                return projection
        raise KeyError(f"there is no read model {name!r}; they are: {', '.join(p.name for p in self.projections)}")

    # -- stepping ---------------------------------------------------------------------------------

    def step(self, only: str | None = None) -> int:
        """One batch for each projection whose lease this runner holds; the number of records
        seen (0: every projection it could work on is up to date)."""
        return self._step(only)[0]

    def _step(self, only: str | None = None) -> tuple[int, bool]:
        # (records seen, whether to step again at once: a batch was full, so more may be waiting,
        # or a batch came to nothing because another worker or a reset overtook this runner)
        seen, again = 0, False
        with self._stepping:
            try:
                for projection in self.projections:
                    if (only is None or projection.name == only) and self._hold_lease(projection.name):
                        step = self._followers[projection.name].step()
                        seen += step.seen
                        again = self._again(projection.name, step) or again
            finally:
                self._batches.clear()
        return seen, again

    def _again(self, name: str, step: Step) -> bool:
        """Whether to step again at once after ``step`` of projection ``name``."""
        if step.seen:
            return step.full or not step.committed
        if self._written[name].cursor is not None and self.store.cursor(name) != step.start:
            # Nothing new after the position this runner's last commit left, but the store
            # moved: a rebuild reset it (only a commit notices otherwise, and while the log
            # is quiet nothing is committed), so start from the stored position.
            self._written[name].forget()
            return True
        return False

    def _hold_lease(self, name: str) -> bool:
        if self._leases[name].hold():
            return True
        self._written[name].forget()  # another worker commits meanwhile
        return False

    def _read(self, after: int, limit: int) -> list[ProjectedRecord]:
        # Projections at the same position share a read (within one step).
        if after not in self._batches:
            notifications = self.service.recorder.select_notifications(start=after + 1, limit=limit)
            self._batches[after] = [item for n in notifications for item in projected_records(self.service, n)]
        return self._batches[after]

    def _lost_race(self, name: str) -> None:
        self.lost_races += 1
        self._written[name].forget()

    def catch_up(self, only: str | None = None) -> None:
        while any(self._step(only)):
            pass

    # -- running ----------------------------------------------------------------------------------

    def wake(self) -> None:
        """New records are in the event store (called by the service after each save)."""
        if not self._news.is_set():  # set: the runner has not read since, and its next read sees them
            self._news.set()

    def hurry(self) -> None:
        """A reader waits for records this runner has not applied yet: the next batch goes now."""
        self._hurry.set()
        self._news.set()

    def run_forever(self, stop: threading.Event, idle_wait: float = 0.5) -> None:
        """Follow the log until ``stop`` is set (or the service is closed), surviving lost
        connections to either store: log, back off, reconnect, resume from the stored positions.

        After a batch that was not full, the runner waits for news at once rather than reading
        again to find nothing: news of a record saved after the batch's read arrives after that
        read began (the wake-ups that came before it are dropped first, since the read sees
        their records), so the wait returns at once for it."""
        backoff = Backoff("the event store or the read-model store", log)
        try:
            while not self._stopping(stop):
                try:
                    with self._wake_ups() as news:
                        while not self._stopping(stop):
                            news.forget()
                            self._hurry.clear()
                            _, again = self._step()
                            backoff.succeeded()
                            if not again:
                                news.wait(idle_wait)
                                if self.gather_seconds:
                                    self._hurry.wait(self.gather_seconds)
                except transient_errors() as problem:
                    self._doubt_leases()  # a lease may have run out while we were away
                    backoff.failed(problem, stop)
        finally:
            try:
                self.release_leases()
            except transient_errors():
                pass  # the leases run out by themselves

    def _stopping(self, stop: threading.Event) -> bool:
        return stop.is_set() or self.service.closing.is_set()

    def start(self) -> None:
        """Run ``run_forever`` in a background thread (the embedded mode's projection worker)."""
        self._worker.start()

    @property
    def running(self) -> bool:
        return self._worker.running

    def stop(self, timeout: float = 10.0) -> None:
        self._worker.stop(timeout)

    def release_leases(self) -> None:
        for lease in self._leases.values():
            lease.release()

    def _doubt_leases(self) -> None:
        for lease in self._leases.values():
            lease.doubt()

    @contextmanager
    def _wake_ups(self) -> Iterator[News]:
        recorder = self.service.recorder
        postgres = sys.modules.get("eventsourcing.postgres")  # loaded only in the scale-out mode
        if postgres is None or not isinstance(recorder, postgres.PostgresApplicationRecorder):
            yield News(self._news.clear, self._news.wait)
            return
        from psycopg.sql import SQL, Identifier  # the scale-out mode only

        with recorder.datastore.get_connection() as connection:
            connection.execute(SQL("LISTEN {0}").format(Identifier(recorder.channel_name)))

            def forget() -> None:
                for _ in connection.notifies(timeout=0):
                    pass

            def wait(timeout: float) -> None:
                for _ in connection.notifies(timeout=timeout, stop_after=1):
                    pass

            yield News(forget, wait)

    def rebuild(self, name: str, timeout: float = 600.0) -> None:
        """Recompute one read model from the event store from scratch.

        Reset first (documents and position in one step), then catch up: this runner if it
        gets the lease, or the worker that holds it (its next commit fails the compare-and-set
        and it starts again from the reset position). Returns once the read model has caught
        up with the log as it was when the rebuild started.
        """
        self.projection(name)
        target = self.service.recorder.max_notification_id() or 0
        self.store.reset(name)
        self._written[name].forget()  # what this runner wrote before the reset is gone
        deadline = time.monotonic() + timeout
        while self.store.position(name) < target:
            if self.step(only=name) == 0:
                if time.monotonic() > deadline:
                    raise TimeoutError(f"{name}: not rebuilt after {timeout} s")
                time.sleep(0.05)
        self._leases[name].release()


def transient_errors() -> tuple[type[BaseException], ...]:
    """The errors that mean a store is out of reach for now (retry later), not a bug.

    Back-end clients count only when loaded: the embedded mode never imports them."""
    errors: list[type[BaseException]] = [OperationalError, InterfaceError, sqlite3.OperationalError]
    if (psycopg := sys.modules.get("psycopg")) is not None:
        errors += [psycopg.OperationalError, psycopg.InterfaceError]
    if (redis := sys.modules.get("redis")) is not None:
        errors += [redis.ConnectionError, redis.TimeoutError]
    return tuple(errors)
