from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.api.conftest import service, settings
from tests.infra import services

__all__ = ["service", "settings"]  # a service on a fresh SQLite file, as in the API tests


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    yield from services.redis_server()


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    yield from services.postgres_server()


@pytest.fixture
def database_url(postgres_server: str) -> Iterator[str]:
    yield from services.fresh_database(postgres_server)


@pytest.fixture
def redis_prefix(redis_url: str) -> Iterator[str]:
    yield from services.fresh_prefix(redis_url)
