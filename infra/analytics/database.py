"""The analytics database in DuckDB: the tables' schema as DuckDB and Arrow see them, and the file.

DuckDB lets one process write a database file, and no other process read it meanwhile. So
the process that keeps the tables holds the file, and publishes a reading copy beside it (the
snapshot, renewed by an atomic rename at most every ``snapshot_seconds``) that every other
process reads: an API worker, ``alexandria analytics query`` beside a running server, a
notebook (see ``AnalyticsDatabase``). ``:memory:`` keeps one connection for the life of the
process (an in-memory event store has an in-memory analytics database).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import subprocess
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from uuid import uuid4

import duckdb
import pyarrow as pa
from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from infra.games.service import GameService
from projections.analytics import (
    TABLES,
)

log = logging.getLogger(__name__)

PROJECTION = "analytics"
POSITION_TABLE = "_analytics_position"
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
    # What that limit does not count (DuckDB's allocator and its tables' bookkeeping: some 25 kB
    # per 3-player Catan game written, docs/benchmarks.md) the game server lets go of by opening
    # the file again every this many seconds, right after a snapshot.
    server_renew_seconds: float = Field(default=60.0, gt=0)
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
    table: pa.schema([(name, _ARROW_TYPES[kind]) for name, kind in columns])
    for table, columns in {**TABLES, CONTEXT_TABLE: (("game_id", "VARCHAR"), ("context", "JSON"))}.items()
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
        renew_seconds: float | None = None,
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
        # DuckDB keeps memory its ``memory_limit`` does not count (its allocator's and its tables'
        # bookkeeping), growing with what it has written: the writer lets go of the database and
        # opens it again once ``renew_seconds`` have passed since it opened it, right after a
        # snapshot (the file just checkpointed), when no read holds one of its cursors.
        self.renew_seconds = renew_seconds
        self.renewals = 0  # how often it did
        self._opened_at = 0.0
        self._readers = 0  # the writer's cursors lent to reads (``read``)
        self._reading = threading.Lock()
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
        self._opened_at = self._now()
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
        with self._reading:
            writer = self._writer
            if writer is not None:
                cursor = writer.cursor()
                self._readers += 1
        if writer is None:
            with self._snapshot() as connection:
                yield connection
            return
        try:
            yield cursor
        finally:
            cursor.close()
            with self._reading:
                self._readers -= 1

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

        With no batch meanwhile (the file's lock), DuckDB checkpoints the file (the committed
        batches into it, as it does itself once its log holds 16 MB) and a ``cp`` process copies
        it, then an atomic rename. Not a copy by this process: closing any descriptor of a file
        drops the process's POSIX locks on it, DuckDB's among them. Not DuckDB's ``COPY FROM
        DATABASE`` either, which it was: that re-encoded every table every time, 120 ms of the
        server's CPU every 2 s for 40 games, growing with the tables.
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
            try:
                with _file_lock(self.path):
                    cursor = self._writer.cursor()
                    try:
                        position = self._position(cursor)
                        cursor.execute("CHECKPOINT")
                    finally:
                        cursor.close()
                    subprocess.run(["cp", "--reflink=auto", self.path, str(partial)], check=True)
                os.replace(partial, target)
            finally:
                partial.unlink(missing_ok=True)
            self._published = (position, self._now())
            self._renew_writer()
            return True

    def _renew_writer(self) -> bool:
        """Close the writer's database and open it again, if ``renew_seconds`` have passed since
        it was opened and no read holds one of its cursors; whether it did. Its memory outside
        ``memory_limit`` goes with it (the tables are all in the file: nothing else does)."""
        if self.renew_seconds is None or self._writer is None or self._now() - self._opened_at < self.renew_seconds:
            return False
        with _file_lock(self.path):
            with self._reading:
                if self._readers or self._writer is None:
                    return False
                self._writer.close()
                self._writer = None
            # Reads meanwhile go to the snapshot (just published), not waiting for the file.
            self._open_writer(wait=True)
            self.renewals += 1
        return True

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


def sql_text(text: str) -> str:
    """``text`` inside a SQL string literal."""
    return text.replace("'", "''")


def insert_columns(connection: duckdb.DuckDBPyConnection, table: str, columns: Sequence[Sequence[Any]]) -> None:
    """Rows given as their columns (in the order of the table's) into ``table`` as one Arrow
    table: each column made at C speed (``pa.array``), one insert for all."""
    frame = pa.Table.from_arrays(  # noqa: F841  # read by DuckDB by its name, below
        [pa.array(column, type=kind) for column, (_, kind) in zip(columns, ARROW_COLUMNS[table], strict=True)],
        schema=ARROW_SCHEMAS[table],
    )
    # DuckDB reads ``frame`` by its name here (a replacement scan): two thirds of the cost of
    # ``from_arrow(frame).insert_into(table)``, which binds the frame first (a fixed cost of
    # about 0.3 ms an insert, and a batch inserts into a dozen tables or more).
    connection.execute(f"INSERT INTO {table} SELECT * FROM frame")
