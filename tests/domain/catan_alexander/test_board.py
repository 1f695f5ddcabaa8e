"""The boards as data (§2.2-2.9, §7.1): the checks of the rules file's validation script."""

from __future__ import annotations

import copy
import itertools
import pickle
from collections import Counter, deque

from domain.catan_alexander import GAME
from domain.catan_alexander.data import (
    ALEXANDER,
    BASE,
    BASE_RANDOM_NUMBERS,
    GEOMETRIES,
    TEMPLE_CROSSINGS,
    TOKEN_CROSSINGS,
    Geometry,
    vertex_neighbours,
)
from domain.catan_alexander.state import State
from tests.support.games import new_game, partly_played

PIPS = {2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 8: 5, 9: 4, 10: 3, 11: 2, 12: 1}


def distance(geometry: Geometry, a: int, b: int) -> int:
    seen = {a: 0}
    queue = deque([a])
    while queue:
        v = queue.popleft()
        for n in geometry.vertex_adj[v]:
            if n not in seen:
                seen[n] = seen[v] + 1
                queue.append(n)
    return seen[b]


def hex_neighbours(q: int, r: int) -> list[tuple[int, int]]:
    return [(q + 1, r), (q - 1, r), (q + 1, r - 1), (q, r - 1), (q, r + 1), (q - 1, r + 1)]


def test_alexander_board_counts() -> None:
    """§2.3 and §2.9 (1): 50 land hexes, 143 intersections (71 N, 72 S), 192 paths."""
    assert len(ALEXANDER.hexes) == 50
    assert Counter(ALEXANDER.default_terrain) == {
        "fields": 9,
        "forest": 9,
        "pasture": 8,
        "hills": 8,
        "mountains": 8,
        "gold_river": 4,
        "desert": 4,
    }
    assert len(ALEXANDER.vertices) == 143
    assert sum(v.startswith("N") for v in ALEXANDER.vertices) == 71
    assert len(ALEXANDER.edges) == 192


def test_alexander_numbers() -> None:
    """§2.9 (2): the 46 numbers, deserts bare, no 6/8 neighbours, no equal neighbours, balanced pips."""
    numbers = dict(zip(ALEXANDER.hexes, ALEXANDER.default_numbers, strict=True))
    terrain = dict(zip(ALEXANDER.hexes, ALEXANDER.default_terrain, strict=True))
    assert Counter(n for n in numbers.values() if n) == {
        2: 2,
        3: 5,
        4: 5,
        5: 6,
        6: 5,
        8: 5,
        9: 6,
        10: 5,
        11: 5,
        12: 2,
    }
    assert all((numbers[h] == 0) == (terrain[h] == "desert") for h in numbers)
    for h, n in numbers.items():
        for other in hex_neighbours(*h):
            m = numbers.get(other, 0)
            if n and m:
                assert n != m, (h, other)
                assert not (n in (6, 8) and m in (6, 8)), (h, other)
    pips = Counter()
    for h, n in numbers.items():
        if n:
            pips[terrain[h]] += PIPS[n]
    assert pips == {"fields": 28, "forest": 28, "pasture": 28, "hills": 28, "mountains": 28, "gold_river": 12}
    assert all(numbers[h] in (4, 10) for h in numbers if terrain[h] == "gold_river")


def test_the_route_is_an_induced_path_with_the_stated_kinds() -> None:
    """§2.5, §2.9 (3)-(4)."""
    route = ALEXANDER.route
    assert len(route) == 53 and len(set(route)) == 53
    for a, b in itertools.pairwise(route):
        assert ALEXANDER.edge_between(a, b) is not None
    for i, j in itertools.combinations(range(53), 2):
        if j > i + 1:
            assert route[j] not in ALEXANDER.vertex_adj[route[i]], (i, j)
    kinds = "".join(
        {"start": "S", "temple": "T", "token": "?", "plain": ".", "purple": "7", "goal": "E"}[k]
        for k in ALEXANDER.route_kinds
    )
    assert kinds == "ST?T?T.?T?.T??T?.T?.?.T?.T??.?.?T???.??.T???.?T??777E"
    assert len(TEMPLE_CROSSINGS) == 12 and len(TOKEN_CROSSINGS) == 25


