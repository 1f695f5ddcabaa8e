"""Rules file 5.9, the supply round (R45-R50)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from domain.kernel import Chance, Command, Event, RuleViolation
from domain.peloponnes.commands import ResolveSupply
from domain.peloponnes.data import DISPLAY_SIZE, TILES
from domain.peloponnes.events import SupplyEnded, SupplyResolved, SupplyStarted
from domain.peloponnes.rules.bidding import enter_bidding
from domain.peloponnes.rules.general import luxury_for_goods, pay_goods
from domain.peloponnes.state import REVEAL, SCORING, SUPPLY, SeatState, State


def feed_limit(seat: SeatState) -> int:
    """R46a: inhabitants that may be fed with luxury."""
    return min(max(0, seat.population - seat.food), seat.luxury // 2)


def unfinished(seat: SeatState) -> list[str]:
    return [b.tile_id for b in seat.buildings if b.unfinished]


def completion_cost(tile_ids: Iterable[str]) -> tuple[int, int]:
    wood = stone = 0
    for tile_id in tile_ids:
        wood += TILES[tile_id].cost_wood
        stone += TILES[tile_id].cost_stone
    return wood, stone


def has_supply_decision(state: State, seat: int) -> bool:
    s = state.seats[seat]
    if s.food < s.population and s.luxury >= 2:
        return True
    return any(
        luxury_for_goods(s.wood, s.stone, TILES[t].cost_wood, TILES[t].cost_stone) <= s.luxury for t in unfinished(s)
    )


def supply_step(state: State, chance: Chance) -> list[Event]:
    """R45-R50: automatic seats first in turn order; the supply round ends when nobody is left."""
    for seat in state.pending:
        if not has_supply_decision(state, seat):
            # no decision: nothing to feed with luxury and no completion affordable (R50)
            return [supply_resolution(state, seat, 0, [], automatic=True)]
    if not state.pending:
        assert state.supply_trigger is not None
        return [SupplyEnded(state.supply_trigger)]
    return []


def supply_resolution(state: State, seat: int, fed_with_luxury: int, complete: list[str], automatic: bool) -> Event:
    """R46-R48: feed (food first, then the chosen luxury), then complete or abandon unfinished buildings."""
    s = state.seats[seat]
    after = s.counters()
    population_before = s.population
    food_spent = min(s.food, s.population)
    fed = food_spent + fed_with_luxury
    lost = max(0, s.population - fed)
    after["food"] -= food_spent
    after["luxury"] -= 2 * fed_with_luxury
    after["population"] -= lost
    wood_spent, stone_spent, luxury_for_buildings = pay_goods(after, *completion_cost(complete))
    kept = set(complete)
    abandoned = [t for t in unfinished(s) if t not in kept]
    returned = len(complete) + len(abandoned)
    after["coins"] += returned
    return SupplyResolved(
        seat,
        population_before,
        food_spent,
        2 * fed_with_luxury,
        lost,
        list(complete),
        wood_spent,
        stone_spent,
        luxury_for_buildings,
        abandoned,
        returned,
        automatic,
        after,
    )


def decide_resolve_supply(state: State, seat: int, command: ResolveSupply) -> list[Event]:
    """R46a, R47, R48."""
    s = state.seats[seat]
    limit = feed_limit(s)
    if not 0 <= command.feed_with_luxury <= limit:
        raise RuleViolation("LUXURY_FEED_LIMIT", f"you may feed between 0 and {limit} inhabitants with luxury")
    own = unfinished(s)
    for tile_id in command.complete:
        if tile_id not in own:
            raise RuleViolation("NOT_UNFINISHED", f"{tile_id!r} is not one of your unfinished buildings")
    if len(set(command.complete)) != len(command.complete):
        raise RuleViolation("DUPLICATE_TILE", "a building is named twice")
    wood, stone = completion_cost(command.complete)
    luxury_left = s.luxury - 2 * command.feed_with_luxury
    if luxury_for_goods(s.wood, s.stone, wood, stone) > luxury_left:
        raise RuleViolation(
            "CANNOT_AFFORD", "these completions need more wood/stone than you hold plus the luxury left after feeding"
        )
    return [supply_resolution(state, seat, command.feed_with_luxury, list(command.complete), automatic=False)]


def _supply_started(state: State, e: SupplyStarted) -> None:
    state.phase = SUPPLY
    state.supply_due = None
    state.supply_trigger = e.trigger
    state.pending = list(state.turn_order)


def _supply_resolved(state: State, e: SupplyResolved) -> None:
    s = state.seats[e.seat]
    s.set_counters(e.after)
    completed = set(e.completed)
    abandoned = set(e.abandoned)
    kept = []
    for b in s.buildings:
        if b.tile_id in completed:
            b.unfinished = False
        if b.tile_id in abandoned:
            state.box.append(b.tile_id)
        else:
            kept.append(b)
    s.buildings = kept
    state.pending.remove(e.seat)


def _supply_ended(state: State, e: SupplyEnded) -> None:
    state.supply_trigger = None
    if e.trigger == "game_end":
        state.phase = SCORING
    elif len(state.display) == DISPLAY_SIZE:
        enter_bidding(state)
    else:
        state.phase = REVEAL


DECIDERS: dict[type[Command], Callable[[State, int, Any], list[Event]]] = {
    ResolveSupply: decide_resolve_supply,
}


EVOLVERS: dict[type[Event], Callable[[State, Any], None]] = {
    SupplyStarted: _supply_started,
    SupplyResolved: _supply_resolved,
    SupplyEnded: _supply_ended,
}
