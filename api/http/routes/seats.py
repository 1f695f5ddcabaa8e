"""Joining a game's open seats by name (a game created with ``open_seats``), and keying a seat."""

from __future__ import annotations

from fastapi import APIRouter, Depends
from pydantic import BaseModel, Field

from api.contract.models import SeatJoined, StrictBody, documented
from api.http.deps import Service, Token
from api.http.limits import take_join_slot
from domain.kernel.match import MAX_NAME_LENGTH

PUBLIC_KEY = (
    "the seat's Ed25519 public key (32 bytes, base64url without padding): every command of the seat must then be "
    "signed with it (docs/signed-commands.md); recorded publicly"
)
PUBLIC_KEY_PATTERN = "^[A-Za-z0-9_-]{43}$"


class Join(StrictBody):
    name: str = Field(min_length=1, max_length=MAX_NAME_LENGTH, description="the name the lobby shows")
    seat: int | None = Field(default=None, ge=0, le=99, description="a particular open seat; default: the first")
    public_key: str | None = Field(
        default=None,
        min_length=43,
        max_length=43,
        pattern=PUBLIC_KEY_PATTERN,
        description=PUBLIC_KEY,
    )


class RegisterKey(StrictBody):
    public_key: str = Field(min_length=43, max_length=43, pattern=PUBLIC_KEY_PATTERN, description=PUBLIC_KEY)


class SeatKeyed(BaseModel):
    seat: int = Field(ge=0, description="the bearer's seat, now keyed")
    version: int = Field(ge=1, description="the game's version after the key's record")


router = APIRouter()


@router.post(
    "/games/{game_id}/key",
    summary="Register the bearer's seat's public key (once, before the seat's first command)",
    **documented(SeatKeyed, 400, 401, 404, 409, 413, status=201),
)
def register_key(game_id: str, body: RegisterKey, token: Token, service: Service) -> SeatKeyed:
    seat, version = service.register_key(game_id, token, body.public_key)
    return SeatKeyed(seat=seat, version=version)


@router.post(
    "/games/{game_id}/join",
    summary="Take an open seat by name; the answer holds the seat's token (shown to the joiner only)",
    dependencies=[Depends(take_join_slot)],
    **documented(SeatJoined, 400, 404, 409, 413, 429, status=201),
)
def join(game_id: str, body: Join, service: Service) -> SeatJoined:
    joined = service.join(game_id, body.name, body.seat, body.public_key)
    return SeatJoined(
        game_id=joined.game_id,
        seat=joined.seat,
        name=joined.name,
        token=joined.token,
        version=joined.version,
        started=joined.started,
    )
