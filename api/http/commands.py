"""The one path of a command over HTTP, for ``POST /games/{id}/commands[/{game}]`` and
``POST /tournaments/{id}/games/{game_id}/commands`` alike: the body must be a JSON object, its
controls (``expected_version``, ``command_id``, ``contribution``, ``signature``) are taken out and
checked (``api.contract.models.CommandControls``), what is left is bounded in size, and the game's
service parses it with the game's command model and plays it. The answer shows the new records as
the sender's seat may see them (everything once the game has ended)."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any

import orjson
from fastapi.responses import Response

from api.contract.models import CommandControls, command_controls
from api.http.limits import FieldBounds
from domain.kernel.log import GAME_ENDED, for_viewer
from domain.kernel.seats import Seat
from infra.games.service import CommandResult, GameService, Invalid, Unauthorized
from infra.tournaments.service import TournamentService

Play = Callable[[dict[str, Any], CommandControls], tuple[Seat, CommandResult]]


class CommandAnswer(Response):
    """A command's answer, serialised once here: the most frequent answer of a server skips
    FastAPI's generic encoding of the returned value (its shape is ``CommandResult``, as the
    typed routes document)."""

    media_type = "application/json"

    def render(self, content: Any) -> bytes:
        try:
            return orjson.dumps(content)
        except TypeError:  # a whole number past 64 bits
            return json.dumps(content, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode()


def send_command(body: Any, bounds: FieldBounds, play: Play) -> CommandAnswer:
    """Parse a command body and ``play`` it (the command without its controls, and the controls)."""
    if not isinstance(body, dict):
        raise Invalid("a command must be a JSON object")
    payload = dict(body)
    controls = command_controls(payload)
    bounds.check_command(payload)
    seat, result = play(payload, controls)
    over = result.records[-1].type == GAME_ENDED
    return CommandAnswer(
        {
            "version": result.version,
            "duplicate": result.duplicate,
            "events": [for_viewer(r, seat, reveal_all=over) for r in result.records],
        }
    )


COMMAND_THREADS = 40  # as many as FastAPI's thread pool (anyio's default) lets run at once


class CommandThreads:
    """The threads commands are played in: a command waits on the event store, so it leaves the
    event loop, as FastAPI runs a sync route. A plain executor rather than FastAPI's thread pool
    (anyio's worker threads): for each call that costs the event loop a cancel scope, a capacity
    limiter, a copied context and a check of idle workers (13 % of the GIL's time under a stream
    of commands, ``docs/benchmarks.md``), and a command uses none of them: once handed over it is
    played to its end, whatever the client does meanwhile.

    ``close`` waits for the commands being played (the server's lifespan calls it as it stops);
    the next command starts new threads."""

    def __init__(self, threads: int = COMMAND_THREADS) -> None:
        self.threads = threads
        self._pool: ThreadPoolExecutor | None = None
        self._lock = threading.Lock()

    async def send(self, body: Any, bounds: FieldBounds, play: Play) -> CommandAnswer:
        """``send_command`` in one of the threads."""
        pool = self._pool or self._start()
        return await asyncio.get_running_loop().run_in_executor(pool, send_command, body, bounds, play)

    def _start(self) -> ThreadPoolExecutor:
        with self._lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(self.threads, thread_name_prefix="command")
            return self._pool

    def close(self) -> None:
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True)


def at_table(
    tournaments: TournamentService,
    tournament_id: str,
    game_id: str,
    token: str | None,
    payload: dict[str, Any],
    controls: CommandControls,
) -> tuple[Seat, CommandResult]:
    """A tournament player's command at the seat they were given (the tournament's clock, forfeits
    and rulings apply)."""
    return tournaments.play(
        tournament_id,
        game_id,
        token,
        payload,
        controls.expected_version,
        controls.command_id,
        controls.contribution,
        controls.signature,
    )


def at_game(
    service: GameService,
    tournaments: TournamentService,
    game_id: str,
    token: str,
    game: str | None,
    payload: dict[str, Any],
    controls: CommandControls,
) -> tuple[Seat, CommandResult]:
    """A seat token's command, or a tournament player's at their own table (``api/http/viewers.py``);
    ``game``: refuse unless the game is that game."""
    try:
        return service.execute(
            game_id,
            token,
            payload,
            controls.expected_version,
            controls.command_id,
            controls.contribution,
            game=game,
            signature=controls.signature,
        )
    except Unauthorized:
        table = tournaments.player_at_table(game_id, token)
        if table is None:
            raise
        return at_table(tournaments, table[0], game_id, token, payload, controls)


def game_command(
    service: GameService, tournaments: TournamentService, game_id: str, token: str | None, game: str | None
) -> Play:
    """A seat's command (``POST /games/{game_id}/commands[/{game}]``) with its bearer's token."""
    if token is None:
        raise Unauthorized("sending a command needs the seat's bearer token (Authorization: Bearer TOKEN)")
    return partial(at_game, service, tournaments, game_id, token, game)


def table_command(tournaments: TournamentService, tournament_id: str, game_id: str, token: str | None) -> Play:
    return partial(at_table, tournaments, tournament_id, game_id, token)
