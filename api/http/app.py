"""The HTTP API. Every game datum leaves through the per-viewer filter (records) or the game's
per-viewer view (state); nothing else sends game data to clients."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager, suppress
from typing import Annotated, Any, Literal

from fastapi import Body, Depends, FastAPI, Header, Path, Query, Request, Response
from fastapi.responses import PlainTextResponse, StreamingResponse
from fastapi.security import HTTPAuthorizationCredentials
from pydantic import Field
from starlette.concurrency import run_in_threadpool

from api.contract import models as contract
from api.contract.models import (
    CatalogEntry,
    CreatedGame,
    LobbyEntry,
    Record,
    Scoreboard,
    SeatToken,
    StrictBody,
    Verification,
    documented,
)
from api.contract.openapi import install_contract
from api.http import web
from api.http.auth import SeatBearer
from api.http.body import finite_json_body
from api.http.errors import install_error_handlers
from api.http.game_ids import NormaliseGameIds
from api.http.health import health_routes
from api.http.lifecycle import ServerStopping, Shutdown
from api.http.limits import install_limits, take_creation_slot
from api.http.routes import catalog as catalog_routes
from api.http.routes import replay as replay_routes
from api.http.routes.analysis import analysis_router
from api.http.routes.analytics import analytics_router
from api.http.routes.seats import seat_router
from api.http.routes.tournaments import tournament_router
from api.http.watching import WATCHING, spectators_for
from domain.catalog import GAMES
from domain.kernel.bots import bot_of_seat_name
from domain.kernel.log import canonical, for_viewer
from domain.kernel.seats import Viewer
from domain.kernel.verification import verify_records
from infra.games.aggregate import GameAggregate
from infra.games.analysis import Analyst
from infra.games.bot_seats import BotSeats
from infra.games.service import CreatedGame as CreatedGameResult
from infra.games.service import GameService, Invalid, Unauthorized, legal_moves_answer
from infra.readside.paging import CURSOR_PATTERN
from infra.readside.reader import (
    BOARDS,
    LOBBY_LIMIT,
    LOBBY_MAX_LIMIT,
    ReadModelBehind,
    ReadSide,
    VersionNotReached,
    embedded_read_side,
)
from infra.settings import Settings
from infra.tournaments.clock_keeper import ClockKeeper
from infra.tournaments.service import TournamentService

bearer = SeatBearer()
Token = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]


def _player_range(schema: dict[str, Any]) -> None:
    """The widest range of seats of any game, written into the schema when it is asked for (the
    OpenAPI document), since it needs every game's definition and a server loads a game when used."""
    schema["minimum"] = min(g.min_players for g in GAMES.all())
    schema["maximum"] = max(g.max_players for g in GAMES.all())


class CreateGame(StrictBody):
    game: str = Field(description="game id, e.g. peloponnes", json_schema_extra={"enum": list[Any](GAMES.ids())})
    players: int = Field(
        description="number of seats (the game's range: GET /games/catalog)",
        json_schema_extra=_player_range,
    )
    options: dict[str, Any] | None = Field(default=None, description="game options (see docs/<game>.md)")
    seed: str | None = Field(default=None, description="a fixed seed (tests, tournaments); secret by default")
    open_seats: bool = Field(
        default=False,
        description="true: no tokens now; players join by name (POST /games/{game_id}/join), "
        "each getting its own token, and the game starts when every seat is taken",
    )
    bots: dict[Annotated[str, Field(pattern=r"^[0-9]{1,2}$")], Literal["random", "greedy", "search"]] = Field(
        default_factory=dict,
        description='seats the server plays, seat -> bot, e.g. {"1": "search", "2": "greedy"}: no token is handed '
        "out for them and their SeatTaken record names the bot (bot:NAME:SEAT); at least one seat stays a player's",
        json_schema_extra={"additionalProperties": False},
    )
    keys_required: bool = Field(
        default=False,
        description="true: every seat must be keyed (a public_key with its join, or POST /games/{game_id}/key "
        "before its first command), so every command of the game is signed by its seat (docs/signed-commands.md)",
    )


# Versions are positions in a game's log; anything past this is not a version but a typo.
MAX_VERSION = 2**31 - 1


class Fork(StrictBody):
    version: int = Field(ge=1, le=MAX_VERSION)


