"""A game's commands: ``POST /games/{game_id}/commands/{game}`` for each game (the documented
contract, with the game's command models), and ``POST /games/{game_id}/commands`` for any game.
Both go the one command path (``api/http/commands.py``).

Most of these requests never reach these routes: the app answers them at its door
(``api/http/command_edge.py``). The routes are the contract the OpenAPI document shows, and they
serve what the edge leaves to the stack (a cross-origin request when CORS is on). They keep their
own economies: their router is included first (every route before it is one more pattern for each
command to be tried against), and the route takes only the bearer's token as a dependency, reading
the app's services from ``app.state`` and the body as the app's JSON check parsed it
(``api/http/body.py``)"""

from __future__ import annotations

from fastapi import APIRouter, Request

from api.contract import models as contract
from api.contract.models import documented
from api.http.body import parsed_body
from api.http.commands import CommandAnswer, CommandThreads, game_command
from api.http.deps import Token
from domain.catalog import GAMES

router = APIRouter()


def commanded_game(request: Request) -> str | None:
    """The game a typed command route takes commands of (``/games/{game_id}/commands/{game}``);
    None at ``/games/{game_id}/commands``, which takes any game's."""
    last = request.scope["route"].path.rsplit("/", 1)[-1]
    return last if last in GAMES else None


async def send(game_id: str, token: Token, request: Request) -> CommandAnswer:
    state = request.app.state
    play = game_command(state.service, state.tournaments, game_id, token, commanded_game(request))
    body = parsed_body(request)
    threads: CommandThreads = state.command_threads
    return await threads.send(body, state.field_bounds, play)


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
