"""Every dependency of the routes, as an ``Annotated`` alias: the services and the read side that
``create_app`` puts on ``app.state`` once, the bearer's token, and the query parameters several
routes share. A route names what it needs by type (``service: Service``) and nothing else.

The getters are ``async`` so that FastAPI runs them on the event loop: a sync dependency would cost
each request a hop through the thread pool that every request of the server shares."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated, Any

from fastapi import Depends, Query
from fastapi.security import HTTPAuthorizationCredentials
from starlette.requests import HTTPConnection

from api.http.analytics_source import AnalyticsSource
from api.http.auth import SeatBearer
from api.http.lifecycle import Shutdown
from api.http.limits import FieldBounds, tables_admission
from api.http.watching import Spectators
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


def app_state(name: str) -> Callable[[HTTPConnection], Awaitable[Any]]:
    """A dependency that gives what ``create_app`` put on ``app.state`` under ``name``."""

    async def from_state(connection: HTTPConnection) -> Any:
        return getattr(connection.app.state, name)

    from_state.__name__ = name
    return from_state


Service = Annotated[GameService, Depends(app_state("service"))]
Reads = Annotated[ReadSide, Depends(app_state("read_side"))]
Tournaments = Annotated[TournamentService, Depends(app_state("tournaments"))]
TournamentListing = Annotated[TournamentList, Depends(app_state("tournament_list"))]
Bounds = Annotated[FieldBounds, Depends(app_state("field_bounds"))]
# Seating a round asks the creation limit for one game per table before it creates any.
TablesAdmission = Annotated[Callable[[int], None], Depends(tables_admission)]
SpectatorCount = Annotated[Spectators, Depends(app_state("spectators"))]
ServerShutdown = Annotated[Shutdown, Depends(app_state("shutdown"))]
GameAnalyst = Annotated[Analyst, Depends(app_state("analyst"))]
Analytics = Annotated[AnalyticsSource, Depends(app_state("analytics"))]

MinVersion = Annotated[
    int | None,
    Query(
        ge=1,
        le=MAX_VERSION,
        description="wait (a few seconds at most) until the read model has this version: read your own write",
    ),
]
