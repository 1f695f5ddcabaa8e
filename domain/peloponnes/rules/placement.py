"""Rules file 5.5, step d: take and place tiles (R25-R31)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.kernel import Chance, Command, Event, RuleViolation
from domain.kernel.errors import BAD_INPUT
from domain.peloponnes.commands import PlaceBuilding
from domain.peloponnes.data import FREE_LAND_TILES, TILES
from domain.peloponnes.events import BuildingPlaced, LandPlaced, OneTimeIncomeReceived, TileRejected
from domain.peloponnes.rules.general import luxury_for_coins, luxury_for_goods, pay_coins, pay_goods
from domain.peloponnes.rules.income import enter_income
from domain.peloponnes.rules.population import one_time_income
from domain.peloponnes.state import PLACEMENT, Building, SeatState, State


def can_build(seat: SeatState, tile_id: str) -> bool:
    tile = TILES[tile_id]
    return luxury_for_goods(seat.wood, seat.stone, tile.cost_wood, tile.cost_stone) <= seat.luxury


def can_mark(seat: SeatState) -> bool:
    return luxury_for_coins(seat, 1) <= seat.luxury


def land_fits(seat: SeatState, tile_id: str) -> bool:
    """R28/R28a: the new land shares a produced good with the current last land (any tile fits an empty row)."""
    return not seat.lands or bool(TILES[tile_id].produces & TILES[seat.lands[-1]].produces)


def has_placement_decision(state: State, seat: int) -> bool:
    s = state.seats[seat]
    tile_id = s.won
    if tile_id is None or not TILES[tile_id].is_building:
        return False
    if s.population < TILES[tile_id].inhabitants_needed:
        return False
    return can_build(s, tile_id) and can_mark(s)


def placement_step(state: State, chance: Chance) -> list[Event]:
    """R26-R31 for the seats without a choice, in turn order (R49)."""
    for seat in state.pending:
        if not has_placement_decision(state, seat):
            return place_tile(state, seat, mode=None)
    return []


def place_tile(state: State, seat: int, mode: str | None) -> list[Event]:
    """Steps d-e for the tile a seat won: place it (R26/R28) or reject it (R29), then its one-time income (R31).
    ``mode`` is the seat's choice ("build"/"mark"), or None when it has no choice."""
    s = state.seats[seat]
    tile_id = s.won
    assert tile_id is not None
    placed = (
        building_placement(s, seat, tile_id, mode) if TILES[tile_id].is_building else land_placement(s, seat, tile_id)
    )
    if isinstance(placed, TileRejected):
        return [placed]
    after = placed.after if isinstance(placed, BuildingPlaced) else s.counters()
    return [placed, one_time_income(s, tile_id, after, seat)]


def building_placement(s: SeatState, seat: int, tile_id: str, mode: str | None) -> BuildingPlaced | TileRejected:
    """R26/R26a/R26b: inhabitants first, then build (wood/stone) or mark (1 coin); neither -> rejected."""
    tile = TILES[tile_id]
    if s.population < tile.inhabitants_needed:
        return TileRejected(seat, tile_id, "not_enough_inhabitants")
    automatic = mode is None
    if mode is None:
        if can_build(s, tile_id):
            mode = "build"
        elif can_mark(s):
            mode = "mark"
        else:
            return TileRejected(seat, tile_id, "cannot_pay")
    after = s.counters()
    if mode == "build":
        wood, stone, luxury = pay_goods(after, tile.cost_wood, tile.cost_stone)
        return BuildingPlaced(seat, tile_id, "built", wood, stone, 0, luxury, automatic, after)
    luxury = pay_coins(after, 1)
    return BuildingPlaced(seat, tile_id, "marked", 0, 0, 1, luxury, automatic, after)


def land_placement(s: SeatState, seat: int, tile_id: str) -> LandPlaced | TileRejected:
    """R28/R28b: the new land must share a good with the last one unless the seat owns Barracks."""
    fits = land_fits(s, tile_id)
    waived = not fits and s.owns_building(FREE_LAND_TILES)
    if not fits and not waived:
        return TileRejected(seat, tile_id, "land_mismatch")
    return LandPlaced(seat, tile_id, len(s.lands), waived)


def decide_place_building(state: State, seat: int, command: PlaceBuilding) -> list[Event]:
    """R26a: the seat chooses between building and marking when it can afford both."""
    if command.mode not in ("build", "mark"):
        raise RuleViolation(BAD_INPUT, f"mode is 'build' or 'mark', not {command.mode!r}")
    s = state.seats[seat]
    assert s.won is not None
    affordable = can_build(s, s.won) if command.mode == "build" else can_mark(s)
    if not affordable:
        raise RuleViolation("CANNOT_AFFORD", f"you cannot {command.mode} {s.won}")
    return place_tile(state, seat, command.mode)


def enter_placement(state: State) -> None:
    state.phase = PLACEMENT
    state.pending = [seat for seat in state.turn_order if state.seats[seat].won is not None]
    if not state.pending:
        enter_income(state)


def placement_done(state: State, seat: int) -> None:
    state.seats[seat].won = None
    state.pending.remove(seat)
    if not state.pending:
        enter_income(state)


def _building_placed(state: State, e: BuildingPlaced) -> None:
    s = state.seats[e.seat]
    s.set_counters(e.after)
    s.buildings.append(Building(e.tile_id, e.mode == "marked"))
    s.won = None


def _land_placed(state: State, e: LandPlaced) -> None:
    s = state.seats[e.seat]
    s.lands.append(e.tile_id)
    s.won = None


def _tile_rejected(state: State, e: TileRejected) -> None:
    state.box.append(e.tile_id)
    placement_done(state, e.seat)


def _one_time_income(state: State, e: OneTimeIncomeReceived) -> None:
    state.seats[e.seat].set_counters(e.after)
    placement_done(state, e.seat)


DECIDERS: dict[type[Command], Callable[[State, int, Any], list[Event]]] = {
    PlaceBuilding: decide_place_building,
}


EVOLVERS: dict[type[Event], Callable[[State, Any], None]] = {
    BuildingPlaced: _building_placed,
    LandPlaced: _land_placed,
    TileRejected: _tile_rejected,
    OneTimeIncomeReceived: _one_time_income,
}
