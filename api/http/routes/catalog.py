"""``GET /games/catalog/{game}``: a game's static data for clients (options with schema and defaults,
player counts, command and event types, and what a client needs to draw the game and resolve every
id in a view). Built by ``domain.client_data`` from the engine's own data files."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from api.contract.models import Error, deferred
from api.http.errors import error_response
from domain.catalog import GAMES
from domain.client_data import client_data
from domain.kernel.registry import UNKNOWN_GAME


class OptionOut(BaseModel):
    name: str
    description: str
    json_schema: dict[str, Any] = Field(alias="schema", description="JSON Schema of the value, with its default")
    players: list[int] = Field(description="the player counts the option applies to; empty: every count")
    requires: dict[str, Any] = Field(description="the values other options must have for this one to apply")


class FieldOut(BaseModel):
    name: str
    json_schema: dict[str, Any] = Field(alias="schema")
    required: bool


class MessageTypeOut(BaseModel):
    type: str
    fields: list[FieldOut]
    private: bool | None = Field(default=None, description="commands only: recorded privately to the sender")


class GameDataOut(BaseModel):
    game: str
    title: str
    min_players: int
    max_players: int
    options: list[OptionOut]
    default_options: dict[str, dict[str, Any]] = Field(
        description="player count -> the options a game gets when its creator gives none"
    )
    commands: list[MessageTypeOut]
    events: list[MessageTypeOut]
    static: dict[str, Any] = Field(description="the game's boards, tiles, cards, costs and names (per game)")


router = APIRouter()

# Static data never changes while a server runs: build it once per game.
_CACHE: dict[str, dict[str, Any]] = {}


@router.get(
    "/games/catalog/{game}",
    response_model=GameDataOut,
    response_model_by_alias=True,
    summary="A game's static data: options, player counts, command types, boards, tiles, cards, costs, names",
    responses={
        404: {
            "content": {"application/json": {"schema": deferred(Error)}},
            "description": "no such game (UNKNOWN_GAME)",
        }
    },
)
def game_data(game: str) -> Any:
    if game not in GAMES:
        known = ", ".join(g.id for g in GAMES.all())
        return error_response(404, UNKNOWN_GAME, f"there is no game {game!r}; the games are: {known}")
    if game not in _CACHE:
        _CACHE[game] = client_data(game)
    return JSONResponse(_CACHE[game], headers={"Cache-Control": "public, max-age=3600"})
