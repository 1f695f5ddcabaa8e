"""Rules file 3, setup, the solo game's own choice (7.2), and the display's size fixed by it (R10)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.kernel import Chance, Command, Event, RuleViolation
from domain.kernel.errors import BAD_INPUT, BAD_OPTIONS
from domain.peloponnes.commands import ChooseSoloSetup
from domain.peloponnes.data import CIVILIZATION_IDS, CIVILIZATIONS, GOODS, INITIAL_CHITS, SOLO_LEVELS, STACKS
from domain.peloponnes.events import CivilizationAssigned, SoloSetupChosen, StacksPrepared, TurnOrderSet
from domain.peloponnes.state import DEALING, SOLO_SETUP, State


def normalize_options(players: int, options: dict[str, Any]) -> dict[str, Any]:
    """``solo_level`` (1-5, default 1) exists only for the solo game (section 7)."""
    unknown = sorted(set(options) - {"solo_level"})
    if unknown:
        raise RuleViolation(BAD_OPTIONS, f"peloponnes has no option(s) {', '.join(unknown)}; it knows: solo_level")
    if players != 1:
        if "solo_level" in options:
            raise RuleViolation(BAD_OPTIONS, "solo_level is an option of the solo game (1 player) only")
        return {}
    level = options.get("solo_level", 1)
    if not isinstance(level, int) or isinstance(level, bool) or level not in SOLO_LEVELS:
        raise RuleViolation(BAD_OPTIONS, f"solo_level must be 1, 2, 3, 4 or 5, not {level!r}")
    return {"solo_level": level}


def setup_events(state: State, chance: Chance) -> list[Event]:
    """Setup steps 5-6 (section 3): stacks and chits are shuffled; their order is drawn as they are revealed."""
    return [StacksPrepared({s: len(t) for s, t in STACKS.items()}, len(INITIAL_CHITS))]


def deal_civilizations(state: State, chance: Chance) -> list[Event]:
    """Setup steps 2-3: deal one civilization per seat; the lowest turn number starts."""
    dealt = shuffled_civilizations(chance)[: state.players]
    events: list[Event] = [CivilizationAssigned(seat, civ, start_counters(civ)) for seat, civ in enumerate(dealt)]
    order = sorted(range(state.players), key=lambda seat: CIVILIZATIONS[dealt[seat]].turn_number)
    events.append(TurnOrderSet(0, order, {}))
    return events


def shuffled_civilizations(chance: Chance) -> list[str]:
    """Chance point 1 (section 9): the 7 civilization tiles shuffled; seat i gets the i-th, the rest stay in the box."""
    return chance.shuffle("civilizations", list(CIVILIZATION_IDS))


def undealt_civilizations(state: State) -> list[str]:
    """The civilizations left in the box at setup, shown once the game has ended (section 8): the
    tiles the public deal (``CivilizationAssigned``) did not give out. Not recomputed from the seed,
    which a fork replaces while keeping the original deal."""
    if state.seed is None or state.is_solo:
        return []
    dealt = {s.civilization for s in state.seats}
    return sorted(civ for civ in CIVILIZATION_IDS if civ not in dealt)


def start_counters(civ_id: str) -> dict[str, int]:
    civ = CIVILIZATIONS[civ_id]
    return {
        "coins": civ.coins,
        "wood": civ.wood,
        "stone": civ.stone,
        "food": civ.food,
        "population": civ.population,
        "luxury": 0,
    }


def auction_slots(state: State) -> int:
    """R10: k = number of players; solo: 6 - level."""
    if state.solo_level is not None:
        return SOLO_LEVELS[state.solo_level].auction_slots
    return state.players


def decide_solo_setup(state: State, seat: int, command: ChooseSoloSetup) -> list[Event]:
    """Section 7.2 and R53: a civilization of table 2.3 and the level's number of distinct extra incomes."""
    if command.civilization not in CIVILIZATIONS:
        raise RuleViolation(
            "UNKNOWN_CIVILIZATION",
            f"{command.civilization!r} is no civilization; choose one of {', '.join(CIVILIZATION_IDS)}",
        )
    for good in command.extra_incomes:
        if good not in GOODS:
            raise RuleViolation(BAD_INPUT, f"an extra income is wood, stone or food, not {good!r}")
    assert state.solo_level is not None
    needed = SOLO_LEVELS[state.solo_level].extra_incomes
    if len(command.extra_incomes) != needed:
        raise RuleViolation(
            "EXTRA_INCOME_COUNT", f"solo level {state.solo_level} takes exactly {needed} extra income(s)"
        )
    if len(set(command.extra_incomes)) != len(command.extra_incomes):
        raise RuleViolation("EXTRA_INCOME_DUPLICATE", "the extra incomes must be different goods (R53)")
    civ = command.civilization
    return [
        SoloSetupChosen(seat, civ, list(command.extra_incomes)),
        CivilizationAssigned(seat, civ, start_counters(civ)),
        TurnOrderSet(0, [0], {}),
    ]


def _stacks_prepared(state: State, e: StacksPrepared) -> None:
    state.phase = SOLO_SETUP if state.is_solo else DEALING


def _civilization_assigned(state: State, e: CivilizationAssigned) -> None:
    s = state.seats[e.seat]
    s.civilization = e.civilization
    s.set_counters(e.after)


def _solo_setup_chosen(state: State, e: SoloSetupChosen) -> None:
    state.seats[e.seat].extra_incomes = list(e.extra_incomes)


DECIDERS: dict[type[Command], Callable[[State, int, Any], list[Event]]] = {
    ChooseSoloSetup: decide_solo_setup,
}


EVOLVERS: dict[type[Event], Callable[[State, Any], None]] = {
    StacksPrepared: _stacks_prepared,
    CivilizationAssigned: _civilization_assigned,
    SoloSetupChosen: _solo_setup_chosen,
}
