"""Spectators: how many live streams follow a game without a seat's token (a spectator's page, or
the "everything" perspective after the end). A count only: nothing says who watches, and seats'
own streams are not counted, so the number tells no one whether a player is online.

Embedded, one process serves every stream and counts them in memory. In scale-out every API
worker shares the count through Redis: each stream is a member of a sorted set per game, scored by
when it lapses; a stream renews its membership on each keep-alive, so a worker that dies without
saying goodbye is forgotten after ``LAPSE_SECONDS``. A change of the count is announced through the
read-model store (to every worker sharing it), which wakes the game's streams to send it on."""

from __future__ import annotations

import math
import sys
import threading
import time
import uuid
from collections import Counter
from typing import TYPE_CHECKING, Protocol

from infra.readside.readmodels import ReadModelStore

if TYPE_CHECKING:  # the embedded mode never imports the Redis client
    from infra.readside.redis_store import RedisStore

WATCHING = "watching"  # the announcement's projection: wakes a game's live streams, moves no read model


class Spectators(Protocol):
    def join(self, game_id: str) -> str:
        """A new spectator stream of ``game_id``; returns its ticket."""

    def renew(self, game_id: str, ticket: str) -> None:
        """The stream is still open (called at each keep-alive)."""

    def leave(self, game_id: str, ticket: str) -> None: ...

    def count(self, game_id: str) -> int: ...


class LocalSpectators:
    """The streams of this process (the embedded server: every stream there is)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._open: Counter[str] = Counter()

    def join(self, game_id: str) -> str:
        with self._lock:
            self._open[game_id] += 1
        return game_id

    def renew(self, game_id: str, ticket: str) -> None:
        pass

    def leave(self, game_id: str, ticket: str) -> None:
        with self._lock:
            self._open[game_id] -= 1
            if self._open[game_id] <= 0:
                del self._open[game_id]

    def count(self, game_id: str) -> int:
        with self._lock:
            return self._open.get(game_id, 0)


class RedisSpectators:
    """The streams of every worker sharing a Redis: one sorted set ``{prefix}:watching:{game_id}``."""

    def __init__(self, store: RedisStore, lapse_seconds: float) -> None:
        self.redis = store.redis
        self.prefix = store.prefix
        self.lapse_seconds = lapse_seconds

    def key(self, game_id: str) -> str:
        return f"{self.prefix}:watching:{game_id}"

    def join(self, game_id: str) -> str:
        ticket = uuid.uuid4().hex
        self.renew(game_id, ticket)
        return ticket

    def renew(self, game_id: str, ticket: str) -> None:
        key = self.key(game_id)
        with self.redis.pipeline() as pipe:
            pipe.zadd(key, {ticket: time.time() + self.lapse_seconds})
            pipe.expire(key, max(1, math.ceil(self.lapse_seconds)))  # a game nobody watches leaves no key
            pipe.execute()

    def leave(self, game_id: str, ticket: str) -> None:
        self.redis.zrem(self.key(game_id), ticket)

    def count(self, game_id: str) -> int:
        key = self.key(game_id)
        with self.redis.pipeline() as pipe:
            pipe.zremrangebyscore(key, "-inf", time.time())
            pipe.zcard(key)
            _, count = pipe.execute()
        return int(count)


def spectators_for(store: ReadModelStore, lapse_seconds: float) -> Spectators:
    """Shared through Redis when the read models are there (scale-out); else in this process."""
    redis_store = sys.modules.get("infra.readside.redis_store")  # not loaded: the store cannot be Redis's
    if redis_store is not None and isinstance(store, redis_store.RedisStore):
        return RedisSpectators(store, lapse_seconds)
    return LocalSpectators()
