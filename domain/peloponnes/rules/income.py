"""Rules file 5.7, step f: round income."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.kernel import Chance, Command, Event, RuleViolation
from domain.kernel.errors import BAD_INPUT
from domain.peloponnes.commands import ChooseIncome
from domain.peloponnes.data import CHOICE_RESOURCES, CHOICE_TILES, CIVILIZATIONS, ROUNDS, TILES, population_income
from domain.peloponnes.events import IncomeCollected
from domain.peloponnes.rules.disasters import enter_disaster
from domain.peloponnes.rules.general import add_goods
from domain.peloponnes.state import INCOME, SeatState, State


def choice_tiles(seat: SeatState) -> list[str]:
    """R34: the seat's Port / Temple of Apollo."""
    return [b.tile_id for b in seat.buildings if b.tile_id in CHOICE_TILES]


def has_income_decision(state: State, seat: int) -> bool:
    return any(b.tile_id in CHOICE_TILES for b in state.seats[seat].buildings)


def income_step(state: State, chance: Chance) -> list[Event]:
    """R32-R33: the seats without Port/Temple of Apollo collect automatically."""
    for seat in state.pending:
        if not has_income_decision(state, seat):
            return [round_income(state, seat, [])]
    return []


def round_income(state: State, seat: int, choices: list[dict[str, str]]) -> IncomeCollected:
    """R33-R34: inhabitants (Arkadia), goods with overflow, then coins and luxury from population."""
    s = state.seats[seat]
    civ = CIVILIZATIONS[s.civilization or ""]
    gain = civ.income_population
    wood, stone, food = civ.income_wood, civ.income_stone, civ.income_food
    for tile_id in (*(b.tile_id for b in s.buildings), *s.lands):  # unfinished buildings too (R27)
        tile = TILES[tile_id]
        wood += tile.income_wood
        stone += tile.income_stone
        food += tile.income_food
    # solo extra incomes (R53) and the Port/Temple choices (R34) are one unit each
    units = [*s.extra_incomes, *(c["resource"] for c in choices)]
    wood += units.count("wood")
    stone += units.count("stone")
    food += units.count("food")
    choice_coins = units.count("coin")
    after, overflow = add_goods(s.counters(), wood, stone, food)
    after["population"] += gain
    coins, luxury = population_income(after["population"])
    after["coins"] += coins + choice_coins
    after["luxury"] += luxury
    return IncomeCollected(
        seat, gain, wood, stone, food, [dict(c) for c in choices], overflow, coins + choice_coins, luxury, after
    )


def decide_choose_income(state: State, seat: int, command: ChooseIncome) -> list[Event]:
    """R34: one resource per Port / Temple of Apollo."""
    owned = sorted(choice_tiles(state.seats[seat]))
    for choice in command.choices:
        if set(choice) != {"tile_id", "resource"}:
            raise RuleViolation(BAD_INPUT, "each choice is {tile_id, resource}")
    named = sorted(c["tile_id"] for c in command.choices)
    if named != owned:
        raise RuleViolation(
            "CHOICES_MISMATCH", f"give exactly one choice for each of your choice tiles: {', '.join(owned)}"
        )
    for choice in command.choices:
        if choice["resource"] not in CHOICE_RESOURCES:
            raise RuleViolation(
                "INVALID_RESOURCE", f"{choice['resource']!r} is not one of {', '.join(CHOICE_RESOURCES)}"
            )
    ordered = [{"tile_id": c["tile_id"], "resource": c["resource"]} for c in command.choices]
    return [round_income(state, seat, ordered)]


def enter_income(state: State) -> None:
    """R32: no round income in round 8."""
    if state.round >= ROUNDS:
        enter_disaster(state)
        return
    state.phase = INCOME
    state.pending = list(state.turn_order)


def _income_collected(state: State, e: IncomeCollected) -> None:
    state.seats[e.seat].set_counters(e.after)
    state.pending.remove(e.seat)
    if not state.pending:
        enter_disaster(state)


DECIDERS: dict[type[Command], Callable[[State, int, Any], list[Event]]] = {
    ChooseIncome: decide_choose_income,
}


EVOLVERS: dict[type[Event], Callable[[State, Any], None]] = {
    IncomeCollected: _income_collected,
}
