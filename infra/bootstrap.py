"""Building the service from settings."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from infra.games.aggregate import GameAggregate
from infra.games.service import GameService
from infra.settings import Settings, eventsourcing_env


def build_service(settings: Settings | None = None) -> GameService:
    settings = settings or Settings()
    bound_sqlite_memory(settings.sqlite_heap_bytes)
    env = eventsourcing_env(settings)
    if env["PERSISTENCE_MODULE"] == "eventsourcing.sqlite" and env["SQLITE_DBNAME"] != ":memory:":
        Path(env["SQLITE_DBNAME"]).parent.mkdir(parents=True, exist_ok=True)
    service = GameService(env=env)
    # Per instance, so that ALEXANDRIA_SNAPSHOT_INTERVAL changes no class shared by other services.
    service.snapshotting_intervals = {GameAggregate: settings.snapshot_interval}  # type: ignore[misc]
    return service


def bound_sqlite_memory(heap_bytes: int) -> None:
    """Bound what SQLite keeps in memory in this process, every connection together (the event
    store's pool, the read models' connection per thread): past ``heap_bytes`` SQLite reuses the
    pages of its caches instead of growing them (``PRAGMA soft_heap_limit``, process-wide). Page
    caches otherwise fill up to 2 MB per connection as the files grow, for dozens of connections."""
    connection = sqlite3.connect(":memory:")
    try:
        connection.execute(f"PRAGMA soft_heap_limit={int(heap_bytes)}")
    finally:
        connection.close()
