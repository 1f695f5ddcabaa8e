"""The tournament API: create, register players, seat rounds, play at the seat one was given,
standings, adjudications, the end, and the bundle anyone can verify offline.

Tokens: the organiser's token (from ``POST /tournaments``) for organising; each player's token
(from registration) for playing at whichever seat the player is given."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import suppress
from typing import Annotated, Any, Literal

import anyio
from fastapi import APIRouter, Body, Depends, Header, Query, Request, Response
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import StreamingResponse
from pydantic import BaseModel, Field, StrictInt

from api.contract.models import BOARD_VIEW, LEGAL_MOVES, documented
from api.http.commands import CommandThreads, table_command
from api.http.deps import Bounds, Reads, ServerShutdown, TablesAdmission, Token, TournamentListing, Tournaments
from api.http.lifecycle import ServerStopping, Shutdown
from api.http.limits import take_creation_slot
from api.http.routes.exports import router as exports_router
from api.http.routes.seats import PUBLIC_KEY_PATTERN
from api.http.routes.streams import STREAM_HEADERS, server_sent_event
from domain.catalog import GAMES
from domain.kernel.errors import RuleViolation
from domain.kernel.log import for_viewer
from domain.tournament.log import TOURNAMENT_ENDED
from domain.tournament.rules import BAD_SEATING, standings_view
from infra.games.service import Invalid, legal_moves_answer
from infra.readside.reader import VersionNotReached
from infra.tournaments.listing import CURSOR_PATTERN, LIST_LIMIT, LIST_MAX_LIMIT
from infra.tournaments.service import TournamentService
from projections.lobby import TOURNAMENT_STATUSES

# A tournament's stream looks at the store this often for new records (any process may have
# written them); its client is told, never polls. A keep-alive comment goes out when nothing did.
STREAM_LOOK_SECONDS = 0.5
STREAM_KEEPALIVE_LOOKS = 30
MAX_POSITION = 10**9


class CreateTournament(BaseModel):
    model_config = {"extra": "forbid"}

    game: str = Field(description="game id, e.g. peloponnes")
    name: str | None = Field(
        default=None, min_length=1, max_length=100, description="what lists and exports call it (optional)"
    )
    settings: dict[str, Any] | None = Field(
        default=None,
        description="format (swiss|balanced), rounds, table_size, options, points_per_place, bye_points, "
        "tie_breaks, time_control {base_seconds, increment_seconds, on_timeout: random_move|forfeit, "
        "bot: greedy|random|search (who moves for a seat out of time), bot_playouts (search's budget)}, "
        "keys_required (every player registers with a public_key: docs/signed-commands.md), "
        "check_in (true: check-in is open from creation; whoever has not checked in when registration closes "
        "is withdrawn)",
    )
    master_seed: str | None = Field(
        default=None, max_length=200, description="a fixed master seed (tests); secret and random by default"
    )


class CreatedTournamentOut(BaseModel):
    tournament_id: str
    organiser_token: str
    version: int
    registration_code: str = Field(
        description="publish it (as a link): players register themselves with it at POST /tournaments/{id}/join"
    )


PLAYER_KEY = (
    "optional (required when the tournament's keys_required is set): the player's Ed25519 public key "
    "(32 bytes, base64url without padding); it keys the player's seat in each of their games, whose every "
    "command must then carry the player's signature (docs/signed-commands.md); recorded publicly"
)


class RegisterPlayer(BaseModel):
    model_config = {"extra": "forbid"}

    name: str = Field(min_length=1, max_length=60)
    commitment: str | None = Field(
        default=None,
        description="optional: the SHA-256 (64 hex digits) of a fresh secret of the player's, revealed once "
        "registration closes; every seating and table seed then depends on it (withholding it withdraws the entry)",
    )
    public_key: str | None = Field(
        default=None,
        min_length=43,
        max_length=43,
        pattern=PUBLIC_KEY_PATTERN,
        description=PLAYER_KEY,
    )


class RegisterByOrganiser(RegisterPlayer):
    bot: Literal["random", "greedy", "search"] | None = Field(
        default=None,
        description="a bot player: the server's bot of this name plays the entry's seat at every table it is "
        "seated at (no token is handed out)",
    )


class JoinTournament(RegisterPlayer):
    code: str = Field(min_length=1, max_length=200, description="the registration code the organiser published")


class RegistrationCodeOut(BaseModel):
    registration_code: str


class WithdrawPlayer(BaseModel):
    model_config = {"extra": "forbid"}

    player: int = Field(description="the player's number")
    reason: str = Field(min_length=1, max_length=500)


class LateEntry(BaseModel):
    model_config = {"extra": "forbid"}

    name: str = Field(min_length=1, max_length=60)
    missed_rounds: Literal["bye", "zero"] | None = Field(
        default=None, description="what the entry gets for each round already seated: a bye's points, or zero (default)"
    )
    public_key: str | None = Field(
        default=None, min_length=43, max_length=43, pattern=PUBLIC_KEY_PATTERN, description=PLAYER_KEY
    )


class SeatRound(BaseModel):
    """Nothing (or ``{}``): the rules seat the round from the record and the master seed. Or the
    organiser's own seating, a ruling recorded with its reason: ``tables`` (player numbers in
    seat order), ``byes`` (who sits out) and ``reason``. Any other field is refused (400)."""

    model_config = {"extra": "forbid"}

    tables: list[list[StrictInt]] | None = Field(
        default=None, description="a manual seating: each table's player numbers in seat order"
    )
    byes: list[StrictInt] | None = Field(default=None, description="a manual seating: who sits out")
    reason: str | None = Field(default=None, max_length=500, description="why the round is seated by hand")


class RevealSecret(BaseModel):
    model_config = {"extra": "forbid"}

    secret: str = Field(description="the secret whose SHA-256 the player committed to, as hex (16 to 64 bytes)")


class RegisteredPlayerOut(BaseModel):
    player: int
    name: str
    token: str | None = Field(description="the player's token; null for a bot player (the server plays it)")
    bot: str | None = Field(default=None, description="the server's bot that plays a bot player")


class LateEntryOut(RegisteredPlayerOut):
    from_round: int
    missed_rounds: str


class TournamentListed(BaseModel):
    tournament_id: str
    name: str | None
    game: str
    format: str
    table_size: int
    rounds: int = Field(description="the rounds planned")
    rounds_seated: int
    players: int = Field(description="every player registered (the withdrawn too)")
    withdrawn: int
    registration_closed: bool
    status: Literal["registering", "running", "ended"] = Field(
        description="registering until round 1 is seated, then running, then ended"
    )
    created_at: str
    ended_at: str | None
    version: int


class TournamentPage(BaseModel):
    tournaments: list[TournamentListed]
    next_cursor: str | None = Field(description="pass it as cursor for the next page; null on the last page")


def tournament_view(tournaments: TournamentService, tournament_id: str) -> dict[str, Any]:
    state = tournaments.state(tournament_id)
    aggregate = tournaments.load(tournament_id)
    return {
        "tournament_id": tournament_id,
        "name": state.name,
        "version": aggregate.log.version,
        "fingerprint": aggregate.log.last_hash,
        "settings": state.settings.to_dict(),
        "master_seed_commitment": state.master_seed_commitment,
        "players": [
            {
                "player": i,
                "name": n,
                "commitment": state.commitments.get(i),
                "secret": state.reveals.get(i),
                "withdrawn": i in state.withdrawn,
                "registered_by": state.registered_by.get(i),
                "late_entry": state.late_entries.get(i),
                "public_key": state.keys.get(i),
                "bot": state.bots.get(i),
                "checked_in": i in state.checked_in,
            }
            for i, n in enumerate(state.names)
        ],
        "registration_closed": state.registration_closed or bool(state.rounds),
        # check-in: asked for (open: still taking check-ins, before the roster closes)
        "check_in": {
            "asked": state.check_in_open,
            "open": state.check_in_taken,
            "checked_in": state.checked_in,
        },
        "rounds": [
            {
                "round": i + 1,
                "byes": state.byes[i],
                "manual_seating_reason": state.seating_reasons[i],
                "tables": [
                    {
                        "table": t.table,
                        "game_id": t.game_id,
                        "players": t.players,
                        "result": state.results.get(t.game_id),
                    }
                    for t in tables
                ],
            }
            for i, tables in enumerate(state.rounds)
        ],
        "timeouts": state.timeouts,
        "adjudications": state.adjudications,
        "ended": state.ended,
    }


# Every tournament route may refuse as the tournament service does (the Error schema).
REFUSALS = documented(None, 400, 401, 403, 404, 409, 413, 422)["responses"]
RATE_LIMITED: dict[int | str, dict[str, Any]] = {429: documented(None, 429)["responses"][429]}
router = APIRouter(
    prefix="/tournaments", tags=["tournaments"], responses={k: v for k, v in REFUSALS.items() if k != 200}
)


@router.get(
    "",
    response_model=TournamentPage,
    summary="List tournaments, newest first, a page at a time (filters: status, game, a part of the name)",
    description="When there are more, `next_cursor` (and the `X-Next-Cursor` and "
    '`Link: <...>; rel="next"` headers) gives the cursor of the next page. The order never changes.',
)
def list_tournaments(
    request: Request,
    response: Response,
    listed: TournamentListing,
    status: Annotated[
        Literal["registering", "running", "ended"] | None, Query(description=" | ".join(TOURNAMENT_STATUSES))
    ] = None,
    game: Annotated[
        str | None,
        Query(
            max_length=64,
            description="only tournaments of this game id",
            json_schema_extra={"enum": list(GAMES.ids())},  # the games of this server (others: 400)
        ),
    ] = None,
    name: Annotated[
        str | None, Query(min_length=1, max_length=100, description="only names holding this, in any case")
    ] = None,
    limit: Annotated[int, Query(ge=1, le=LIST_MAX_LIMIT, description="tournaments per page")] = LIST_LIMIT,
    cursor: Annotated[str | None, Query(pattern=CURSOR_PATTERN, description="next_cursor of the previous page")] = None,
) -> TournamentPage:
    if game is not None and game not in GAMES.ids():
        raise Invalid(f"there is no game {game!r}; the games are {', '.join(GAMES.ids())}")
    page, next_cursor = listed.page(status, game, name, limit, cursor)
    if next_cursor is not None:
        response.headers["X-Next-Cursor"] = next_cursor
        response.headers["Link"] = f'<{request.url.include_query_params(cursor=next_cursor)}>; rel="next"'
    return TournamentPage(tournaments=[TournamentListed(**e) for e in page], next_cursor=next_cursor)


@router.post(
    "",
    status_code=201,
    response_model=CreatedTournamentOut,
    summary="Create a tournament (counts as a game created, against the client's creation limit)",
    dependencies=[Depends(take_creation_slot)],
    responses=RATE_LIMITED,
)
def create(body: CreateTournament, tournaments: Tournaments) -> CreatedTournamentOut:
    created = tournaments.create(
        body.game,
        body.settings,
        body.master_seed.encode() if body.master_seed is not None else None,
        name=body.name,
    )
    return CreatedTournamentOut(**vars(created))


@router.get("/{tournament_id}", summary="The tournament: settings, players, rounds, results, rulings")
def read(tournament_id: str, tournaments: Tournaments) -> dict[str, Any]:
    return tournament_view(tournaments, tournament_id)


@router.post(
    "/{tournament_id}/players", status_code=201, response_model=RegisteredPlayerOut, summary="Register a player"
)
def register(
    tournament_id: str, body: RegisterByOrganiser, token: Token, tournaments: Tournaments
) -> RegisteredPlayerOut:
    if body.bot is not None:
        entry = tournaments.register_bot(tournament_id, token, body.name, body.bot, body.commitment, body.public_key)
        return RegisteredPlayerOut(player=entry.player, name=entry.name, token=None, bot=entry.bot)
    registered = tournaments.register(tournament_id, token, body.name, body.commitment, body.public_key)
    return RegisteredPlayerOut(**vars(registered))


@router.post(
    "/{tournament_id}/join",
    status_code=201,
    response_model=RegisteredPlayerOut,
    summary="Register oneself with the published registration code (no token): the answer is the "
    "caller's own player token, which nobody else is ever shown",
)
def join_tournament(tournament_id: str, body: JoinTournament, tournaments: Tournaments) -> RegisteredPlayerOut:
    joined = tournaments.join(tournament_id, body.name, body.code, body.commitment, body.public_key)
    return RegisteredPlayerOut(**vars(joined))


@router.get(
    "/{tournament_id}/registration-code",
    response_model=RegistrationCodeOut,
    summary="The registration code to publish (organiser)",
)
def tournament_registration_code(tournament_id: str, token: Token, tournaments: Tournaments) -> RegistrationCodeOut:
    return RegistrationCodeOut(registration_code=tournaments.registration_code_of(tournament_id, token))


@router.post(
    "/{tournament_id}/withdrawals",
    status_code=201,
    summary="Withdraw a player from every round not seated yet (organiser)",
)
def withdraw(tournament_id: str, body: WithdrawPlayer, token: Token, tournaments: Tournaments) -> dict[str, Any]:
    return tournaments.withdraw(tournament_id, token, body.player, body.reason)


@router.post(
    "/{tournament_id}/late-entries",
    status_code=201,
    response_model=LateEntryOut,
    summary="Enter a player after round 1, seated from the next round (organiser; answers the player's token)",
)
def enter_late(tournament_id: str, body: LateEntry, token: Token, tournaments: Tournaments) -> LateEntryOut:
    entered, data = tournaments.enter_late(tournament_id, token, body.name, body.missed_rounds, body.public_key)
    return LateEntryOut(**vars(entered), from_round=data["from_round"], missed_rounds=data["missed_rounds"])


@router.post(
    "/{tournament_id}/close-registration",
    summary="Close registration: no more players or commitments; the committed players reveal (organiser)",
)
def close_registration(tournament_id: str, token: Token, tournaments: Tournaments) -> dict[str, Any]:
    return tournaments.close_registration(tournament_id, token)


@router.post(
    "/{tournament_id}/check-in/open",
    status_code=201,
    summary="Ask for check-in before round 1: whoever has not checked in when registration closes "
    "(or round 1 is seated) is withdrawn (organiser)",
)
def open_check_in(tournament_id: str, token: Token, tournaments: Tournaments) -> dict[str, Any]:
    return tournaments.open_check_in(tournament_id, token)


@router.post("/{tournament_id}/check-in", status_code=201, summary="Check in: the bearer player is here to play")
def check_in(tournament_id: str, token: Token, tournaments: Tournaments) -> dict[str, Any]:
    return tournaments.check_in(tournament_id, token)


@router.post("/{tournament_id}/reveal", summary="Reveal the secret the bearer player committed to")
def reveal(tournament_id: str, body: RevealSecret, token: Token, tournaments: Tournaments) -> dict[str, Any]:
    return tournaments.reveal(tournament_id, token, body.secret)


@router.post(
    "/{tournament_id}/rounds",
    status_code=201,
    summary="Seat the next round (organiser); each table counts as a game created by this client",
    responses=RATE_LIMITED,
)
def seat_round(
    tournament_id: str,
    token: Token,
    tournaments: Tournaments,
    admit_tables: TablesAdmission,
    body: SeatRound | None = None,
) -> dict[str, Any]:
    manual = body.model_dump(exclude_none=True) if body is not None else {}
    if manual and "tables" not in manual:
        raise RuleViolation(
            BAD_SEATING, "a manual seating names its tables (and byes and reason); {} seats by the rules"
        )
    return tournaments.seat_next_round(tournament_id, token, admit_tables, manual or None)


@router.get("/{tournament_id}/standings", summary="Live standings, tie-breaks and ratings")
def standings(tournament_id: str, tournaments: Tournaments) -> dict[str, Any]:
    return standings_view(tournaments.state(tournament_id))


@router.post("/{tournament_id}/adjudications", status_code=201, summary="Rule on a game or a player (organiser)")
def adjudicate(
    tournament_id: str,
    token: Token,
    tournaments: Tournaments,
    body: Annotated[
        dict[str, Any], Body(examples=[{"kind": "void", "game_id": "…", "reason": "a wrong table was played"}])
    ],
) -> dict[str, Any]:
    return tournaments.adjudicate(tournament_id, token, body)


@router.post("/{tournament_id}/end", summary="End the tournament: final standings, master seed revealed (organiser)")
def end(tournament_id: str, token: Token, tournaments: Tournaments) -> dict[str, Any]:
    return tournaments.end(tournament_id, token)


router.include_router(exports_router)


@router.get("/{tournament_id}/bundle", summary="The tournament's log and every game's record, to verify offline")
def bundle(tournament_id: str, tournaments: Tournaments) -> dict[str, Any]:
    return tournaments.bundle(tournament_id)


@router.post("/{tournament_id}/clocks", summary="Record every timeout that is due and apply the clock rule")
def clocks(tournament_id: str, tournaments: Tournaments) -> dict[str, Any]:
    moves = tournaments.enforce_clocks(tournament_id)
    return {"moves_played": moves}


@router.get(
    "/{tournament_id}/stream",
    summary="The tournament's records as they are recorded (server-sent events): a round seated, a result, "
    "a ruling, the end",
    **documented(
        None,
        404,
        409,
        media_type="text/event-stream",
        description="Server-sent events: `record` (a tournament record, its position as the event id), "
        "`end` ({version}) after TournamentEnded. Resume with Last-Event-ID (or after=).",
    ),
)
async def tournament_stream(
    tournament_id: str,
    request: Request,
    tournaments: Tournaments,
    shutdown: ServerShutdown,
    after: Annotated[int, Query(ge=0, le=MAX_POSITION, description="send the records after this position")] = 0,
    last_event_id: Annotated[
        int | None,
        Header(
            alias="Last-Event-ID",
            ge=0,
            le=MAX_POSITION,
            description="the id of the last event received (an EventSource sends it when it reconnects): "
            "takes the place of after",
        ),
    ] = None,
) -> StreamingResponse:
    if last_event_id is not None:
        after = last_event_id
    version = (await run_in_threadpool(tournaments.load, tournament_id)).log.version
    if after > version:
        raise VersionNotReached(
            f"tournament {tournament_id} is at position {version}: a stream starts after a position it has "
            f"(after={version} sends only what comes next)"
        )
    return StreamingResponse(
        tournament_updates(tournaments, shutdown, tournament_id, after, request),
        media_type="text/event-stream",
        headers=STREAM_HEADERS,
    )


async def tournament_updates(
    tournaments: TournamentService, shutdown: Shutdown, tournament_id: str, after: int, request: Request
) -> AsyncIterator[str]:
    """Every record after ``after`` in order, then each one as it is recorded; ``end`` after the
    last. Results are followed here too, so a game's end reaches the stream without any request."""
    sent, quiet = after, 0
    while not shutdown.requested and not await request.is_disconnected():
        await run_in_threadpool(tournaments.follow_results)
        records = await run_in_threadpool(tournaments.records, tournament_id, sent)
        for record in records:
            yield server_sent_event("record", for_viewer(record, None, reveal_all=True), record.position)
            sent = record.position
        if (records and records[-1].type == TOURNAMENT_ENDED) or (
            not records and sent and await run_in_threadpool(ended_at, tournaments, tournament_id, sent)
        ):
            yield server_sent_event("end", {"version": sent}, sent)
            return
        quiet = 0 if records else quiet + 1
        if quiet >= STREAM_KEEPALIVE_LOOKS:
            quiet = 0
            yield ": keep-alive\n\n"
        with suppress(ServerStopping):
            await shutdown.unless_stopping(lambda: anyio.sleep(STREAM_LOOK_SECONDS))
    if shutdown.requested:
        yield f": server stopping; resume with Last-Event-ID: {sent} or after={sent}\n\n"


