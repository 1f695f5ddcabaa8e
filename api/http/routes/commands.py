"""A game's commands: ``POST /games/{game_id}/commands/{game}`` for each game (the documented
contract, with the game's command models), and ``POST /games/{game_id}/commands`` for any game.
Both go the one command path (``api/http/commands.py``).

The most frequent request of a server has a router of its own, included first: every route
before it is one more pattern for each command to be tried against."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body

from api.contract import models as contract
from api.contract.models import documented
from api.http.commands import game_command, send_command
from api.http.deps import Bounds, CommandedGame, Service, Token, Tournaments
from domain.catalog import GAMES
from infra.games.service import Unauthorized

router = APIRouter()


def send(
    game_id: str,
    token: Token,
    body: Annotated[Any, Body()],
    game: CommandedGame,
    service: Service,
    tournaments: Tournaments,
    bounds: Bounds,
) -> Any:
    if token is None:
        raise Unauthorized("sending a command needs the seat's bearer token (Authorization: Bearer TOKEN)")
    return send_command(body, bounds, game_command(service, tournaments, game_id, token, game))


# Any game's commands at one address, first: it is where clients send them (the typed routes
# below are the documented contract).
router.post("/games/{game_id}/commands", include_in_schema=False)(send)

for game_id_ in GAMES.ids():
    router.post(
        f"/games/{{game_id}}/commands/{game_id_}",
        # The OpenAPI document names the game by its title (api/contract/openapi.py): no game is loaded here.
        summary=f"Send a {game_id_} command for the bearer's seat",
        operation_id=contract.command_operation(game_id_),
        openapi_extra=contract.command_body_doc(game_id_),
        **documented(contract.CommandResult, 400, 401, 404, 409, 413, 422),
    )(send)
