"""The games: the catalog, creating and listing them, a game as the bearer may see it (now, at a
past version, its log and record, its legal moves, its scoreboard and spectators), the check of
its record, and forking it (its commands: ``api/http/routes/commands.py``). Every game datum
leaves through the per-viewer filter (records) or the game's per-viewer view (state); nothing
else sends game data to clients."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Path, Query, Request, Response
from fastapi.responses import PlainTextResponse
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
from api.http.deps import (
    MAX_VERSION,
    Bounds,
    MinVersion,
    Reads,
    Service,
    SpectatorCount,
    Token,
    Tournaments,
)
from api.http.limits import take_creation_slot
from api.http.routes import streams
from api.http.routes.streams import READ_ERRORS
from api.http.viewers import bearer_seat, bearer_viewer, game_is_over, named, viewer_of
from domain.catalog import GAMES
from domain.kernel.log import canonical, for_viewer
from domain.kernel.verification import verify_records
from infra.games.service import CreatedGame as CreatedGameResult
from infra.games.service import legal_moves_answer
from infra.readside.paging import CURSOR_PATTERN
from infra.readside.reader import BOARDS, LOBBY_LIMIT, LOBBY_MAX_LIMIT

router = APIRouter()


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


class Fork(StrictBody):
    version: int = Field(ge=1, le=MAX_VERSION)


def created_game(created: CreatedGameResult) -> CreatedGame:
    return CreatedGame(
        game_id=created.game_id,
        version=created.version,
        seats=[SeatToken(seat=i, token=t) for i, t in enumerate(created.tokens) if t],
        open_seats=created.open_seats,
        bots={str(seat): bot for seat, bot in sorted(created.bots.items())},
    )


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


@router.get("/games/catalog", summary="The games this server offers", **documented(list[CatalogEntry]))
def catalog() -> list[dict[str, Any]]:
    return [
        {"game": g.id, "title": g.title, "min_players": g.min_players, "max_players": g.max_players}
        for g in GAMES.all()
    ]


@router.post(
    "/games",
    summary="Create a game",
    dependencies=[Depends(take_creation_slot)],
    **documented(CreatedGame, 400, 413, 422, 429, status=201),
)
def create_game(body: CreateGame, service: Service, bounds: Bounds) -> CreatedGame:
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
    return created_game(created)


@router.get(
    "/games",
    summary="List games (the lobby): most recently active first, a page at a time",
    description='When there are more games, the `X-Next-Cursor` header (and `Link: <...>; rel="next"`) '
    "gives the cursor of the next page.",
    **documented(list[LobbyEntry], 400),
)
def list_games(
    request: Request,
    response: Response,
    reads: Reads,
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


@router.get(
    "/games/{game_id}",
    summary="The game as the bearer may see it",
    **documented(contract.BOARD_VIEW, *READ_ERRORS),
)
async def get_game(
    game_id: str, token: Token, reads: Reads, tournaments: Tournaments, min_version: MinVersion = None
) -> dict[str, Any]:
    await reads.caught_up(BOARDS, game_id, min_version)

    # One thread-pool hop per read: the pool is shared by every request of the server.
    def read() -> dict[str, Any]:
        board = reads.board(game_id, bearer_viewer(reads, tournaments, game_id, token), min_version)
        clock = tournaments.clock_view(game_id)  # a clocked tournament game's clocks
        return named(tournaments, {**board, **({"clock": clock} if clock is not None else {})}, game_id)

    return await run_in_threadpool(read)


@router.get(
    "/games/{game_id}/scoreboard",
    summary="Live scores, placings and winners",
    **documented(Scoreboard, 400, 404, 409, 503),
)
async def get_scoreboard(game_id: str, reads: Reads, min_version: MinVersion = None) -> dict[str, Any]:
    await reads.caught_up(BOARDS, game_id, min_version)
    return await run_in_threadpool(reads.scoreboard, game_id, min_version)


@router.get(
    "/games/{game_id}/spectators",
    summary="How many watch the game as spectators now (live: /stream?spectators=true)",
    **documented(contract.Spectators, 400, 404),
)
def get_spectators(game_id: str, reads: Reads, spectators: SpectatorCount) -> dict[str, Any]:
    reads.viewer(game_id, None)  # 404 for no such game
    return {"game_id": game_id, "spectators": spectators.count(game_id)}


router.include_router(streams.router)


@router.get(
    "/games/{game_id}/events", summary="The log as the bearer may see it", **documented(list[Record], 400, 401, 404)
)
def get_events(
    game_id: str,
    token: Token,
    service: Service,
    tournaments: Tournaments,
    after: Annotated[int, Query(ge=0, le=MAX_VERSION)] = 0,
) -> list[dict[str, Any]]:
    viewer, over = viewer_of(service, tournaments, game_id, token)
    return [for_viewer(r, viewer, reveal_all=over) for r in service.records(game_id, after=after)]


@router.get(
    "/games/{game_id}/versions/{version}",
    summary="The game at a past version (time travel)",
    **documented(contract.BOARD_VIEW, *READ_ERRORS),
)
def get_version(
    game_id: str,
    version: Annotated[int, Path(ge=1, le=MAX_VERSION)],
    token: Token,
    reads: Reads,
    tournaments: Tournaments,
) -> dict[str, Any]:
    viewer = bearer_viewer(reads, tournaments, game_id, token)
    return named(tournaments, reads.at_version(game_id, version, viewer), game_id)


@router.get(
    "/games/{game_id}/legal-moves",
    summary="The bearer's legal commands now",
    **documented(contract.LEGAL_MOVES, 400, 401, 404),
)
def legal_moves(game_id: str, token: Token, service: Service, tournaments: Tournaments) -> dict[str, Any]:
    with service.reading(game_id) as aggregate:
        seat = bearer_seat(service, tournaments, game_id, aggregate, token)
        return legal_moves_answer(game_id, aggregate.match, seat)


@router.get(
    "/games/{game_id}/verify",
    summary="Check the hash chain (and, after the end, the seed), against a published fingerprint or commitment",
    **documented(Verification, 400, 404),
)
def verify(
    game_id: str, service: Service, fingerprint: PublishedFingerprint = None, commitment: PublishedCommitment = None
) -> dict[str, Any]:
    over = game_is_over(service, game_id)
    records = [for_viewer(r, None, reveal_all=over) for r in service.records(game_id)]
    report = verify_records(records, GAMES.get, fingerprint, commitment)
    return report.to_dict()


@router.get(
    "/games/{game_id}/export",
    summary="The game record as JSON lines",
    **documented(
        None, 400, 401, 404, media_type="application/x-ndjson", description="One Record per line (JSON lines)"
    ),
)
def export(game_id: str, token: Token, service: Service, tournaments: Tournaments) -> PlainTextResponse:
    viewer, over = viewer_of(service, tournaments, game_id, token)
    lines = [canonical(for_viewer(r, viewer, reveal_all=over)) for r in service.records(game_id)]
    return PlainTextResponse("\n".join(lines) + "\n", media_type="application/x-ndjson")


@router.post(
    "/games/{game_id}/fork",
    summary="Fork an ended game",
    dependencies=[Depends(take_creation_slot)],
    **documented(CreatedGame, 400, 404, 409, 413, 429, status=201),
)
def fork(game_id: str, body: Fork, service: Service) -> CreatedGame:
    created = service.fork(game_id, body.version)
    return created_game(created)
