"""Rules file 4, sequence of play: who is awaited, the automatic steps, the rounds."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.kernel import Chance, Event
from domain.peloponnes.events import RoundStarted
from domain.peloponnes.rules.bidding import bidding_step
from domain.peloponnes.rules.disasters import disaster_step, has_disaster_decision, next_round_or_final_supply
from domain.peloponnes.rules.end import final_scoring
from domain.peloponnes.rules.income import has_income_decision, income_step
from domain.peloponnes.rules.placement import has_placement_decision, placement_step
from domain.peloponnes.rules.reveal import reveal_next_tile
from domain.peloponnes.rules.setup import deal_civilizations, setup_events
from domain.peloponnes.rules.supply import has_supply_decision, supply_step
from domain.peloponnes.state import (
    BIDDING,
    DEALING,
    DISASTER,
    ENDED,
    INCOME,
    NO_BID,
    PLACEMENT,
    REVEAL,
    ROUND_END,
    SCORING,
    SETUP,
    SOLO_SETUP,
    SUPPLY,
    State,
)


def awaited(state: State) -> dict[int, tuple[str, ...]]:
    phase = state.phase
    if phase == BIDDING:
        if state.displaced is not None:
            return {state.displaced: ("move_bid", "withdraw_bid")}
        if state.turn_index < len(state.turn_order):
            return {state.turn_order[state.turn_index]: ("place_bid", "pass_turn")}
        return {}
    if phase == PLACEMENT:
        return {s: ("place_building",) for s in state.pending if has_placement_decision(state, s)}
    if phase == INCOME:
        return {s: ("choose_income",) for s in state.pending if has_income_decision(state, s)}
    if phase == DISASTER:
        if state.strike is None:
            return {}
        return {s: ("resolve_disaster",) for s in state.pending if has_disaster_decision(state, s)}
    if phase == SUPPLY:
        return {s: ("resolve_supply",) for s in state.pending if has_supply_decision(state, s)}
    if phase == SOLO_SETUP:
        return {0: ("choose_solo_setup",)}
    return {}


def is_over(state: State) -> bool:
    return state.phase == ENDED


def advance(state: State, chance: Chance) -> list[Event]:
    step = _AUTOMATIC_STEPS.get(state.phase)
    return step(state, chance) if step is not None else []


_AUTOMATIC_STEPS: dict[str, Callable[[State, Chance], list[Event]]] = {
    SETUP: setup_events,
    DEALING: deal_civilizations,
    ROUND_END: next_round_or_final_supply,
    REVEAL: reveal_next_tile,
    SUPPLY: supply_step,
    BIDDING: bidding_step,
    PLACEMENT: placement_step,
    INCOME: income_step,
    DISASTER: disaster_step,
    SCORING: final_scoring,
}


def _round_started(state: State, e: RoundStarted) -> None:
    state.round = e.round
    state.phase = REVEAL
    state.display = []
    state.auction_slots = e.auction_slots
    state.draws = 0
    for s in state.seats:
        s.bid_status = NO_BID
        s.bid_tile = None
        s.bid_amount = 0
        s.won = None


EVOLVERS: dict[type[Event], Callable[[State, Any], None]] = {
    RoundStarted: _round_started,
}
