"""Readers waiting for a read model to reach a version of a game, without holding a thread.

A server has a few dozen threads and may have hundreds of clients waiting at once for the next
move of a game (``min_version`` long-polls, live streams). Each waiter is an asyncio event on
the server's loop; the store's announcements (one listener per process) set the events of the
waiters they satisfy. One re-checking thread per process reads the heads of every waited-for
game in one round trip every ``recheck_seconds``, so a lost announcement (or a projection
running in another process, which does not announce here) only delays a waiter; no waiter
polls on its own, and none takes a thread-pool thread while it waits.

The number of ``min_version`` waiters is bounded: one over the bound is refused at once with
``TOO_MANY_WAITERS`` (503), instead of slowing every other request down.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections import defaultdict
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from infra.games.service import ServiceError

log = logging.getLogger(__name__)

# (projection, game ids) -> the version each game has in that projection (missing: none)
HeadsReader = Callable[[str, list[str]], dict[str, int]]


class TooManyWaiters(ServiceError):
    """More readers wait for versions than this server takes at once: ask again in a moment."""

    code = "TOO_MANY_WAITERS"


@dataclass(eq=False)
class Waiter:
    projection: str | None  # None: any announcement of the game (a live stream)
    game_id: str
    wanted: int  # the version to reach (a stream: the head it last saw + 1)
    loop: asyncio.AbstractEventLoop
    event: asyncio.Event = field(default_factory=asyncio.Event)
    woken_at: int | None = None  # the board head that woke it, where known

    def wake(self, version: int | None = None) -> None:
        if version is not None:
            self.woken_at = max(self.woken_at or 0, version)
        self.loop.call_soon_threadsafe(self.event.set)


STREAM_PROJECTION = "boards"  # a stream's re-check looks at the board read model's head


class Waiters:
    def __init__(self, heads: HeadsReader, limit: int = 1000, recheck_seconds: float = 0.5) -> None:
        self.heads = heads
        self.limit = limit
        self.recheck_seconds = recheck_seconds
        self._lock = threading.Lock()
        self._by_game: dict[str, set[Waiter]] = defaultdict(set)
        self._counted = 0  # min_version waiters (streams are not counted: they are not long-polls)
        self._rechecking: threading.Thread | None = None
        self._closed = threading.Event()

    @property
    def waiting(self) -> int:
        with self._lock:
            return self._counted

    # -- from any thread --------------------------------------------------------------------------

    def announced(self, game_id: str, message: dict[str, Any]) -> None:
        projection, version = message.get("projection"), message.get("version")
        with self._lock:
            waiters = list(self._by_game.get(game_id, ()))
        known = version if isinstance(version, int) else None
        for waiter in waiters:
            if waiter.projection is None:
                waiter.wake(known if projection == STREAM_PROJECTION else None)
            elif waiter.projection == projection and known is not None and known >= waiter.wanted:
                waiter.wake(known)

    def close(self) -> None:
        self._closed.set()

    # -- on the event loop ------------------------------------------------------------------------

    async def wait(self, projection: str, game_id: str, wanted: int, timeout: float) -> bool:
        """True once an announcement or a re-check says ``projection`` has ``wanted`` of the game;
        False after ``timeout`` seconds. Raises ``TooManyWaiters`` when the bound is reached."""
        waiter = Waiter(projection, game_id, wanted, asyncio.get_running_loop())
        with self._lock:
            if self._counted >= self.limit:
                raise TooManyWaiters(
                    f"{self.limit} requests are already waiting for versions on this server; ask again "
                    "in a moment, or follow /games/{id}/stream for live updates"
                )
            self._counted += 1
        try:
            return await self._wait(waiter, timeout)
        finally:
            with self._lock:
                self._counted -= 1

    @asynccontextmanager
    async def subscribe(self, game_id: str, seen: int) -> AsyncIterator[Subscription]:
        """A live stream's wake-ups: any announcement of the game, or a board head past ``seen``."""
        yield Subscription(self, game_id, seen)

    async def _wait(self, waiter: Waiter, timeout: float) -> bool:
        self._add(waiter)
        try:
            await asyncio.wait_for(waiter.event.wait(), timeout)
            return True
        except TimeoutError:
            return False
        finally:
            self._remove(waiter)

    def _add(self, waiter: Waiter) -> None:
        with self._lock:
            self._by_game[waiter.game_id].add(waiter)
            if self._rechecking is None:
                self._rechecking = threading.Thread(target=self._recheck_forever, name="waiters", daemon=True)
                self._rechecking.start()

    def _remove(self, waiter: Waiter) -> None:
        with self._lock:
            waiters = self._by_game.get(waiter.game_id)
            if waiters is not None:
                waiters.discard(waiter)
                if not waiters:
                    del self._by_game[waiter.game_id]

    def _recheck_forever(self) -> None:
        while not self._closed.wait(self.recheck_seconds):
            try:
                self._recheck()
            except Exception:  # a store out of reach: the next round tries again
                log.warning("re-checking the waiters' read models failed", exc_info=True)

    def _recheck(self) -> None:
        with self._lock:
            waiting = [w for waiters in self._by_game.values() for w in waiters]
        by_projection: dict[str, set[str]] = defaultdict(set)
        for waiter in waiting:
            by_projection[waiter.projection or STREAM_PROJECTION].add(waiter.game_id)
        heads = {name: self.heads(name, sorted(games)) for name, games in by_projection.items()}
        for waiter in waiting:
            head = heads[waiter.projection or STREAM_PROJECTION].get(waiter.game_id, 0)
            if head >= waiter.wanted:
                waiter.wake(head)


class Subscription:
    """A live-update feed of one game, open while the caller streams it."""

    def __init__(self, waiters: Waiters, game_id: str, seen: int) -> None:
        self.waiters = waiters
        self.game_id = game_id
        self.seen = seen

    async def wait(self, timeout: float) -> bool:
        """True when the game (may have) changed since the last wait, False on timeout."""
        waiter = Waiter(None, self.game_id, self.seen + 1, asyncio.get_running_loop())
        woken = await self.waiters._wait(waiter, timeout)
        if waiter.woken_at is not None:
            self.seen = max(self.seen, waiter.woken_at)
        return woken
