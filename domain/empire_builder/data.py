"""The map (board.json, rules file §2.4 [RECONSTRUCTED]) and the game's constant tables (components.json, §2.1-§2.3)."""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass
from pathlib import Path

from domain.kernel.options import OptionSpec

_HERE = Path(__file__).parent
_COMPONENTS = json.loads((_HERE / "components.json").read_text(encoding="utf-8"))

# §2.1 components per player (Ruling R2: 8 cities, not 5)
CUBES: int = _COMPONENTS["per_player"]["cubes"]
TEMPLE_PIECES: int = _COMPONENTS["per_player"]["temples"]
CITY_PIECES: int = _COMPONENTS["per_player"]["cities"]

# §2.3 round scoring (never halved, R61)
MAJORITY_VP: int = _COMPONENTS["round_vp"]["majority"]
TEMPLE_VP: int = _COMPONENTS["round_vp"]["temple"]
CITY_VP: int = _COMPONENTS["round_vp"]["city"]
# §2.3 single-attempter prices (R47, R48)
TEMPLE_PRICE: int = _COMPONENTS["single_attempter_price"]["temple"]
CITY_PRICE: int = _COMPONENTS["single_attempter_price"]["city"]

MAX_PATH: int = _COMPONENTS["max_path"]  # R29
LAST_ROUND: int = _COMPONENTS["last_round"]  # R55(b)

TEMPLE = "temple"
CITY = "city"
KINDS = (TEMPLE, CITY)

# §6 R59 and V1 award ids; their VP in the full and the short game (R61) are in components.json
MOST_CITIES = "most_cities"
MOST_TEMPLES = "most_temples"
REGION_CITIES = "region_cities"
REGION_TEMPLES = "region_temples"
REGION_BUILDINGS = "region_buildings"
AWARD_VP: dict[str, dict[str, int]] = _COMPONENTS["final_award_vp"]


def award_vp(award: str, short_game: bool) -> int:
    return AWARD_VP[award]["short" if short_game else "full"]


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
    raw = json.loads((_HERE / "board.json").read_text(encoding="utf-8"))
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


def _campaign_span(game: str) -> tuple[int, int]:
    first, last = _COMPONENTS["campaigns"][game]
    return first, last


FULL_CAMPAIGNS = _campaign_span("full")  # R3
SHORT_CAMPAIGNS = _campaign_span("short")  # V2

# Every split of 15 cubes over the four boxes (turn_order, armies, temples, cities): 816 of them (§10.2).
ALL_SPLITS: tuple[tuple[int, int, int, int], ...] = tuple(
    (a, b, c, CUBES - a - b - c) for a, b, c in itertools.product(range(CUBES + 1), repeat=3) if a + b + c <= CUBES
)


OPTIONS = (
    OptionSpec(
        name="short_game",
        description="the short game: campaigns 2 to 4 only, final awards halved (variant V2)",
        schema={"type": "boolean", "default": False},
    ),
    OptionSpec(
        name="region_scoring_variant",
        description="the region awards of variant V1 at the end (most cities, temples, buildings per region)",
        schema={"type": "boolean", "default": False},
    ),
    OptionSpec(
        name="oldest_seat",
        description="the seat of the oldest player, who breaks the first campaign's ties (0 = the first seat)",
        # The last seat of the largest game; the rules refuse a seat the game at hand does not have.
        schema={"type": "integer", "minimum": 0, "maximum": 4, "default": 0},
    ),
)
"""The options of a game (``GameDefinition.options``): their schemas are what clients are shown."""
