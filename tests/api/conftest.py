from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from api.http.app import create_app
from infra.bootstrap import build_service
from infra.games.service import GameService
from infra.readside.reader import build_read_side
from infra.settings import Settings


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(database_url=f"sqlite:///{tmp_path}/events.sqlite")


@pytest.fixture
def service(settings: Settings) -> Iterator[GameService]:
    service = build_service(settings)
    yield service
    service.close()


@pytest.fixture
def client(service: GameService, settings: Settings) -> Iterator[TestClient]:
    """The embedded default as `serve` runs it: SQLite read models kept by a background projector."""
    with TestClient(create_app(service, build_read_side(service, settings))) as client:
        yield client
