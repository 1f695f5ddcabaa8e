"""Playing any game in tests: one signature for the helpers every game's tests share (a game
started, played partway by random bots, a refusal read, events picked by class). Builders of particular positions
stay in each game's ``tests/domain/<game>/helpers.py``."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from itertools import islice
from typing import Any, TypeVar

from domain.kernel import Chance, Command, Event, RuleViolation, engine
from domain.kernel.bots import RandomBot
from domain.kernel.game import GameDefinition

S = TypeVar("S")
E = TypeVar("E", bound=Event)


def new_game(
    game: GameDefinition[S], players: int, options: dict[str, Any] | None = None, seed: bytes = b"seed"
) -> tuple[S, Chance]:
    """The state once the game's automatic setup has run, and the chance it draws from."""
    chance = Chance(seed)
    state, _ = engine.start(game, players, game.normalize_options(players, dict(options or {})), chance)
    return state, chance


def bot_game(
    game: GameDefinition[S], players: int, seed: bytes, options: dict[str, Any] | None = None
) -> Iterator[tuple[S, Chance]]:
    """The states of a random-bot game, each before the next command, and finally the ended game
    (one state object, changed in place)."""
    state, chance = new_game(game, players, options, seed)
    bot = RandomBot(seed + b"-bot")
    while not game.is_over(state):
        yield state, chance
        seat, command = bot.next_move(game, state)
        state, _ = engine.execute(game, state, seat, command, chance)
    yield state, chance


def partly_played(
    game: GameDefinition[S], players: int, commands: int, seed: bytes = b"s", options: dict[str, Any] | None = None
) -> tuple[S, Chance]:
    """A game after ``commands`` random-bot commands (or its end, if sooner)."""
    *_, last = islice(bot_game(game, players, seed, options), commands + 1)
    return last


def types(events: list[Event]) -> list[str]:
    return [e.type for e in events]


def of_type(events: list[Event], kind: type[E]) -> list[E]:
    return [e for e in events if isinstance(e, kind)]


def refusal(game: GameDefinition[S], state: S, seat: int, command: Command, chance: Chance | None = None) -> str:
    """The code ``command`` is refused with; a refused command leaves the state as it was."""
    before = copy.deepcopy(state)
    try:
        engine.execute(game, state, seat, command, chance or Chance(b"refusal"))
    except RuleViolation as refused:
        assert state == before, "a refused command changed the state"
        return refused.code
    raise AssertionError(f"{command} was accepted")
