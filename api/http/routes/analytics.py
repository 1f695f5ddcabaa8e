"""``/analytics``: ended games' records for analysts, as JSON lines (the lichess style).

Read from the analytics read model (``infra.analytics.store``), which holds only public data: an
ended game is exported in full, since its seed and so every hidden value is public once it
has ended. Pages of at most ``limit`` games in the order they ended; the ``X-Next-Cursor``
header (and a ``Link: rel="next"``) names the next page while there is one.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Annotated, Any
from urllib.parse import urlencode

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse, StreamingResponse
from pydantic import BeforeValidator

from api.contract.models import documented
from api.http.errors import error_response
from domain.catalog import GAMES
from domain.kernel.errors import BAD_INPUT
from infra.games.service import GameService
from infra.readside.paging import CURSOR_PATTERN, decode_cursor

if TYPE_CHECKING:  # infra.analytics.store (DuckDB, pyarrow) is imported when analytics are first used
    from infra.analytics.store import Analytics

MAX_GAMES_PER_PAGE = 1000
# The embedded server keeps the analytics tables in the background while its players are quiet:
# a batch of records into DuckDB holds the GIL for tens of milliseconds (about 15 ms whatever its
# size, a fraction of a millisecond a record), and polled every half second under a stream of
# commands it took a tenth of a core in bursts in which every command waited. So it works once no
# command has been saved for QUIET_SECONDS, or when the tables are MAX_LAG_SECONDS behind even if
# the commands never stop: one batch every 2 s under a steady 100 commands/s is a fortieth of a
# core, and keeps the lag (for notebooks: the snapshot's too) under 5 s. A reader of analytics
# catches the tables up itself in any case.
BACKGROUND_START_SECONDS = 2.0  # after the server starts: its first reads do not wait for DuckDB
QUIET_SECONDS = 1.0
MAX_LAG_SECONDS = 2.0
RETRY_SECONDS = 2.0

log = logging.getLogger(__name__)
NDJSON = "application/x-ndjson"
# A time is ISO 8601 text, as documented (pydantic alone would also read "0.5" as a timestamp).
IsoTime = Annotated[
    datetime, BeforeValidator(lambda value: datetime.fromisoformat(value) if isinstance(value, str) else value)
]


def background_due(now: float, last_saved: float, caught_up_at: float) -> bool:
    """Whether the background projector works now: no command saved for QUIET_SECONDS, or the
    tables MAX_LAG_SECONDS behind (monotonic seconds)."""
    return now - last_saved >= QUIET_SECONDS or now - caught_up_at >= MAX_LAG_SECONDS


def _utc(moment: datetime | None) -> datetime | None:
    if moment is None or moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=UTC)  # a time without a zone is UTC, like every stored time


def analytics_router(service: GameService, analytics: Analytics | None = None) -> APIRouter:
    opened: list[Analytics] = [analytics] if analytics is not None else []
    opening = threading.Lock()

    def current() -> Analytics:
        with opening:
            if not opened:  # on first use: an app that never serves analytics opens no database
                from infra.analytics.store import Analytics

                opened.append(Analytics.for_service(service, serving=True))  # bounded as a game server's
            return opened[0]

    stopping = threading.Event()
    last_saved = [time.monotonic()]
    service.on_saved(lambda: last_saved.__setitem__(0, time.monotonic()))

    def keep_while_quiet() -> None:
        if stopping.wait(BACKGROUND_START_SECONDS):
            return
        from infra.analytics.store import AnalyticsBusy

        keeper = current()
        if not keeper.background:
            return
        caught_up_at = time.monotonic() - MAX_LAG_SECONDS  # at once, once quiet or not
        while not stopping.wait(QUIET_SECONDS / 4):
            now = time.monotonic()
            if not background_due(now, last_saved[0], caught_up_at):
                continue
            try:
                projector = keeper.projector
                if (projector.position and projector.source.latest() <= projector.position) or projector.step() == 0:
                    caught_up_at = now
                keeper.database.publish()  # for other processes (notebooks): every snapshot_seconds at most
            except AnalyticsBusy as busy:  # another process holds the file: its turn
                log.warning("%s", busy.message)
            except Exception:
                # The event store or the file went away for a moment (or another process holds
                # the file): a batch is all or nothing, so trying again later is safe.
                log.exception("analytics: a background batch failed; trying again in %g s", RETRY_SECONDS)
                stopping.wait(RETRY_SECONDS)

    @asynccontextmanager
    async def keep_current(_: Any) -> AsyncIterator[None]:
        """Embedded mode: the server keeps the tables current in the background while it runs
        (see QUIET_SECONDS), starting a moment after the server: importing DuckDB and pyarrow
        takes several times as long as a first read of a game, which should not wait for it."""
        stopping.clear()
        starting = threading.Thread(target=keep_while_quiet, name="analytics-projector", daemon=True)
        starting.start()
        try:
            yield
        finally:
            stopping.set()
            starting.join()
            with opening:
                keepers = list(opened)
            for keeper in keepers:
                keeper.close()

    router = APIRouter(tags=["analytics"], lifespan=keep_current)

    @router.get(
        "/analytics/games/export",
        summary="Ended games' records as JSON lines, each with its game id and recorded time",
        **documented(
            None, 400, 422, 503, media_type=NDJSON, description="one record per line, games in the order they ended"
        ),
    )
    def export_games(
        request: Request,
        game: Annotated[
            str | None,
            Query(
                description="only this game, e.g. catan_alexander", json_schema_extra={"enum": list[Any](GAMES.ids())}
            ),
        ] = None,
        since: Annotated[IsoTime | None, Query(description="games that ended at or after this (ISO 8601)")] = None,
        until: Annotated[IsoTime | None, Query(description="games that ended before this time (ISO 8601)")] = None,
        limit: Annotated[int, Query(ge=1, le=MAX_GAMES_PER_PAGE, description="games per page")] = 100,
        cursor: Annotated[
            str | None, Query(description="X-Next-Cursor of the previous page", pattern=CURSOR_PATTERN)
        ] = None,
    ) -> StreamingResponse | JSONResponse:
        if game is not None and game not in GAMES.ids():
            return error_response(400, BAD_INPUT, f"there is no game {game!r}; the games are {', '.join(GAMES.ids())}")
        since, until = _utc(since), _utc(until)
        if since is not None and until is not None and since >= until:
            return error_response(422, BAD_INPUT, "since must be before until")
        from infra.analytics.store import AnalyticsError, ended_games_page, record_lines

        try:
            after = decode_cursor(cursor) if cursor is not None else None
        except ValueError as error:
            return error_response(400, BAD_INPUT, f"cursor is not in the form of X-Next-Cursor: {error}")
        source = current()
        try:
            with source.reading() as connection:
                page = ended_games_page(connection, game, since, until, after, limit)
        except AnalyticsError as problem:
            return error_response(503, problem.code, problem.message)
        headers = {"X-Games": str(len(page.games))}
        if page.next_cursor is not None:
            query = {k: v for k, v in request.query_params.items() if k != "cursor"} | {"cursor": page.next_cursor}
            headers["X-Next-Cursor"] = page.next_cursor
            headers["Link"] = f'<{request.url.path}?{urlencode(query)}>; rel="next"'
        game_ids = [g for g, _ in page.games]

        def lines() -> Iterator[str]:
            chunk = 50  # the database is held for one chunk of games at a time, never for the whole stream
            for start in range(0, len(game_ids), chunk):
                with source.database.read() as connection:
                    block = list(record_lines(connection, game_ids[start : start + chunk], chunk))
                yield "".join(block)

        return StreamingResponse(lines(), media_type=NDJSON, headers=headers)

    return router
