"""Read-model stores: where projections keep their documents and their positions.

Two implementations behind one interface: ``MemoryStore`` (in process, the embedded default)
and ``RedisStore`` (shared by every API worker and projection worker). In both, a projection's
documents and its position change in one atomic step, and only if its cursor is still the one
the batch started from (compare-and-set), so no batch is ever applied twice, even by two
workers racing after a lease expired. The cursor is the position plus a generation that every
reset increments: a batch that started before a reset cannot commit after it, even if the
rebuild has reached the same position again (its reads may mix both generations).

The stores also carry the live-update signal: after a projection commits, it announces the
new version of every game the batch touched; API workers wait on that signal to serve
``min_version`` reads and to feed server-sent event streams.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from abc import ABC, abstractmethod
from collections import defaultdict
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager, suppress
from typing import Any, NamedTuple, Protocol, cast

import redis
import redis.asyncio

# (collection, key) -> the document as JSON text, or None to delete it
Changes = Mapping[tuple[str, str], str | None]


class Cursor(NamedTuple):
    generation: int  # incremented by every reset
    position: int  # the notification id of the last record applied (0: none)


class Subscription(Protocol):
    """A live-update feed of one game, open while the caller streams it."""

    async def wait(self, timeout: float) -> bool:
        """True when the game (may have) changed since the last wait, False on timeout."""
        ...


class ReadModelStore(ABC):
    # -- documents and positions ------------------------------------------------------------------

    @abstractmethod
    def cursor(self, projection: str) -> Cursor: ...

    def position(self, projection: str) -> int:
        """The notification id of the last record the projection applied (0: none)."""
        return self.cursor(projection).position

    @abstractmethod
    def get(self, projection: str, collection: str, key: str) -> str | None: ...

    @abstractmethod
    def get_all(self, projection: str, collection: str) -> dict[str, str]: ...

    @abstractmethod
    def export(self, projection: str) -> dict[str, dict[str, str]]:
        """Every document of the projection, by collection (to compare a read model with a rebuild)."""

    @abstractmethod
    def commit(self, projection: str, expected: Cursor, position: int, changes: Changes) -> bool:
        """Write ``changes`` and move the position to ``position``, atomically; False (and nothing
        written) when the cursor is no longer ``expected``."""

    @abstractmethod
    def reset(self, projection: str) -> None:
        """Forget the projection's documents and position (for a rebuild); a new generation."""

    # -- leases: one worker at a time works on a projection ---------------------------------------

    @abstractmethod
    def acquire_lease(self, projection: str, owner: str, ttl: float) -> bool:
        """Take or renew the projection's lease for ``ttl`` seconds; False if another owner holds it."""

    @abstractmethod
    def release_lease(self, projection: str, owner: str) -> None: ...

    # -- live updates -----------------------------------------------------------------------------

    @abstractmethod
    def announce(self, game_id: str, message: dict[str, Any]) -> None:
        """Tell every waiting reader of ``game_id`` that a projection moved it on."""

    @abstractmethod
    def wait_until(self, game_id: str, condition: Callable[[], bool], timeout: float) -> bool:
        """Block until ``condition()`` holds (checked after each announcement), at most ``timeout`` s."""

    @abstractmethod
    def subscribe(self, game_id: str) -> Any:
        """An async context manager yielding a ``Subscription`` to ``game_id``."""

    def close(self) -> None:  # noqa: B027 - most stores hold nothing to release
        pass


