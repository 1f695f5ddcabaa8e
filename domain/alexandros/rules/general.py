"""Rules file 5.3, actions in general (R42-R44), and the fields commands share (BAD_INPUT)."""

from __future__ import annotations

from typing import Any

from domain.alexandros.data import ACTIONS_PER_TURN, DISPLAY_SLOTS, SYMBOLS, parse_point, parse_space
from domain.alexandros.state import State
from domain.kernel import RuleViolation
from domain.kernel.errors import BAD_INPUT


def symbol_field(value: Any, what: str) -> str:
    if value not in SYMBOLS:
        raise RuleViolation(BAD_INPUT, f"{what} must be one of {', '.join(SYMBOLS)}, not {value!r}")
    return str(value)


def space_field(value: Any, what: str) -> int:
    space = parse_space(value)
    if space is None:
        raise RuleViolation(BAD_INPUT, f"{what} {value!r} is not a space [r,c] of the board")
    return space


def point_field(value: Any, what: str) -> int:
    point = parse_point(value)
    if point is None:
        raise RuleViolation(BAD_INPUT, f"{what} {value!r} is not a point [i,x] of the board")
    return point


def slot_field(value: Any) -> int:
    if type(value) is not int or not 0 <= value < DISPLAY_SLOTS:
        raise RuleViolation(BAD_INPUT, f"slot must be 0 or 1 for a display card, not {value!r}")
    return value


def require_action_left(state: State) -> None:
    if state.actions_taken >= ACTIONS_PER_TURN:
        raise RuleViolation("NO_ACTIONS_LEFT", "both actions of this turn are used")
