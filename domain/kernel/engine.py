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
from domain.kernel.game import GameDefinition, LegalMoves
from domain.kernel.messages import Command, Event, command_class, parse_command
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


def check_turn(game: GameDefinition[S], state: S, seat: Seat, command_type: str) -> None:
    """The refusals every game shares, in the rules files' order (docs/departures.md: one refusal order):
    the game is over, the state takes no such command from anybody (``WRONG_PHASE``), it takes
    it but not from this seat (``NOT_YOUR_TURN``, the rules files' ``NOT_AWAITED``)."""
    if game.is_over(state):
        raise RuleViolation(GAME_OVER, "the game is over; no more commands are accepted")
    awaited = game.awaited(state)
    if command_type in awaited.get(seat, ()):
        return  # the usual case, settled before the optional commands are looked up
    optional = game.optional(state)
    allowed = (*awaited.get(seat, ()), *optional.get(seat, ()))
    if command_type in allowed:
        return
    taken_now = {kind for kinds in (*awaited.values(), *optional.values()) for kind in kinds}
    if command_type not in taken_now:
        may_send = f"; seat {seat} may send: {', '.join(allowed)}" if allowed else ""
        raise RuleViolation(WRONG_PHASE, f"{command_type} is not taken now{may_send}")
    waiting = ", ".join(str(s) for s in sorted(awaited)) or "nobody"
    raise RuleViolation(NOT_YOUR_TURN, f"seat {seat} may not send {command_type} now (awaiting seat {waiting})")


def admit(game: GameDefinition[S], state: S, seat: Seat, payload: Any) -> Command:
    """A command from client JSON, refused in the one order every game shares: ``GAME_OVER``,
    ``UNKNOWN_COMMAND``, ``WRONG_PHASE``, ``NOT_YOUR_TURN``, then ``BAD_INPUT`` (malformed fields);
    the game's own checks follow in ``decide``."""
    if game.is_over(state):
        raise RuleViolation(GAME_OVER, "the game is over; no more commands are accepted")
    command_type = command_class(game.command_types, payload).type
    check_turn(game, state, seat, command_type)
    return parse_command(game.command_types, payload)


def settle(game: GameDefinition[S], state: S, chance: Chance, into: list[Event]) -> S:
    """Apply automatic events until a seat is awaited or the game is over."""
    produced = 0
    advance, evolve = game.advance, game.evolve
    while True:
        events = advance(state, chance)
        if not events:
            return state
        for event in events:
            state = evolve(state, event)
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
    check_turn(game, state, seat, command.type)
    return decide_and_apply(game, state, seat, command, chance)


def decide_and_apply(
    game: GameDefinition[S], state: S, seat: Seat, command: Command, chance: Chance
) -> tuple[S, list[Event]]:
    """``execute`` for a command whose turn its caller has checked (``check_turn``) on this state."""
    events = list(game.decide(state, seat, command, chance))
    evolve = game.evolve
    for event in events:
        state = evolve(state, event)
    state = settle(game, state, chance, events)
    return state, events


def legal_moves(game: GameDefinition[S], state: S, seat: Seat, rng: Chance) -> LegalMoves:
    """The seat's legal commands, saying whether they are complete; none when it may not act."""
    if game.is_over(state) or (seat not in game.awaited(state) and seat not in game.optional(state)):
        return LegalMoves()
    moves = game.legal_moves(state, seat, rng)
    return moves if isinstance(moves, LegalMoves) else LegalMoves(moves)