class MemoryStore(ReadModelStore):
    """Documents in a dict; a lock makes each commit atomic."""

    POLL_SECONDS = 0.05  # async subscribers poll a counter: the embedded mode has few of them

    def __init__(self) -> None:
        self._documents: dict[tuple[str, str], dict[str, str]] = defaultdict(dict)
        self._cursors: dict[str, Cursor] = {}
        self._leases: dict[str, tuple[str, float]] = {}
        self._changed = threading.Condition()
        self._announcements: dict[str, int] = defaultdict(int)

    def cursor(self, projection: str) -> Cursor:
        with self._changed:
            return self._cursors.get(projection, Cursor(0, 0))

    def get(self, projection: str, collection: str, key: str) -> str | None:
        with self._changed:
            return self._documents[(projection, collection)].get(key)

    def get_all(self, projection: str, collection: str) -> dict[str, str]:
        with self._changed:
            return dict(self._documents[(projection, collection)])

    def export(self, projection: str) -> dict[str, dict[str, str]]:
        with self._changed:
            return {c: dict(d) for (p, c), d in self._documents.items() if p == projection and d}

    def commit(self, projection: str, expected: Cursor, position: int, changes: Changes) -> bool:
        with self._changed:
            if self.cursor(projection) != expected:
                return False
            for (collection, key), value in changes.items():
                documents = self._documents[(projection, collection)]
                if value is None:
                    documents.pop(key, None)
                else:
                    documents[key] = value
            self._cursors[projection] = Cursor(expected.generation, position)
            return True

    def reset(self, projection: str) -> None:
        with self._changed:
            for name in [n for n in self._documents if n[0] == projection]:
                del self._documents[name]
            self._cursors[projection] = Cursor(self.cursor(projection).generation + 1, 0)

    def acquire_lease(self, projection: str, owner: str, ttl: float) -> bool:
        with self._changed:
            holder = self._leases.get(projection)
            if holder is not None and holder[0] != owner and holder[1] > time.monotonic():
                return False
            self._leases[projection] = (owner, time.monotonic() + ttl)
            return True

    def release_lease(self, projection: str, owner: str) -> None:
        with self._changed:
            if self._leases.get(projection, ("", 0.0))[0] == owner:
                del self._leases[projection]

    def announce(self, game_id: str, message: dict[str, Any]) -> None:
        with self._changed:
            self._announcements[game_id] += 1
            self._changed.notify_all()

    def wait_until(self, game_id: str, condition: Callable[[], bool], timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        with self._changed:
            while not condition():
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False
                self._changed.wait(remaining)
            return True

    @asynccontextmanager
    async def subscribe(self, game_id: str) -> AsyncIterator[Subscription]:
        yield _MemorySubscription(self, game_id)

    def announcements(self, game_id: str) -> int:
        with self._changed:
            return self._announcements[game_id]


class _MemorySubscription:
    def __init__(self, store: MemoryStore, game_id: str) -> None:
        self.store = store
        self.game_id = game_id
        self.seen = store.announcements(game_id)

    async def wait(self, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            count = self.store.announcements(self.game_id)
            if count != self.seen:
                self.seen = count
                return True
            await asyncio.sleep(self.store.POLL_SECONDS)
        return False


# Compare-and-set of the position and the document writes in one script: Redis runs a script
# atomically, so readers see either none or all of a batch, and a stale writer changes nothing.
# KEYS[1]: the positions hash (fields NAME and NAME:generation); KEYS[2..]: the collection hashes.
# ARGV: projection, expected generation, expected position, new position,
# then (KEYS index, field, JSON or "" to delete)...
COMMIT_SCRIPT = """
local generation = tonumber(redis.call('HGET', KEYS[1], ARGV[1] .. ':generation') or '0')
local position = tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '0')
if generation ~= tonumber(ARGV[2]) or position ~= tonumber(ARGV[3]) then return 0 end
for i = 5, #ARGV, 3 do
  local key = KEYS[tonumber(ARGV[i])]
  if ARGV[i + 2] == '' then
    redis.call('HDEL', key, ARGV[i + 1])
  else
    redis.call('HSET', key, ARGV[i + 1], ARGV[i + 2])
  end
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[4])
return 1
"""

LEASE_SCRIPT = """
local holder = redis.call('GET', KEYS[1])
if holder == false or holder == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0
"""

RELEASE_SCRIPT = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


class RedisStore(ReadModelStore):
    """Each collection is a hash ``{prefix}:rm:{projection}:{collection}``; positions are fields of
    ``{prefix}:rm:positions``; announcements go to the channel ``{prefix}:live:{game_id}``."""

    WAIT_RECHECK_SECONDS = 0.25  # re-check a waited-for condition even without an announcement

    def __init__(self, url: str, prefix: str = "alexandria") -> None:
        self.url = url
        self.prefix = prefix
        self.redis = redis.Redis.from_url(url, decode_responses=True)
        self._commit = self.redis.register_script(COMMIT_SCRIPT)
        self._lease = self.redis.register_script(LEASE_SCRIPT)
        self._release = self.redis.register_script(RELEASE_SCRIPT)

    @property
    def positions_key(self) -> str:
        return f"{self.prefix}:rm:positions"

    def collection_key(self, projection: str, collection: str) -> str:
        return f"{self.prefix}:rm:{projection}:{collection}"

    def channel(self, game_id: str) -> str:
        return f"{self.prefix}:live:{game_id}"

    def cursor(self, projection: str) -> Cursor:
        position, generation = self.redis.hmget(self.positions_key, [projection, f"{projection}:generation"])
        return Cursor(int(generation or 0), int(position or 0))

    # The client decodes responses (decode_responses=True): strings, whatever redis-py's types say.
    def get(self, projection: str, collection: str, key: str) -> str | None:
        return cast("str | None", self.redis.hget(self.collection_key(projection, collection), key))

    def get_all(self, projection: str, collection: str) -> dict[str, str]:
        return cast("dict[str, str]", self.redis.hgetall(self.collection_key(projection, collection)))

    def export(self, projection: str) -> dict[str, dict[str, str]]:
        start = len(self.collection_key(projection, ""))
        keys = self.redis.scan_iter(match=f"{self.collection_key(projection, '')}*", count=1000)
        return {key[start:]: cast("dict[str, str]", self.redis.hgetall(key)) for key in keys}

    def commit(self, projection: str, expected: Cursor, position: int, changes: Changes) -> bool:
        keys = [self.positions_key]
        key_index: dict[str, int] = {}
        args: list[str | int] = [projection, expected.generation, expected.position, position]
        for (collection, field), value in changes.items():
            key = self.collection_key(projection, collection)
            if key not in key_index:
                keys.append(key)
                key_index[key] = len(keys)  # Lua's KEYS is 1-based
            args += [key_index[key], field, "" if value is None else value]
        return bool(self._commit(keys=keys, args=args))

    def reset(self, projection: str) -> None:
        # WATCH the positions: if any commit slips in between listing the keys and deleting them,
        # start again, so that no document of the old generation survives.
        with self.redis.pipeline() as pipe:
            while True:
                try:
                    pipe.watch(self.positions_key)
                    keys = list(pipe.scan_iter(match=f"{self.collection_key(projection, '')}*", count=1000))
                    pipe.multi()
                    if keys:
                        pipe.delete(*keys)
                    pipe.hset(self.positions_key, projection, 0)
                    pipe.hincrby(self.positions_key, f"{projection}:generation", 1)
                    pipe.execute()
                    return
                except redis.WatchError:
                    continue

    def lease_key(self, projection: str) -> str:
        return f"{self.prefix}:rm:lease:{projection}"

    def acquire_lease(self, projection: str, owner: str, ttl: float) -> bool:
        return bool(self._lease(keys=[self.lease_key(projection)], args=[owner, max(1, int(ttl * 1000))]))

    def release_lease(self, projection: str, owner: str) -> None:
        self._release(keys=[self.lease_key(projection)], args=[owner])

    def announce(self, game_id: str, message: dict[str, Any]) -> None:
        self.redis.publish(self.channel(game_id), json.dumps(message))

    def wait_until(self, game_id: str, condition: Callable[[], bool], timeout: float) -> bool:
        if condition():
            return True
        deadline = time.monotonic() + timeout
        pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        try:
            pubsub.subscribe(self.channel(game_id))
            # Subscribed now: an announcement from here on wakes us; check what came before.
            while not condition():
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False
                pubsub.get_message(timeout=min(remaining, self.WAIT_RECHECK_SECONDS))
            return True
        finally:
            pubsub.close()

    @asynccontextmanager
    async def subscribe(self, game_id: str) -> AsyncIterator[Subscription]:
        # A client per subscription: an asyncio client belongs to the event loop that made it.
        client = redis.asyncio.Redis.from_url(self.url, decode_responses=True)
        pubsub = client.pubsub(ignore_subscribe_messages=True)
        try:
            await pubsub.subscribe(self.channel(game_id))
            yield _RedisSubscription(pubsub)
        finally:
            with suppress(Exception):
                await pubsub.aclose()
            await client.aclose()

    def flush(self) -> None:
        """Delete every key under the prefix (tests, and recovering from a lost Redis)."""
        keys = list(self.redis.scan_iter(match=f"{self.prefix}:*", count=1000))
        if keys:
            self.redis.delete(*keys)

    def close(self) -> None:
        self.redis.close()


class _RedisSubscription:
    def __init__(self, pubsub: Any) -> None:
        self.pubsub = pubsub

    async def wait(self, timeout: float) -> bool:
        message = await self.pubsub.get_message(ignore_subscribe_messages=True, timeout=timeout)
        if message is None:
            return False
        # Drain what queued up meanwhile: one wake-up covers them all.
        while await self.pubsub.get_message(ignore_subscribe_messages=True, timeout=0) is not None:
            pass
        return True


def json_text(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))
