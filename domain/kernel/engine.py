"""Running a game on the pure functions: checks that apply to every game, the
decide-then-apply step, and the automatic steps after it."""

from __future__ import annotations

from typing import Any, TypeVar

from domain.kernel.chance import Chance
from domain.kernel.errors import (
    BAD_PLAYER_COUNT,
    GAME_OVER,
    NOT_YOUR_TURN,
    WRONG_PHASE,
    RuleViolation,
)
from domain.kernel.game import GameDefinition
from domain.kernel.messages import Command, Event
from domain.kernel.seats import Seat

S = TypeVar("S")

# A game whose automatic steps do not come to rest within this many events has a bug.
MAX_AUTOMATIC_EVENTS = 100_000


def check_player_count(game: GameDefinition[Any], players: int) -> None:
    if (
        not isinstance(players, int)
        or isinstance(players, bool)
        or not (game.min_players <= players <= game.max_players)
    ):
        raise RuleViolation(
            BAD_PLAYER_COUNT,
            f"{game.id} is played by {game.min_players} to {game.max_players} players, not {players!r}",
        )


def check_turn(game: GameDefinition[S], state: S, seat: Seat, command: Command) -> None:
    """The checks every game shares: the game is running, the seat is awaited, the command fits."""
    if game.is_over(state):
        raise RuleViolation(GAME_OVER, "the game is over; no more commands are accepted")
    awaited = game.awaited(state)
    allowed = (*awaited.get(seat, ()), *game.optional(state).get(seat, ()))
    if not allowed:
        waiting = ", ".join(str(s) for s in sorted(awaited)) or "nobody"
        raise RuleViolation(NOT_YOUR_TURN, f"seat {seat} is not awaited now (awaiting seat {waiting})")
    if command.type not in allowed:
        raise RuleViolation(
            WRONG_PHASE, f"{command.type} is not allowed now; seat {seat} may send: {', '.join(allowed)}"
        )


def settle(game: GameDefinition[S], state: S, chance: Chance, into: list[Event]) -> S:
    """Apply automatic events until a seat is awaited or the game is over."""
    produced = 0
    while True:
        events = game.advance(state, chance)
        if not events:
            return state
        for event in events:
            state = game.evolve(state, event)
            into.append(event)
        produced += len(events)
        if produced > MAX_AUTOMATIC_EVENTS:
            raise RuntimeError(f"{game.id}: automatic steps do not come to rest")


def start(game: GameDefinition[S], players: int, options: dict[str, Any], chance: Chance) -> tuple[S, list[Event]]:
    """A new game: the initial state brought to its first decision. ``options`` must be normalised."""
    check_player_count(game, players)
    events: list[Event] = []
    state = settle(game, game.initial_state(players, options), chance, events)
    return state, events


def execute(game: GameDefinition[S], state: S, seat: Seat, command: Command, chance: Chance) -> tuple[S, list[Event]]:
    """Decide, then apply: the command's events and the automatic steps that follow.

    Raises ``RuleViolation`` before anything is applied when the command is refused.
    """
    check_turn(game, state, seat, command)
    events = list(game.decide(state, seat, command, chance))
    for event in events:
        state = game.evolve(state, event)
    state = settle(game, state, chance, events)
    return state, events
