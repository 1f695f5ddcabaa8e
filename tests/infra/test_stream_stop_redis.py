"""A stopping server ends a live stream in the scale-out mode too (woken by Redis pub/sub)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from api.http.app import create_app
from infra.games.service import GameService
from infra.readside.projector import Projector
from infra.readside.reader import ReadSide
from infra.readside.redis_store import RedisStore
from tests.support.stream import stream_when_the_server_stops

pytestmark = pytest.mark.services


def test_a_stopping_server_ends_a_stream_that_waits_on_redis(
    service: GameService, redis_url: str, redis_prefix: str
) -> None:
    store = RedisStore(redis_url, redis_prefix)
    client = TestClient(create_app(service, ReadSide(service, store)))
    created = service.create_game("sealed_guess", 2, None, b"redis-stop")
    Projector(service, store).catch_up()
    messages = stream_when_the_server_stops(client, f"/games/{created.game_id}/stream")
    assert [event for event, _ in messages] == ["record", "view"]
    store.close()
