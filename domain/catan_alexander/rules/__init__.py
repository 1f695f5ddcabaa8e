"""decide / evolve / advance for Catan "Alexander the Great" and the base game option, one module per
section of the rules file ``docs/catan_alexander/rules.md`` (rule numbers R<n> refer to it); each
module holds the decisions (``DECIDERS``) and the event handlers (``EVOLVERS``) of its part side by
side, assembled here. ``decide`` emits the direct consequences of a command; ``advance`` emits
automatic steps (setup, turn start, auction close, rewards, special cards, Advisors, game end) from
the state those events leave behind.

- ``setup``: 3 setup, and the base game's founding phase (7.1)
- ``sequence``: 4 sequence of play: who is awaited, turn start, the automatic steps, ending the turn
- ``general``: 5.1 general: goods, hands, the fields commands share
- ``supply``: 5.2 the supply stack
- ``roll``: 5.3 roll, production, seven, robber
- ``alexander``: 5.4 Alexander's move
- ``auctions``: 5.5 tasks and auctions
- ``payment``: 5.6 payment and default
- ``rewards``: 5.7 rewards and Advisors
- ``trade``: 5.8 trade
- ``building``: 5.9 building
- ``development``: 5.10 development cards
- ``specials``: 5.11 Longest Road and Largest Army
- ``end``: 6 end of game and scoring
"""

from __future__ import annotations

from domain.catan_alexander.rules import (
    alexander,
    auctions,
    building,
    development,
    end,
    payment,
    rewards,
    roll,
    sequence,
    setup,
    specials,
    supply,
    trade,
)
from domain.catan_alexander.rules.building import founding_spots, legal_road_edges, settlement_refusal
from domain.catan_alexander.rules.end import public_vp, total_vp, vp_cards
from domain.catan_alexander.rules.general import bundle_of, hex_ref, holds
from domain.catan_alexander.rules.payment import bid_capacity
from domain.catan_alexander.rules.roll import robber_victims
from domain.catan_alexander.rules.sequence import TRADE_OTHERS, advance, awaited, is_over, unanswered_addressees
from domain.catan_alexander.rules.setup import normalize_options
from domain.catan_alexander.rules.specials import (
    claim_special_cards,
    recompute_road_lengths,
    road_length,
    special_card_holder,
)
from domain.catan_alexander.rules.trade import use_harbour
from domain.catan_alexander.state import State
from domain.kernel.sections import Rules, assemble_rules

RULES: Rules[State] = assemble_rules(
    "catan_alexander",
    [setup, sequence, supply, roll, alexander, auctions, payment, rewards, trade, building, development, specials, end],
)
decide = RULES.decide
evolve = RULES.evolve


__all__ = [
    "TRADE_OTHERS",
    "advance",
    "awaited",
    "bid_capacity",
    "bundle_of",
    "claim_special_cards",
    "decide",
    "evolve",
    "founding_spots",
    "hex_ref",
    "holds",
    "is_over",
    "legal_road_edges",
    "normalize_options",
    "public_vp",
    "recompute_road_lengths",
    "road_length",
    "robber_victims",
    "settlement_refusal",
    "special_card_holder",
    "total_vp",
    "unanswered_addressees",
    "use_harbour",
    "vp_cards",
]
