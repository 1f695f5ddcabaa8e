"""The analytics read model in DuckDB: the projection runner, the database, and the exports.

The runner follows the notification log like every projector (``infra.readside.projector``): it reads
the notifications after its position, turns them into rows (``projections.analytics``, pure)
and commits the rows together with the batch's last notification id in one DuckDB
transaction, only if the position is still the one the batch started from. A restart
resumes at the stored position; a rebuild clears every table and the position in one
transaction and catches up again.

A running game is stored as a spectator sees it. When its ``GameEnded`` arrives, its private
records are written again in full (read again from the event store when the game began before
the batch), and the whole game is replayed for the scores of each round.

DuckDB lets one process write a database file, and no other process read it meanwhile. So
the process that keeps the tables holds the file, and publishes a reading copy beside it (the
snapshot, renewed by an atomic rename at most every ``snapshot_seconds``) that every other
process reads: an API worker, ``alexandria analytics query`` beside a running server, a
notebook (see ``AnalyticsDatabase``). ``:memory:`` keeps one connection for the life of the
process (an in-memory event store has an in-memory analytics database).
"""

from __future__ import annotations

import bisect
import hashlib
import json
import logging
import os
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Literal, cast
from uuid import UUID, uuid4

import duckdb
import pyarrow as pa
from eventsourcing.persistence import Notification
from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from domain.kernel.log import GAME_CREATED, GAME_ENDED, Record
from infra.games.aggregate import StoredGameEvent, record_of
from infra.games.service import GameService
from infra.readside.paging import encode_cursor
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

PROJECTION = "analytics"
POSITION_TABLE = "_analytics_position"
RETRY_SECONDS = 2.0
CONTEXT_TABLE = "_analytics_context"  # running games' public bookkeeping (the round, the robber ...)


class AnalyticsSettings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="ALEXANDRIA_ANALYTICS_")

    # The DuckDB file; unset: beside the SQLite event store (``analytics.duckdb``), or
    # ``data/analytics.duckdb`` with PostgreSQL; ``:memory:`` for a database in process.
    path: str | None = None
    # The reading copy for other processes (notebooks, API workers); unset: beside the file,
    # ``analytics.snapshot.duckdb`` for ``analytics.duckdb``.
    snapshot_path: str | None = None
    # How often at most the writer renews the reading copy (while the tables change).
    snapshot_seconds: float = 2.0
    batch_size: int = 20000
    lock_timeout: float = 10.0
    # DuckDB's bounds in this process: the memory it may take (its ``memory_limit``: beyond it,
    # a query spills to a temporary directory beside the file or fails, and the server lives on)
    # and its threads (1: the projection is Python, one thread; queries then leave the other
    # cores to the game server).
    memory_limit: str = "256MB"
    # The same bound in the game server's own process (its background projection and the API's
    # analytics reads): DuckDB keeps the tables' pages cached up to its limit, so a server with
    # 256MB grew by about 50 MB per 1,000 games until it got there (docs/benchmarks.md).
    server_memory_limit: str = "32MB"
    threads: int = Field(default=1, ge=1)

    @field_validator("memory_limit", "server_memory_limit")
    @classmethod
    def _duckdb_reads_it(cls, value: str) -> str:
        try:
            duckdb.connect(":memory:", config={"memory_limit": value}).close()
        except duckdb.Error:
            raise ValueError(f"{value!r} is no amount of memory DuckDB reads: say for example 256MB or 1GB") from None
        return value

    # Embedded mode: the server keeps the tables current in a background thread as well
    # (readers catch up either way).
    background: bool = True


class AnalyticsError(Exception):
    code = "ANALYTICS_ERROR"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class AnalyticsBusy(AnalyticsError):
    """Another process held the database file for longer than the lock timeout."""

    code = "ANALYTICS_BUSY"


class AnalyticsNotReady(AnalyticsError):
    """There is no analytics database yet (no projection has run)."""

    code = "ANALYTICS_NOT_READY"


def default_path(service: GameService) -> str:
    if service.env.get("PERSISTENCE_MODULE") == "eventsourcing.sqlite":
        events = service.env.get("SQLITE_DBNAME") or ":memory:"
        if events == ":memory:" or events.startswith("file::memory:"):
            return ":memory:"
        return str(Path(events).with_name("analytics.duckdb"))
    return "data/analytics.duckdb"


