"""A stopping server ends a live stream in the scale-out mode too (woken by Redis pub/sub)."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from infra.projector import Projector
from infra.readmodels import RedisStore
from infra.readside import ReadSide
from infra.service import GameService
from tests.projections.test_stream import read_stream

pytestmark = pytest.mark.services


def test_a_stopping_server_ends_a_stream_that_waits_on_redis(
    service: GameService, redis_url: str, redis_prefix: str
) -> None:
    store = RedisStore(redis_url, redis_prefix)
    client = TestClient(create_app(service, ReadSide(service, store)))
    created = service.create_game("sealed_guess", 2, None, b"redis-stop")
    Projector(service, store).catch_up()
    messages: list[tuple[str, Any]] = []
    first_view = threading.Event()
    watcher = threading.Thread(
        target=lambda: messages.extend(read_stream(client, f"/games/{created.game_id}/stream", {}, first_view))
    )
    watcher.start()
    assert first_view.wait(10), "the stream should send the game as it is first"
    client.app.state.shutdown.request()  # type: ignore[attr-defined]
    watcher.join(timeout=30)
    assert not watcher.is_alive(), "the stream should end when the server stops"
    assert [event for event, _ in messages] == ["record", "view"]
    store.close()