def ended_at(tournaments: TournamentService, tournament_id: str, position: int) -> bool:
    """The tournament ended with the record at ``position`` (a resumed stream of an ended one)."""
    log = tournaments.load(tournament_id).log
    return log.state.ended is not None and log.version == position


@router.get(
    "/{tournament_id}/me",
    summary="The bearer player's page: this round's table and seat or bye, the game's status, your turn",
)
def me(tournament_id: str, token: Token, tournaments: Tournaments) -> dict[str, Any]:
    return tournaments.player_page(tournament_id, token)


@router.get(
    "/{tournament_id}/games/{game_id}",
    summary="A table's game as the bearer player sees it, with clocks",
    **documented(BOARD_VIEW),
)
def game_view(tournament_id: str, game_id: str, token: Token, tournaments: Tournaments, reads: Reads) -> dict[str, Any]:
    _, _, seat = tournaments.seat_of(tournament_id, game_id, token)
    tournaments.enforce_clock(tournament_id, game_id)  # the next request records a timeout that is due
    # The read models follow in the background: ask for the version the game has now (the
    # read side serves it from the event store if the projection is not there yet).
    view = reads.board(game_id, seat, min_version=tournaments.games.load(game_id).match.version)
    clock = tournaments.clock_view(game_id)
    names = tournaments.table_names(game_id)  # the players, by seat (a bot player's too)
    return {
        **view,
        "seat": seat,
        **({"clock": clock} if clock is not None else {}),
        **({"names": names} if names else {}),
    }


@router.get(
    "/{tournament_id}/games/{game_id}/legal-moves",
    summary="The bearer player's legal commands",
    **documented(LEGAL_MOVES),
)
def tournament_legal_moves(tournament_id: str, game_id: str, token: Token, tournaments: Tournaments) -> dict[str, Any]:
    _, _, seat = tournaments.seat_of(tournament_id, game_id, token)
    with tournaments.games.reading(game_id) as aggregate:
        return legal_moves_answer(game_id, aggregate.match, seat)


@router.post(
    "/{tournament_id}/games/{game_id}/commands",
    summary="A command at the bearer player's seat",
    response_model=dict[str, Any],
)
async def command(
    tournament_id: str,
    game_id: str,
    token: Token,
    tournaments: Tournaments,
    bounds: Bounds,
    body: Annotated[dict[str, Any], Body(examples=[{"type": "pass_turn", "expected_version": 12}])],
    request: Request,
) -> Response:
    play = table_command(tournaments, tournament_id, game_id, token)
    threads: CommandThreads = request.app.state.command_threads
    return await threads.send(body, bounds, play)