# GET routes that read a game through the read models (a bearer token, min_version waits).
READ_ERRORS = (400, 401, 404, 409, 503)


def created_game(created: CreatedGameResult) -> CreatedGame:
    return CreatedGame(
        game_id=created.game_id,
        version=created.version,
        seats=[SeatToken(seat=i, token=t) for i, t in enumerate(created.tokens) if t],
        open_seats=created.open_seats,
        bots={str(seat): bot for seat, bot in sorted(created.bots.items())},
    )


def resume_bot_seats(reads: ReadSide, bot_seats: BotSeats) -> None:
    """The running games a bot plays a seat of, as the lobby knows them once it has caught up."""
    if reads.projector is not None:  # this process keeps the read models: bring the lobby up to date
        reads.projector.catch_up()
    cursor: str | None = None
    while True:
        page, cursor = reads.games(status="running", cursor=cursor)
        for entry in page:
            bot_seats.watch_named(entry["game_id"], entry.get("names") or {})
        if cursor is None:
            return


def token_of(credentials: HTTPAuthorizationCredentials | None) -> str | None:
    return credentials.credentials if credentials is not None else None


MinVersion = Annotated[
    int | None,
    Query(
        ge=1,
        le=MAX_VERSION,
        description="wait (a few seconds at most) until the read model has this version: read your own write",
    ),
]
# What was published about a game, to check a record against (as `alexandria verify` takes them).
HEX_64 = "^[0-9a-fA-F]{64}$"
PublishedFingerprint = Annotated[
    str | None,
    Query(
        pattern=HEX_64,
        description="a published fingerprint (64 hex digits): the report says whether the game's record "
        "ends with it (the hash of its last record), as `alexandria verify --fingerprint`",
    ),
]
PublishedCommitment = Annotated[
    str | None,
    Query(
        pattern=HEX_64,
        description="a published seed commitment (64 hex digits): the report says whether the game was "
        "created with it (in GameCreated), as `alexandria verify --commitment`",
    ),
]
STREAM_KEEPALIVE_SECONDS = 15.0


def server_sent_event(event: str, data: Any, event_id: int | None = None) -> str:
    head = f"id: {event_id}\n" if event_id is not None else ""
    return f"{head}event: {event}\ndata: {canonical(data)}\n\n"


