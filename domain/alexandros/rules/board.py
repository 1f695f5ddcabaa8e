"""Rules file 2.4, board terms (R1-R11): free spaces, closeness, provinces."""

from __future__ import annotations

from domain.alexandros.data import (
    IS_OPEN,
    SPACE_CORNERS,
    SPACE_DIST,
    SPACE_SIDES,
    SYMBOL_SPACES,
    SYMBOLS,
)
from domain.alexandros.state import NOBODY, State


def is_free(state: State, space: int) -> bool:
    """R5/R6: no wall on any of its sides, no governor on it, Alexander not on one of its corners."""
    walls = state.walls
    a, b, c = SPACE_SIDES[space]
    if walls[a] or walls[b] or walls[c]:
        return False
    return state.governors[space] == NOBODY and state.alexander not in SPACE_CORNERS[space]


def has_free_space(state: State, symbol: str) -> bool:
    return any(is_free(state, s) for s in SYMBOL_SPACES[symbol])


# Per point and symbol, the symbol's spaces nearest first (by distance, then id) with their distance
# and three sides, for ``closest_free_spaces``; the spaces with Alexander's point as a corner (distance
# 0) are left out, as they are never free (R6).
SPACES_BY_DISTANCE: tuple[dict[str, tuple[tuple[int, int, int, int, int], ...]], ...] = tuple(
    {
        sym: tuple(sorted((dist_row[s], s, *SPACE_SIDES[s]) for s in SYMBOL_SPACES[sym] if dist_row[s] > 0))
        for sym in SYMBOLS
    }
    for dist_row in SPACE_DIST
)


def closest_free_spaces(state: State, symbol: str) -> tuple[int, list[int]]:
    """R28: the free spaces of ``symbol`` at the minimum distance from Alexander, in id order, and
    that distance (-1 and [] when none is free): the spaces nearest first, as far as the first
    free one's distance."""
    walls, governors = state.walls, state.governors
    best = -1
    closest: list[int] = []
    for dist, s, a, b, c in SPACES_BY_DISTANCE[state.alexander][symbol]:
        if dist != best and closest:
            break
        if not (walls[a] or walls[b] or walls[c]) and governors[s] == NOBODY:
            best = dist
            closest.append(s)
    return best, closest


def province_spaces(state: State, space: int) -> list[int]:
    label = state.province[space]
    return [s for s, lab in enumerate(state.province) if lab == label]


def province_value(spaces: list[int]) -> int:
    """R10: the number of open spaces."""
    return sum(IS_OPEN[s] for s in spaces)


def provinces(state: State) -> dict[int, list[int]]:
    """Every province (R8) by its label, with its spaces in id order."""
    groups: dict[int, list[int]] = {}
    for s, label in enumerate(state.province):
        groups.setdefault(label, []).append(s)
    return groups


def single_owner_violations(state: State) -> list[int]:
    """R11 invariant: the labels of provinces holding governors of two seats (must stay empty)."""
    owners: dict[int, set[int]] = {}
    for s, seat in enumerate(state.governors):
        if seat != NOBODY:
            owners.setdefault(state.province[s], set()).add(seat)
    return [label for label, seats in owners.items() if len(seats) > 1]
