"""Peloponnes data: tiles (table 2.4/2.5), civilizations (2.3), disasters (2.6), population income (2.7)
and the fixed numbers of the rules, loaded once from the JSON files beside this module."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from domain.kernel.options import OptionSpec

_HERE = Path(__file__).parent

GOODS = ("wood", "stone", "food")
CHOICE_RESOURCES = ("wood", "stone", "food", "coin")
COUNTERS = ("coins", "wood", "stone", "food", "population", "luxury")
DISASTERS = ("earthquake", "drought", "plague", "tempest", "decline")
BLANK = "blank"

HALF_COIN_BID = "half_coin_bid"
FREE_LAND_PLACEMENT = "free_land_placement"
NEEDS_2_INHABITANTS = "needs_2_inhabitants"
NEEDS_1_INHABITANT = "needs_1_inhabitant"
CHOICE_INCOME = "choice_income"


@dataclass(frozen=True, slots=True)
class Tile:
    id: str
    kind: str  # "building" | "land"
    name: str
    stack: str
    min_bid: int
    cost_wood: int
    cost_stone: int
    prestige: int
    population: int  # one-time change of inhabitants
    coins: int
    food: int
    luxury: int
    income_wood: int
    income_stone: int
    income_food: int
    choice_income: int
    protects: str | None
    specials: tuple[str, ...]
    supply: bool

    @property
    def is_building(self) -> bool:
        return self.kind == "building"

    @property
    def produces(self) -> frozenset[str]:
        """The goods a land tile yields per round (the placement rule R28 compares these)."""
        amounts = {"wood": self.income_wood, "stone": self.income_stone, "food": self.income_food}
        return frozenset(good for good, amount in amounts.items() if amount > 0)

    @property
    def inhabitants_needed(self) -> int:
        """R26 step 1: Barracks needs 2 inhabitants, Tiryns Fortress 1."""
        if NEEDS_2_INHABITANTS in self.specials:
            return 2
        if NEEDS_1_INHABITANT in self.specials:
            return 1
        return 0


@dataclass(frozen=True, slots=True)
class Civilization:
    id: str
    name: str
    turn_number: int
    coins: int
    population: int
    wood: int
    stone: int
    food: int
    income_wood: int
    income_stone: int
    income_food: int
    income_population: int


@dataclass(frozen=True, slots=True)
class SoloLevel:
    level: int
    auction_slots: int
    extra_incomes: int
    target: int


def _load(name: str) -> object:
    return json.loads((_HERE / name).read_text(encoding="utf-8"))


def _tiles() -> dict[str, Tile]:
    raw = _load("tiles.json")
    assert isinstance(raw, list)
    return {t["id"]: Tile(**{**t, "specials": tuple(t["specials"])}) for t in raw}


def _civilizations() -> dict[str, Civilization]:
    raw = _load("civilizations.json")
    assert isinstance(raw, list)
    return {c["id"]: Civilization(**c) for c in raw}


TILES: dict[str, Tile] = _tiles()
CIVILIZATIONS: dict[str, Civilization] = _civilizations()
CIVILIZATION_IDS: tuple[str, ...] = tuple(sorted(CIVILIZATIONS, key=lambda c: CIVILIZATIONS[c].turn_number))

_RULES = _load("rules.json")
assert isinstance(_RULES, dict)
ROUNDS: int = _RULES["rounds"]
STACK_OF_ROUND: dict[int, str] = {int(r): s for r, s in _RULES["stack_of_round"].items()}
DISPLAY_SIZE: int = _RULES["display_size"]
CAPS: dict[str, int] = _RULES["caps"]
DISASTER_CHITS: dict[str, int] = _RULES["disaster_chits"]
STRIKE_AT: int = _RULES["strike_at"]
PASS_COINS: int = _RULES["pass_coins"]
WITHDRAW_COMPENSATION: int = _RULES["withdraw_compensation"]
CONQUEST_SURCHARGE: int = _RULES["conquest_surcharge"]
DECLINE_LOSS: int = _RULES["decline_loss"]
_POPULATION_INCOME: list[tuple[int, int, int]] = sorted(
    ((row["from"], row["coins"], row["luxury"]) for row in _RULES["population_income"]), reverse=True
)
SOLO_LEVELS: dict[int, SoloLevel] = {
    int(level): SoloLevel(int(level), v["auction_slots"], v["extra_incomes"], v["target"])
    for level, v in _RULES["solo_levels"].items()
}

STACKS: dict[str, list[str]] = {s: sorted(t.id for t in TILES.values() if t.stack == s) for s in ("A", "B", "C")}
INITIAL_CHITS: list[str] = sorted(chit for chit, count in DISASTER_CHITS.items() for _ in range(count))
PROTECTORS: dict[str, frozenset[str]] = {
    d: frozenset(t.id for t in TILES.values() if t.protects == d) for d in DISASTERS
}
HALF_COIN_TILES = frozenset(t.id for t in TILES.values() if HALF_COIN_BID in t.specials)
FREE_LAND_TILES = frozenset(t.id for t in TILES.values() if FREE_LAND_PLACEMENT in t.specials)
CHOICE_TILES = frozenset(t.id for t in TILES.values() if CHOICE_INCOME in t.specials)


def population_income(population: int) -> tuple[int, int]:
    """Table 2.7: (coins, luxury goods) for a population."""
    for start, coins, luxury in _POPULATION_INCOME:
        if population >= start:
            return coins, luxury
    return _POPULATION_INCOME[-1][1], _POPULATION_INCOME[-1][2]


def conquest_price(tile_id: str) -> int:
    """R16: a conquest tile costs exactly its minimum bid + 3."""
    return TILES[tile_id].min_bid + CONQUEST_SURCHARGE


OPTIONS = (
    OptionSpec(
        name="solo_level",
        description="difficulty of the solo game (rules section 7): fewer auction slots, more extra incomes",
        schema={"type": "integer", "enum": sorted(SOLO_LEVELS), "default": 1},
        players=(1,),
    ),
)
"""The options of a game (``GameDefinition.options``): their schemas are what clients are shown."""
