"""The map (board.json, rules file §2.4 [RECONSTRUCTED]) and the game's constant tables (§2.1-§2.3)."""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass
from pathlib import Path

# §2.1 components per player (Ruling R2: 8 cities, not 5)
CUBES = 15
TEMPLE_PIECES = 10
CITY_PIECES = 8

# §2.3 round scoring (never halved, R61)
MAJORITY_VP = 2
TEMPLE_VP = 3
CITY_VP = 5
# §2.3 single-attempter prices (R47, R48)
TEMPLE_PRICE = 1
CITY_PRICE = 2

MAX_PATH = 3  # R29
LAST_ROUND = 3  # R55(b)

TEMPLE = "temple"
CITY = "city"
KINDS = (TEMPLE, CITY)

# §6 R59 / V1: (award id, full-game VP, short-game VP = half rounded down, R61)
MOST_CITIES = "most_cities"
MOST_TEMPLES = "most_temples"
REGION_CITIES = "region_cities"
REGION_TEMPLES = "region_temples"
REGION_BUILDINGS = "region_buildings"
AWARD_VP: dict[str, int] = {MOST_CITIES: 10, MOST_TEMPLES: 15, REGION_CITIES: 5, REGION_TEMPLES: 5, REGION_BUILDINGS: 5}


def award_vp(award: str, short_game: bool) -> int:
    full = AWARD_VP[award]
    return full // 2 if short_game else full


@dataclass(frozen=True, slots=True)
class Province:
    id: str
    region: int
    number: int
    name: str
    temple_site: bool
    city_site: bool


@dataclass(frozen=True, slots=True)
class Region:
    number: int
    name: str
    campaign_name: str
    symbol: str
    goal: str
    provinces: tuple[str, ...]  # in number order, which is the evaluation order (R9)


def _cost(raw: int | str) -> int:
    """An arrow's entry cost; sea routes are written "S3" (R8)."""
    return int(raw[1:]) if isinstance(raw, str) else raw


def _load() -> tuple[dict[int, Region], dict[str, Province], dict[str, dict[str, int]], frozenset[str]]:
    raw = json.loads((Path(__file__).parent / "board.json").read_text(encoding="utf-8"))
    regions: dict[int, Region] = {}
    provinces: dict[str, Province] = {}
    arrows: dict[str, dict[str, int]] = {}
    sea_routes: set[str] = set()
    for entry in raw["regions"]:
        number = entry["region"]
        ids = []
        for i, p in enumerate(entry["provinces"], start=1):
            provinces[p["id"]] = Province(p["id"], number, i, p["name"], "temple" in p["sites"], "city" in p["sites"])
            ids.append(p["id"])
        regions[number] = Region(
            number, entry["name"], entry["campaign_name"], entry["symbol"], entry["goal"], tuple(ids)
        )
        for origin, targets in entry["arrows"].items():
            arrows[origin] = {to: _cost(cost) for to, cost in targets.items()}
            sea_routes.update(f"{origin}>{to}" for to, cost in targets.items() if isinstance(cost, str))
    return regions, provinces, arrows, frozenset(sea_routes)


REGIONS, PROVINCES, ARROWS, SEA_ROUTES = _load()
# The cheapest arrow out of each location: an army can move at all only if its owner can pay this (Ruling R27).
CHEAPEST_EXIT: dict[str, int] = {origin: min(targets.values()) for origin, targets in ARROWS.items() if targets}
SYMBOLS: frozenset[str] = frozenset(r.symbol for r in REGIONS.values())
LOCATIONS: frozenset[str] = frozenset(PROVINCES) | SYMBOLS
FULL_CAMPAIGNS = (1, 6)  # R3
SHORT_CAMPAIGNS = (2, 4)  # V2

# Every split of 15 cubes over the four boxes (turn_order, armies, temples, cities): 816 of them (§10.2).
ALL_SPLITS: tuple[tuple[int, int, int, int], ...] = tuple(
    (a, b, c, CUBES - a - b - c) for a, b, c in itertools.product(range(CUBES + 1), repeat=3) if a + b + c <= CUBES
)
