"""The reconstructed map (board.json) against every check listed in the rules file §2.4 "Validation"."""

from __future__ import annotations

import heapq
from collections import deque

from domain.empire_builder.data import (
    ARROWS,
    AWARD_VP,
    CITY_PIECES,
    CITY_PRICE,
    CITY_VP,
    CUBES,
    FULL_CAMPAIGNS,
    LAST_ROUND,
    MAJORITY_VP,
    MAX_PATH,
    PROVINCES,
    REGIONS,
    SEA_ROUTES,
    SHORT_CAMPAIGNS,
    SYMBOLS,
    TEMPLE_PIECES,
    TEMPLE_PRICE,
    TEMPLE_VP,
    award_vp,
)

# §2.4: shortest distance from the symbol to each province, as (moves, cheapest cost over any path)
DISTANCES = {
    1: {"1.1": (1, 0), "1.2": (2, 1), "1.3": (3, 1), "1.4": (2, 1), "1.5": (3, 1), "1.6": (3, 2)},
    2: {"2.1": (1, 0), "2.2": (2, 0), "2.3": (3, 0), "2.4": (2, 0), "2.5": (3, 1), "2.6": (3, 2)},
    3: {"3.1": (1, 0), "3.2": (2, 0), "3.3": (2, 0), "3.4": (4, 3), "3.5": (3, 1)},
    4: {"4.1": (1, 0), "4.2": (2, 0), "4.3": (3, 0), "4.4": (4, 2), "4.5": (3, 1)},
    5: {"5.1": (1, 0), "5.2": (2, 0), "5.3": (3, 0), "5.4": (2, 1), "5.5": (3, 2)},
    6: {"6.1": (1, 0), "6.2": (2, 1), "6.3": (3, 1), "6.4": (4, 1), "6.5": (5, 3), "6.6": (2, 1), "6.7": (3, 3)},
}
ONE_ROUND_FINISH = {1: 4, 2: 2, 3: 2, 4: 2, 5: 3, 6: 3}


def moves_from(origin: str) -> dict[str, int]:
    seen = {origin: 0}
    queue = deque([origin])
    while queue:
        here = queue.popleft()
        for there in ARROWS.get(here, {}):
            if there not in seen:
                seen[there] = seen[here] + 1
                queue.append(there)
    return seen


def cheapest_from(origin: str, max_moves: int | None = None) -> dict[str, int]:
    best: dict[tuple[str, int], int] = {}
    queue = [(0, 0, origin)]
    result: dict[str, int] = {}
    while queue:
        cost, moves, here = heapq.heappop(queue)
        if (here, moves) in best:
            continue
        best[here, moves] = cost
        result.setdefault(here, cost)
        if max_moves is not None and moves == max_moves:
            continue
        for there, price in ARROWS.get(here, {}).items():
            heapq.heappush(queue, (cost + price, moves + 1 if max_moves is not None else 0, there))
    return result


def test_regions_provinces_and_numbering() -> None:
    """R9, R11: numbered provinces; each region's goal holds the next symbol."""
    assert [len(REGIONS[k].provinces) for k in range(1, 7)] == [6, 6, 5, 5, 5, 7]
    assert len(PROVINCES) == 34
    for k, region in REGIONS.items():
        assert region.symbol == f"C{k}"
        assert region.provinces == tuple(f"{k}.{n}" for n in range(1, len(region.provinces) + 1))
        assert region.goal == region.provinces[-1], "the goal is the highest-numbered province"
    assert REGIONS[4].goal == "4.5" and PROVINCES["4.5"].name == "Media"
    assert REGIONS[6].goal == "6.7" and PROVINCES["6.7"].name == "Karmania"


def test_arrows() -> None:
    """R7, R8, Ruling R12: directed arrows with their entry costs."""
    for origin, targets in ARROWS.items():
        assert not set(targets) & SYMBOLS, "no arrow leads into a campaign symbol"
        for target, cost in targets.items():
            sea = f"{origin}>{target}" in SEA_ROUTES
            assert cost == 3 if sea else 0 <= cost <= 2
            if origin in SYMBOLS:
                assert cost == 0 and target == f"{origin[1]}.1", "the campaign arrow is free and leads into k.1"
            else:
                assert PROVINCES[origin].region == PROVINCES[target].region
    assert "2.6" not in ARROWS["2.5"] and "2.5" not in ARROWS["2.6"], "Kilikia and Kappadokia share no arrow"


def test_reachability_and_goal_distance() -> None:
    for k, region in REGIONS.items():
        from_entry = moves_from(region.provinces[0])
        assert set(region.provinces) <= set(from_entry)
        for province in region.provinces:
            assert region.goal in moves_from(province)
        distance = moves_from(region.symbol)
        cheapest = cheapest_from(region.symbol)
        assert {p: (distance[p], cheapest[p]) for p in region.provinces} == DISTANCES[k]
        assert distance[region.goal] == 3
        assert cheapest_from(region.symbol, max_moves=3)[region.goal] == ONE_ROUND_FINISH[k]


def test_sites() -> None:
    """R10: temple and city symbols."""
    for k, region in REGIONS.items():
        temples = sum(PROVINCES[p].temple_site for p in region.provinces)
        cities = sum(PROVINCES[p].city_site for p in region.provinces)
        assert (temples, cities) == (3, 4 if k == 2 else 3)
    both = {p.id for p in PROVINCES.values() if p.temple_site and p.city_site}
    none = {p.id for p in PROVINCES.values() if not p.temple_site and not p.city_site}
    assert both == {"1.2", "2.2", "3.5", "4.2", "5.3", "5.5", "6.3"}
    assert none == {"1.5", "5.1", "6.5", "6.6"}


def test_r2_r61_components_and_scoring_values_are_the_rules_file_tables() -> None:
    """§2.1 (Ruling R2), §2.3, R29, R55(b), R3/V2 and R59/R61 as loaded from components.json."""
    assert (CUBES, TEMPLE_PIECES, CITY_PIECES) == (15, 10, 8)
    assert (MAJORITY_VP, TEMPLE_VP, CITY_VP, TEMPLE_PRICE, CITY_PRICE) == (2, 3, 5, 1, 2)
    assert (MAX_PATH, LAST_ROUND, FULL_CAMPAIGNS, SHORT_CAMPAIGNS) == (3, 3, (1, 6), (2, 4))
    full = {award: award_vp(award, False) for award in AWARD_VP}
    assert full == {
        "most_cities": 10,
        "most_temples": 15,
        "region_cities": 5,
        "region_temples": 5,
        "region_buildings": 5,
    }
    assert {award: award_vp(award, True) for award in AWARD_VP} == {a: vp // 2 for a, vp in full.items()}, "R61"
