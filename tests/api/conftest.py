from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from infra.bootstrap import build_service
from infra.service import GameService
from infra.settings import Settings


@pytest.fixture
def service(tmp_path: Path) -> Iterator[GameService]:
    service = build_service(Settings(database_url=f"sqlite:///{tmp_path}/events.sqlite"))
    yield service
    service.close()


@pytest.fixture
def client(service: GameService) -> TestClient:
    return TestClient(create_app(service))