def default_snapshot_path(path: str) -> str:
    """The reading copy beside the file: ``analytics.snapshot.duckdb`` for ``analytics.duckdb``."""
    file = Path(path)
    return str(file.with_name(f"{file.stem}.snapshot{file.suffix or '.duckdb'}"))


_ARROW_TYPES: dict[str, pa.DataType] = {
    "VARCHAR": pa.string(),
    "JSON": pa.string(),
    "INTEGER": pa.int32(),
    "BIGINT": pa.int64(),
    "DOUBLE": pa.float64(),
    "BOOLEAN": pa.bool_(),
    "TIMESTAMPTZ": pa.timestamp("us", tz="UTC"),
    "DOUBLE[]": pa.list_(pa.float64()),
    "INTEGER[]": pa.list_(pa.int32()),
    "MAP(VARCHAR, INTEGER)": pa.map_(pa.string(), pa.int32()),
}
ARROW_SCHEMAS = {
    table: pa.schema([(name, _ARROW_TYPES[kind]) for name, kind in columns]) for table, columns in TABLES.items()
}


# (name, type) of each column: a pyarrow Field's ``name`` is made anew at every access.
ARROW_COLUMNS = {table: [(field.name, field.type) for field in schema] for table, schema in ARROW_SCHEMAS.items()}


SCHEMA_TABLE = "_analytics_schema"
SCHEMA_VERSION = hashlib.sha256(json.dumps(TABLES, sort_keys=True).encode()).hexdigest()[:16]


def create_schema(connection: duckdb.DuckDBPyConnection) -> None:
    """The tables, made anew (and so rebuilt from position 0) when this code's schema differs
    from the one the file was built with."""
    connection.execute(f"CREATE TABLE IF NOT EXISTS {SCHEMA_TABLE} (version VARCHAR)")
    found = connection.execute(f"SELECT version FROM {SCHEMA_TABLE}").fetchall()
    if found != [(SCHEMA_VERSION,)]:
        if found:
            log.warning("analytics: the tables were built by another schema; rebuilding them")
        for table in (*TABLES, CONTEXT_TABLE, POSITION_TABLE):
            connection.execute(f"DROP TABLE IF EXISTS {table}")
        connection.execute(f"DELETE FROM {SCHEMA_TABLE}")
        connection.execute(f"INSERT INTO {SCHEMA_TABLE} VALUES (?)", [SCHEMA_VERSION])
    for table, columns in TABLES.items():
        body = ", ".join(f'"{name}" {kind}' for name, kind in columns)
        connection.execute(f"CREATE TABLE IF NOT EXISTS {table} ({body})")
    connection.execute(f"CREATE TABLE IF NOT EXISTS {CONTEXT_TABLE} (game_id VARCHAR, context JSON)")
    connection.execute(
        f"CREATE TABLE IF NOT EXISTS {POSITION_TABLE} (projection VARCHAR, generation INTEGER, position BIGINT)"
    )
    if not connection.execute(f"SELECT 1 FROM {POSITION_TABLE} WHERE projection = ?", [PROJECTION]).fetchall():
        connection.execute(f"INSERT INTO {POSITION_TABLE} VALUES (?, 0, 0)", [PROJECTION])


def check_schema(connection: duckdb.DuckDBPyConnection) -> None:
    try:
        found = connection.execute(f"SELECT version FROM {SCHEMA_TABLE}").fetchall()
    except duckdb.CatalogException:
        found = []
    if found != [(SCHEMA_VERSION,)]:
        raise AnalyticsNotReady(
            "the analytics tables were built by another version of Alexandria: "
            "run `alexandria analytics project --rebuild`"
        )


_FILE_LOCKS: dict[str, threading.RLock] = {}
_FILE_LOCKS_GUARD = threading.Lock()


def _file_lock(path: str) -> threading.RLock:
    """One writer at a time per file in this process (DuckDB locks the file between processes;
    inside one, two writers' transactions would conflict instead of waiting)."""
    key = str(Path(path).resolve())
    with _FILE_LOCKS_GUARD:
        return _FILE_LOCKS.setdefault(key, threading.RLock())


