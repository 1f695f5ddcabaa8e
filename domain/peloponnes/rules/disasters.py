"""Rules file 5.8, step g: disasters (R34-R44), and what follows the last step of a round (R9, R51)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.kernel import Chance, Command, Event, RuleViolation
from domain.peloponnes.commands import ResolveDisaster
from domain.peloponnes.data import BLANK, DECLINE_LOSS, DISPLAY_SIZE, PROTECTORS, ROUNDS, STACK_OF_ROUND, STRIKE_AT
from domain.peloponnes.events import DisasterResolved, DisasterRevealed, RoundStarted, SupplyStarted
from domain.peloponnes.rules.setup import auction_slots
from domain.peloponnes.state import DISASTER, SeatState, State


def protector(seat: SeatState, disaster: str) -> str | None:
    """R36: a (finished or unfinished) building protecting against ``disaster``."""
    protecting = PROTECTORS[disaster]
    for b in seat.buildings:
        if b.tile_id in protecting:
            return b.tile_id
    return None


def has_disaster_decision(state: State, seat: int) -> bool:
    s = state.seats[seat]
    disaster = state.strike
    if disaster == "earthquake":
        return bool(s.buildings) and s.wood >= 1 and s.stone >= 1 and protector(s, disaster) is None
    if disaster == "tempest":
        return bool(s.lands) and s.food >= 1 and s.coins >= 1 and protector(s, disaster) is None
    return False


def next_round_or_final_supply(state: State, chance: Chance) -> list[Event]:
    """R9/R51: after step g, the next round starts; after round 8 the final supply round."""
    if state.round >= ROUNDS:
        return [SupplyStarted("game_end", None)]
    upcoming = state.round + 1
    k = auction_slots(state)
    return [RoundStarted(upcoming, STACK_OF_ROUND[upcoming], k, DISPLAY_SIZE - k)]


def disaster_step(state: State, chance: Chance) -> list[Event]:
    """R35: flip two chits, one after the other; a struck disaster is resolved before the next chit."""
    if state.strike is not None:
        for seat in state.pending:
            if not has_disaster_decision(state, seat):
                return [disaster_outcome(state, seat, keep=[], automatic=True)]
        return []
    if state.draws >= 2:
        return next_round_or_final_supply(state, chance)
    chit = state.chits[chance.below("disasters", len(state.chits))]
    draw = state.draws + 1
    if chit == BLANK:
        return [DisasterRevealed(state.round, draw, chit, False, None)]
    on_tile = state.chits_on_tile[chit] + 1
    return [DisasterRevealed(state.round, draw, chit, on_tile == STRIKE_AT, on_tile)]


def earthquake(s: SeatState, keep: list[str]) -> dict[str, Any]:
    """R37/R42/R43: 1 wood + 1 stone per kept building; the others go to the box, their marker coins back."""
    lost = [b for b in s.buildings if b.tile_id not in keep]
    return {
        "wood_spent": len(keep),
        "stone_spent": len(keep),
        "removed_tiles": [b.tile_id for b in lost],
        "coins_returned": sum(b.unfinished for b in lost),
    }


def tempest(s: SeatState, keep: list[str]) -> dict[str, Any]:
    """R40/R42: 1 food + 1 coin per kept land tile; the others go to the box."""
    return {"food_spent": len(keep), "coins_spent": len(keep), "removed_tiles": [t for t in s.lands if t not in keep]}


def drought(s: SeatState, keep: list[str]) -> dict[str, Any]:
    """R38: a third of the food, rounded down."""
    return {"food_lost": s.food // 3}


def plague(s: SeatState, keep: list[str]) -> dict[str, Any]:
    """R39: a third of the inhabitants, rounded down."""
    return {"population_lost": s.population // 3}


def decline(s: SeatState, keep: list[str]) -> dict[str, Any]:
    """R41: 10 luxury goods, or all if fewer."""
    return {"luxury_lost": min(DECLINE_LOSS, s.luxury)}


DISASTER_EFFECTS: dict[str, Callable[[SeatState, list[str]], dict[str, Any]]] = {
    "earthquake": earthquake,
    "tempest": tempest,
    "drought": drought,
    "plague": plague,
    "decline": decline,
}


NOTHING_LOST: dict[str, Any] = {
    "wood_spent": 0,
    "stone_spent": 0,
    "food_spent": 0,
    "coins_spent": 0,
    "food_lost": 0,
    "population_lost": 0,
    "luxury_lost": 0,
    "coins_returned": 0,
}


def disaster_outcome(state: State, seat: int, keep: list[str], automatic: bool) -> DisasterResolved:
    """R36: a protected seat loses nothing; otherwise the striking disaster's effect (R37-R43)."""
    disaster = state.strike
    assert disaster is not None
    s = state.seats[seat]
    shield = protector(s, disaster)
    # a fresh list per event: events must never share a mutable field
    outcome = {**NOTHING_LOST, "removed_tiles": [], **(DISASTER_EFFECTS[disaster](s, keep) if shield is None else {})}
    after = s.counters()
    after["wood"] -= outcome["wood_spent"]
    after["stone"] -= outcome["stone_spent"]
    after["food"] -= outcome["food_spent"] + outcome["food_lost"]
    after["coins"] += outcome["coins_returned"] - outcome["coins_spent"]
    after["population"] -= outcome["population_lost"]
    after["luxury"] -= outcome["luxury_lost"]
    return DisasterResolved(
        seat=seat, disaster=disaster, automatic=automatic, after=after, protected_by=shield, **outcome
    )


