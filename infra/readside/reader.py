"""The read side the API serves from: board views, scoreboards, the lobby and replay frames, all
read from the read-model store, with ``min_version`` waits for reading one's own writes.

Both modes run the same projector (``infra.readside.projector``): the embedded mode in a background
thread of this process, over an SQLite file beside the event store (``SqliteStore``); the
scale-out mode in ``alexandria project`` workers, over Redis. A command never waits for a
projection; a read names ``min_version`` (the version its command returned) to see its write.

Views and scoreboards are rendered from the board read model's match when read, once per
(game, version, viewer): bounded LRU caches keep the decoded matches and the rendered
documents of the games being read, so a game that is watched costs one rendering per move
and a game nobody reads costs none. A game the read models do not know yet (created a moment
ago, on this worker or another) is read from the event store instead: a game that exists is
never reported missing.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Callable
from datetime import datetime
from functools import cached_property
from typing import Any, Generic, TypeVar

from anyio import to_thread

from domain.kernel.log import Record
from domain.kernel.match import Match
from domain.kernel.seats import Viewer
from infra.games.service import GameService, Invalid, ServiceError, Unauthorized, UnknownVersion, token_hash
from infra.readside.paging import decode_cursor, encode_cursor, moment_of
from infra.readside.projector import HEADS, Projector
from infra.readside.readmodels import MemoryStore, ReadModelStore, SqliteStore, readmodels_path
from infra.readside.waiting import Subscription, Waiters
from infra.settings import Settings, sqlite_path
from projections.base import Projection
from projections.board import SEATS, BoardProjection, board_view
from projections.checkpoint import MATCHES, RecentMatches, decode_match
from projections.frames import FRAMES, frame_key, nearest_frame
from projections.lobby import GAMES_LISTED, LobbyProjection
from projections.registry import all_projections
from projections.scoreboard import scoreboard_entry

BOARDS, LOBBY = BoardProjection.name, LobbyProjection.name
LOBBY_LIMIT, LOBBY_MAX_LIMIT = 100, 500

K = TypeVar("K")
T = TypeVar("T")
V = TypeVar("V")


class ReadModelBehind(ServiceError):
    """The event store has the asked version but the read model did not reach it in time
    (a projection worker is down or far behind)."""

    code = "READ_MODEL_BEHIND"


class VersionNotReached(ServiceError):
    """The game itself did not reach the asked version while the request waited (a client
    waiting for the next move asks again, or follows ``/stream``)."""

    code = "VERSION_NOT_REACHED"


class BoundedCache(Generic[K, V]):
    """Least recently used entries, at most ``size`` of them; safe across threads."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._entries: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        with self._lock:
            value = self._entries.get(key)
            if value is not None:
                self._entries.move_to_end(key)
            return value

    def put(self, key: K, value: V) -> None:
        with self._lock:
            self._entries[key] = value
            self._entries.move_to_end(key)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def __len__(self) -> int:
        return len(self._entries)


LobbyKey = tuple[datetime, str]  # (last activity, game id): the lobby's order, and a cursor's position


