"""The analytics runner: the analytics read model as a follower of the notification log
(``infra.readside.follower``), like every projector (``infra.readside.projector``).

It reads the notifications after its position, turns them into rows (``projections.analytics``,
pure) and commits the rows together with the batch's last notification id in one DuckDB
transaction, only if the position is still the one the batch started from. A restart
resumes at the stored position; a rebuild clears every table and the position in one
transaction and catches up again.

A running game is stored as a spectator sees it. When its ``GameEnded`` arrives, its private
records are written again in full (read again from the event store when the game began before
the batch), and the whole game is replayed for the scores of each round.
"""

from __future__ import annotations

import bisect
import gc
import logging
import threading
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import NamedTuple, cast

import duckdb
import orjson
from eventsourcing.persistence import Notification

from domain.kernel.log import GAME_CREATED, GAME_ENDED, Record
from infra.analytics.database import (
    CONTEXT_TABLE,
    POSITION_TABLE,
    PROJECTION,
    AnalyticsBusy,
    AnalyticsDatabase,
    insert_columns,
)
from infra.games.aggregate import StoredGameEvent, records_of
from infra.games.service import GameService
from infra.readside.follower import Follower
from infra.readside.readmodels import Cursor
from infra.tournaments.service import TournamentService
from projections.analytics import (
    GAMES_TABLE,
    RECORDS_TABLE,
    SEATS_TABLE,
    TABLES,
    Context,
    Rows,
    ended_game,
    running_game,
)

log = logging.getLogger(__name__)

RETRY_SECONDS = 2.0

# -- where records come from --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StoredRecord:
    game_id: str
    record: Record
    recorded_at: datetime
    notification_id: int


class RecordSource:
    """The event store as the projection reads it: notifications in order, and a game's earlier
    records when it ends."""

    def __init__(self, service: GameService, tournaments: TournamentService | None = None) -> None:
        self.service = service
        self._tournaments = tournaments
        self._own_tournaments = tournaments is None  # opened (and closed) here

    def after(self, position: int, limit: int) -> list[StoredRecord]:
        notifications = self.service.recorder.select_notifications(start=position + 1, limit=limit)
        return [stored for n in notifications for stored in self._stored(n)]

    def _stored(self, notification: Notification) -> list[StoredRecord]:
        event = cast(StoredGameEvent, self.service.mapper.to_domain_event(notification))
        game_id = str(notification.originator_id)
        return [StoredRecord(game_id, record, event.timestamp, notification.id) for record in records_of(event)]

    def latest(self) -> int:
        """The last notification id in the store (a cheap query: no need to open the database)."""
        return self.service.recorder.max_notification_id() or 0

    def game(self, game_id: str, through: int) -> list[tuple[Record, datetime]]:
        return self.service.timed_records(game_id, through=through)

    def tournament_of(self, game_id: str) -> str | None:
        """The tournament a game is a table of, from the tournament store's index of tables (the
        same store, so a rebuild finds what the live projection found). A table's game is created
        just before its round is recorded: until then it is no tournament's, and the projection asks
        again with the game's next records (by its end the round is always recorded)."""
        if self._tournaments is None:  # opened on first use: most projections never need it
            self._tournaments = TournamentService(self.service)
        return self._tournaments.tournament_of(game_id)

    def table_players(self, tournament_id: str, game_id: str) -> list[tuple[int, str]] | None:
        """The tournament's players at the table of ``game_id``, by seat: (player number, name)."""
        if self._tournaments is None:
            self._tournaments = TournamentService(self.service)
        state = self._tournaments.load(tournament_id).log.state
        table = state.table_of(game_id)
        if table is None:
            return None
        return [(player, state.names[player]) for player in table.players]

    def close(self) -> None:
        """Close the tournament store if this source opened it (it opens again when needed)."""
        if self._own_tournaments and self._tournaments is not None:
            self._tournaments.close()
            self._tournaments = None


class ListSource(RecordSource):
    """Records held in memory (benchmarks and tests feed the projection without a store)."""

    def __init__(self, records: Sequence[StoredRecord]) -> None:
        self.records = list(records)
        self.ids = [r.notification_id for r in self.records]
        self.by_game: dict[str, list[StoredRecord]] = defaultdict(list)
        for item in self.records:
            self.by_game[item.game_id].append(item)

    def after(self, position: int, limit: int) -> list[StoredRecord]:
        start = bisect.bisect_right(self.ids, position)
        return self.records[start : start + limit]

    def latest(self) -> int:
        return self.ids[-1] if self.ids else 0

    def game(self, game_id: str, through: int) -> list[tuple[Record, datetime]]:
        return [(s.record, s.recorded_at) for s in self.by_game[game_id] if s.record.position <= through]

    def tournament_of(self, game_id: str) -> str | None:
        return None

    def table_players(self, tournament_id: str, game_id: str) -> list[tuple[int, str]] | None:
        return None

    def close(self) -> None:
        pass


# -- the projection runner ----------------------------------------------------------------------


