"""Building the service from settings."""

from __future__ import annotations

from pathlib import Path

from infra.aggregate import GameAggregate
from infra.service import GameService
from infra.settings import Settings, eventsourcing_env


def build_service(settings: Settings | None = None) -> GameService:
    settings = settings or Settings()
    env = eventsourcing_env(settings)
    if env["PERSISTENCE_MODULE"] == "eventsourcing.sqlite" and env["SQLITE_DBNAME"] != ":memory:":
        Path(env["SQLITE_DBNAME"]).parent.mkdir(parents=True, exist_ok=True)
    service = GameService(env=env)
    # Per instance, so that ALEXANDRIA_SNAPSHOT_INTERVAL changes no class shared by other services.
    service.snapshotting_intervals = {GameAggregate: settings.snapshot_interval}  # type: ignore[misc]
    return service
