"""Seat tokens as bearer tokens: no ``Authorization`` header is a spectator, a malformed one is
refused (a client that meant to send a token must not be served a spectator's view quietly)."""

from __future__ import annotations

from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from starlette.requests import HTTPConnection

from infra.games.service import Unauthorized


class SeatBearer(HTTPBearer):
    def __init__(self) -> None:
        super().__init__(auto_error=False, description="A seat token from POST /games; none for a spectator")

    async def __call__(self, request: HTTPConnection) -> HTTPAuthorizationCredentials | None:
        authorization = request.headers.get("Authorization")
        if authorization is None:
            return None
        scheme, _, credentials = authorization.strip().partition(" ")
        credentials = credentials.strip()
        if scheme.lower() != "bearer" or not credentials or any(c.isspace() for c in credentials):
            raise Unauthorized(
                "the Authorization header must be 'Bearer SEAT_TOKEN' (leave it out to read as a spectator)"
            )
        return HTTPAuthorizationCredentials(scheme="Bearer", credentials=credentials)
