"""The creation rate limit in the scale-out mode: every API worker counts against one allowance
per client, kept in Redis under the deployment's prefix."""

from __future__ import annotations

import pytest
import redis
from fastapi.testclient import TestClient

from api.http.app import create_app
from infra.games.service import GameService
from infra.readside.reader import ReadSide
from infra.readside.redis_store import RedisStore
from infra.settings import Settings

pytestmark = pytest.mark.services


def test_workers_share_one_creation_allowance(service: GameService, redis_url: str, redis_prefix: str) -> None:
    settings = Settings(redis_url=redis_url, redis_prefix=redis_prefix, creation_rate_limit="3/minute")
    workers = [
        TestClient(create_app(service, ReadSide(service, RedisStore(redis_url, redis_prefix)), settings), client=client)
        for client in (("10.0.0.1", 1), ("10.0.0.1", 2))
    ]
    game = {"game": "sealed_guess", "players": 2}
    statuses = [workers[i % 2].post("/games", json=game).status_code for i in range(4)]
    assert statuses == [201, 201, 201, 429]
    keys = list(redis.Redis.from_url(redis_url).scan_iter(match=f"{redis_prefix}:limits*"))
    assert keys, "the allowance is kept in Redis under the deployment's prefix"
    other = TestClient(workers[0].app, client=("10.0.0.2", 1))
    assert other.post("/games", json=game).status_code == 201
