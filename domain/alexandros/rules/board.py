"""Rules file 2.4, board terms (R1-R11): free spaces, closeness, provinces."""

from __future__ import annotations

from domain.alexandros.data import IS_OPEN, POINT_SPACES, SPACE_CORNERS, SPACE_DIST, SPACE_SIDES, SYMBOL_SPACES
from domain.alexandros.state import NOBODY, AlexandrosState


def is_free(state: AlexandrosState, space: int) -> bool:
    """R5/R6: no wall on any of its sides, no governor on it, Alexander not on one of its corners."""
    walls = state.walls
    a, b, c = SPACE_SIDES[space]
    if walls[a] or walls[b] or walls[c]:
        return False
    return state.governors[space] == NOBODY and state.alexander not in SPACE_CORNERS[space]


def has_free_space(state: AlexandrosState, symbol: str) -> bool:
    return any(is_free(state, s) for s in SYMBOL_SPACES[symbol])


# (space, its three sides) per symbol, so that ``free_spaces`` tests R5/R6 without a call per space
SYMBOL_SPACES_WITH_SIDES: dict[str, tuple[tuple[int, int, int, int], ...]] = {
    sym: tuple((s, *SPACE_SIDES[s]) for s in spaces) for sym, spaces in SYMBOL_SPACES.items()
}


def free_spaces(state: AlexandrosState, symbol: str) -> list[int]:
    """The spaces of ``symbol`` that are free (R5/R6, as ``is_free``), in id order."""
    walls, governors = state.walls, state.governors
    at_alexander = POINT_SPACES[state.alexander]
    return [
        s
        for s, a, b, c in SYMBOL_SPACES_WITH_SIDES[symbol]
        if not (walls[a] or walls[b] or walls[c]) and governors[s] == NOBODY and s not in at_alexander
    ]


def closest_to_alexander(state: AlexandrosState, spaces: list[int]) -> tuple[int, list[int]]:
    """R28: the ``spaces`` at the minimum distance from Alexander, and that distance (-1 and []
    when ``spaces`` is empty)."""
    if not spaces:
        return -1, []
    dist_row = SPACE_DIST[state.alexander]
    best = min(dist_row[s] for s in spaces)
    return best, [s for s in spaces if dist_row[s] == best]


def closest_free_spaces(state: AlexandrosState, symbol: str) -> tuple[int, list[int]]:
    """R28: the free spaces of ``symbol`` at the minimum distance from Alexander, and that distance
    (-1 and [] when none is free)."""
    return closest_to_alexander(state, free_spaces(state, symbol))


def province_spaces(state: AlexandrosState, space: int) -> list[int]:
    label = state.province[space]
    return [s for s, lab in enumerate(state.province) if lab == label]


def province_value(spaces: list[int]) -> int:
    """R10: the number of open spaces."""
    return sum(IS_OPEN[s] for s in spaces)


def provinces(state: AlexandrosState) -> dict[int, list[int]]:
    """Every province (R8) by its label, with its spaces in id order."""
    groups: dict[int, list[int]] = {}
    for s, label in enumerate(state.province):
        groups.setdefault(label, []).append(s)
    return groups


def single_owner_violations(state: AlexandrosState) -> list[int]:
    """R11 invariant: the labels of provinces holding governors of two seats (must stay empty)."""
    owners: dict[int, set[int]] = {}
    for s, seat in enumerate(state.governors):
        if seat != NOBODY:
            owners.setdefault(state.province[s], set()).add(seat)
    return [label for label, seats in owners.items() if len(seats) > 1]
