"""The rules of Peloponnes: decide (commands), advance (automatic steps) and evolve (apply events),
one module per section of the rules file ``docs/peloponnes/rules.md`` (rule numbers R... refer to
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

from domain.kernel.sections import Rules, assemble_rules
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
from domain.peloponnes.rules.bidding import free_tile_price, max_bid, move_targets, outbid_minimum
from domain.peloponnes.rules.disasters import protector
from domain.peloponnes.rules.general import luxury_for_goods
from domain.peloponnes.rules.income import choice_tiles, round_income
from domain.peloponnes.rules.sequence import advance, awaited, is_over
from domain.peloponnes.rules.setup import normalize_options, undealt_civilizations
from domain.peloponnes.rules.supply import completion_cost, feed_limit, has_supply_decision, unfinished
from domain.peloponnes.rules.turn_order import new_turn_order
from domain.peloponnes.state import State

RULES: Rules[State] = assemble_rules(
    "peloponnes",
    [setup, reveal, bidding, turn_order, placement, income, disasters, supply, sequence, end],
    decisions_draw_chance=False,
)
decide = RULES.decide
evolve = RULES.evolve


__all__ = [
    "advance",
    "awaited",
    "choice_tiles",
    "completion_cost",
    "decide",
    "evolve",
    "feed_limit",
    "free_tile_price",
    "has_supply_decision",
    "is_over",
    "luxury_for_goods",
    "max_bid",
    "move_targets",
    "new_turn_order",
    "normalize_options",
    "outbid_minimum",
    "protector",
    "round_income",
    "undealt_civilizations",
    "unfinished",
]
