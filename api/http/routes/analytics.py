"""``/analytics``: ended games' records for analysts, as JSON lines (the lichess style).

Read from the analytics read model (``infra.analytics.store``, through ``api/http/analytics_source.py``),
which holds only public data: an
ended game is exported in full, since its seed and so every hidden value is public once it
has ended. Pages of at most ``limit`` games in the order they ended; the ``X-Next-Cursor``
header (and a ``Link: rel="next"``) names the next page while there is one.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from typing import Annotated, Any
from urllib.parse import urlencode

from fastapi import APIRouter, FastAPI, Query, Request
from fastapi.responses import JSONResponse, StreamingResponse
from pydantic import BeforeValidator

from api.contract.models import documented
from api.http.analytics_source import AnalyticsSource
from api.http.deps import Analytics
from api.http.errors import error_response
from domain.catalog import GAMES
from domain.kernel.errors import BAD_INPUT
from infra.readside.paging import CURSOR_PATTERN, decode_cursor

MAX_GAMES_PER_PAGE = 1000
NDJSON = "application/x-ndjson"
# A time is ISO 8601 text, as documented (pydantic alone would also read "0.5" as a timestamp).
IsoTime = Annotated[
    datetime, BeforeValidator(lambda value: datetime.fromisoformat(value) if isinstance(value, str) else value)
]


def _utc(moment: datetime | None) -> datetime | None:
    if moment is None or moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=UTC)  # a time without a zone is UTC, like every stored time


@asynccontextmanager
async def keep_current(app: FastAPI) -> AsyncIterator[None]:
    """While the app runs, its analytics tables are kept current in the background."""
    source: AnalyticsSource = app.state.analytics
    async with source.kept_current():
        yield


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
    analytics: Analytics,
    game: Annotated[
        str | None,
        Query(description="only this game, e.g. catan_alexander", json_schema_extra={"enum": list[Any](GAMES.ids())}),
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
    source = analytics.current()
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
