"""The rules of Peloponnes: decide (commands), advance (automatic steps) and evolve (apply events),
one module per section of the rules file ``shared/games/peloponnes.md`` (rule numbers R... refer to
it); each module holds the decisions (``DECIDERS``) and the event handlers (``EVOLVERS``) of its part
side by side, assembled here. Every counter change is computed in ``decide``/``advance``; ``evolve``
copies the result (``after``) and moves tiles, so no rule runs on replay.

- ``setup``: 3 setup, with the solo game's choice (7.2)
- ``sequence``: 4 sequence of play: who is awaited, the automatic steps, the rounds
- ``general``: 5.1 general: goods, caps, luxury, paying
- ``reveal``: 5.2 step a, reveal tiles
- ``bidding``: 5.3 step b, bidding
- ``turn_order``: 5.4 step c, new turn order
- ``placement``: 5.5 step d, take and place tiles
- ``population``: 5.6 step e, population and one-time income
- ``income``: 5.7 step f, round income
- ``disasters``: 5.8 step g, disasters
- ``supply``: 5.9 supply round
- ``end``: 5.12 game end and 6 scoring
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.kernel import Chance, Command, Event, RuleViolation
from domain.kernel.errors import BAD_INPUT
from domain.peloponnes.rules import (
    bidding,
    disasters,
    end,
    income,
    placement,
    reveal,
    sequence,
    setup,
    supply,
    turn_order,
)
from domain.peloponnes.rules.bidding import (
    bidding_step,
    decide_move_bid,
    decide_pass,
    decide_place_bid,
    decide_withdraw,
    enter_bidding,
    free_tile_price,
    has_half_coin_bonus,
    max_bid,
    move_targets,
    outbid_minimum,
    withdrawal,
)
from domain.peloponnes.rules.disasters import (
    DISASTER_EFFECTS,
    NOTHING_LOST,
    decide_resolve_disaster,
    decline,
    disaster_outcome,
    disaster_step,
    drought,
    earthquake,
    enter_disaster,
    has_disaster_decision,
    next_round_or_final_supply,
    plague,
    protector,
    tempest,
)
from domain.peloponnes.rules.end import final_scoring
from domain.peloponnes.rules.general import add_goods, luxury_for_coins, luxury_for_goods, pay_coins, pay_goods
from domain.peloponnes.rules.income import (
    choice_tiles,
    decide_choose_income,
    enter_income,
    has_income_decision,
    income_step,
    round_income,
)
from domain.peloponnes.rules.placement import (
    building_placement,
    can_build,
    can_mark,
    decide_place_building,
    enter_placement,
    has_placement_decision,
    land_fits,
    land_placement,
    place_tile,
    placement_done,
    placement_step,
)
from domain.peloponnes.rules.population import one_time_income
from domain.peloponnes.rules.reveal import reveal_next_tile
from domain.peloponnes.rules.sequence import advance, awaited, is_over
from domain.peloponnes.rules.setup import (
    auction_slots,
    deal_civilizations,
    decide_solo_setup,
    normalize_options,
    setup_events,
    shuffled_civilizations,
    start_counters,
    undealt_civilizations,
)
from domain.peloponnes.rules.supply import (
    completion_cost,
    decide_resolve_supply,
    feed_limit,
    has_supply_decision,
    supply_resolution,
    supply_step,
    unfinished,
)
from domain.peloponnes.rules.turn_order import new_turn_order
from domain.peloponnes.state import State

_HANDLERS: dict[type, Callable[[State, int, Any], list[Event]]] = {
    **setup.DECIDERS,
    **bidding.DECIDERS,
    **placement.DECIDERS,
    **income.DECIDERS,
    **disasters.DECIDERS,
    **supply.DECIDERS,
}

_APPLY: dict[type, Callable[[State, Any], None]] = {
    **setup.EVOLVERS,
    **reveal.EVOLVERS,
    **bidding.EVOLVERS,
    **turn_order.EVOLVERS,
    **placement.EVOLVERS,
    **income.EVOLVERS,
    **disasters.EVOLVERS,
    **supply.EVOLVERS,
    **end.EVOLVERS,
    **sequence.EVOLVERS,
}


def decide(state: State, seat: int, command: Command, chance: Chance) -> list[Event]:
    handler = _HANDLERS.get(type(command))
    if handler is None:
        raise RuleViolation(BAD_INPUT, f"peloponnes has no command {command.type!r}")
    return handler(state, seat, command)


def evolve(state: State, event: Event) -> State:
    _APPLY[type(event)](state, event)
    return state


__all__ = [
    "DISASTER_EFFECTS",
    "NOTHING_LOST",
    "add_goods",
    "advance",
    "auction_slots",
    "awaited",
    "bidding_step",
    "building_placement",
    "can_build",
    "can_mark",
    "choice_tiles",
    "completion_cost",
    "deal_civilizations",
    "decide",
    "decide_choose_income",
    "decide_move_bid",
    "decide_pass",
    "decide_place_bid",
    "decide_place_building",
    "decide_resolve_disaster",
    "decide_resolve_supply",
    "decide_solo_setup",
    "decide_withdraw",
    "decline",
    "disaster_outcome",
    "disaster_step",
    "drought",
    "earthquake",
    "enter_bidding",
    "enter_disaster",
    "enter_income",
    "enter_placement",
    "evolve",
    "feed_limit",
    "final_scoring",
    "free_tile_price",
    "has_disaster_decision",
    "has_half_coin_bonus",
    "has_income_decision",
    "has_placement_decision",
    "has_supply_decision",
    "income_step",
    "is_over",
    "land_fits",
    "land_placement",
    "luxury_for_coins",
    "luxury_for_goods",
    "max_bid",
    "move_targets",
    "new_turn_order",
    "next_round_or_final_supply",
    "normalize_options",
    "one_time_income",
    "outbid_minimum",
    "pay_coins",
    "pay_goods",
    "place_tile",
    "placement_done",
    "placement_step",
    "plague",
    "protector",
    "reveal_next_tile",
    "round_income",
    "setup_events",
    "shuffled_civilizations",
    "start_counters",
    "supply_resolution",
    "supply_step",
    "tempest",
    "undealt_civilizations",
    "unfinished",
    "withdrawal",
]
