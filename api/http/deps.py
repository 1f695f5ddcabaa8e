"""Every dependency of the routes, as an ``Annotated`` alias: the services and the read side that
``create_app`` puts on ``app.state`` once, the bearer's token, and the query parameters several
routes share. A route names what it needs by type (``service: Service``) and nothing else.

The getters are ``async`` so that FastAPI runs them on the event loop: a sync dependency would cost
each request a hop through the thread pool that every request of the server shares."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated

from fastapi import Depends, Query, Request
from fastapi.security import HTTPAuthorizationCredentials
from starlette.requests import HTTPConnection

from api.http.analytics_source import AnalyticsSource
from api.http.auth import SeatBearer
from api.http.background import ServerThreads
from api.http.lifecycle import Shutdown
from api.http.limits import FieldBounds, tables_admission
from api.http.watching import Spectators
from domain.catalog import GAMES
from infra.games.analysis import Analyst
from infra.games.service import GameService
from infra.readside.reader import ReadSide
from infra.tournaments.listing import TournamentList
from infra.tournaments.service import TournamentService

# Versions are positions in a game's log; anything past this is not a version but a typo.
MAX_VERSION = 2**31 - 1

# The one bearer of every route: no header reads as a spectator (or as nobody), a malformed one is
# refused (401 BAD_TOKEN), whether the token is a seat's, an organiser's or a tournament player's.
bearer = SeatBearer()


async def bearer_token(
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
) -> str | None:
    return credentials.credentials if credentials is not None else None


Token = Annotated[str | None, Depends(bearer_token)]


async def game_service(connection: HTTPConnection) -> GameService:
    service: GameService = connection.app.state.service
    return service


async def read_side(connection: HTTPConnection) -> ReadSide:
    reads: ReadSide = connection.app.state.read_side
    return reads


async def tournament_service(connection: HTTPConnection) -> TournamentService:
    tournaments: TournamentService = connection.app.state.tournaments
    return tournaments


async def tournament_list(connection: HTTPConnection) -> TournamentList:
    listed: TournamentList = connection.app.state.tournament_list
    return listed


async def field_bounds(connection: HTTPConnection) -> FieldBounds:
    bounds: FieldBounds = connection.app.state.field_bounds
    return bounds


async def spectator_count(connection: HTTPConnection) -> Spectators:
    spectators: Spectators = connection.app.state.spectators
    return spectators


async def server_shutdown(connection: HTTPConnection) -> Shutdown:
    shutdown: Shutdown = connection.app.state.shutdown
    return shutdown


async def server_threads(connection: HTTPConnection) -> ServerThreads:
    threads: ServerThreads = connection.app.state.threads
    return threads


async def game_analyst(connection: HTTPConnection) -> Analyst:
    analyst: Analyst = connection.app.state.analyst
    return analyst


async def analytics_source(connection: HTTPConnection) -> AnalyticsSource:
    source: AnalyticsSource = connection.app.state.analytics
    return source


async def commanded_game(request: Request) -> str | None:
    """The game a typed command route takes commands of (``/games/{game_id}/commands/{game}``);
    None at ``/games/{game_id}/commands``, which takes any game's."""
    last = request.scope["route"].path.rsplit("/", 1)[-1]
    return last if last in GAMES else None


Service = Annotated[GameService, Depends(game_service)]
Reads = Annotated[ReadSide, Depends(read_side)]
Tournaments = Annotated[TournamentService, Depends(tournament_service)]
TournamentListing = Annotated[TournamentList, Depends(tournament_list)]
Bounds = Annotated[FieldBounds, Depends(field_bounds)]
# Seating a round asks the creation limit for one game per table before it creates any.
TablesAdmission = Annotated[Callable[[int], None], Depends(tables_admission)]
CommandedGame = Annotated[str | None, Depends(commanded_game)]
SpectatorCount = Annotated[Spectators, Depends(spectator_count)]
ServerShutdown = Annotated[Shutdown, Depends(server_shutdown)]
BackgroundThreads = Annotated[ServerThreads, Depends(server_threads)]
GameAnalyst = Annotated[Analyst, Depends(game_analyst)]
Analytics = Annotated[AnalyticsSource, Depends(analytics_source)]

MinVersion = Annotated[
    int | None,
    Query(
        ge=1,
        le=MAX_VERSION,
        description="wait (a few seconds at most) until the read model has this version: read your own write",
    ),
]
