"""The scale-out read-model store: Redis, shared by every API worker and projection worker.

Imported only when ``ALEXANDRIA_REDIS_URL`` is set (the embedded mode never loads the client).
"""

from __future__ import annotations

import json
import logging
import threading
from typing import Any, cast

import redis

from infra.readside.readmodels import (
    Announcements,
    Changes,
    Cursor,
    Listener,
    LocalListeners,
    ReadModelStore,
    owner_gone,
)
from infra.retrying import Backoff

log = logging.getLogger(__name__)

# Compare-and-set of the position and the document writes in one script: Redis runs a script
# atomically, so readers see either none or all of a batch, and a stale writer changes nothing.
# The batch's announcements go out from the script too: one round trip for the whole batch, and
# a batch is announced if and only if it was committed.
# KEYS[1]: the positions hash (fields NAME and NAME:generation); KEYS[2..]: the collection hashes.
# ARGV: projection, expected generation, expected position, new position, number of changes,
# then (KEYS index, field, JSON or "" to delete) per change, then (channel, message) pairs.
COMMIT_SCRIPT = """
local generation = tonumber(redis.call('HGET', KEYS[1], ARGV[1] .. ':generation') or '0')
local position = tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '0')
if generation ~= tonumber(ARGV[2]) or position ~= tonumber(ARGV[3]) then return 0 end
local announced = 6 + 3 * tonumber(ARGV[5])
for i = 6, announced - 1, 3 do
  local key = KEYS[tonumber(ARGV[i])]
  if ARGV[i + 2] == '' then
    redis.call('HDEL', key, ARGV[i + 1])
  else
    redis.call('HSET', key, ARGV[i + 1], ARGV[i + 2])
  end
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[4])
for i = announced, #ARGV, 2 do
  redis.call('PUBLISH', ARGV[i], ARGV[i + 1])
end
return 1
"""

# ARGV[3], when not empty, names a holder whose process is gone: its lease is taken over at once,
# but only if it still holds it (another worker may have taken it over first).
LEASE_SCRIPT = """
local holder = redis.call('GET', KEYS[1])
if holder == false or holder == ARGV[1] or (ARGV[3] ~= '' and holder == ARGV[3]) then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0
"""

RELEASE_SCRIPT = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""

# Errors that mean "Redis is (for now) out of reach", as opposed to a bug or a bad reply.
CONNECTION_ERRORS: tuple[type[Exception], ...] = (redis.ConnectionError, redis.TimeoutError)


class RedisStore(ReadModelStore):
    """Each collection is a hash ``{prefix}:rm:{projection}:{collection}``; positions are fields of
    ``{prefix}:rm:positions``; announcements go to the channel ``{prefix}:live:{game_id}``."""

    def __init__(self, url: str, prefix: str = "alexandria", client_name: str | None = None) -> None:
        self.url = url
        self.prefix = prefix
        self.redis = redis.Redis.from_url(url, decode_responses=True, client_name=client_name)
        self._commit = self.redis.register_script(COMMIT_SCRIPT)
        self._lease = self.redis.register_script(LEASE_SCRIPT)
        self._release = self.redis.register_script(RELEASE_SCRIPT)
        self._listeners = LocalListeners()
        self._listening: threading.Thread | None = None
        self._closing = threading.Event()

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

    def get_many(self, projection: str, collection: str, keys: Any) -> dict[str, str]:
        wanted = list(keys)
        if not wanted:
            return {}
        values = cast("list[str | None]", self.redis.hmget(self.collection_key(projection, collection), wanted))
        return {key: value for key, value in zip(wanted, values, strict=True) if value is not None}

    def get_all(self, projection: str, collection: str) -> dict[str, str]:
        return cast("dict[str, str]", self.redis.hgetall(self.collection_key(projection, collection)))

    def export(self, projection: str) -> dict[str, dict[str, str]]:
        start = len(self.collection_key(projection, ""))
        keys = self.redis.scan_iter(match=f"{self.collection_key(projection, '')}*", count=1000)
        return {key[start:]: cast("dict[str, str]", self.redis.hgetall(key)) for key in keys}

    def commit(
        self, projection: str, expected: Cursor, position: int, changes: Changes, announcements: Announcements = ()
    ) -> bool:
        keys = [self.positions_key]
        key_index: dict[str, int] = {}
        args: list[str | int] = [projection, expected.generation, expected.position, position, len(changes)]
        for (collection, field), value in changes.items():
            key = self.collection_key(projection, collection)
            if key not in key_index:
                keys.append(key)
                key_index[key] = len(keys)  # Lua's KEYS is 1-based
            args += [key_index[key], field, "" if value is None else value]
        for game_id, message in announcements:
            args += [self.channel(game_id), json.dumps(message)]
        return bool(self._commit(keys=keys, args=args))

    def reset(self, projection: str) -> None:
        # WATCH the positions: if any commit slips in between listing the keys and deleting them,
        # start again, so that no document of the old generation survives.
        with self.redis.pipeline() as pipe:
            while True:
                try:
                    pipe.watch(self.positions_key)  # type: ignore[no-untyped-call]  # redis-py leaves it untyped
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
        key, milliseconds = self.lease_key(projection), max(1, int(ttl * 1000))
        if self._lease(keys=[key], args=[owner, milliseconds, ""]):
            return True
        # A lease of a killed process is free at once, as in the SQLite store.
        holder = cast("str | None", self.redis.get(key))
        if holder is None or not owner_gone(holder):
            return False
        return bool(self._lease(keys=[key], args=[owner, milliseconds, holder]))

    def release_lease(self, projection: str, owner: str) -> None:
        self._release(keys=[self.lease_key(projection)], args=[owner])

    def announce(self, game_id: str, message: dict[str, Any]) -> None:
        self.redis.publish(self.channel(game_id), json.dumps(message))

    def listen(self, listener: Listener) -> None:
        """One pattern subscription per process, whatever the number of waiting readers: a thread
        that hands every announcement to the listeners, reconnecting (with backoff) when Redis
        goes away. Announcements sent while it is away are lost; waiters re-check positions."""
        self._listeners.add(listener)
        if self._listening is None:
            self._listening = threading.Thread(target=self._listen_forever, name="redis-announcements", daemon=True)
            self._listening.start()

    def _listen_forever(self) -> None:
        backoff = Backoff("the Redis announcements", log)
        start = len(self.channel(""))
        while not self._closing.is_set():
            pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
            try:
                pubsub.psubscribe(self.channel("*"))
                backoff.succeeded()
                while not self._closing.is_set():
                    message = pubsub.get_message(timeout=1.0)
                    if message is not None and message.get("type") == "pmessage":
                        self._listeners.announce(str(message["channel"])[start:], json.loads(message["data"]))
            except CONNECTION_ERRORS as problem:
                backoff.failed(problem, self._closing)
            finally:
                pubsub.close()

    def flush(self) -> None:
        """Delete every key under the prefix (tests, and recovering from a lost Redis)."""
        keys = list(self.redis.scan_iter(match=f"{self.prefix}:*", count=1000))
        if keys:
            self.redis.delete(*keys)

    def close(self) -> None:
        self._closing.set()
        if self._listening is not None:
            self._listening.join(timeout=5)
        self.redis.close()
