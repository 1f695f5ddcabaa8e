"""Rules file 5.3, campaign start: the sealed allocation and the turn order (R13-R23)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from itertools import groupby
from typing import Any

from domain.empire_builder.commands import AllocateResources, ChooseTurnPosition
from domain.empire_builder.data import CUBES, REGIONS
from domain.empire_builder.events import (
    AllocationCommitted,
    AllocationsRevealed,
    CampaignStarted,
    LotDrawn,
    TurnOrderSet,
    TurnPositionChosen,
)
from domain.empire_builder.rules.general import check_counts
from domain.empire_builder.rules.setup import campaigns, is_first_campaign
from domain.empire_builder.state import ALLOCATION, DONE, ROUND_START, TURN_ORDER, State
from domain.kernel import Command, Event, RuleViolation
from domain.kernel.errors import BAD_INPUT

# Lot purposes (§9)
TURN_ORDER_CHOOSER = "turn_order_chooser"


TURN_ORDER_VP_TIE = "turn_order_vp_tie"


FIRST_CAMPAIGN_TIE = "first_campaign_tie"


# Error codes (§10.2)
SUM_NOT_15 = "SUM_NOT_15"


POSITION_OUT_OF_RANGE = "POSITION_OUT_OF_RANGE"


POSITION_TAKEN = "POSITION_TAKEN"


@dataclass(frozen=True, slots=True)
class TurnOrderPlan:
    """Where the turn-order procedure stands: a lot to draw, a seat to choose, or the finished order."""

    lot_needed: tuple[str, list[int]] | None = None
    chooser: int | None = None
    order: list[int] | None = None


def rank_with_lots(
    seats: Iterable[int], key: Callable[[int], Any], lots: Iterator[list[int]], purpose: str
) -> tuple[list[int], tuple[str, list[int]] | None]:
    """Seats by ``key``, highest first; each group with equal keys takes the order of the next recorded lot.

    Returns the ranking, or the lot that must be drawn first (§9: one lot per group, in rank order).
    """
    ranked: list[int] = []
    for _, equal in groupby(sorted(seats, key=key, reverse=True), key=key):
        group = sorted(equal)
        if len(group) > 1:
            order = next(lots, None)
            if order is None:
                return ranked, (purpose, group)
            group = order
        ranked.extend(group)
    return ranked, None


def plan_turn_order(state: State) -> TurnOrderPlan:
    """R17-R21 from the revealed allocations, VP, the lots drawn so far and the positions chosen so far."""
    n = state.players
    seats = state.seats
    lots = iter(state.lots)
    if is_first_campaign(state):
        if not any(p.turn_order for p in seats):
            # R19(b), Ruling R21: the oldest first, then clockwise
            return TurnOrderPlan(order=[(state.oldest_seat + i) % n for i in range(n)])
        # R19(a): everybody ranks; all but the last choose, the last takes the last free position
        ranked, lot = rank_with_lots(
            range(n), lambda s: (seats[s].turn_order, seats[s].armies, seats[s].temples), lots, FIRST_CAMPAIGN_TIE
        )
        if lot is not None:
            return TurnOrderPlan(lot_needed=lot)
        choosers = ranked[:-1]
    else:
        top = max(p.turn_order for p in seats)
        choosers = []
        if top > 0:  # Ruling R18: nobody bid, nobody chooses
            tied = [s for s in range(n) if seats[s].turn_order == top]
            if len(tied) > 1:  # R17(a)
                order = next(lots, None)
                if order is None:
                    return TurnOrderPlan(lot_needed=(TURN_ORDER_CHOOSER, tied))
                tied = order
            choosers = [tied[0]]
    for seat in choosers:
        if seat not in state.chosen:
            return TurnOrderPlan(chooser=seat)
    # R17(b): the others by VP, most first; the first campaign leaves only its last-ranked seat here
    rest = [s for s in range(n) if s not in state.chosen]
    ranked_rest, lot = rank_with_lots(rest, lambda s: seats[s].vp, lots, TURN_ORDER_VP_TIE)
    if lot is not None:
        return TurnOrderPlan(lot_needed=lot)
    positions: list[int | None] = [None] * n
    for seat, position in state.chosen.items():
        positions[position - 1] = seat
    free = iter([i for i in range(n) if positions[i] is None])
    for seat in ranked_rest:
        positions[next(free)] = seat
    return TurnOrderPlan(order=[s for s in positions if s is not None])


def replan(state: State) -> None:
    plan = plan_turn_order(state)
    state.lot_needed = plan.lot_needed
    state.chooser = plan.chooser
    state.final_order = plan.order


def decide_allocation(state: State, seat: int, command: AllocateResources) -> list[Event]:
    """Ruling R14. The message names only the sender's own numbers (§8)."""
    counts = (command.turn_order, command.armies, command.temples, command.cities)
    check_counts(turn_order=counts[0], armies=counts[1], temples=counts[2], cities=counts[3])
    if sum(counts) != CUBES:
        raise RuleViolation(SUM_NOT_15, f"your four boxes must hold all {CUBES} cubes; they add up to {sum(counts)}")
    return [AllocationCommitted(seat, *counts)]