class ReadSide:
    def __init__(
        self,
        service: GameService,
        store: ReadModelStore,
        projector: Projector | None = None,
        wait_seconds: float = 5.0,
        max_waiters: int = 1000,
        cache_size: int = 256,
    ) -> None:
        self.service = service
        self.store = store
        self.projector = projector  # set: this process keeps the read models itself (in the background)
        self.wait_seconds = wait_seconds
        self.waiters = Waiters(self.heads, max_waiters)
        # A store in this process answers in microseconds: its checks run on the event loop
        # itself, so hundreds of waiters take no thread-pool thread from other requests.
        self._checks_inline = isinstance(store, (MemoryStore, SqliteStore))
        store.listen(self.waiters.announced)
        self._matches: BoundedCache[tuple[str, int], Match] = BoundedCache(cache_size)
        self._rendered: BoundedCache[tuple[str, int, str], dict[str, Any]] = BoundedCache(cache_size * 4)
        self._lobby: tuple[int, list[tuple[LobbyKey, dict[str, Any]]]] | None = None  # (position, sorted entries)
        self._ready_target: int | None = None
        self._ready = False
        self._starting = threading.Lock()
        self._background: list[Projector] = []
        self._service_closed = False
        if projector is not None:
            self.add_projector(projector)

    # -- keeping up -------------------------------------------------------------------------------

    def add_projector(self, projector: Projector) -> None:
        """Keep another projector running in this process's background beside the read models'
        (its own projections over its own store, e.g. an analytics database): woken after each
        save, started and stopped with the read side."""
        if not self._background:
            self.service.on_saved(self._written)
            self.service.on_closing(self._service_closing)
        self._background.append(projector)

    @cached_property
    def _in_memory(self) -> bool:
        # An in-memory SQLite event store lives in one connection that other threads cannot
        # share for long: its projections run in the writing thread, after each save. (Asked
        # after every save: the store's settings are looked up once.)
        return self.service.env.get("SQLITE_DBNAME") == ":memory:"

    def start(self) -> None:
        """Start the background projectors (embedded mode); reads and writes start them too."""
        if self._in_memory or self._service_closed:
            return
        if any(not p.running for p in self._background):
            with self._starting:
                for projector in self._background:
                    if not projector.running:
                        projector.start()

    def close(self) -> None:
        for projector in self._background:
            projector.stop()
        self.waiters.close()

    def _service_closing(self) -> None:
        self._service_closed = True  # for good: nothing may start reading the closed store again
        self.close()

    def _written(self) -> None:
        if self._in_memory:
            for projector in self._background:
                projector.catch_up()
            return
        for projector in self._background:
            projector.wake()
        self.start()

    def head(self, projection: str, game_id: str) -> int:
        """The version of the game ``projection`` has applied (0: it does not know the game)."""
        text = self.store.get(projection, HEADS, game_id)
        return 0 if text is None else int(text)

    def heads(self, projection: str, game_ids: list[str]) -> dict[str, int]:
        return {g: int(v) for g, v in self.store.get_many(projection, HEADS, game_ids).items()}

    def _has(self, projection: str, game_id: str, wanted: int) -> bool:
        """True when a read of the game at ``wanted`` or later can be served now: the read model
        has it, or does not know the game at all yet and the event store has it (reads of the
        game then come from the event store). Raises ``GameNotFound`` for no game at all."""
        head = self.head(projection, game_id)
        if head >= wanted:
            return True
        if head == 0:
            return self.service.load(game_id).match.version >= wanted
        return False

    def _behind(self, projection: str, game_id: str, wanted: int) -> ServiceError | None:
        if self._has(projection, game_id, wanted):
            return None
        stored = self.service.load(game_id).match.version
        if stored < wanted:
            return VersionNotReached(
                f"game {game_id} did not reach version {wanted} within {self.wait_seconds:g} s (it is at {stored}); "
                "ask again, or follow /games/{id}/stream for live updates"
            )
        return ReadModelBehind(
            f"game {game_id} is at version {stored}, but this server's reads of it did not catch up with version "
            f"{wanted} within {self.wait_seconds:g} s (they are at {self.head(projection, game_id)}): "
            "ask again in a moment"
        )

    async def caught_up(self, projection: str, game_id: str, min_version: int | None) -> None:
        """Wait until a read of ``projection`` can serve ``min_version`` of the game, without
        holding a thread while waiting (see ``infra.readside.waiting``)."""
        self.start()
        wanted = max(min_version or 0, 1)
        if await self._check(self._has, projection, game_id, wanted):
            return
        for projector in self._background:
            projector.hurry()
        if await self.waiters.wait(projection, game_id, wanted, self.wait_seconds):
            return
        problem = await self._check(self._behind, projection, game_id, wanted)
        if problem is not None:
            raise problem

    async def _check(self, check: Callable[[str, str, int], T], projection: str, game_id: str, wanted: int) -> T:
        if self._checks_inline:
            return check(projection, game_id, wanted)
        return await to_thread.run_sync(check, projection, game_id, wanted)

    # -- ready ------------------------------------------------------------------------------------

    def readiness(self) -> dict[str, Any]:
        """Ready once every read model has applied what the event store held when this process
        first asked (and from then on: a live server is always a few records behind)."""
        self.start()
        positions = {p.name: self.store.position(p.name) for p in self._projections()}
        if self._ready_target is None:
            self._ready_target = self.service.recorder.max_notification_id() or 0
        self._ready = self._ready or all(p >= self._ready_target for p in positions.values())
        return {"ready": self._ready, "event_store_at": self._ready_target, "read_models": positions}

    def _projections(self) -> list[Any]:
        if self.projector is not None:
            return self.projector.projections
        from projections.registry import all_projections

        return all_projections()

    # -- reading ----------------------------------------------------------------------------------

    def _projected_match(self, game_id: str, head: int) -> Match:
        match = self._matches.get((game_id, head))
        if match is None:
            text = self.store.get(BOARDS, MATCHES, game_id)
            if text is None:
                raise ReadModelBehind(f"reads of game {game_id} are being rebuilt: ask again in a moment")
            match = decode_match(json.loads(text))  # at ``head`` or later: a commit may have come in
            self._matches.put((game_id, match.version), match)
        return match

    def _render(
        self, game_id: str, kind: str, render: Callable[[Match], dict[str, Any]], wanted: int
    ) -> dict[str, Any]:
        head = self.head(BOARDS, game_id)
        if head < wanted:
            # Not projected yet (``caught_up`` found the game unknown to the read model and in the
            # event store; the projection may have started on it since): the event store has it,
            # or says there is no such game.
            with self.service.reading(game_id) as aggregate:
                if aggregate.match.version < wanted:
                    raise VersionNotReached(f"game {game_id} is at version {aggregate.match.version}, not {wanted}")
                return render(aggregate.match)
        rendered = self._rendered.get((game_id, head, kind))
        if rendered is None:
            match = self._projected_match(game_id, head)
            rendered = render(match)
            self._rendered.put((game_id, match.version, kind), rendered)
        return rendered

    def viewer(self, game_id: str, token: str | None) -> Viewer:
        """The seat a bearer token belongs to (None: a spectator); 404 for no such game."""
        text = self.store.get(BOARDS, SEATS, game_id)
        if text is not None:
            hashes: list[str | None] = json.loads(text)
        else:
            with self.service.reading(game_id) as aggregate:
                hashes = aggregate.token_hashes
        if token is None:
            return None
        try:
            return hashes.index(token_hash(token))
        except ValueError:
            raise Unauthorized("this token is not a seat token of this game") from None

    def board(self, game_id: str, viewer: Viewer, min_version: int | None = None) -> dict[str, Any]:
        return self._render(
            game_id, f"view:{viewer}", lambda match: board_view(game_id, match, viewer), min_version or 1
        )

    def scoreboard(self, game_id: str, min_version: int | None = None) -> dict[str, Any]:
        return self._render(game_id, "scoreboard", lambda match: scoreboard_entry(game_id, match), min_version or 1)

    def _lobby_entries(self) -> list[tuple[LobbyKey, dict[str, Any]]]:
        """The lobby's entries with their sort keys, most recently active first (once per change)."""
        position = self.store.position(LOBBY)
        cached = self._lobby
        if cached is not None and cached[0] == position:
            return cached[1]
        entries = [json.loads(text) for text in self.store.get_all(LOBBY, GAMES_LISTED).values()]
        keyed = [((moment_of(e["last_activity"]), e["game_id"]), e) for e in entries]
        keyed.sort(key=lambda pair: pair[0], reverse=True)
        self._lobby = (position, keyed)
        return keyed

    def games(
        self,
        game: str | None = None,
        status: str | None = None,
        players: int | None = None,
        limit: int = LOBBY_LIMIT,
        cursor: str | None = None,
    ) -> tuple[list[dict[str, Any]], str | None]:
        """One page of the lobby, most recently active first, and the cursor of the next page
        (None: this is the last). A cursor is the position after which the next page starts,
        so games that move meanwhile are neither skipped twice nor lost from later pages
        (a game that becomes active again moves to the front)."""
        self.start()
        if not 1 <= limit <= LOBBY_MAX_LIMIT:
            raise Invalid(f"limit must be between 1 and {LOBBY_MAX_LIMIT}")
        try:
            after = decode_cursor(cursor) if cursor is not None else None
        except ValueError as error:
            raise Invalid(f"cursor is not in the form of the X-Next-Cursor this server gives: {error}") from None
        page: list[tuple[LobbyKey, dict[str, Any]]] = []
        for key, entry in self._lobby_entries():
            if after is not None and key >= after:
                continue
            if (
                (game is None or entry["game"] == game)
                and (status is None or entry["status"] == status)
                and (players is None or entry["players"] == players)
            ):
                if len(page) == limit:
                    return [e for _, e in page], encode_cursor(*page[-1][0])
                page.append((key, entry))
        return [e for _, e in page], None

    def at_version(self, game_id: str, version: int, viewer: Viewer) -> dict[str, Any]:
        """The board at any past version: the nearest replay frame plus the few records after it
        (a version the read model has not reached yet: the event store, through its snapshots)."""
        self.start()
        head = self.head(BOARDS, game_id)
        if head == 0 or version > head:
            aggregate = self.service.load(game_id, version) if version >= 1 else None
            if aggregate is None:
                raise UnknownVersion(f"game {game_id} has no version {version}")
            return board_view(game_id, aggregate.match, viewer)
        start = nearest_frame(version)
        text = self.store.get(BOARDS, FRAMES, frame_key(game_id, start))
        if text is None:
            raise ReadModelBehind(f"reads of game {game_id} are being rebuilt: ask again in a moment")
        match = decode_match(json.loads(text))
        for record in self.service.records(game_id, after=start, through=version):
            match.apply_record(record)
        return board_view(game_id, match, viewer)

    def records(self, game_id: str, after: int) -> list[Record]:
        return self.service.records(game_id, after=after)

    def subscribe(self, game_id: str) -> Any:
        """Async context manager: a ``Subscription`` woken whenever a projection moves the game on."""
        self.start()
        return self.waiters.subscribe(game_id, 0)


