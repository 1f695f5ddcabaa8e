"""Every refusal leaves as JSON ``{"error": {"code", "message"}}`` with a fitting HTTP status."""

from __future__ import annotations

from eventsourcing.persistence import OperationalError as StoreUnavailable
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match, Route

from api.contract.models import validation_message
from api.http.tournament_exports import NotForTrf, RoundNotSeated
from domain.kernel import errors as kernel_errors
from domain.kernel import signatures
from domain.kernel.errors import RuleViolation
from domain.kernel.match import SEAT_TAKEN_ALREADY, SEATS_FULL
from domain.kernel.names import BAD_NAME, NAME_TAKEN
from domain.kernel.registry import UNKNOWN_GAME
from domain.tournament import rules as tournament_rules
from domain.tournament.config import NON_FINITE_NUMBER
from infra.games import analysis, service
from infra.readside.reader import ReadModelBehind, VersionNotReached
from infra.readside.waiting import TooManyWaiters
from infra.tournaments.aggregate import TournamentNotFound
from infra.tournaments.registration import WrongRegistrationCode

RULE_STATUS = {
    kernel_errors.NOT_YOUR_TURN: 409,
    kernel_errors.BAD_INPUT: 400,
    kernel_errors.UNKNOWN_COMMAND: 400,
    kernel_errors.GAME_OVER: 409,
    UNKNOWN_GAME: 422,
    kernel_errors.BAD_PLAYER_COUNT: 422,
    kernel_errors.BAD_OPTIONS: 400,  # an option off its schema, or with options it does not go with
    SEATS_FULL: 409,
    SEAT_TAKEN_ALREADY: 409,
    NAME_TAKEN: 409,
    BAD_NAME: 400,
    kernel_errors.ALREADY_CONTRIBUTED: 409,
    signatures.BAD_SIGNATURE: 401,
    signatures.BAD_KEY: 400,
    signatures.KEY_REQUIRED: 400,
    signatures.KEY_ALREADY_SET: 409,
    NON_FINITE_NUMBER: 400,
    tournament_rules.TOURNAMENT_OVER: 409,
    tournament_rules.GAME_VOIDED: 409,
    tournament_rules.BAD_COMMITMENT: 400,
    tournament_rules.WRONG_SECRET: 400,
    tournament_rules.REGISTRATION_OPEN: 409,
    tournament_rules.REVEALS_CLOSED: 409,
    tournament_rules.NOTHING_TO_REVEAL: 409,
    tournament_rules.REVEALS_PENDING: 409,
    tournament_rules.BAD_REGISTRATION: 400,
    tournament_rules.BAD_ROSTER_CHANGE: 400,
    tournament_rules.ALREADY_WITHDRAWN: 409,
    tournament_rules.NO_ROUND_SEATED: 409,
    tournament_rules.ROSTER_FROZEN: 409,
    tournament_rules.BAD_SEATING: 422,  # a seating the request spells but the rules refuse
    tournament_rules.WITHDRAWN_PLAYER: 409,
    tournament_rules.CHECK_IN_OPEN: 409,
    tournament_rules.CHECK_IN_NOT_OPEN: 409,
    tournament_rules.CHECK_IN_CLOSED: 409,
    tournament_rules.ALREADY_CHECKED_IN: 409,
    tournament_rules.CHECK_IN_PENDING: 409,
}
SERVICE_STATUS: dict[type[service.ServiceError], int] = {
    service.GameNotFound: 404,
    service.StaleVersion: 409,
    service.Conflict: 409,
    service.Unauthorized: 401,
    service.Forbidden: 403,
    service.Invalid: 400,
    service.WrongGame: 409,
    service.UnknownVersion: 404,
    service.UnfitForGame: 422,
    service.NotStarted: 409,
    ReadModelBehind: 503,
    VersionNotReached: 409,
    TooManyWaiters: 503,
    TournamentNotFound: 404,
    WrongRegistrationCode: 403,
    RoundNotSeated: 404,
    NotForTrf: 409,
    analysis.AnalysisForbidden: 403,
    analysis.TournamentGameRunning: 403,
    analysis.SeatNotAwaited: 409,
    analysis.AnalysisBusy: 503,
}


STORE_BUSY = "STORE_BUSY"
STORE_BUSY_MESSAGE = (
    "the event store did not answer in time (it is busy or out of reach): read the game and send the "
    "command again; sent with the same command_id, a command already recorded is not recorded twice"
)


# Starlette's own refusals (no route, a method the route does not take), in the envelope too.
HTTP_ERROR_CODES = {404: "NOT_FOUND", 405: "METHOD_NOT_ALLOWED"}


def allowed_methods(request: Request) -> list[str]:
    """Every method some route takes at this path (Starlette's 405 names one route's only)."""
    methods: set[str] = set()
    for route in request.app.routes:
        if isinstance(route, Route) and route.methods and route.matches(request.scope)[0] != Match.NONE:
            methods |= route.methods
    return sorted(methods)


def error_response(status: int, code: str, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse(status_code=status, content={"error": {"code": code, "message": message}}, headers=headers)


def refusal(exc: Exception) -> JSONResponse | None:
    """The answer to a refusal of the rules, of the service or of a busy store; None for anything else."""
    if isinstance(exc, RuleViolation):
        return error_response(RULE_STATUS.get(exc.code, 422), exc.code, exc.message)
    if isinstance(exc, service.ServiceError):
        return error_response(SERVICE_STATUS.get(type(exc), 400), exc.code, exc.message)
    if isinstance(exc, StoreUnavailable):
        # A lock that timed out, a pool with no free connection, a database out of reach: the
        # service has let go of the game (it is read again), so trying again is safe.
        return error_response(503, STORE_BUSY, STORE_BUSY_MESSAGE, headers={"Retry-After": "1"})
    return None


def install_error_handlers(app: FastAPI) -> None:
    async def refused(_: Request, exc: Exception) -> JSONResponse:
        answer = refusal(exc)
        assert answer is not None  # registered for the refusals only
        return answer

    for refusals in (RuleViolation, service.ServiceError, StoreUnavailable):
        app.add_exception_handler(refusals, refused)

    @app.exception_handler(RequestValidationError)
    async def bad_request(_: Request, exc: RequestValidationError) -> JSONResponse:
        return error_response(400, kernel_errors.BAD_INPUT, validation_message(exc))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = HTTP_ERROR_CODES.get(exc.status_code)
        if code is None:
            response = error_response(exc.status_code, "HTTP_ERROR", str(exc.detail))
        else:
            response = error_response(exc.status_code, code, str(exc.detail))
        if exc.headers:
            response.headers.update(exc.headers)
        if exc.status_code == 405:
            response.headers["Allow"] = ", ".join(allowed_methods(request))
        return response