def create_app(
    service: GameService,
    read_side: ReadSide | None = None,
    settings: Settings | None = None,
    tournaments: TournamentService | None = None,
    cors_origins: Sequence[str] | None = None,
    keep_clocks: bool = True,
) -> FastAPI:
    """The API; ``cors_origins`` None: from the settings (``ALEXANDRIA_CORS_ORIGINS``; unset: no CORS).
    ``keep_clocks``: while it serves, a background thread applies the clock rule of the running
    clocked tournament games (one process of those sharing the read-model store at a time, by
    lease); an in-memory event store has none (its requests and ``POST /tournaments/{id}/clocks``
    apply the rule)."""
    reads = read_side or embedded_read_side(service)
    tournaments = tournaments or TournamentService(service)
    keeper = ClockKeeper(tournaments, reads.store)
    background_clocks = keep_clocks and service.env.get("SQLITE_DBNAME") != ":memory:"
    if background_clocks:
        service.on_closing(keeper.stop)  # before the store it reads is closed
    bot_seats = BotSeats(service, store=reads.store)  # one process at a time plays them, by lease

    def start_bot_seats() -> None:
        """The bot seats' thread, started by the lifespan or by the first game with bots (an app
        served without its lifespan still plays its bots, as it still projects its reads)."""
        bot_seats.start(lambda: resume_bot_seats(reads, bot_seats))

    def watch_bot_tables(game_ids: list[str]) -> None:
        """A tournament's tables where bot players sit: played by the same bot seats."""
        start_bot_seats()
        for game_id in game_ids:
            bot_seats.watch(game_id)

    tournaments.on_bot_tables(watch_bot_tables)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        reads.start()  # the embedded projector (reads and writes start it too, lifespan or not)
        if background_clocks:
            keeper.start()
        start_bot_seats()
        yield
        bot_seats.stop()
        keeper.stop()
        reads.close()

    app = FastAPI(
        title="Alexandria",
        description="Event-sourced game server for four board games about Alexander the Great.",
        version="0.1.0",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
        # A command model is one schema whether a client sends it or reads it (legal moves).
        separate_input_output_schemas=False,
        generate_unique_id_function=lambda route: route.name,
        dependencies=[Depends(finite_json_body)],
    )
    install_error_handlers(app)
    app.add_middleware(NormaliseGameIds)
    app.include_router(health_routes(reads))
    settings = settings or Settings()
    install_contract(app, settings.cors_origin_list if cors_origins is None else cors_origins)
    bounds = install_limits(app, settings)
    shutdown = app.state.shutdown = Shutdown()
    spectators = app.state.spectators = spectators_for(reads.store, 3 * STREAM_KEEPALIVE_SECONDS)
    app.state.service = service
    app.state.read_side = reads
    app.state.clock_keeper = keeper
    app.state.bot_seats = bot_seats
    app.include_router(seat_router(service, reads))
    app.include_router(tournament_router(tournaments, reads))
    app.include_router(web.router)
    app.include_router(catalog_routes.router)
    app.include_router(replay_routes.router)
    app.include_router(analytics_router(service))
    app.include_router(analysis_router(Analyst(service, tournaments.tournament_of)))

    def viewer_of(game_id: str, credentials: HTTPAuthorizationCredentials | None) -> tuple[Viewer, bool]:
        with service.reading(game_id) as aggregate:
            return bearer_seat(game_id, aggregate, token_of(credentials)), aggregate.match.is_over

    def bearer_seat(game_id: str, aggregate: GameAggregate, token: str | None) -> Viewer:
        try:
            return service.seat_for_token(aggregate, token)
        except Unauthorized:
            return player_seat(game_id, token)

    # A tournament player's own token works at /games/{id} for their table: read as their seat
    # there, and their commands go through the tournament (its clock, forfeits and rulings).
    def player_seat(game_id: str, token: str | None) -> Viewer:
        at_table = tournaments.player_at_table(game_id, token)
        if at_table is None:
            raise Unauthorized("this token is not a seat token of this game (nor a player token of this table)")
        return at_table[1]

    def named(board: dict[str, Any], game_id: str, names: dict[str, str] | None = None) -> dict[str, Any]:
        """A view of a tournament table's game names its players (the names they registered with)."""
        if board.get("names") and not any(bot_of_seat_name(n) for n in board["names"].values()):
            return board  # (a tournament's table is named by its players only where a bot player sits)
        names = tournaments.table_names(game_id) if names is None else names
        return {**board, "names": names} if names else board

    def bearer_viewer(game_id: str, token: str | None) -> Viewer:
        try:
            return reads.viewer(game_id, token)
        except Unauthorized:
            return player_seat(game_id, token)

    def current_version(game_id: str) -> int:
        with service.reading(game_id) as aggregate:
            return aggregate.version

    @app.get("/games/catalog", summary="The games this server offers", **documented(list[CatalogEntry]))
    def catalog() -> list[dict[str, Any]]:
        return [
            {"game": g.id, "title": g.title, "min_players": g.min_players, "max_players": g.max_players}
            for g in GAMES.all()
        ]

    @app.post(
        "/games",
        summary="Create a game",
        dependencies=[Depends(take_creation_slot)],
        **documented(CreatedGame, 400, 413, 422, 429, status=201),
    )
    def create_game(body: CreateGame) -> CreatedGame:
        bounds.check_new_game(body.seed, body.options)
        created = service.create_game(
            body.game,
            body.players,
            body.options,
            body.seed.encode() if body.seed is not None else None,
            open_seats=body.open_seats,
            bots={int(seat): bot for seat, bot in body.bots.items()} if body.bots else None,
            keys_required=body.keys_required,
        )
        if created.bots:
            start_bot_seats()
            bot_seats.watch(created.game_id)
        return created_game(created)

    @app.get(
        "/games",
        summary="List games (the lobby): most recently active first, a page at a time",
        description='When there are more games, the `X-Next-Cursor` header (and `Link: <...>; rel="next"`) '
        "gives the cursor of the next page.",
        **documented(list[LobbyEntry], 400),
    )
    def list_games(
        request: Request,
        response: Response,
        game: Annotated[str | None, Query(max_length=64, description="only games of this game id")] = None,
        status: Literal["waiting", "running", "ended"] | None = None,
        players: Annotated[int | None, Query(ge=1, le=64, description="only games with this many seats")] = None,
        limit: Annotated[int, Query(ge=1, le=LOBBY_MAX_LIMIT, description="games per page")] = LOBBY_LIMIT,
        cursor: Annotated[
            str | None, Query(pattern=CURSOR_PATTERN, description="X-Next-Cursor of the previous page")
        ] = None,
    ) -> list[dict[str, Any]]:
        page, next_cursor = reads.games(game, status, players, limit, cursor)
        if next_cursor is not None:
            response.headers["X-Next-Cursor"] = next_cursor
            response.headers["Link"] = f'<{request.url.include_query_params(cursor=next_cursor)}>; rel="next"'
        return page

    @app.get(
        "/games/{game_id}",
        summary="The game as the bearer may see it",
        **documented(contract.BOARD_VIEW, *READ_ERRORS),
    )
    async def get_game(game_id: str, credentials: Token, min_version: MinVersion = None) -> dict[str, Any]:
        await reads.caught_up(BOARDS, game_id, min_version)
        token = token_of(credentials)

        # One thread-pool hop per read: the pool is shared by every request of the server.
        def read() -> dict[str, Any]:
            board = reads.board(game_id, bearer_viewer(game_id, token), min_version)
            clock = tournaments.clock_view(game_id)  # a clocked tournament game's clocks
            return named({**board, **({"clock": clock} if clock is not None else {})}, game_id)

        return await run_in_threadpool(read)

    @app.get(
        "/games/{game_id}/scoreboard",
        summary="Live scores, placings and winners",
        **documented(Scoreboard, 400, 404, 409, 503),
    )
    async def get_scoreboard(game_id: str, min_version: MinVersion = None) -> dict[str, Any]:
        await reads.caught_up(BOARDS, game_id, min_version)
        return await run_in_threadpool(reads.scoreboard, game_id, min_version)

    @app.get(
        "/games/{game_id}/spectators",
        summary="How many watch the game as spectators now (live: /stream?spectators=true)",
        **documented(contract.Spectators, 400, 404),
    )
    def get_spectators(game_id: str) -> dict[str, Any]:
        reads.viewer(game_id, None)  # 404 for no such game
        return {"game_id": game_id, "spectators": spectators.count(game_id)}

    @app.get(
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
        credentials: Token,
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
        viewer = await run_in_threadpool(bearer_viewer, game_id, token_of(credentials))
        if last_event_id is not None:
            after = last_event_id
        if after > 0 and not await run_in_threadpool(service.records, game_id, after - 1, after):
            version = await run_in_threadpool(current_version, game_id)
            raise VersionNotReached(
                f"game {game_id} is at version {version}: a stream starts after a version the game has "
                f"(after={version} sends only what comes next)"
            )
        return StreamingResponse(
            live_updates(game_id, viewer, after, request, count_spectators),
            media_type="text/event-stream",
            # Proxies must pass each event on as it comes, not buffer or cache the stream.
            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
        )

    async def live_updates(
        game_id: str, viewer: Viewer, after: int, request: Request, count_spectators: bool
    ) -> AsyncIterator[str]:
        """Every record after ``after`` in order (through the per-viewer filter), then the board
        view, and so on as the game moves. An announcement only wakes the stream: the records
        come from the event store, so a missed announcement can delay but never lose one.
        A spectator's stream counts as one spectator while it is open (``api/http/watching.py``)."""
        sent = after
        board = await run_in_threadpool(reads.board, game_id, viewer)
        names = await run_in_threadpool(tournaments.table_names, game_id)  # a tournament table's players
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
                            yield server_sent_event("view", named(view, game_id, names), sent)
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

    def execute(game_id: str, credentials: HTTPAuthorizationCredentials | None, body: Any, game: str | None) -> Any:
        if credentials is None:
            raise Unauthorized("sending a command needs the seat's bearer token (Authorization: Bearer TOKEN)")
        if not isinstance(body, dict):
            raise Invalid("a command must be a JSON object")
        payload = dict(body)
        controls = contract.command_controls(payload)
        bounds.check_command(payload)
        token = token_of(credentials)
        try:
            seat, result = service.execute(
                game_id,
                token,
                payload,
                controls.expected_version,
                controls.command_id,
                controls.contribution,
                game=game,
                signature=controls.signature,
            )
        except Unauthorized:
            at_table = tournaments.player_at_table(game_id, token)
            if at_table is None:
                raise
            controlled = (controls.expected_version, controls.command_id, controls.contribution)
            seat, result = tournaments.play(at_table[0], game_id, token, payload, *controlled)
        over = result.records[-1].type == "GameEnded"
        return {
            "version": result.version,
            "duplicate": result.duplicate,
            "events": [for_viewer(r, seat, reveal_all=over) for r in result.records],
        }

    def command_route(game: str | None) -> Callable[..., Any]:
        def send(game_id: str, credentials: Token, body: Annotated[Any, Body()]) -> Any:
            return execute(game_id, credentials, body, game)

        return send

    for game_id_ in GAMES.ids():
        app.post(
            f"/games/{{game_id}}/commands/{game_id_}",
            # The OpenAPI document names the game by its title (api/contract/openapi.py): no game is loaded here.
            summary=f"Send a {game_id_} command for the bearer's seat",
            operation_id=contract.command_operation(game_id_),
            openapi_extra=contract.command_body_doc(game_id_),
            **documented(contract.CommandResult, 400, 401, 404, 409, 413, 422),
        )(command_route(game_id_))

    # Any game's commands at one address (the typed routes above are the documented contract).
    app.post("/games/{game_id}/commands", include_in_schema=False)(command_route(None))

    @app.get(
        "/games/{game_id}/events", summary="The log as the bearer may see it", **documented(list[Record], 400, 401, 404)
    )
    def get_events(
        game_id: str, credentials: Token, after: Annotated[int, Query(ge=0, le=MAX_VERSION)] = 0
    ) -> list[dict[str, Any]]:
        viewer, over = viewer_of(game_id, credentials)
        return [for_viewer(r, viewer, reveal_all=over) for r in service.records(game_id, after=after)]

    @app.get(
        "/games/{game_id}/versions/{version}",
        summary="The game at a past version (time travel)",
        **documented(contract.BOARD_VIEW, *READ_ERRORS),
    )
    def get_version(
        game_id: str, version: Annotated[int, Path(ge=1, le=MAX_VERSION)], credentials: Token
    ) -> dict[str, Any]:
        viewer = bearer_viewer(game_id, token_of(credentials))
        return named(reads.at_version(game_id, version, viewer), game_id)

    @app.get(
        "/games/{game_id}/legal-moves",
        summary="The bearer's legal commands now",
        **documented(contract.LEGAL_MOVES, 400, 401, 404),
    )
    def legal_moves(game_id: str, credentials: Token) -> dict[str, Any]:
        with service.reading(game_id) as aggregate:
            return legal_moves_answer(game_id, aggregate.match, bearer_seat(game_id, aggregate, token_of(credentials)))

    @app.get(
        "/games/{game_id}/verify",
        summary="Check the hash chain (and, after the end, the seed), against a published fingerprint or commitment",
        **documented(Verification, 400, 404),
    )
    def verify(
        game_id: str, fingerprint: PublishedFingerprint = None, commitment: PublishedCommitment = None
    ) -> dict[str, Any]:
        with service.reading(game_id) as aggregate:
            over = aggregate.match.is_over
        records = [for_viewer(r, None, reveal_all=over) for r in service.records(game_id)]
        report = verify_records(records, GAMES.get, fingerprint, commitment)
        return report.to_dict()

    @app.get(
        "/games/{game_id}/export",
        summary="The game record as JSON lines",
        **documented(
            None, 400, 401, 404, media_type="application/x-ndjson", description="One Record per line (JSON lines)"
        ),
    )
    def export(game_id: str, credentials: Token) -> PlainTextResponse:
        viewer, over = viewer_of(game_id, credentials)
        lines = [canonical(for_viewer(r, viewer, reveal_all=over)) for r in service.records(game_id)]
        return PlainTextResponse("\n".join(lines) + "\n", media_type="application/x-ndjson")

    @app.post(
        "/games/{game_id}/fork",
        summary="Fork an ended game",
        dependencies=[Depends(take_creation_slot)],
        **documented(CreatedGame, 400, 404, 409, 413, 429, status=201),
    )
    def fork(game_id: str, body: Fork) -> CreatedGame:
        created = service.fork(game_id, body.version)
        return created_game(created)

    # Outermost, so that every answer carries them, the limits' refusals too.
    app.add_middleware(web.SecurityHeaders)
    return app
