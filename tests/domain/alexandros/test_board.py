"""The reconstructed board against the derived counts and checks of rules file 2.3.3-2.3.5."""

from __future__ import annotations

from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.alexandros.data import (
    DIST,
    IS_INTERIOR,
    IS_OPEN,
    POINT_ID,
    POINTS,
    ROWS,
    SIDE_SPACES,
    SIDES,
    SPACE_CORNERS,
    SPACE_DIST,
    SPACE_NEIGHBOURS,
    SPACE_SIDES,
    SPACE_SYMBOL,
    SPACES,
    START_POINT,
    SYMBOL_SPACES,
    SYMBOLS,
    space_corners,
)
from domain.alexandros.rules import closest_free_spaces
from domain.alexandros.state import label_provinces, split_by_wall
from tests.domain.alexandros.fixtures import space, start_state


def test_2_3_3_rows_use_the_legend_and_have_26_characters() -> None:
    assert len(ROWS) == 10
    assert all(len(row) == 26 and set(row) <= set(".TAHLS~") for row in ROWS)


def test_2_3_3_space_counts() -> None:
    assert len(SPACES) == 190
    assert sum(IS_OPEN) == 140
    assert {sym: len(spaces) for sym, spaces in SYMBOL_SPACES.items()} == dict.fromkeys(SYMBOLS, 10)
    assert [sum(1 for r, _ in SPACES if r == row) for row in range(10)] == [16, 19, 22, 23, 19, 20, 24, 21, 20, 6]
    symbol_rows = [sum(1 for s, (r, _) in enumerate(SPACES) if r == row and SPACE_SYMBOL[s]) for row in range(10)]
    assert symbol_rows == [4, 7, 7, 6, 3, 2, 6, 7, 5, 3]


def test_2_3_3_points_sides_interior_and_border() -> None:
    assert len(POINTS) == 131
    assert [sum(1 for i, _ in POINTS if i == line) for line in range(11)] == [10, 14, 13, 13, 12, 11, 14, 14, 14, 12, 4]
    assert all(i % 2 == x % 2 for i, x in POINTS)
    assert len(SIDES) == 323
    assert sum(IS_INTERIOR) == 247
    assert len(SIDES) - sum(IS_INTERIOR) == 76


def test_2_3_1_orientation_and_corners() -> None:
    assert space_corners(0, 0) == ((0, 0), (0, 2), (1, 1))  # ▽
    assert space_corners(0, 1) == ((0, 2), (1, 1), (1, 3))  # △
    # neighbours across sides: ▽ s(r,c) touches s(r-1,c) across its top
    assert space([2, 3]) in {n for n, _ in SPACE_NEIGHBOURS[space([3, 3])]}


def test_2_3_4_symbol_spaces_cross_check() -> None:
    expected = {
        "temple": [(0, 25), (1, 4), (2, 9), (2, 14), (4, 18), (5, 24), (7, 6), (8, 13), (8, 19), (9, 0)],
        "amphora": [(1, 1), (1, 17), (1, 21), (2, 6), (4, 24), (5, 15), (6, 2), (7, 21), (8, 10), (9, 5)],
        "horse": [(0, 5), (0, 23), (2, 16), (3, 5), (3, 10), (3, 22), (6, 18), (6, 23), (7, 13), (8, 2)],
        "lyre": [(0, 16), (1, 9), (2, 2), (2, 23), (3, 14), (6, 6), (6, 12), (7, 17), (8, 24), (9, 2)],
        "soldier": [(1, 7), (1, 15), (2, 25), (3, 3), (3, 19), (4, 12), (6, 25), (7, 1), (7, 8), (7, 19)],
    }
    assert {sym: [SPACES[s] for s in spaces] for sym, spaces in SYMBOL_SPACES.items()} == expected


def test_2_3_5_connectivity_and_diameter() -> None:
    assert len(set(label_provinces([0] * len(SIDES)))) == 1, "one province at the start, no islands"
    assert all(d >= 0 for row in DIST for d in row), "the route graph is connected"
    assert max(max(row) for row in DIST) == 18
    assert max(DIST[START_POINT]) == 16
    assert POINTS[START_POINT] == (0, 2)


def test_2_3_5_spread_of_symbol_spaces() -> None:
    symbol_spaces = [s for s in range(len(SPACES)) if SPACE_SYMBOL[s]]
    for a, b in combinations(symbol_spaces, 2):
        assert not set(SPACE_SIDES[a]) & set(SPACE_SIDES[b]), "no two symbol spaces share a side"
    for spaces in SYMBOL_SPACES.values():
        closest = min(
            DIST[p][q] for a, b in combinations(spaces, 2) for p in SPACE_CORNERS[a] for q in SPACE_CORNERS[b]
        )
        assert closest == 2, "no two spaces of one symbol share a corner"
    nearest = [min(SPACE_DIST[p][s] for s in spaces) for p in range(len(POINTS)) for spaces in SYMBOL_SPACES.values()]
    assert max(nearest) <= 3 and round(sum(nearest) / len(nearest), 2) == 1.05
    thirds = [(0, 8), (9, 16), (17, 25)]
    per_third = [sum(1 for s in symbol_spaces if lo <= SPACES[s][1] <= hi) for lo, hi in thirds]
    assert per_third == [17, 14, 19]
    for lo, hi in thirds:
        for spaces in SYMBOL_SPACES.values():
            assert 2 <= sum(1 for s in spaces if lo <= SPACES[s][1] <= hi) <= 4


def test_2_3_5_nearest_spaces_from_the_start_point() -> None:
    state = start_state()
    nearest = {sym: closest_free_spaces(state, sym) for sym in SYMBOLS}
    assert nearest["amphora"] == (1, [space([1, 1])])
    assert nearest["temple"] == (2, [space([1, 4])])
    assert nearest["horse"] == (2, [space([0, 5])])
    assert SPACE_DIST[POINT_ID[(0, 2)]][space([3, 5])] == 3
    assert nearest["lyre"] == (2, [space([2, 2])])
    assert nearest["soldier"] == (3, [space([1, 7]), space([3, 3])])


@settings(max_examples=60, deadline=None)
@given(order=st.permutations([s for s in range(len(SIDES)) if IS_INTERIOR[s]]), walls=st.integers(1, 247))
def test_r8_r41_incremental_splits_match_a_full_flood_fill(order: list[int], walls: int) -> None:
    laid = [0] * len(SIDES)
    province = label_provinces(laid)
    for side in order[:walls]:
        laid[side] = 1
        a, b = SIDE_SPACES[side]
        if province[a] == province[b]:
            split_by_wall(province, laid, a, b)
        if side % 5 == 0:
            assert province == label_provinces(laid)
    assert province == label_provinces(laid)