class AnalyticsProjector:
    name = PROJECTION

    def __init__(self, source: RecordSource, database: AnalyticsDatabase, batch_size: int = 20000) -> None:
        self.source = source
        self.database = database
        self.batch_size = batch_size
        self.lost_races = 0  # batches another runner committed first
        self.position = 0  # the last position this runner saw committed
        self._stepping = threading.Lock()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def step(self) -> int:
        """One batch; the number of records applied (0: up to date)."""
        with self._stepping, self.database.connect(read_only=False) as connection:
            return self._step(connection)

    def catch_up(self, hold_seconds: float = 1.0) -> int:
        """Apply batches until up to date; the number of records applied. The database is
        held for ``hold_seconds`` of work at a time, so that readers get their turn, and the
        batches of that time are one DuckDB transaction (a commit, and the checkpoint it may
        start, costs nearly as much as a batch's inserts). A failed batch rolls back the
        batches before it in that transaction too."""
        applied = 0
        while True:
            with self._stepping, self.database.connect(read_only=False) as connection:
                until = time.monotonic() + hold_seconds
                connection.execute("BEGIN TRANSACTION")
                try:
                    while seen := self._step(connection, held=True):
                        applied += seen
                        if time.monotonic() > until:
                            break
                    else:
                        connection.execute("COMMIT")
                        return applied
                    connection.execute("COMMIT")
                except BaseException:
                    connection.execute("ROLLBACK")
                    self.position = AnalyticsPosition(connection).cursor().position
                    raise

    def _step(self, connection: duckdb.DuckDBPyConnection, held: bool = False) -> int:
        """One batch on ``connection``: in a transaction of its own, or (``held``) in the
        caller's."""
        # A batch makes a few objects a record (rows, tuples, dicts), all of them freed by their
        # counts once it is committed: the cyclic collector, which ran over and over across the
        # process's whole heap while they lived (a tenth of a rebuild's time), waits until then.
        collecting = gc.isenabled()
        gc.disable()
        try:
            step = self._follower(connection, held).step()
        finally:
            if collecting:
                gc.enable()
        self.position = step.end
        if step.seen and not step.committed:
            self.lost_races += 1
            return 0
        return step.seen

    def _follower(
        self, connection: duckdb.DuckDBPyConnection, held: bool = False
    ) -> Follower[StoredRecord, AnalyticsChanges]:
        """The follower of the log into the tables of ``connection`` (one per connection held)."""
        return Follower(
            self.source.after,
            AnalyticsBatch(self.source, connection),
            AnalyticsPosition(connection, held),
            batch_size=self.batch_size,
            position_of=_notification_id,
        )

    def run_forever(self, stop: threading.Event, idle_wait: float = 0.5) -> None:
        """Follow the log until ``stop`` is set: poll every ``idle_wait`` seconds, or at once
        when woken (``wake``: the service saved something), renewing the snapshot as it goes."""
        while not stop.is_set():
            try:
                idle = (self.position and self.source.latest() <= self.position) or self.step() == 0
                self.database.publish()  # the snapshot, once snapshot_seconds have passed since the last
                if idle:
                    self._wake.wait(idle_wait)
                    self._wake.clear()
            except AnalyticsBusy as busy:
                log.warning("%s", busy.message)
            except Exception:
                # The event store or the file went away for a moment: a batch is all or nothing,
                # so trying again later is safe.
                log.exception("analytics: a batch failed; trying again in %g s", RETRY_SECONDS)
                stop.wait(RETRY_SECONDS)

    # -- in the background of a process (the embedded server) ------------------------------------

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self) -> None:
        if self.running:
            return
        self._stop.clear()
        self._thread = threading.Thread(
            target=self.run_forever, args=(self._stop,), name="analytics-projector", daemon=True
        )
        self._thread.start()

    def wake(self) -> None:
        self._wake.set()

    def stop(self, timeout: float = 30.0) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    def close(self) -> None:
        """Stop the background thread, if it runs, and close what the source opened (it opens
        again if the projector is used after)."""
        self.stop()
        with self._stepping:
            self.source.close()

    def rebuild(self) -> int:
        """Empty every table and the position in one transaction, then catch up."""
        with self._stepping, self.database.connect(read_only=False) as connection:
            connection.execute("BEGIN TRANSACTION")
            for table in (*TABLES, CONTEXT_TABLE):
                connection.execute(f"DELETE FROM {table}")
            connection.execute(
                f"UPDATE {POSITION_TABLE} SET generation = generation + 1, position = 0 WHERE projection = ?",
                [PROJECTION],
            )
            connection.execute("COMMIT")
        return self.catch_up()


def _notification_id(item: StoredRecord) -> int:
    return item.notification_id


class AnalyticsChanges(NamedTuple):
    """What a batch changes in the tables."""

    rows: Rows  # the rows it adds
    contexts: dict[str, Context | None]  # the new context of each game it moved on (None: ended)
    replaced: set[str]  # the games whose earlier private records it writes again in full (they ended in it)


