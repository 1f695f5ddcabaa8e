"""The read side the API serves from: board views, scoreboards, the lobby and replay frames,
all read from the read-model store, with ``min_version`` waits for reading one's own writes.

Embedded mode: a ``MemoryStore`` and an in-process ``Projector`` that pulls the notification
log before each read and after each write, so reads are always current. Scale-out mode: a
``RedisStore`` kept current by ``alexandria project`` workers; a read that names a
``min_version`` waits (on the store's announcements) until the projection has caught up.
"""

from __future__ import annotations

import json
import time
from typing import Any

from anyio import to_thread

from domain.kernel.log import Record
from domain.kernel.seats import Viewer
from infra.projector import HEADS, Projector
from infra.readmodels import MemoryStore, ReadModelStore, RedisStore
from infra.service import (
    GameNotFound,
    GameService,
    ServiceError,
    Unauthorized,
    UnknownVersion,
    parse_game_id,
    token_hash,
)
from infra.settings import Settings
from projections.board import SEATS, VIEWS, BoardProjection, board_view, view_key
from projections.checkpoint import decode_match
from projections.frames import FRAMES, FramesProjection, frame_key, nearest_frame
from projections.lobby import GAMES_LISTED, LobbyProjection
from projections.scoreboard import SCORES, ScoreboardProjection

BOARDS, SCOREBOARDS = BoardProjection.name, ScoreboardProjection.name
LOBBY, REPLAY_FRAMES = LobbyProjection.name, FramesProjection.name
RECHECK_SECONDS = 0.25  # waits re-check the read model this often even without an announcement


class ReadModelBehind(ServiceError):
    """The event store has the asked version but the read model did not reach it in time
    (a projection worker is down or far behind)."""

    code = "READ_MODEL_BEHIND"


class VersionNotReached(ServiceError):
    """The game itself did not reach the asked version while the request waited (a client
    waiting for the next move asks again, or follows ``/stream``)."""

    code = "VERSION_NOT_REACHED"