__all__ = ["BOARDS", "LOBBY", "ReadModelBehind", "ReadSide", "Subscription", "VersionNotReached"]


def read_model_store(settings: Settings) -> ReadModelStore:
    """Redis when ALEXANDRIA_REDIS_URL is set (imported only then); else an SQLite file beside the
    SQLite event store; in memory for an in-memory event store (nothing there outlives the process)."""
    if settings.redis_url is not None:
        from infra.readside.redis_store import RedisStore

        return RedisStore(settings.redis_url, settings.redis_prefix)
    path = sqlite_path(settings)
    if path is None:
        raise ValueError("the embedded read models need an SQLite event store; set ALEXANDRIA_REDIS_URL for PostgreSQL")
    return MemoryStore() if path == ":memory:" else SqliteStore(readmodels_path(path))


def embedded_read_side(service: GameService, store: ReadModelStore | None = None) -> ReadSide:
    """Read models kept by a background projector of this process (in memory unless a store is given)."""
    store = store if store is not None else MemoryStore()
    return ReadSide(service, store, Projector(service, store))


def projections_of(settings: Settings) -> list[Projection]:
    """Every read model, with the bounds the settings give them."""
    return all_projections(RecentMatches(settings.projector_matches, settings.projector_matches_bytes))


def build_read_side(service: GameService, settings: Settings | None = None) -> ReadSide:
    settings = settings or Settings()
    store = read_model_store(settings)
    projector = (
        None
        if settings.redis_url is not None or not settings.project_in_serve
        else Projector(
            service,
            store,
            projections_of(settings),
            cache_bytes=settings.projector_cache_bytes,
            gather_seconds=settings.projection_gather_ms / 1000,
        )
    )
    return ReadSide(
        service,
        store,
        projector,
        wait_seconds=settings.wait_seconds,
        max_waiters=settings.max_waiters,
        cache_size=settings.read_cache_size,
    )