def decide_position(state: State, seat: int, command: ChooseTurnPosition) -> list[Event]:
    position = command.position
    if not isinstance(position, int) or isinstance(position, bool):
        raise RuleViolation(BAD_INPUT, "position must be a whole number")
    if not 1 <= position <= state.players:
        raise RuleViolation(POSITION_OUT_OF_RANGE, f"a position is from 1 to {state.players}")
    if position in state.chosen.values():
        raise RuleViolation(POSITION_TAKEN, f"position {position} is already taken")
    return [TurnPositionChosen(seat, position)]


def campaign_start(state: State, campaign: int) -> CampaignStarted:
    return CampaignStarted(campaign, campaign, REGIONS[campaign].symbol, campaign == campaigns(state)[0])


def _campaign_started(state: State, e: CampaignStarted) -> None:
    """R13: cubes back, armies off the map, buildings stay."""
    state.campaign = e.campaign
    state.round = 0
    state.phase = ALLOCATION
    state.sealed = {}
    state.order = []
    state.position = -1
    state.step = DONE
    state.goal_reached = False  # the goal of the campaign before is no concern of this one
    for p in state.seats:
        p.turn_order = p.armies = p.temples = p.cities = p.spent = 0
        p.at = {}


def _allocation_committed(state: State, e: AllocationCommitted) -> None:
    state.sealed[e.seat] = (e.turn_order, e.armies, e.temples, e.cities)


def _allocations_revealed(state: State, e: AllocationsRevealed) -> None:
    """R15; Ruling R23: the armies stand on the campaign symbol from now on."""
    symbol = REGIONS[state.campaign].symbol
    for a in e.allocations:
        p = state.seats[a["seat"]]
        p.turn_order, p.armies, p.temples, p.cities = a["turn_order"], a["armies"], a["temples"], a["cities"]
        p.at = {symbol: p.armies} if p.armies else {}
    state.sealed = {}
    state.phase = TURN_ORDER
    state.lots = []
    state.chosen = {}
    replan(state)


def _lot_drawn(state: State, e: LotDrawn) -> None:
    if state.phase == TURN_ORDER:
        state.lots.append(list(e.order))
        replan(state)


def _turn_position_chosen(state: State, e: TurnPositionChosen) -> None:
    state.chosen[e.seat] = e.position
    replan(state)


def _turn_order_set(state: State, e: TurnOrderSet) -> None:
    """Ruling R22: the turn-order cubes are spent."""
    state.order = list(e.order)
    for seat, cubes in e.spent.items():
        p = state.seats[int(seat)]
        p.turn_order -= cubes
        p.spent += cubes
    state.lots = []
    state.chosen = {}
    state.lot_needed = state.chooser = state.final_order = None
    state.phase = ROUND_START
    state.round = 0


DECIDERS: dict[type[Command], Callable[[State, int, Any], list[Event]]] = {
    AllocateResources: decide_allocation,
    ChooseTurnPosition: decide_position,
}


EVOLVERS: dict[type[Event], Callable[[State, Any], None]] = {
    CampaignStarted: _campaign_started,
    AllocationCommitted: _allocation_committed,
    AllocationsRevealed: _allocations_revealed,
    LotDrawn: _lot_drawn,
    TurnPositionChosen: _turn_position_chosen,
    TurnOrderSet: _turn_order_set,
}
