"""decide / evolve / advance for the Empire Builder, one module per section of the rules file
``shared/games/empire_builder.md`` (rule numbers Rn refer to it); each module holds the decisions
(``DECIDERS``) and the event handlers (``EVOLVERS``) of its part side by side, assembled here.

- ``setup``: 3 setup and the options (§7)
- ``sequence``: 4 sequence of play: who is awaited, the automatic steps
- ``general``: 5.1 general, and the fields every command shares (§10.2 INVALID_FIELD)
- ``allocation``: 5.3 campaign start: allocation and turn order (R13-R23)
- ``reallocation``: 5.4 rounds 2 and 3: reallocation (R24)
- ``turns``: 5.5 turns
- ``movement``: 5.6 movement (R26-R37)
- ``building``: 5.7 building attempts (R38-R44)
- ``evaluation``: 5.8 evaluation (R45-R54)
- ``rounds``: 5.9 end of round and end of campaign (R55-R56)
- ``end``: 6 end of game and scoring (R57-R62)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.empire_builder.rules import allocation, building, end, evaluation, movement, reallocation, rounds, turns
from domain.empire_builder.rules.building import build_options
from domain.empire_builder.rules.movement import Group, group_costs
from domain.empire_builder.rules.sequence import advance, awaited, is_over
from domain.empire_builder.rules.setup import initial_state, normalize_options
from domain.empire_builder.state import State
from domain.kernel import Chance, Command, Event, RuleViolation
from domain.kernel.errors import BAD_INPUT

DECIDERS: dict[type[Command], Callable[[State, int, Any], list[Event]]] = {
    **allocation.DECIDERS,
    **reallocation.DECIDERS,
    **movement.DECIDERS,
    **building.DECIDERS,
}

EVOLVERS: dict[type[Event], Callable[[State, Any], None]] = {
    **allocation.EVOLVERS,
    **reallocation.EVOLVERS,
    **turns.EVOLVERS,
    **movement.EVOLVERS,
    **building.EVOLVERS,
    **evaluation.EVOLVERS,
    **rounds.EVOLVERS,
    **end.EVOLVERS,
}


def decide(state: State, seat: int, command: Command, chance: Chance) -> list[Event]:
    decider = DECIDERS.get(type(command))
    if decider is None:
        raise RuleViolation(BAD_INPUT, f"{command.type} is not a command of this game")
    return decider(state, seat, command)


def evolve(state: State, event: Event) -> State:
    EVOLVERS[type(event)](state, event)
    return state


__all__ = [
    "Group",
    "advance",
    "awaited",
    "build_options",
    "decide",
    "evolve",
    "group_costs",
    "initial_state",
    "is_over",
    "normalize_options",
]
