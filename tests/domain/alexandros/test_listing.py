"""The legal-move listing (rules file 10.1): route samples that include the extremes of new walls,
every compensation of a take-over, and whether the listing is complete; the R11 invariant."""

from __future__ import annotations

import itertools
import subprocess
import sys

import pytest

from domain.alexandros import GAME
from domain.alexandros.commands import LevyTaxes, MoveAlexander, OccupyProvince
from domain.alexandros.data import IS_INTERIOR, SIDE_ID, SPACE_CORNERS, parse_point
from domain.alexandros.events import ProvinceOccupied
from domain.alexandros.moves import legal_moves, listed_routes, route_count
from domain.alexandros.rules import closest_free_spaces, evolve
from domain.alexandros.state import NO_WALL
from domain.kernel.errors import BrokenInvariant
from tests.domain.alexandros.fixtures import (
    F3_WALLS,
    add_walls,
    all_shortest_routes,
    chance,
    e5_state,
    e7_state,
    hand,
    place,
    point,
    run,
    start_state,
)
from tests.support.games import refusal


def walls_on(state, route: list[list[int]]) -> int:  # type: ignore[no-untyped-def]
    points = [parse_point(p) for p in route]
    sides = [SIDE_ID[(a, b)] for a, b in itertools.pairwise(points)]  # type: ignore[index]
    return sum(1 for side in sides if IS_INTERIOR[side] and state.walls[side] == NO_WALL)


def test_a_sampled_corner_lists_the_routes_with_the_fewest_and_the_most_new_walls() -> None:
    state = start_state()
    add_walls(state, F3_WALLS)
    start, goal = [0, 2], [0, 18]
    every = all_shortest_routes(start, goal)
    assert len(every) == route_count(point(start), point(goal)) > 20
    counts = [walls_on(state, r) for r in every]
    assert min(counts) < max(counts), "the example must tell the extremes apart"
    listed, complete = listed_routes(state, point(start), point(goal), chance())
    assert not complete
    listed_counts = {walls_on(state, list(r)) for r in listed}
    assert {min(counts), max(counts)} <= listed_counts
    assert all(list(r) in every for r in listed)


def test_the_listing_says_whether_it_is_complete() -> None:
    small = start_state()
    moves = legal_moves(small, 0, chance())
    corners = {tuple(m.corner) for m in moves if isinstance(m, MoveAlexander)}
    every_small = all(route_count(small.alexander, point(list(c))) <= 20 for c in corners)
    assert moves.complete is every_small
    assert every_small and moves.complete
    far = start_state(display=("horse", "horse"))
    far.alexander = point([8, 2])  # the closest free horse spaces are far away
    targets = closest_free_spaces(far, "horse")[1]
    assert any(route_count(far.alexander, c) > 20 for t in targets for c in SPACE_CORNERS[t])
    assert not legal_moves(far, 0, chance()).complete


def test_a_takeover_listing_offers_every_compensation() -> None:
    """E7: 5 cards paid (4 eviction, 1 occupation), 3 owed back: hhh, hhs or hss."""
    state = e7_state(hand(horse=3, soldier=2, temple=1))
    listing = legal_moves(state, 2, chance())
    offered = sorted(
        m.compensation for m in listing if isinstance(m, OccupyProvince) and m.governors == [[3, 14], [4, 12]]
    )
    assert offered == [["horse", "horse", "horse"], ["horse", "horse", "soldier"], ["horse", "soldier", "soldier"]]
    assert not listing.complete, "one cheapest choice of governor spaces per count"


def broken_r11() -> tuple[object, ProvinceOccupied]:
    state = e7_state(hand(horse=3, soldier=2, temple=1))
    event = ProvinceOccupied(
        seat=2,
        province=[[3, 10], [3, 14], [4, 12]],
        governors=[[3, 14]],
        cards_paid=["horse"],
        takeover=None,  # seat 1's governors stay: two seats in one province
    )
    return state, event


def test_the_r11_invariant_is_an_explicit_check() -> None:
    state, event = broken_r11()
    with pytest.raises(BrokenInvariant, match="R11"):
        evolve(state, event)  # type: ignore[arg-type]


def test_the_r11_invariant_holds_under_python_o() -> None:
    code = (
        "from tests.domain.alexandros.test_listing import broken_r11\n"
        "from domain.alexandros.rules import evolve\n"
        "from domain.kernel.errors import BrokenInvariant\n"
        "state, event = broken_r11()\n"
        "try:\n    evolve(state, event)\nexcept BrokenInvariant:\n    print('refused')\n"
    )
    result = subprocess.run([sys.executable, "-O", "-c", code], capture_output=True, text=True, check=False)
    assert result.stdout.strip() == "refused", result.stderr


def test_a_malformed_card_comes_before_already_levied() -> None:
    """The shared order: BAD_INPUT (an unknown symbol) before the command's own ALREADY_LEVIED."""
    first = e5_state(hand(lyre=2))[0]
    place(first, 2, [3, 14])
    first, _ = run(first, 2, LevyTaxes(card="lyre"))
    assert refusal(GAME, first, 2, LevyTaxes(card="gold")) == "BAD_INPUT"
    assert refusal(GAME, first, 2, LevyTaxes(card="lyre")) == "ALREADY_LEVIED"
