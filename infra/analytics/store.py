"""The analytics read model in DuckDB, as the API and the CLI use it (``Analytics``).

Its parts: the database and its file (``infra.analytics.database``), the runner that follows the
notification log into it (``infra.analytics.runner``), and the exports (``infra.analytics.exports``).
The names the API, the CLI and notebooks import from here are those of ``__all__``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import duckdb

from infra.analytics.database import (
    AnalyticsBusy,
    AnalyticsDatabase,
    AnalyticsError,
    AnalyticsNotReady,
    AnalyticsSettings,
    default_path,
    default_snapshot_path,
)
from infra.analytics.exports import dump_months, ended_games_page, export_tables, record_lines
from infra.analytics.runner import AnalyticsProjector, ListSource, RecordSource, StoredRecord
from infra.games.service import GameService

__all__ = [
    "Analytics",
    "AnalyticsBusy",
    "AnalyticsDatabase",
    "AnalyticsError",
    "AnalyticsNotReady",
    "AnalyticsProjector",
    "AnalyticsSettings",
    "ListSource",
    "RecordSource",
    "StoredRecord",
    "default_snapshot_path",
    "dump_months",
    "ended_games_page",
    "export_tables",
    "record_lines",
]


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
        """``serving``: the keeper of the game server's process (``server_memory_limit``,
        ``server_renew_seconds``)."""
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
            renew_seconds=settings.server_renew_seconds if serving else None,
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
