"""What the conformance suite (``tests/domain/test_conformance.py``) needs to know of the Empire
Builder: its invariants, what a seat cannot know (others' sealed commits), and the scores a
spectator recomputes."""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any

from domain.empire_builder.data import ALL_SPLITS, CITY_PIECES, CUBES, PROVINCES, TEMPLE_PIECES
from domain.empire_builder.state import ALLOCATION, REALLOCATION, State
from domain.kernel import Chance


def check_invariants(state: State, previous_vp: list[int]) -> None:
    """R4 (cubes add up to 15 once revealed), R5 (VP only grow), Ruling R23 (armies fixed), piece limits."""
    revealed = state.phase not in ("setup", ALLOCATION)
    for seat, p in enumerate(state.seats):
        assert p.vp >= previous_vp[seat]
        assert min(p.turn_order, p.armies, p.temples, p.cities, p.spent) >= 0
        if revealed:
            assert p.turn_order + p.armies + p.temples + p.cities + p.spent == CUBES
        assert sum(p.at.values()) == p.armies
        assert p.temples_built <= TEMPLE_PIECES and p.cities_built <= CITY_PIECES
        assert all(PROVINCES[loc].region == state.campaign for loc in p.at if loc in PROVINCES)
    assert sum(len(owners) for owners in state.temples.values()) == sum(p.temples_built for p in state.seats)
    assert len(state.cities) == sum(p.cities_built for p in state.seats)


def check_buildings_stay(state: State, temples: dict[str, list[int]], cities: dict[str, int]) -> None:
    """R6: built temples and cities never move and stay until the end of the game."""
    for province, owners in temples.items():
        assert state.temples[province][: len(owners)] == owners
    for province, owner in cities.items():
        assert state.cities[province] == owner


def check_states(states: Iterable[State]) -> None:
    vp: list[int] | None = None
    temples: dict[str, list[int]] = {}
    cities: dict[str, int] = {}
    for state in states:
        check_invariants(state, vp or [0] * state.players)
        check_buildings_stay(state, temples, cities)
        vp = [p.vp for p in state.seats]
        temples = {p: list(owners) for p, owners in state.temples.items()}
        cities = dict(state.cities)


def changed_secret(state: State, seat: int) -> tuple[int, ...]:
    old = state.sealed[seat]
    if state.phase == REALLOCATION:
        total = sum(old)
        return (old[1], old[0]) if old[0] != old[1] else (total, 0) if old != (total, 0) else (0, total)
    return next(s for s in ALL_SPLITS if s != old)


def vary_hidden(state: State, viewer: int, chance: Chance) -> State | None:
    """Other seats' committed-but-unrevealed (re)allocations changed (§8: nothing else is secret)."""
    others = [s for s in state.sealed if s != viewer]
    if not others:
        return None
    altered = copy.deepcopy(state)
    for seat in others:
        altered.sealed[seat] = changed_secret(state, seat)
    return altered


VP_EVENTS = ("ProvinceScored", "TempleBuilt", "CityFounded", "AwardScored")


def scores_from_public(public: list[dict[str, Any]], players: int) -> list[int]:
    """Every VP comes from a public event; the awards' counts follow from the buildings seen."""
    vp = [0] * players
    built: dict[str, dict[tuple[int | None, int], int]] = {"temple": {}, "city": {}}
    for record in public:
        data = record["data"]
        if record["type"] in VP_EVENTS and data["seat"] is not None:
            vp[data["seat"]] += data["vp"]
        if record["type"] in ("TempleBuilt", "CityFounded"):
            kind = "temple" if record["type"] == "TempleBuilt" else "city"
            for key in ((None, data["seat"]), (PROVINCES[data["province"]].region, data["seat"])):
                built[kind][key] = built[kind].get(key, 0) + 1
        if record["type"] == "AwardScored":
            kinds = {
                "most_cities": ("city",),
                "most_temples": ("temple",),
                "region_cities": ("city",),
                "region_temples": ("temple",),
                "region_buildings": ("temple", "city"),
            }[data["award"]]
            counts = [sum(built[k].get((data["region"], s), 0) for k in kinds) for s in range(players)]
            assert data["counts"] == {str(s): c for s, c in enumerate(counts)}
    ended = public[-1]["data"]
    assert ended["scores"] == {str(s): v for s, v in enumerate(vp)}
    assert ended["winners"] == [s for s in range(players) if vp[s] == max(vp)]
    return vp