class ReadSide:
    def __init__(
        self,
        service: GameService,
        store: ReadModelStore,
        projector: Projector | None = None,
        wait_seconds: float = 5.0,
    ) -> None:
        self.service = service
        self.store = store
        self.projector = projector  # set: embedded mode, this process keeps the read models itself
        self.wait_seconds = wait_seconds

    # -- keeping up -------------------------------------------------------------------------------

    def refresh(self) -> None:
        """Embedded mode: apply whatever the event store has that the read models lack."""
        if self.projector is not None:
            self.projector.catch_up()

    def head(self, projection: str, game_id: str) -> int:
        text = self.store.get(projection, HEADS, game_id)
        return 0 if text is None else int(text)

    def _wanted(self, projection: str, game_id: str, min_version: int | None) -> int | None:
        """None when ``projection`` already holds ``min_version`` (or any version) of the game;
        else the version to wait for.

        A game the read model does not know yet is looked up in the event store: unknown there
        too is 404; otherwise wait for the version (the projection's, or the game's next move).
        """
        self.refresh()
        version = self.head(projection, game_id)
        wanted = max(min_version or 0, 1)
        if version >= wanted:
            return None
        if version == 0 and not self.service.records(game_id, through=1):
            raise GameNotFound(f"there is no game {game_id!r}")
        return wanted

    def _behind(self, projection: str, game_id: str, wanted: int) -> ServiceError:
        if not self.service.records(game_id, after=wanted - 1, through=wanted):
            stored = self.service.records(game_id, after=self.head(projection, game_id))
            at = stored[-1].position if stored else self.head(projection, game_id)
            return VersionNotReached(
                f"game {game_id} did not reach version {wanted} within {self.wait_seconds:g} s (it is at {at}); "
                "ask again, or follow /games/{id}/stream for live updates"
            )
        return ReadModelBehind(
            f"the {projection} read model of game {game_id} did not reach version {wanted} "
            f"within {self.wait_seconds:g} s (it is at {self.head(projection, game_id)})"
        )

    def wait_for(self, projection: str, game_id: str, min_version: int | None) -> int:
        """The version ``projection`` holds of the game, once it is at least ``min_version``
        (blocking the calling thread while it waits)."""
        wanted = self._wanted(projection, game_id, min_version)
        if wanted is not None and not self.store.wait_until(
            game_id, lambda: self.head(projection, game_id) >= wanted, self.wait_seconds
        ):
            raise self._behind(projection, game_id, wanted)
        return self.head(projection, game_id)

    async def caught_up(self, projection: str, game_id: str, min_version: int | None) -> None:
        """Wait until ``projection`` holds ``min_version`` of the game without holding a thread:
        a server has few threads, and many clients may wait at once for a move of another."""
        wanted = await to_thread.run_sync(self._wanted, projection, game_id, min_version)
        if wanted is None:
            return
        deadline = time.monotonic() + self.wait_seconds
        async with self.store.subscribe(game_id) as subscription:
            # Subscribed first, then checked: an announcement in between is not missed.
            while await to_thread.run_sync(self.head, projection, game_id) < wanted:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise self._behind(projection, game_id, wanted)
                await subscription.wait(min(remaining, RECHECK_SECONDS))

    def _document(self, projection: str, collection: str, key: str) -> Any:
        text = self.store.get(projection, collection, key)
        if text is None:
            raise GameNotFound(f"the {projection} read model has no {collection} {key!r}")
        return json.loads(text)

    # -- reading ----------------------------------------------------------------------------------

    def viewer(self, game_id: str, token: str | None) -> Viewer:
        """The seat a bearer token belongs to (None: a spectator), from the board read model."""
        parse_game_id(game_id)
        self.wait_for(BOARDS, game_id, None)
        if token is None:
            return None
        hashes: list[str] = self._document(BOARDS, SEATS, game_id)
        try:
            return hashes.index(token_hash(token))
        except ValueError:
            raise Unauthorized("this token is not a seat token of this game") from None

    def board(self, game_id: str, viewer: Viewer, min_version: int | None = None) -> dict[str, Any]:
        self.wait_for(BOARDS, game_id, min_version)
        view: dict[str, Any] = self._document(BOARDS, VIEWS, view_key(game_id, viewer))
        return view

    def scoreboard(self, game_id: str, min_version: int | None = None) -> dict[str, Any]:
        parse_game_id(game_id)
        self.wait_for(SCOREBOARDS, game_id, min_version)
        entry: dict[str, Any] = self._document(SCOREBOARDS, SCORES, game_id)
        return entry

    def games(self, game: str | None = None, status: str | None = None) -> list[dict[str, Any]]:
        self.refresh()
        entries = [json.loads(text) for text in self.store.get_all(LOBBY, GAMES_LISTED).values()]
        return sorted(
            (e for e in entries if (game is None or e["game"] == game) and (status is None or e["status"] == status)),
            key=lambda e: (e["last_activity"], e["game_id"]),
            reverse=True,
        )

    def at_version(self, game_id: str, version: int, viewer: Viewer) -> dict[str, Any]:
        """The board at any past version: the nearest replay frame plus the few records after it."""
        current = self.wait_for(REPLAY_FRAMES, game_id, None)
        if version > current and self.service.records(game_id, after=version - 1, through=version):
            current = self.wait_for(REPLAY_FRAMES, game_id, version)  # the game has it; the frames lag
        if not 1 <= version <= current:
            raise UnknownVersion(f"game {game_id} has no version {version}; its version is {current}")
        start = nearest_frame(version)
        match = decode_match(self._document(REPLAY_FRAMES, FRAMES, frame_key(game_id, start)))
        for record in self.service.records(game_id, after=start, through=version):
            match.apply_record(record)
        return board_view(game_id, match, viewer)

    def records(self, game_id: str, after: int) -> list[Record]:
        return self.service.records(game_id, after=after)

    def subscribe(self, game_id: str) -> Any:
        """Async context manager: an ``infra.readmodels.Subscription`` woken whenever a projection
        moves the game on."""
        return self.store.subscribe(game_id)


def embedded_read_side(service: GameService) -> ReadSide:
    store = MemoryStore()
    return ReadSide(service, store, Projector(service, store))


def build_read_side(service: GameService, settings: Settings | None = None) -> ReadSide:
    """Redis read models kept by projection workers when ALEXANDRIA_REDIS_URL is set; else in process."""
    settings = settings or Settings()
    if settings.redis_url is None:
        return embedded_read_side(service)
    return ReadSide(service, RedisStore(settings.redis_url, settings.redis_prefix))
