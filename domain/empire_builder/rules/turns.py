"""Rules file 5.5, turns: each seat moves, then builds."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.empire_builder.events import TurnStarted
from domain.empire_builder.rules.building import build_options
from domain.empire_builder.rules.movement import movement_possible
from domain.empire_builder.state import BUILD, DONE, MOVE, State
from domain.kernel import Event


def turn_step(state: State) -> str:
    """The active seat's step after Ruling R27's skips: MOVE, BUILD, or DONE."""
    seat = state.active_seat
    if seat is None or state.step == DONE:
        return DONE
    if state.step == MOVE and movement_possible(state, seat):
        return MOVE
    return BUILD if build_options(state, seat) else DONE


def _turn_started(state: State, e: TurnStarted) -> None:
    state.position = e.position - 1
    state.step = MOVE


EVOLVERS: dict[type[Event], Callable[[State, Any], None]] = {
    TurnStarted: _turn_started,
}