def test_temples_are_pairwise_at_distance_two_or_more() -> None:
    """§2.6: so the distance rule never blocks a temple settlement."""
    temples = [ALEXANDER.route[i] for i in TEMPLE_CROSSINGS]
    distances = [distance(ALEXANDER, a, b) for a, b in itertools.combinations(temples, 2)]
    assert min(distances) == 2


def test_temple_pips() -> None:
    """§2.6: temple pips X1 9, X3 8, X5 8, X8 7, X11 7, X14 8, X17 9, X22 8, X25 9, X32 7, X40 9, X46 8."""
    expected = {1: 9, 3: 8, 5: 8, 8: 7, 11: 7, 14: 8, 17: 9, 22: 8, 25: 9, 32: 7, 40: 9, 46: 8}
    for crossing, pips in expected.items():
        vertex = ALEXANDER.route[crossing]
        total = sum(PIPS.get(ALEXANDER.default_numbers[h], 0) for h in ALEXANDER.vertex_hexes[vertex])
        assert total == pips, crossing


def test_harbours_are_coastal_and_complete() -> None:
    """§2.4, §2.9 (6), and §7.1 for the base board."""
    for geometry in (ALEXANDER, BASE):
        kinds = Counter(kind for kind, _ in geometry.harbours)
        assert kinds == {"generic": 4, "brick": 1, "grain": 1, "lumber": 1, "ore": 1, "wool": 1}
        ends = [v for _, edge in geometry.harbours for v in geometry.edges[edge]]
        assert len(ends) == len(set(ends)) == 18
        for _, edge in geometry.harbours:
            a, b = geometry.edges[edge]
            assert len(set(geometry.vertex_hexes[a]) & set(geometry.vertex_hexes[b])) == 1


def test_robber_starts_on_a_desert() -> None:
    assert ALEXANDER.hexes[ALEXANDER.robber_start] == (4, 4)
    assert ALEXANDER.default_terrain[ALEXANDER.robber_start] == "desert"


def test_base_board() -> None:
    """§7.1: 19 hexes, 54 intersections, 72 paths, 30 coastal paths, 18 number tokens."""
    assert len(BASE.hexes) == 19 and len(BASE.vertices) == 54 and len(BASE.edges) == 72
    coastal = [
        e for e, (a, b) in enumerate(BASE.edges) if len(set(BASE.vertex_hexes[a]) & set(BASE.vertex_hexes[b])) == 1
    ]
    assert len(coastal) == 30
    assert sorted(n for n in BASE.default_numbers if n) == sorted(BASE_RANDOM_NUMBERS)
    assert BASE.default_terrain[BASE.robber_start] == "desert"
    assert next(BASE.edge_ref(e) for kind, e in BASE.harbours if kind == "generic") == ["S(3,-1)", "N(2,0)"]


def test_vertex_adjacency_is_symmetric() -> None:
    for geometry in (ALEXANDER, BASE):
        for v, neighbours in enumerate(geometry.vertex_adj):
            for n in neighbours:
                assert v in geometry.vertex_adj[n]
    assert ("S", 0, -1) in vertex_neighbours(("N", 0, 0))


def test_a_state_pickles_and_copies_without_its_board_geometry() -> None:
    state, _ = new_game(GAME, 4, {"board": "base"})
    saved = pickle.dumps(state)
    assert b"vertex_adj" not in saved  # the static board is found again by name, not stored
    for again in (pickle.loads(saved), copy.deepcopy(state)):
        assert again == state and again.geometry is state.geometry
    # a snapshot pickled before the state held its geometry
    older = State.__new__(State)
    older.__setstate__(state.__getstate__())
    assert older.geometry is GEOMETRIES["base"] and older == state


def test_a_snapshot_from_before_the_producers_field_finds_them_again() -> None:
    state, _ = partly_played(GAME, 4, 300, seed=b"producers", options={"board": "base"})
    saved = state.__getstate__()
    del saved["producers"]
    older = State.__new__(State)
    older.__setstate__(saved)
    assert older.producers == state.producers and any(state.producers)


def test_a_snapshot_from_before_the_special_card_claims_finds_them_again() -> None:
    for seed in (b"claims-a", b"claims-b", b"claims-c"):
        state, _ = partly_played(GAME, 4, 600, seed=seed, options={"board": "base"})
        saved = state.__getstate__()
        del saved["road_claim"], saved["army_claim"]
        older = State.__new__(State)
        older.__setstate__(saved)
        assert (older.road_claim, older.army_claim) == (state.road_claim, state.army_claim)
        assert older == state
