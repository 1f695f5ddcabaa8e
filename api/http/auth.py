"""Tokens as bearer tokens (a seat's, a tournament organiser's or player's): no ``Authorization``
header is a spectator (or nobody), a malformed one is refused (a client that meant to send a token
must not be served a spectator's view quietly). ``api/http/deps.py`` holds the one bearer of every route."""

from __future__ import annotations

from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from starlette.requests import HTTPConnection

from infra.games.service import Unauthorized


class SeatBearer(HTTPBearer):
    def __init__(self) -> None:
        super().__init__(
            auto_error=False,
            description="A seat token from POST /games, or a tournament organiser's or player's token; "
            "none for a spectator",
        )

    async def __call__(self, request: HTTPConnection) -> HTTPAuthorizationCredentials | None:
        token = bearer_of(request.headers.get("Authorization"))
        return None if token is None else HTTPAuthorizationCredentials(scheme="Bearer", credentials=token)


def bearer_of(authorization: str | None) -> str | None:
    """The token of an ``Authorization`` header's value; None for no header."""
    if authorization is None:
        return None
    scheme, _, credentials = authorization.strip().partition(" ")
    credentials = credentials.strip()
    if scheme.lower() != "bearer" or not credentials or any(c.isspace() for c in credentials):
        raise Unauthorized("the Authorization header must be 'Bearer SEAT_TOKEN' (leave it out to read as a spectator)")
    return credentials