class AnalyticsBatch:
    """The analytics projection as the follower runs it: a batch's rows, over the contexts of the
    running games stored in ``connection``'s database."""

    def __init__(self, source: RecordSource, connection: duckdb.DuckDBPyConnection) -> None:
        self.source = source
        self.connection = connection

    def apply(self, start: Cursor, batch: Sequence[StoredRecord]) -> AnalyticsChanges:
        by_game: dict[str, list[StoredRecord]] = {}
        for item in batch:
            by_game.setdefault(item.game_id, []).append(item)
        known = self._contexts([g for g, items in by_game.items() if items[0].record.type != GAME_CREATED])
        changes = AnalyticsChanges(Rows(), {}, set())
        for game_id, items in by_game.items():
            first = items[0].record
            if first.type != GAME_CREATED and game_id not in known:
                raise RuntimeError(f"analytics: game {game_id} goes on at {first.position} but was never started")
            self._game(changes, game_id, known.get(game_id), items)
        return changes

    def _game(
        self, changes: AnalyticsChanges, game_id: str, context: Context | None, items: list[StoredRecord]
    ) -> None:
        records = [(i.record, i.recorded_at) for i in items]
        first = items[0].record
        tournament = context["tournament"] if context else None
        if tournament is None:
            tournament = self.source.tournament_of(game_id)
        players = None
        if tournament is not None and not (context and context.get("table_players")):
            players = self.source.table_players(tournament, game_id)
        if items[-1].record.type == GAME_ENDED:
            earlier = self.source.game(game_id, first.position - 1) if first.type != GAME_CREATED else []
            if earlier:
                changes.replaced.add(game_id)
            ended_game(context, game_id, earlier, records, changes.rows, tournament, players)
            changes.contexts[game_id] = None
        else:
            changes.contexts[game_id] = running_game(context, game_id, records, changes.rows, tournament, players)

    def _contexts(self, game_ids: list[str]) -> dict[str, Context]:
        if not game_ids:
            return {}
        found = self.connection.execute(
            f"SELECT game_id, context FROM {CONTEXT_TABLE} WHERE list_contains(?, game_id)", [game_ids]
        ).fetchall()
        return {game_id: orjson.loads(text) for game_id, text in found}


class AnalyticsPosition:
    """The analytics tables' position, in their database: a batch's rows and the position are
    committed in one DuckDB transaction, compare-and-set on the cursor."""

    def __init__(self, connection: duckdb.DuckDBPyConnection, held: bool = False) -> None:
        self.connection = connection
        self.held = held  # the caller holds a transaction open: a batch is part of it

    def cursor(self) -> Cursor:
        found = self.connection.execute(
            f"SELECT generation, position FROM {POSITION_TABLE} WHERE projection = ?", [PROJECTION]
        ).fetchone()
        assert found is not None
        return Cursor(int(found[0]), int(found[1]))

    def commit(self, start: Cursor, position: int, changes: AnalyticsChanges) -> bool:
        connection = self.connection
        if self.held:  # the caller commits, or rolls back
            if not self._moved(start, position):
                return False
            self._write(changes)
            return True
        connection.execute("BEGIN TRANSACTION")
        try:
            if not self._moved(start, position):
                connection.execute("ROLLBACK")
                return False
            self._write(changes)
            connection.execute("COMMIT")
        except BaseException:
            connection.execute("ROLLBACK")
            raise
        return True

    def _moved(self, start: Cursor, position: int) -> bool:
        """The position moved from ``start`` to ``position`` (compare-and-set)."""
        moved = self.connection.execute(
            f"UPDATE {POSITION_TABLE} SET position = ? WHERE projection = ? AND generation = ? AND position = ?",
            [position, PROJECTION, *start],
        ).fetchone()
        return bool(moved and moved[0] == 1)

    def _write(self, changes: AnalyticsChanges) -> None:
        connection, rows = self.connection, changes.rows
        touched = list(changes.contexts)
        connection.execute(f"DELETE FROM {GAMES_TABLE} WHERE list_contains(?, game_id)", [touched])
        connection.execute(f"DELETE FROM {SEATS_TABLE} WHERE list_contains(?, game_id)", [touched])
        connection.execute(f"DELETE FROM {CONTEXT_TABLE} WHERE list_contains(?, game_id)", [touched])
        if changes.replaced:  # their private records were stored as a spectator saw them
            connection.execute(
                f"DELETE FROM {RECORDS_TABLE} WHERE private AND list_contains(?, game_id)", [list(changes.replaced)]
            )
        if rows.columns[0]:
            insert_columns(connection, RECORDS_TABLE, rows.columns)
        for table, table_rows in rows.rows.items():
            if table_rows:
                insert_columns(connection, table, list(zip(*table_rows, strict=True)))
        running = [(g, orjson.dumps(c).decode()) for g, c in changes.contexts.items() if c is not None]
        if running:
            insert_columns(connection, CONTEXT_TABLE, list(zip(*running, strict=True)))
