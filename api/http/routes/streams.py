"""``GET /games/{id}/stream``: a game's live updates as server-sent events, as the bearer may see
them. The records come from the event store (an announcement only wakes the stream), so a missed
announcement can delay but never lose one; a spectator's stream counts as one spectator while it
is open (``api/http/watching.py``)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import suppress
from typing import Annotated, Any

from fastapi import APIRouter, Header, Query, Request
from fastapi.responses import StreamingResponse
from starlette.concurrency import run_in_threadpool

from api.contract.models import documented
from api.http.deps import MAX_VERSION, MinVersion, Reads, ServerShutdown, Service, SpectatorCount, Token, Tournaments
from api.http.lifecycle import ServerStopping, Shutdown
from api.http.viewers import bearer_viewer, current_version, named
from api.http.watching import WATCHING, Spectators
from domain.kernel.log import canonical, for_viewer
from domain.kernel.seats import Viewer
from infra.readside.reader import BOARDS, ReadModelBehind, ReadSide, VersionNotReached
from infra.tournaments.service import TournamentService

STREAM_KEEPALIVE_SECONDS = 15.0
# GET routes that read a game through the read models (a bearer token, min_version waits).
READ_ERRORS = (400, 401, 404, 409, 503)
# Proxies must pass each event on as it comes, not buffer or cache the stream.
STREAM_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}

router = APIRouter()


def server_sent_event(event: str, data: Any, event_id: int | None = None) -> str:
    head = f"id: {event_id}\n" if event_id is not None else ""
    return f"{head}event: {event}\ndata: {canonical(data)}\n\n"


@router.get(
    "/games/{game_id}/stream",
    summary="Live updates (server-sent events) as the bearer may see them",
    **documented(
        None,
        *READ_ERRORS,
        media_type="text/event-stream",
        description="Server-sent events: `record` (a Record), `view` (its game's BoardView, e.g. "
        "PeloponnesBoardView), `end` ({version}), and with ?spectators=true `spectators` ({spectators})",
    ),
)
async def stream(
    game_id: str,
    request: Request,
    token: Token,
    service: Service,
    reads: Reads,
    tournaments: Tournaments,
    spectators: SpectatorCount,
    shutdown: ServerShutdown,
    after: Annotated[
        int,
        Query(ge=0, le=MAX_VERSION, description="send the records after this version (at most the game's) first"),
    ] = 0,
    last_event_id: Annotated[
        int | None,
        Header(
            alias="Last-Event-ID",
            ge=0,
            le=MAX_VERSION,
            description="the id of the last event received (an EventSource sends it when it reconnects): "
            "takes the place of after",
        ),
    ] = None,
    min_version: MinVersion = None,
    count_spectators: Annotated[
        bool,
        Query(
            alias="spectators",
            description="true: also send `spectators` events ({spectators: N}, how many watch the game as "
            "spectators), first and whenever the number changes",
        ),
    ] = False,
) -> StreamingResponse:
    await reads.caught_up(BOARDS, game_id, min_version)
    viewer = await run_in_threadpool(bearer_viewer, reads, tournaments, game_id, token)
    if last_event_id is not None:
        after = last_event_id
    if after > 0 and not await run_in_threadpool(service.records, game_id, after - 1, after):
        version = await run_in_threadpool(current_version, service, game_id)
        raise VersionNotReached(
            f"game {game_id} is at version {version}: a stream starts after a version the game has "
            f"(after={version} sends only what comes next)"
        )
    updates = LiveUpdates(reads, tournaments, spectators, shutdown)
    return StreamingResponse(
        updates.stream(game_id, viewer, after, request, count_spectators),
        media_type="text/event-stream",
        headers=STREAM_HEADERS,
    )


class LiveUpdates:
    """Every record after ``after`` in order (through the per-viewer filter), then the board
    view, and so on as the game moves."""

    def __init__(
        self, reads: ReadSide, tournaments: TournamentService, spectators: Spectators, shutdown: Shutdown
    ) -> None:
        self.reads = reads
        self.tournaments = tournaments
        self.spectators = spectators
        self.shutdown = shutdown

    async def stream(
        self, game_id: str, viewer: Viewer, after: int, request: Request, count_spectators: bool
    ) -> AsyncIterator[str]:
        reads, spectators, shutdown = self.reads, self.spectators, self.shutdown
        sent = after
        board = await run_in_threadpool(reads.board, game_id, viewer)
        names = await run_in_threadpool(self.tournaments.table_names, game_id)  # a tournament table's players
        if board["status"] == "ended" and board["version"] <= after:  # nothing will ever follow
            yield server_sent_event("end", {"version": board["version"]}, board["version"])
            return
        ticket = await run_in_threadpool(spectators.join, game_id) if viewer is None else None
        if ticket is not None:
            await run_in_threadpool(reads.store.announce, game_id, {"projection": WATCHING})
        told: int | None = None  # the number of spectators this stream last sent
        try:
            async with reads.subscribe(game_id) as subscription:
                while not shutdown.requested and not await request.is_disconnected():
                    if count_spectators:
                        count = await run_in_threadpool(spectators.count, game_id)
                        if count != told:
                            yield server_sent_event("spectators", {"spectators": count})
                            told = count
                    records = await run_in_threadpool(reads.records, game_id, sent)
                    if records:
                        # Never revealed here, even after the end: a live record is what the viewer
                        # may see when it happens (the full log after the end is at /events).
                        for record in records:
                            yield server_sent_event(
                                "record", for_viewer(record, viewer, reveal_all=False), record.position
                            )
                        sent = records[-1].position
                        try:
                            await reads.caught_up(BOARDS, game_id, sent)
                            view = await run_in_threadpool(reads.board, game_id, viewer, sent)
                            yield server_sent_event("view", named(self.tournaments, view, game_id, names), sent)
                        except ReadModelBehind:
                            pass  # a lagging read model (a projection worker restarting) never stops the records
                        if records[-1].type == "GameEnded":
                            yield server_sent_event("end", {"version": sent}, sent)
                            return
                    else:
                        with suppress(ServerStopping):
                            if not await shutdown.unless_stopping(lambda: subscription.wait(STREAM_KEEPALIVE_SECONDS)):
                                yield ": keep-alive\n\n"
                                if ticket is not None:
                                    await run_in_threadpool(spectators.renew, game_id, ticket)
        finally:
            # No await here: a closed connection cancels the stream, and this must still run.
            if ticket is not None:
                spectators.leave(game_id, ticket)
                reads.store.announce(game_id, {"projection": WATCHING})
        if shutdown.requested:
            # The client resumes (here once the server is back, or on another worker) from the
            # id of the last event it has, which an EventSource sends by itself as Last-Event-ID.
            yield f": server stopping; resume with Last-Event-ID: {sent} or after={sent}\n\n"
