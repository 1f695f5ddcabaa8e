"""Rules file 3, setup (R12-R18), and the options (rules section 7: none but the board)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.alexandros.data import BOARD_ID, CARDS_PER_SYMBOL, DISPLAY_SLOTS, SYMBOLS
from domain.alexandros.events import CardTaken, DisplayRefilled, StartPlayerChosen, SupplyShuffled, TurnStarted
from domain.alexandros.state import State
from domain.kernel import Chance, Event, RuleViolation
from domain.kernel.errors import BAD_OPTIONS


def normalize_options(players: int, options: dict[str, Any]) -> dict[str, Any]:
    """The game has no variants (rules section 7); the board id is recorded in GameCreated."""
    unknown = sorted(set(options) - {"board"})
    if unknown:
        raise RuleViolation(BAD_OPTIONS, f"alexandros has no options {', '.join(unknown)} (it has no variants)")
    board = options.get("board", BOARD_ID)
    if board != BOARD_ID:
        raise RuleViolation(BAD_OPTIONS, f"the only board is {BOARD_ID!r}")
    return {"board": board}


def setup_events(state: State, chance: Chance) -> list[Event]:
    """R16-R18: shuffle, deal one card per seat, turn up two display cards, draw the start seat."""
    cards = [sym for sym in SYMBOLS for _ in range(CARDS_PER_SYMBOL)]
    order = chance.shuffle("deck:0", cards)
    events: list[Event] = [SupplyShuffled(reason="setup", count=len(order), order=list(order))]
    n = state.players
    events += [CardTaken(seat=s, source="deal", slot=None, card=order[s]) for s in range(n)]
    events += [DisplayRefilled(slot=k, card=order[n + k]) for k in range(DISPLAY_SLOTS)]
    start = chance.below("start_player", n)
    events += [StartPlayerChosen(seat=start), TurnStarted(seat=start, turn=1)]
    return events


def _start_player(state: State, e: StartPlayerChosen) -> None:
    state.seat = e.seat


EVOLVERS: dict[type[Event], Callable[[State, Any], None]] = {
    StartPlayerChosen: _start_player,
}
