"""The one path of a command over HTTP, for ``POST /games/{id}/commands[/{game}]`` and
``POST /tournaments/{id}/games/{game_id}/commands`` alike: the body must be a JSON object, its
controls (``expected_version``, ``command_id``, ``contribution``, ``signature``) are taken out and
checked (``api.contract.models.CommandControls``), what is left is bounded in size, and the game's
service parses it with the game's command model and plays it. The answer shows the new records as
the sender's seat may see them (everything once the game has ended)."""

from __future__ import annotations

import asyncio
import json
import queue
import threading
from collections.abc import Callable
from contextlib import suppress
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
    event loop, as FastAPI runs a sync route. Not FastAPI's thread pool (anyio's worker threads),
    nor the standard library's executor: a hop through either costs the event loop a share of
    every command (anyio's cancel scope, capacity limiter, context copy and idle-worker check; the
    executor's futures chained to an asyncio future), measured in ``docs/benchmarks.md``. Here a
    command is a job on a queue, and its thread settles the event loop's own future: once handed
    over, a command is played to its end, whatever the client does meanwhile.

    A thread is started when every thread has a job, up to ``threads``. ``close`` waits for the
    commands handed over before it and stops their threads (the server's lifespan calls it as it
    stops); a command handed over afterwards starts new ones."""

    def __init__(self, threads: int = COMMAND_THREADS) -> None:
        self.threads = threads
        self._pool = _Pool(threads)

    async def send(self, body: Any, bounds: FieldBounds, play: Play) -> CommandAnswer:
        """``send_command`` in one of the threads."""
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[CommandAnswer] = loop.create_future()
        self._pool.put((loop, answer, body, bounds, play))
        return await answer

    def close(self) -> None:
        pool, self._pool = self._pool, _Pool(self.threads)
        pool.close()


_Job = tuple[asyncio.AbstractEventLoop, "asyncio.Future[CommandAnswer]", Any, FieldBounds, Play]


class _Pool:
    """One generation of the command threads: a queue of jobs and the threads that take them."""

    def __init__(self, threads: int) -> None:
        self.threads = threads
        self.jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self.lock = threading.Lock()
        self.workers: list[threading.Thread] = []
        self.spare = 0  # threads without a job (below zero: jobs waiting for a thread)

    def put(self, job: _Job) -> None:
        with self.lock:
            self.spare -= 1
            worker = None
            if self.spare < 0 and len(self.workers) < self.threads:
                worker = threading.Thread(target=self._play, name=f"command-{len(self.workers)}", daemon=True)
                self.workers.append(worker)
                self.spare += 1
        if worker is not None:
            worker.start()
        self.jobs.put(job)

    def _play(self) -> None:
        while (job := self.jobs.get()) is not None:
            loop, answer, body, bounds, play = job
            try:
                outcome: CommandAnswer | BaseException = send_command(body, bounds, play)
            except BaseException as error:  # the waiting request's to raise
                outcome = error
            with suppress(RuntimeError):  # the event loop is closed: nobody waits for the answer
                loop.call_soon_threadsafe(_settle, answer, outcome)
            with self.lock:
                self.spare += 1

    def close(self) -> None:
        with self.lock:
            workers = list(self.workers)
        for _ in workers:
            self.jobs.put(None)  # after every job already queued
        for worker in workers:
            worker.join()


def _settle(answer: asyncio.Future[CommandAnswer], outcome: CommandAnswer | BaseException) -> None:
    if answer.cancelled():
        return
    if isinstance(outcome, BaseException):
        answer.set_exception(outcome)
    else:
        answer.set_result(outcome)


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
