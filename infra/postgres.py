"""The PostgreSQL event store as ``eventsourcing`` makes it, with two faults handled: a server that
dropped every connection, and processes that start together on a fresh database.

``ALEXANDRIA_DATABASE_URL=postgresql://...`` selects this factory (``infra.settings``); it is
imported only then, so the embedded mode never loads a PostgreSQL client.

**Dropped connections.** A restart, a failover or ``pg_terminate_backend`` drops every connection
at once, and each pooled connection is found broken only when it is next checked out. psycopg's
pool then waits between one failed check and the next, doubling the wait each time (0, 1, 2, 4 s),
so a pool of ten dead connections gives up ("couldn't get a connection after 5.00 sec") before it
reaches a live one, and keeps failing for many seconds while the server answers again at once.
Here the first failed check drains the pool: every idle connection made before the failure is
closed and replaced, and the request waits only for a new connection. The failing connection's
generation (how many drains came before its connect) keeps the threads that find older dead
connections meanwhile from draining the fresh ones again.

**Start-up.** Creating the tables is not safe when two processes do it at once: two ``CREATE TABLE
IF NOT EXISTS`` (or ``CREATE TYPE``) in concurrent transactions fail with a unique violation in
``pg_type``, and two tracking tables created at once both try to record their ``__migration__``
row ("Failed to record tracking for __migration__ 1"). Every recorder here creates its tables
under one PostgreSQL advisory lock per database, so a process that starts beside another finds
the tables made (and their migration recorded) and has nothing left to do; should another
process still have made them first (one without this lock), the creation is done again and
finds everything there.
"""

from __future__ import annotations

import hashlib
import threading
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
from eventsourcing.persistence import IntegrityError
from eventsourcing.postgres import (
    ConnectionPool,
    PostgresAggregateRecorder,
    PostgresApplicationRecorder,
    PostgresDatastore,
    PostgresFactory,
    PostgresProcessRecorder,
    PostgresTrackingRecorder,
)
from eventsourcing.utils import Environment, EnvType

# The advisory lock key that one process at a time holds while it creates tables (any 64-bit
# number no other application on the database uses).
SCHEMA_LOCK_KEY = int.from_bytes(hashlib.sha256(b"alexandria:create-tables").digest()[:8], "big", signed=True)


class Generations:
    """How many times the pool was drained, and at which of those each connection was made."""

    def __init__(self) -> None:
        self.current = 0
        self.of: weakref.WeakKeyDictionary[psycopg.Connection[Any], int] = weakref.WeakKeyDictionary()
        self.lock = threading.Lock()

    def connected(self, connection: psycopg.Connection[Any]) -> None:
        with self.lock:
            self.of[connection] = self.current

    def first_to_fail(self, connection: psycopg.Connection[Any]) -> bool:
        """True for the first broken connection of its generation (the others were made before a
        drain that already replaced them); the generation ends there."""
        with self.lock:
            if self.of.get(connection, self.current) < self.current:
                return False
            self.current += 1
            return True


def draining_check(pool_ref: Callable[[], ConnectionPool[Any] | None], generations: Generations) -> Callable[..., None]:
    # Weak: the pool holds its check, and a pool that held itself would outlive its datastore.
    def check(connection: psycopg.Connection[Any]) -> None:
        try:
            ConnectionPool.check_connection(connection)
        except psycopg.Error:
            pool = pool_ref()
            if pool is not None and generations.first_to_fail(connection):
                pool.drain()  # the server dropped this one: it dropped the others made with it
            raise

    return check


# A pool opens this many connections at start and keeps them while idle; it grows to its size under
# load. A process holds several pools and a database serves several processes: pools that each
# held their whole size open took PostgreSQL's 100 connections with a handful of processes.
IDLE_CONNECTIONS = 2


def recovering_pool(datastore: PostgresDatastore) -> ConnectionPool[Any]:
    """The datastore's pool again (not opened yet), checking connections as ``draining_check`` does."""
    built = datastore.pool
    generations = Generations()
    configure = datastore.after_connect_func()

    def after_connect(connection: psycopg.Connection[Any]) -> None:
        configure(connection)
        generations.connected(connection)

    holder: list[weakref.ref[ConnectionPool[Any]]] = []
    pool: ConnectionPool[Any] = ConnectionPool(
        get_password_func=built.get_password_func,
        connection_class=built.connection_class,
        kwargs=built.kwargs,
        min_size=min(built.min_size, IDLE_CONNECTIONS),
        max_size=built.max_size,
        open=False,
        configure=after_connect,
        timeout=built.timeout,
        max_waiting=built.max_waiting,
        max_lifetime=built.max_lifetime,
        check=draining_check(lambda: holder[0]() if holder else None, generations),
    )
    holder.append(weakref.ref(pool))
    return pool


@contextmanager
def schema_lock(datastore: PostgresDatastore) -> Iterator[None]:
    """Hold the database's table-creation lock (on a connection of its own, outside the pool that
    the creation itself uses); released when the connection closes, whatever happens."""
    given = datastore.pool.kwargs
    kwargs = dict((given() if callable(given) else given) or {})
    if datastore.pool.get_password_func is not None:
        kwargs["password"] = datastore.pool.get_password_func()
    kwargs.setdefault("connect_timeout", 10)  # a server out of reach fails the start-up, not hangs it
    with psycopg.connect(**kwargs, autocommit=True) as connection:
        connection.execute("SELECT pg_advisory_lock(%s)", (SCHEMA_LOCK_KEY,))
        yield


class CreatesTablesInTurn:
    """A recorder whose ``create_table`` waits for any other process creating tables."""

    datastore: PostgresDatastore

    def create_table(self) -> None:
        with schema_lock(self.datastore):
            try:
                super().create_table()  # type: ignore[misc]
            except IntegrityError:
                # Made at the same moment by a process that did not take the lock: done by it,
                # so creating again finds the tables and their migration recorded.
                super().create_table()  # type: ignore[misc]


class AggregateRecorder(CreatesTablesInTurn, PostgresAggregateRecorder):
    pass


class ApplicationRecorder(CreatesTablesInTurn, PostgresApplicationRecorder):
    pass


class TrackingRecorder(CreatesTablesInTurn, PostgresTrackingRecorder):
    pass


class ProcessRecorder(CreatesTablesInTurn, PostgresProcessRecorder):
    pass


class Factory(PostgresFactory):
    aggregate_recorder_class = AggregateRecorder
    application_recorder_class = ApplicationRecorder
    tracking_recorder_class = TrackingRecorder
    process_recorder_class = ProcessRecorder

    def __init__(self, env: Environment | EnvType | None) -> None:
        super().__init__(env)
        if self.datastore.pre_ping:
            self.datastore.pool = recovering_pool(self.datastore)
