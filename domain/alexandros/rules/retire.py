"""Rules file 5.8, retire a governor (R61-R62)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.alexandros.commands import RetireGovernor
from domain.alexandros.data import parse_space, space_coord
from domain.alexandros.events import GovernorRetired
from domain.alexandros.rules.general import require_action_left, space_field
from domain.alexandros.state import NOBODY, State
from domain.kernel import Chance, Command, Event, RuleViolation, Seat


def decide_retire(state: State, seat: Seat, command: RetireGovernor, chance: Chance) -> list[Event]:
    require_action_left(state)
    space = space_field(command.space, "space")
    if state.governors[space] != seat:
        raise RuleViolation("NOT_YOUR_GOVERNOR", f"no governor of yours stands on {space_coord(space)}")
    return [GovernorRetired(seat=seat, space=space_coord(space))]


def _retired(state: State, e: GovernorRetired) -> None:
    state.governors[parse_space(e.space)] = NOBODY  # type: ignore[index]
    state.governor_supply[e.seat] += 1
    state.actions_taken += 1


DECIDERS: dict[type[Command], Callable[..., list[Event]]] = {
    RetireGovernor: decide_retire,
}


EVOLVERS: dict[type[Event], Callable[[State, Any], None]] = {
    GovernorRetired: _retired,
}
