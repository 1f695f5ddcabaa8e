"""Joining a game's open seats by name (a game created with ``open_seats``)."""

from __future__ import annotations

from fastapi import APIRouter, Depends
from pydantic import Field

from api.contract import SeatJoined, StrictBody, documented
from api.limits import take_join_slot
from domain.kernel.match import MAX_NAME_LENGTH
from infra.readside import ReadSide
from infra.service import GameService


class Join(StrictBody):
    name: str = Field(min_length=1, max_length=MAX_NAME_LENGTH, description="the name the lobby shows")
    seat: int | None = Field(default=None, ge=0, le=99, description="a particular open seat; default: the first")
    public_key: str | None = Field(
        default=None,
        min_length=43,
        max_length=43,
        pattern="^[A-Za-z0-9_-]{43}$",
        description="the seat's Ed25519 public key (32 bytes, base64url without padding): every command of the "
        "seat must then be signed with it (docs/signed-commands.md); recorded publicly",
    )


def seat_router(service: GameService, reads: ReadSide) -> APIRouter:
    router = APIRouter()

    @router.post(
        "/games/{game_id}/join",
        summary="Take an open seat by name; the answer holds the seat's token (shown to the joiner only)",
        dependencies=[Depends(take_join_slot)],
        **documented(SeatJoined, 400, 404, 409, 413, 429, status=201),
    )
    def join(game_id: str, body: Join) -> SeatJoined:
        joined = service.join(game_id, body.name, body.seat, body.public_key)
        return SeatJoined(
            game_id=joined.game_id,
            seat=joined.seat,
            name=joined.name,
            token=joined.token,
            version=joined.version,
            started=joined.started,
        )

    return router
