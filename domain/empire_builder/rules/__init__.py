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
from domain.empire_builder.rules.allocation import (
    FIRST_CAMPAIGN_TIE,
    POSITION_OUT_OF_RANGE,
    POSITION_TAKEN,
    SUM_NOT_15,
    TURN_ORDER_CHOOSER,
    TURN_ORDER_VP_TIE,
    TurnOrderPlan,
    campaign_start,
    decide_allocation,
    decide_position,
    plan_turn_order,
    rank_with_lots,
    replan,
)
from domain.empire_builder.rules.building import (
    CITY_EXISTS,
    DUPLICATE_ATTEMPT,
    NO_ARMY,
    NO_PIECE,
    NO_SITE,
    UNKNOWN_PROVINCE,
    build_options,
    decide_builds,
)
from domain.empire_builder.rules.end import game_end
from domain.empire_builder.rules.evaluation import evaluate_round, resolve_building
from domain.empire_builder.rules.general import check_counts
from domain.empire_builder.rules.movement import (
    CANNOT_PAY,
    EMPTY_GROUP,
    NO_ARROW,
    NOT_ENOUGH_ARMIES,
    NOT_IN_CURRENT_REGION,
    PATH_TOO_LONG,
    PAYMENT_MISMATCH,
    UNKNOWN_LOCATION,
    Group,
    check_groups,
    decide_move,
    group_costs,
    movement_possible,
)
from domain.empire_builder.rules.reallocation import SUM_MISMATCH, decide_reallocation, reallocation_due
from domain.empire_builder.rules.rounds import end_of_round
from domain.empire_builder.rules.sequence import advance, awaited, is_over
from domain.empire_builder.rules.setup import (
    OPTION_DEFAULTS,
    campaigns,
    initial_state,
    is_first_campaign,
    normalize_options,
)
from domain.empire_builder.rules.turns import turn_step
from domain.empire_builder.state import State
from domain.kernel import Chance, Command, Event, RuleViolation
from domain.kernel.errors import BAD_INPUT

_DECIDERS: dict[type[Command], Callable[[State, int, Any], list[Event]]] = {
    **allocation.DECIDERS,
    **reallocation.DECIDERS,
    **movement.DECIDERS,
    **building.DECIDERS,
}

_EVOLVERS: dict[type[Event], Callable[[State, Any], None]] = {
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
    decider = _DECIDERS.get(type(command))
    if decider is None:
        raise RuleViolation(BAD_INPUT, f"{command.type} is not a command of this game")
    return decider(state, seat, command)


def evolve(state: State, event: Event) -> State:
    _EVOLVERS[type(event)](state, event)
    return state


__all__ = [
    "CANNOT_PAY",
    "CITY_EXISTS",
    "DUPLICATE_ATTEMPT",
    "EMPTY_GROUP",
    "FIRST_CAMPAIGN_TIE",
    "NOT_ENOUGH_ARMIES",
    "NOT_IN_CURRENT_REGION",
    "NO_ARMY",
    "NO_ARROW",
    "NO_PIECE",
    "NO_SITE",
    "OPTION_DEFAULTS",
    "PATH_TOO_LONG",
    "PAYMENT_MISMATCH",
    "POSITION_OUT_OF_RANGE",
    "POSITION_TAKEN",
    "SUM_MISMATCH",
    "SUM_NOT_15",
    "TURN_ORDER_CHOOSER",
    "TURN_ORDER_VP_TIE",
    "UNKNOWN_LOCATION",
    "UNKNOWN_PROVINCE",
    "Group",
    "TurnOrderPlan",
    "advance",
    "awaited",
    "build_options",
    "campaign_start",
    "campaigns",
    "check_counts",
    "check_groups",
    "decide",
    "decide_allocation",
    "decide_builds",
    "decide_move",
    "decide_position",
    "decide_reallocation",
    "end_of_round",
    "evaluate_round",
    "evolve",
    "game_end",
    "group_costs",
    "initial_state",
    "is_first_campaign",
    "is_over",
    "movement_possible",
    "normalize_options",
    "plan_turn_order",
    "rank_with_lots",
    "reallocation_due",
    "replan",
    "resolve_building",
    "turn_step",
]
