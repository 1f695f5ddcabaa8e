"""Read-model stores: where projections keep their documents and their positions.

One interface, three implementations: ``SqliteStore`` (a file beside the embedded event store,
the embedded default), ``MemoryStore`` (in process: an in-memory event store's ephemeral read
models, and tests) and ``infra.readside.redis_store.RedisStore`` (shared by every API worker and
projection worker in the scale-out mode; imported only when configured). In every one, a
projection's documents and its position change in one atomic step, and only if its cursor is
still the one the batch started from (compare-and-set), so no batch is ever applied twice,
even by two workers racing after a lease expired. The cursor is the position plus a
generation that every reset increments: a batch that started before a reset cannot commit
after it, even if the rebuild has reached the same position again (its reads may mix both
generations).

The stores also carry the live-update signal: after a projection commits, it announces the
new version of every game the batch touched (``announce``); an API process registers one
listener (``listen``) that wakes its waiting readers (``infra.readside.waiting``).
"""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import threading
import time
import uuid
from abc import ABC, abstractmethod
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NamedTuple

# (collection, key) -> the document as JSON text, or None to delete it
Changes = Mapping[tuple[str, str], str | None]
# Called with (game id, message) for every announcement: {"projection": name, "version": v}
Listener = Callable[[str, dict[str, Any]], None]
# What a commit announces once it is done: (game id, message) pairs
Announcements = Sequence[tuple[str, dict[str, Any]]]


class Cursor(NamedTuple):
    generation: int  # incremented by every reset
    position: int  # the notification id of the last record applied (0: none)


def _started(pid: int) -> str | None:
    """When process ``pid`` started (clock ticks since boot, Linux's /proc), or None: no such
    process, or no /proc to ask."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            # The command name may hold spaces and parentheses: the fields after it are plain.
            return stat.read().rpartition(")")[2].split()[19]
    except (OSError, IndexError):
        return None


def _pid_namespace() -> str:
    try:
        return os.readlink("/proc/self/ns/pid")
    except OSError:
        return ""


def lease_owner(kind: str) -> str:
    """A lease owner's name, unique, that also says which process holds the lease: its machine,
    its pid namespace, its pid and when that pid started (a pid is used again, never with the
    same start). A store can then tell a lease held by a process that was killed (``kill -9``:
    no chance to release it) and take it at once instead of waiting for it to run out."""
    here = f"{socket.gethostname()}|{_pid_namespace()}|{os.getpid()}|{_started(os.getpid()) or ''}"
    return f"{kind}-{uuid.uuid4().hex[:12]}@{here}"


def owner_gone(owner: str) -> bool:
    """True when ``owner`` (made by ``lease_owner``) names a process of this machine and pid
    namespace that no longer runs; False when it runs, or when there is no telling."""
    _, at, where = owner.rpartition("@")
    parts = where.split("|")
    if not at or len(parts) != 4 or not parts[2].isdigit() or not parts[3]:
        return False
    host, namespace, pid, started = parts
    if host != socket.gethostname() or namespace != _pid_namespace() or int(pid) == os.getpid():
        return False
    return _started(int(pid)) != started


class ReadModelStore(ABC):
    # -- documents and positions ------------------------------------------------------------------

    @abstractmethod
    def cursor(self, projection: str) -> Cursor: ...

    def position(self, projection: str) -> int:
        """The notification id of the last record the projection applied (0: none)."""
        return self.cursor(projection).position

    @abstractmethod
    def get(self, projection: str, collection: str, key: str) -> str | None: ...

    def get_many(self, projection: str, collection: str, keys: Iterable[str]) -> dict[str, str]:
        """The documents of ``keys`` that exist (one round trip where the store allows it)."""
        found = {key: self.get(projection, collection, key) for key in keys}
        return {key: text for key, text in found.items() if text is not None}

    @abstractmethod
    def get_all(self, projection: str, collection: str) -> dict[str, str]: ...

    @abstractmethod
    def export(self, projection: str) -> dict[str, dict[str, str]]:
        """Every document of the projection, by collection (to compare a read model with a rebuild)."""

    @abstractmethod
    def commit(
        self, projection: str, expected: Cursor, position: int, changes: Changes, announcements: Announcements = ()
    ) -> bool:
        """Write ``changes`` and move the position to ``position``, atomically, then ``announce``
        each of ``announcements`` (in the same round trip where the store allows it); False (and
        nothing written or announced) when the cursor is no longer ``expected``."""

    @abstractmethod
    def reset(self, projection: str) -> None:
        """Forget the projection's documents and position (for a rebuild); a new generation."""

    # -- leases: one worker at a time works on a projection ---------------------------------------

    @abstractmethod
    def acquire_lease(self, projection: str, owner: str, ttl: float) -> bool:
        """Take or renew the projection's lease for ``ttl`` seconds; False if another owner holds it."""

    @abstractmethod
    def release_lease(self, projection: str, owner: str) -> None: ...

    # -- live updates -----------------------------------------------------------------------------

    @abstractmethod
    def announce(self, game_id: str, message: dict[str, Any]) -> None:
        """Tell every listener (in every process sharing the store) that a projection moved ``game_id`` on."""

    @abstractmethod
    def listen(self, listener: Listener) -> None:
        """Call ``listener`` (from any thread) for every announcement from now on."""

    def close(self) -> None:  # noqa: B027 - most stores hold nothing to release
        pass