def decide_resolve_disaster(state: State, seat: int, command: ResolveDisaster) -> list[Event]:
    """R42: keep (and pay for) at most min(wood, stone) buildings or min(food, coins) land tiles."""
    s = state.seats[seat]
    earthquake = state.strike == "earthquake"
    own = [b.tile_id for b in s.buildings] if earthquake else list(s.lands)
    for tile_id in command.keep:
        if tile_id not in own:
            kind = "buildings" if earthquake else "land tiles"
            raise RuleViolation("NOT_OWN_TILE", f"{tile_id!r} is not one of your {kind}")
    if len(set(command.keep)) != len(command.keep):
        raise RuleViolation("DUPLICATE_TILE", "a tile is named twice")
    limit = min(s.wood, s.stone) if earthquake else min(s.food, s.coins)
    if len(command.keep) > limit:
        raise RuleViolation("TOO_MANY_KEPT", f"you can pay for at most {limit} tile(s)")
    return [disaster_outcome(state, seat, list(command.keep), automatic=False)]


def enter_disaster(state: State) -> None:
    state.phase = DISASTER
    state.draws = 0
    state.strike = None
    state.pending = []


def _disaster_revealed(state: State, e: DisasterRevealed) -> None:
    state.chits.remove(e.chit)
    state.draws = e.draw
    if e.chit == BLANK:
        state.box_chits.append(e.chit)
        return
    assert e.chits_on_tile is not None
    state.chits_on_tile[e.chit] = e.chits_on_tile
    if e.strikes:
        state.strike = e.chit
        state.pending = list(state.turn_order)


def _disaster_resolved(state: State, e: DisasterResolved) -> None:
    s = state.seats[e.seat]
    s.set_counters(e.after)
    if e.removed_tiles:
        removed = set(e.removed_tiles)
        if e.disaster == "earthquake":
            s.buildings = [b for b in s.buildings if b.tile_id not in removed]
        else:
            s.lands = [t for t in s.lands if t not in removed]
        state.box.extend(e.removed_tiles)
    state.pending.remove(e.seat)
    if not state.pending:
        state.strike = None


DECIDERS: dict[type[Command], Callable[[State, int, Any], list[Event]]] = {
    ResolveDisaster: decide_resolve_disaster,
}


EVOLVERS: dict[type[Event], Callable[[State, Any], None]] = {
    DisasterRevealed: _disaster_revealed,
    DisasterResolved: _disaster_resolved,
}