NOT_READY = "there are no analytics tables yet: run `alexandria analytics project --once`"
BUSY = "the analytics tables are in use by another process: try again in a moment"


class AnalyticsDatabase:
    """Where the analytics tables live: one file that one process writes, and a reading copy
    (the snapshot) that every other process reads.

    DuckDB locks a file for one writing process, or for any number of reading ones, never both:
    a notebook that opened the file would stop the writer. So the writer opens the file once and
    holds it (a notebook that opens it gets DuckDB's refusal at once, and the writer goes on),
    and after its commits, at most every ``snapshot_seconds``, it checkpoints the file and copies
    it to the snapshot by an atomic rename. Readers in other processes open the snapshot
    read-only for as long as they like: the writer never opens it, and a reader that holds the
    old copy keeps reading it until it opens the file again. In the writing process, reads use
    the writer's own connection (current to the last commit).

    Errors name no file and no process: they reach HTTP clients.
    """

    def __init__(
        self,
        path: str,
        *,
        read_only: bool = False,
        lock_timeout: float = 10.0,
        snapshot_path: str | None = None,
        snapshot_seconds: float = 2.0,
        memory_limit: str = "256MB",
        threads: int = 1,
        now: Callable[[], float] = time.monotonic,
    ) -> None:
        self.path = path
        # Every connection this process opens (the writer, the snapshot, ``:memory:``) is bound so.
        self.config: dict[str, str | bool | int | float | list[str]] = {
            "memory_limit": memory_limit,
            "threads": threads,
        }
        self.read_only = read_only
        self.lock_timeout = lock_timeout
        self.snapshot_path = snapshot_path or default_snapshot_path(path)
        self.snapshot_seconds = snapshot_seconds
        self._now = now
        self._memory: duckdb.DuckDBPyConnection | None = None
        self._memory_lock = threading.RLock()
        self._writer: duckdb.DuckDBPyConnection | None = None  # held from the first write until close()
        self._published: tuple[int, float] | None = None  # the snapshot's position, and when it was written
        self._publishing = threading.Lock()
        if path == ":memory:":
            self._memory = duckdb.connect(":memory:", config=self.config)
            create_schema(self._memory)
        elif not read_only:
            Path(path).parent.mkdir(parents=True, exist_ok=True)

    # -- writing ----------------------------------------------------------------------------------

    @property
    def writing(self) -> bool:
        """Whether this process holds the file (so its reads are current)."""
        return self._memory is not None or self._writer is not None

    def try_writer(self) -> bool:
        """Take the file for writing if no other process holds it, without waiting."""
        if self.writing:
            return True
        if self.read_only:
            return False
        with _file_lock(self.path):
            try:
                self._open_writer(wait=False)
            except AnalyticsBusy:
                return False
        return True

    def _open_writer(self, wait: bool) -> duckdb.DuckDBPyConnection:
        if self._writer is not None:
            return self._writer
        deadline = time.monotonic() + (self.lock_timeout if wait else 0)
        pause = 0.01
        while True:
            try:
                connection = duckdb.connect(self.path, config=self.config)
                break
            except (duckdb.IOException, duckdb.ConnectionException) as problem:
                # Another process holds the file (a reader, or another writer).
                if time.monotonic() >= deadline:
                    log.warning("analytics: %s is held by another process (%s)", self.path, problem)
                    raise AnalyticsBusy(BUSY) from None
                time.sleep(pause)
                pause = min(pause * 2, 0.2)
        create_schema(connection)
        self._writer = connection
        return connection

    @contextmanager
    def connect(self, read_only: bool | None = None) -> Iterator[duckdb.DuckDBPyConnection]:
        """A connection for one batch or one query: the writer's (waiting for the file up to the
        lock timeout) unless this database only reads, or ``read_only`` asks for the snapshot
        (published first if this process writes and the snapshot is behind)."""
        if self._memory is not None:
            with self._memory_lock:
                cursor = self._memory.cursor()
                try:
                    yield cursor
                finally:
                    cursor.close()
            return
        read_only = self.read_only if read_only is None else read_only
        if read_only:
            if self._writer is not None:
                self.publish(force=True)
            with self._snapshot() as connection:
                yield connection
            return
        with _file_lock(self.path):
            cursor = self._open_writer(wait=True).cursor()
            try:
                yield cursor
            finally:
                cursor.close()

    @contextmanager
    def read(self) -> Iterator[duckdb.DuckDBPyConnection]:
        """A connection to query: the writer's own, current, if this process writes (a cursor of
        its connection: DuckDB's transactions keep it apart from the batches), else the snapshot."""
        if self._memory is not None:
            with self.connect() as connection:
                yield connection
            return
        if self._writer is None:
            with self._snapshot() as connection:
                yield connection
            return
        cursor = self._writer.cursor()
        try:
            yield cursor
        finally:
            cursor.close()

    @contextmanager
    def _snapshot(self) -> Iterator[duckdb.DuckDBPyConnection]:
        if not Path(self.snapshot_path).exists():
            raise AnalyticsNotReady(NOT_READY)
        try:
            connection = duckdb.connect(self.snapshot_path, read_only=True, config=self.config)
        except (duckdb.IOException, duckdb.ConnectionException) as problem:
            log.warning("analytics: cannot open the snapshot %s (%s)", self.snapshot_path, problem)
            raise AnalyticsBusy(BUSY) from None
        try:
            check_schema(connection)
            yield connection
        finally:
            connection.close()

    def publish(self, force: bool = False) -> bool:
        """Renew the snapshot if it is behind the file, and (unless ``force``) the last one is
        ``snapshot_seconds`` old; whether it was renewed. Only the writing process publishes.

        DuckDB copies the tables itself, in one read transaction (batches go on meanwhile). A
        copy of the file by this process would not do: closing any descriptor of a file drops
        the process's POSIX locks on it, DuckDB's among them.
        """
        if self._writer is None:
            return False
        with self._publishing:
            position = self._position(self._writer)
            if self._published is not None:
                at_position, at = self._published
                if at_position == position and Path(self.snapshot_path).exists():
                    return False
                if not force and self._now() - at < self.snapshot_seconds:
                    return False
            target = Path(self.snapshot_path)
            partial = target.with_name(f".{target.name}.{uuid4().hex}.partial")
            alias = f"_snapshot_{uuid4().hex}"
            cursor = self._writer.cursor()
            try:
                cursor.execute(f"ATTACH '{_sql_text(str(partial))}' AS {alias}")
                try:
                    cursor.execute("BEGIN TRANSACTION")
                    position = self._position(cursor)
                    cursor.execute(f"COPY FROM DATABASE {_sql_identifier(self._catalog(cursor))} TO {alias}")
                    cursor.execute("COMMIT")
                finally:
                    cursor.execute(f"DETACH {alias}")
                os.replace(partial, target)
            finally:
                cursor.close()
                partial.unlink(missing_ok=True)
                Path(f"{partial}.wal").unlink(missing_ok=True)
            self._published = (position, self._now())
            return True

    @staticmethod
    def _catalog(connection: duckdb.DuckDBPyConnection) -> str:
        found = connection.execute("SELECT current_database()").fetchall()
        return str(found[0][0])

    def close(self) -> None:
        """Let go of the file (another process may write it then)."""
        with _file_lock(self.path):
            if self._writer is not None:
                self._writer.close()
                self._writer = None

    @staticmethod
    def _position(connection: duckdb.DuckDBPyConnection) -> int:
        # fetchall: a result left unread keeps its transaction open (and a checkpoint waiting)
        found = connection.execute(
            f"SELECT position FROM {POSITION_TABLE} WHERE projection = ?", [PROJECTION]
        ).fetchall()
        return int(found[0][0]) if found else 0

    def position(self) -> int:
        with self.read() if self.read_only or self.writing else self.connect() as connection:
            return self._position(connection)


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
        return [self._stored(n) for n in notifications]

    def _stored(self, notification: Notification) -> StoredRecord:
        event = cast(StoredGameEvent, self.service.mapper.to_domain_event(notification))
        return StoredRecord(
            str(notification.originator_id), Record.from_dict(event.record), event.timestamp, notification.id
        )

    def latest(self) -> int:
        """The last notification id in the store (a cheap query: no need to open the database)."""
        return self.service.recorder.max_notification_id() or 0

    def game(self, game_id: str, through: int) -> list[tuple[Record, datetime]]:
        events = self.service.events.get(UUID(game_id), lte=through)
        return [(record_of(e), cast(StoredGameEvent, e).timestamp) for e in events]

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
        held for ``hold_seconds`` of work at a time, so that readers get their turn."""
        applied = 0
        while True:
            with self._stepping, self.database.connect(read_only=False) as connection:
                until = time.monotonic() + hold_seconds
                while seen := self._step(connection):
                    applied += seen
                    if time.monotonic() > until:
                        break
                else:
                    return applied

    def _step(self, connection: duckdb.DuckDBPyConnection) -> int:
        start = self._cursor(connection)
        self.position = start[1]
        batch = self.source.after(start[1], self.batch_size)
        if not batch:
            return 0
        rows, contexts, replaced = self._rows(connection, batch)
        if not self._commit(connection, start, batch[-1].notification_id, rows, contexts, replaced):
            self.lost_races += 1
            return 0
        self.position = batch[-1].notification_id
        return len(batch)

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

    # -- one batch --------------------------------------------------------------------------------

    @staticmethod
    def _cursor(connection: duckdb.DuckDBPyConnection) -> tuple[int, int]:
        found = connection.execute(
            f"SELECT generation, position FROM {POSITION_TABLE} WHERE projection = ?", [PROJECTION]
        ).fetchone()
        assert found is not None
        return int(found[0]), int(found[1])

    def _rows(
        self, connection: duckdb.DuckDBPyConnection, batch: list[StoredRecord]
    ) -> tuple[Rows, dict[str, Context | None], set[str]]:
        """The rows the batch adds, the new context of each game (None: ended), and the games
        whose earlier private records the batch writes again in full (they ended in it)."""
        by_game: dict[str, list[StoredRecord]] = {}
        for item in batch:
            by_game.setdefault(item.game_id, []).append(item)
        known = self._contexts(connection, [g for g, items in by_game.items() if items[0].record.type != GAME_CREATED])
        rows = Rows()
        contexts: dict[str, Context | None] = {}
        replaced: set[str] = set()
        for game_id, items in by_game.items():
            records = [(i.record, i.recorded_at) for i in items]
            first = items[0].record
            if first.type != GAME_CREATED and game_id not in known:
                raise RuntimeError(f"analytics: game {game_id} goes on at {first.position} but was never started")
            context = known.get(game_id)
            tournament = context["tournament"] if context else None
            if tournament is None:
                tournament = self.source.tournament_of(game_id)
            players = None
            if tournament is not None and not (context and context.get("table_players")):
                players = self.source.table_players(tournament, game_id)
            if items[-1].record.type == GAME_ENDED:
                earlier = self.source.game(game_id, first.position - 1) if first.type != GAME_CREATED else []
                if earlier:
                    replaced.add(game_id)
                ended_game(context, game_id, earlier, records, rows, tournament, players)
                contexts[game_id] = None
            else:
                contexts[game_id] = running_game(context, game_id, records, rows, tournament, players)
        return rows, contexts, replaced

    @staticmethod
    def _contexts(connection: duckdb.DuckDBPyConnection, game_ids: list[str]) -> dict[str, Context]:
        if not game_ids:
            return {}
        found = connection.execute(
            f"SELECT game_id, context FROM {CONTEXT_TABLE} WHERE list_contains(?, game_id)", [game_ids]
        ).fetchall()
        return {game_id: json.loads(text) for game_id, text in found}

    def _commit(
        self,
        connection: duckdb.DuckDBPyConnection,
        start: tuple[int, int],
        position: int,
        rows: Rows,
        contexts: dict[str, Context | None],
        replaced: set[str],
    ) -> bool:
        touched = list(contexts)
        connection.execute("BEGIN TRANSACTION")
        try:
            moved = connection.execute(
                f"UPDATE {POSITION_TABLE} SET position = ? WHERE projection = ? AND generation = ? AND position = ?",
                [position, PROJECTION, *start],
            ).fetchone()
            if not moved or moved[0] != 1:
                connection.execute("ROLLBACK")
                return False
            connection.execute(f"DELETE FROM {GAMES_TABLE} WHERE list_contains(?, game_id)", [touched])
            connection.execute(f"DELETE FROM {SEATS_TABLE} WHERE list_contains(?, game_id)", [touched])
            connection.execute(f"DELETE FROM {CONTEXT_TABLE} WHERE list_contains(?, game_id)", [touched])
            if replaced:  # their private records were stored as a spectator saw them
                connection.execute(
                    f"DELETE FROM {RECORDS_TABLE} WHERE private AND list_contains(?, game_id)", [list(replaced)]
                )
            if rows.columns[0]:
                insert_columns(connection, RECORDS_TABLE, rows.columns)
            for table, table_rows in rows.rows.items():
                if table_rows:
                    insert_columns(connection, table, list(zip(*table_rows, strict=True)))
            running = [(g, json.dumps(c)) for g, c in contexts.items() if c is not None]
            if running:
                frame = pa.table({"game_id": [g for g, _ in running], "context": [c for _, c in running]})
                connection.from_arrow(frame).insert_into(CONTEXT_TABLE)
            connection.execute("COMMIT")
        except BaseException:
            connection.execute("ROLLBACK")
            raise
        return True


def insert_columns(connection: duckdb.DuckDBPyConnection, table: str, columns: Sequence[Sequence[Any]]) -> None:
    """Rows given as their columns (in the order of the table's) into ``table`` as one Arrow
    table: each column made at C speed (``pa.array``), one insert for all."""
    frame = pa.Table.from_arrays(
        [pa.array(column, type=kind) for column, (_, kind) in zip(columns, ARROW_COLUMNS[table], strict=True)],
        schema=ARROW_SCHEMAS[table],
    )
    connection.from_arrow(frame).insert_into(table)  # half the cost of register + INSERT ... SELECT


# -- the facade the API and the CLI use ---------------------------------------------------------


class Analytics:
    """The analytics database of one event store, and whether this process keeps it current.

    Embedded (SQLite event store): every reader catches the projection up first, as the
    embedded read side does. Scale-out (PostgreSQL): a projection worker keeps it current
    (``alexandria analytics project``) and API workers only read.
    """

    def __init__(self, service: GameService, database: AnalyticsDatabase, embedded: bool, batch_size: int = 20000):
        self.service = service
        self.database = database
        self.embedded = embedded
        self.projector = AnalyticsProjector(RecordSource(service), database, batch_size)
        self.background = False  # whether a server of this store should run the projector in the background

    @classmethod
    def for_service(
        cls,
        service: GameService,
        settings: AnalyticsSettings | None = None,
        *,
        worker: bool = False,
        serving: bool = False,
    ) -> Analytics:
        """``serving``: the keeper of the game server's process (``server_memory_limit``)."""
        settings = settings or AnalyticsSettings()
        embedded = service.env.get("PERSISTENCE_MODULE") == "eventsourcing.sqlite"
        database = AnalyticsDatabase(
            settings.path or default_path(service),
            read_only=not (embedded or worker),
            lock_timeout=settings.lock_timeout,
            snapshot_path=settings.snapshot_path,
            snapshot_seconds=settings.snapshot_seconds,
            memory_limit=settings.server_memory_limit if serving else settings.memory_limit,
            threads=settings.threads,
        )
        analytics = cls(service, database, embedded, settings.batch_size)
        analytics.background = embedded and settings.background
        return analytics

    def close(self) -> None:
        self.projector.close()
        self.database.close()

    def refresh(self) -> None:
        """Embedded mode: catch the tables up, if this process holds the file or can take it at
        once (another process that holds it keeps the snapshot current: reads go there)."""
        if not self.embedded or not self.database.try_writer():
            return
        # Nothing new since this process last looked: no need to read the file.
        if self.projector.position == 0 or self.projector.source.latest() > self.projector.position:
            self.projector.catch_up()

    @contextmanager
    def reading(self) -> Iterator[duckdb.DuckDBPyConnection]:
        """A connection to query, after catching up (embedded mode): current if this process
        writes the tables, else the snapshot."""
        self.refresh()
        with self.database.read() as connection:
            yield connection


# -- exports ------------------------------------------------------------------------------------

ExportFormat = Literal["parquet", "csv"]


def _columns(table: str, alias: str = "t", skip: tuple[str, ...] = ()) -> str:
    """The table's columns for an export: JSON as text (Parquet readers other than DuckDB would
    see JSON columns as bytes)."""
    return ", ".join(
        f'{alias}."{name}"::VARCHAR AS "{name}"' if kind == "JSON" else f'{alias}."{name}"'
        for name, kind in TABLES[table]
        if name not in skip
    )


def _ended_since(since: datetime | None) -> str:
    """Games (aliased ``g``) an export takes: all, or with ``since`` those ended at or after it."""
    return "TRUE" if since is None else "g.status = 'ended' AND g.ended_at >= $since"


def _partitioned(table: str, where: str = "TRUE") -> str:
    """The table with its game and month (of the game's creation) for partitioning, the rows of
    the games (``g``) that ``where`` takes."""
    if table == GAMES_TABLE:
        return (
            f"SELECT {_columns(table, 'g')}, strftime(g.created_at, '%Y-%m') AS month FROM {GAMES_TABLE} g "
            f"WHERE {where}"
        )
    return (
        f"SELECT {_columns(table, skip=('game',))}, g.game, strftime(g.created_at, '%Y-%m') AS month "
        f"FROM {table} t JOIN {GAMES_TABLE} g USING (game_id) WHERE {where}"
    )


def _selected(table: str, where: str = "TRUE") -> str:
    """The table's rows of the games (``g``) that ``where`` takes."""
    if table == GAMES_TABLE:
        return f"SELECT {_columns(table, 'g')} FROM {GAMES_TABLE} g WHERE {where}"
    return f"SELECT {_columns(table)} FROM {table} t JOIN {GAMES_TABLE} g USING (game_id) WHERE {where}"


def export_tables(
    connection: duckdb.DuckDBPyConnection, out: Path, file_format: ExportFormat, since: datetime | None = None
) -> dict[str, int]:
    """Every table into ``out``: Parquet as ``TABLE/game=G/month=YYYY-MM/*.parquet`` (hive
    partitions, which DuckDB, pandas/pyarrow and Spark read as columns), CSV as ``TABLE.csv``.
    With ``since``, only the rows of games that ended at or after it (an incremental export).
    Returns the rows written per table."""
    out.mkdir(parents=True, exist_ok=True)
    written: dict[str, int] = {}
    parameters = {"since": since} if since is not None else {}
    where = _ended_since(since)
    for table in TABLES:
        count = connection.execute(f"SELECT count(*) FROM ({_selected(table, where)})", parameters).fetchone()
        written[table] = int(count[0]) if count else 0
        target = out / table
        if file_format == "parquet":
            if written[table] == 0:
                continue  # PARTITION_BY writes nothing for no rows; an empty folder would mislead
            connection.execute(
                f"COPY ({_partitioned(table, where)}) TO '{_sql_text(str(target))}' "
                "(FORMAT parquet, PARTITION_BY (game, month), OVERWRITE_OR_IGNORE)",
                parameters,
            )
        else:
            connection.execute(
                f"COPY ({_selected(table, where)} ORDER BY ALL) TO '{_sql_text(str(target))}.csv' (FORMAT csv, HEADER)",
                parameters,
            )
    return written


DUMP_INDEX = "index.json"


def dump_months(connection: duckdb.DuckDBPyConnection, out: Path, now: datetime) -> dict[str, Any]:
    """Monthly dumps, as the lichess database publishes its games: for every month before the one
    of ``now`` in which games ended, ``out/YYYY-MM/TABLE.parquet`` with the rows of the games that
    ended that month, and ``out/index.json`` listing every month's files (rows, bytes, SHA-256).
    A month already dumped with the same games is left as it is (an ended game never changes).
    Returns the index."""
    out.mkdir(parents=True, exist_ok=True)
    index_path = out / DUMP_INDEX
    index: dict[str, Any] = json.loads(index_path.read_text()) if index_path.exists() else {"months": {}}
    this_month = now.strftime("%Y-%m")
    months = connection.execute(
        f"SELECT strftime(ended_at, '%Y-%m') AS month, count(*) FROM {GAMES_TABLE} "
        "WHERE status = 'ended' GROUP BY ALL ORDER BY ALL"
    ).fetchall()
    for month, games in months:
        if month >= this_month:
            continue  # not over yet: dumped once it is
        if index["months"].get(month, {}).get("games") == games:
            continue
        folder = out / month
        folder.mkdir(exist_ok=True)
        files = {}
        for table in TABLES:
            select = _selected(table, "g.status = 'ended' AND strftime(g.ended_at, '%Y-%m') = $month")
            target = folder / f"{table}.parquet"
            connection.execute(
                f"COPY ({select} ORDER BY ALL) TO '{_sql_text(str(target))}' (FORMAT parquet)", {"month": month}
            )
            rows = connection.execute(f"SELECT count(*) FROM ({select})", {"month": month}).fetchall()[0][0]
            files[table] = {
                "file": f"{month}/{table}.parquet",
                "rows": int(rows),
                "bytes": target.stat().st_size,
                "sha256": hashlib.sha256(target.read_bytes()).hexdigest(),
            }
        index["months"][month] = {"games": int(games), "files": files}
    index["months"] = dict(sorted(index["months"].items()))
    index["schema"] = SCHEMA_VERSION
    partial = index_path.with_name(f".{DUMP_INDEX}.partial")
    partial.write_text(json.dumps(index, indent=2) + "\n")
    os.replace(partial, index_path)
    return index


def _sql_text(text: str) -> str:
    return text.replace("'", "''")


def _sql_identifier(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


@dataclass(frozen=True, slots=True)
class GamePage:
    games: list[tuple[str, datetime]]  # (game id, ended at), in export order
    next_cursor: str | None


def ended_games_page(
    connection: duckdb.DuckDBPyConnection,
    game: str | None,
    since: datetime | None,
    until: datetime | None,
    after: tuple[datetime, str] | None,
    limit: int,
) -> GamePage:
    """Ended games in the order they ended (then by id), from after ``after``."""
    where = ["status = 'ended'"]
    parameters: list[Any] = []
    if game is not None:
        where.append("game = ?")
        parameters.append(game)
    if since is not None:
        where.append("ended_at >= ?")
        parameters.append(since)
    if until is not None:
        where.append("ended_at < ?")
        parameters.append(until)
    if after is not None:
        where.append("(ended_at, game_id) > (?, ?)")
        parameters.extend(after)
    found = connection.execute(
        f"SELECT game_id, ended_at FROM {GAMES_TABLE} WHERE {' AND '.join(where)} "
        f"ORDER BY ended_at, game_id LIMIT {int(limit) + 1}",
        parameters,
    ).fetchall()
    games = [(str(g), at) for g, at in found[:limit]]
    more = len(found) > limit
    return GamePage(games, encode_cursor(games[-1][1], games[-1][0]) if more and games else None)


def record_lines(connection: duckdb.DuckDBPyConnection, game_ids: list[str], chunk: int = 50) -> Iterator[str]:
    """The records of ``game_ids`` (in that order) as JSON lines with game id and recorded time."""
    for start in range(0, len(game_ids), chunk):
        ids = game_ids[start : start + chunk]
        order = {g: i for i, g in enumerate(ids)}
        found = connection.execute(
            f"SELECT game_id, game, position, type, seat, private, recorded_at, data FROM {RECORDS_TABLE} "
            "WHERE list_contains(?, game_id)",
            [ids],
        ).fetchall()
        found.sort(key=lambda row: (order[row[0]], row[2]))
        for game_id, game, position, kind, seat, private, at, data in found:
            head = json.dumps(
                {
                    "game_id": game_id,
                    "game": game,
                    "position": position,
                    "type": kind,
                    "seat": seat,
                    "private": private,
                    "recorded_at": at.isoformat(),
                },
                separators=(",", ":"),
            )
            yield f'{head[:-1]},"data":{data}}}\n'