class LocalListeners:
    """Announcements within one process: the in-process stores call their listeners directly."""

    def __init__(self) -> None:
        self._listeners: list[Listener] = []

    def add(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def announce_all(self, announcements: Announcements) -> None:
        for game_id, message in announcements:
            self.announce(game_id, message)

    def announce(self, game_id: str, message: dict[str, Any]) -> None:
        for listener in list(self._listeners):
            listener(game_id, message)


class MemoryStore(ReadModelStore):
    """Documents in a dict; a lock makes each commit atomic. For ephemeral (in-memory) event
    stores and tests: a durable event store gets a ``SqliteStore``."""

    def __init__(self) -> None:
        self._documents: dict[tuple[str, str], dict[str, str]] = defaultdict(dict)
        self._cursors: dict[str, Cursor] = {}
        self._leases: dict[str, tuple[str, float]] = {}
        self._lock = threading.RLock()
        self._listeners = LocalListeners()

    def cursor(self, projection: str) -> Cursor:
        with self._lock:
            return self._cursors.get(projection, Cursor(0, 0))

    def get(self, projection: str, collection: str, key: str) -> str | None:
        with self._lock:
            return self._documents[(projection, collection)].get(key)

    def get_all(self, projection: str, collection: str) -> dict[str, str]:
        with self._lock:
            return dict(self._documents[(projection, collection)])

    def export(self, projection: str) -> dict[str, dict[str, str]]:
        with self._lock:
            return {c: dict(d) for (p, c), d in self._documents.items() if p == projection and d}

    def commit(
        self, projection: str, expected: Cursor, position: int, changes: Changes, announcements: Announcements = ()
    ) -> bool:
        with self._lock:
            if self.cursor(projection) != expected:
                return False
            for (collection, key), value in changes.items():
                documents = self._documents[(projection, collection)]
                if value is None:
                    documents.pop(key, None)
                else:
                    documents[key] = value
            self._cursors[projection] = Cursor(expected.generation, position)
        self._listeners.announce_all(announcements)
        return True

    def reset(self, projection: str) -> None:
        with self._lock:
            for name in [n for n in self._documents if n[0] == projection]:
                del self._documents[name]
            self._cursors[projection] = Cursor(self.cursor(projection).generation + 1, 0)

    def acquire_lease(self, projection: str, owner: str, ttl: float) -> bool:
        with self._lock:
            holder = self._leases.get(projection)
            if holder is not None and holder[0] != owner and holder[1] > time.monotonic():
                return False
            self._leases[projection] = (owner, time.monotonic() + ttl)
            return True

    def release_lease(self, projection: str, owner: str) -> None:
        with self._lock:
            if self._leases.get(projection, ("", 0.0))[0] == owner:
                del self._leases[projection]

    def announce(self, game_id: str, message: dict[str, Any]) -> None:
        self._listeners.announce(game_id, message)

    def listen(self, listener: Listener) -> None:
        self._listeners.add(listener)


SQLITE_SCHEMA = """
CREATE TABLE IF NOT EXISTS readmodel_documents (
    projection TEXT NOT NULL, collection TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL,
    PRIMARY KEY (projection, collection, key)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS readmodel_positions (
    projection TEXT PRIMARY KEY, generation INTEGER NOT NULL, position INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS readmodel_leases (
    projection TEXT PRIMARY KEY, owner TEXT NOT NULL, expires REAL NOT NULL
);
"""


def readmodels_path(event_store_path: str) -> Path:
    """The read-model file beside an SQLite event store: ``data/x.sqlite`` -> ``data/x.readmodels.sqlite``.

    A file of its own, not tables in the event store's file: SQLite has one writer per file, and
    a projection's commit must never make a command wait."""
    path = Path(event_store_path)
    return path.with_name(f"{path.stem}.readmodels{path.suffix or '.sqlite'}")


class SqliteStore(ReadModelStore):
    """Documents in one SQLite table, positions in another: a commit is one transaction, so a
    restart (even after ``kill -9``) resumes exactly where the last commit left the read model.

    WAL journal: readers never block the writer nor each other. One connection per thread.
    Leases are rows with a wall-clock expiry, so processes sharing the file (``serve`` and an
    ``alexandria project`` beside it) take turns; announcements reach listeners in this process
    only (another process's readers re-check the positions, see ``infra.readside.waiting``)."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._local = threading.local()
        self._connections: list[sqlite3.Connection] = []
        self._connections_lock = threading.Lock()
        self._listeners = LocalListeners()
        self._connection().executescript(SQLITE_SCHEMA)

    def _connection(self) -> sqlite3.Connection:
        connection: sqlite3.Connection | None = getattr(self._local, "connection", None)
        if connection is None:
            connection = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=10)
            connection.execute("PRAGMA journal_mode=WAL")
            # Durable against a crash of the process; a power cut may lose the last commits, which
            # a restart re-applies from the event store (position and documents stay together).
            connection.execute("PRAGMA synchronous=NORMAL")
            # A connection per thread (the server's pool has dozens): a small page cache each keeps
            # memory bounded; reads are point lookups and the OS caches the file anyway.
            connection.execute("PRAGMA cache_size=-1024")
            self._local.connection = connection
            with self._connections_lock:
                self._connections.append(connection)
        return connection

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        connection = self._connection()
        connection.execute("BEGIN IMMEDIATE")
        try:
            yield connection
        except BaseException:
            connection.execute("ROLLBACK")
            raise
        connection.execute("COMMIT")

    def cursor(self, projection: str) -> Cursor:
        row = (
            self._connection()
            .execute("SELECT generation, position FROM readmodel_positions WHERE projection = ?", (projection,))
            .fetchone()
        )
        return Cursor(0, 0) if row is None else Cursor(row[0], row[1])

    def get(self, projection: str, collection: str, key: str) -> str | None:
        row = (
            self._connection()
            .execute(
                "SELECT value FROM readmodel_documents WHERE projection = ? AND collection = ? AND key = ?",
                (projection, collection, key),
            )
            .fetchone()
        )
        return None if row is None else str(row[0])

    def get_many(self, projection: str, collection: str, keys: Iterable[str]) -> dict[str, str]:
        wanted = list(keys)
        found: dict[str, str] = {}
        for start in range(0, len(wanted), 500):  # SQLite's limit on bound parameters
            chunk = wanted[start : start + 500]
            rows = self._connection().execute(
                "SELECT key, value FROM readmodel_documents WHERE projection = ? AND collection = ? "
                f"AND key IN ({','.join('?' * len(chunk))})",
                (projection, collection, *chunk),
            )
            found.update(rows)
        return found

    def get_all(self, projection: str, collection: str) -> dict[str, str]:
        rows = self._connection().execute(
            "SELECT key, value FROM readmodel_documents WHERE projection = ? AND collection = ?",
            (projection, collection),
        )
        return dict(rows)

    def export(self, projection: str) -> dict[str, dict[str, str]]:
        exported: dict[str, dict[str, str]] = defaultdict(dict)
        rows = self._connection().execute(
            "SELECT collection, key, value FROM readmodel_documents WHERE projection = ?", (projection,)
        )
        for collection, key, value in rows:
            exported[collection][key] = value
        return dict(exported)

    def commit(
        self, projection: str, expected: Cursor, position: int, changes: Changes, announcements: Announcements = ()
    ) -> bool:
        with self._transaction() as connection:
            row = connection.execute(
                "SELECT generation, position FROM readmodel_positions WHERE projection = ?", (projection,)
            ).fetchone()
            if (Cursor(0, 0) if row is None else Cursor(row[0], row[1])) != expected:
                return False
            connection.executemany(
                "INSERT INTO readmodel_documents (projection, collection, key, value) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (projection, collection, key) DO UPDATE SET value = excluded.value",
                [(projection, c, k, v) for (c, k), v in changes.items() if v is not None],
            )
            connection.executemany(
                "DELETE FROM readmodel_documents WHERE projection = ? AND collection = ? AND key = ?",
                [(projection, c, k) for (c, k), v in changes.items() if v is None],
            )
            connection.execute(
                "INSERT INTO readmodel_positions (projection, generation, position) VALUES (?, ?, ?) "
                "ON CONFLICT (projection) DO UPDATE SET position = excluded.position",
                (projection, expected.generation, position),
            )
        self._listeners.announce_all(announcements)
        return True

    def reset(self, projection: str) -> None:
        with self._transaction() as connection:
            connection.execute("DELETE FROM readmodel_documents WHERE projection = ?", (projection,))
            connection.execute(
                "INSERT INTO readmodel_positions (projection, generation, position) VALUES (?, 1, 0) "
                "ON CONFLICT (projection) DO UPDATE SET generation = generation + 1, position = 0",
                (projection,),
            )

    def acquire_lease(self, projection: str, owner: str, ttl: float) -> bool:
        now = time.time()  # wall clock: the lease is shared with other processes
        with self._transaction() as connection:
            row = connection.execute(
                "SELECT owner, expires FROM readmodel_leases WHERE projection = ?", (projection,)
            ).fetchone()
            # A lease of a killed process is free at once: a server restarted after kill -9
            # would otherwise serve stale reads until the lease it held before ran out.
            if row is not None and row[0] != owner and row[1] > now and not owner_gone(row[0]):
                return False
            connection.execute(
                "INSERT INTO readmodel_leases (projection, owner, expires) VALUES (?, ?, ?) "
                "ON CONFLICT (projection) DO UPDATE SET owner = excluded.owner, expires = excluded.expires",
                (projection, owner, now + ttl),
            )
            return True

    def release_lease(self, projection: str, owner: str) -> None:
        with self._transaction() as connection:
            connection.execute("DELETE FROM readmodel_leases WHERE projection = ? AND owner = ?", (projection, owner))

    def announce(self, game_id: str, message: dict[str, Any]) -> None:
        self._listeners.announce(game_id, message)

    def listen(self, listener: Listener) -> None:
        self._listeners.add(listener)

    def close(self) -> None:
        with self._connections_lock:
            for connection in self._connections:
                connection.close()
            self._connections.clear()
        self._local = threading.local()


def json_text(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))
