"""Rules file 2.4, board terms (R1-R11): free spaces, closeness, provinces."""

from __future__ import annotations

from domain.alexandros.data import IS_OPEN, SPACE_CORNERS, SPACE_DIST, SPACE_SIDES, SYMBOL_SPACES
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


def closest_free_spaces(state: AlexandrosState, symbol: str) -> tuple[int, list[int]]:
    """R28: the free spaces of ``symbol`` at the minimum distance from Alexander, and that distance
    (-1 and [] when none is free)."""
    dist_row = SPACE_DIST[state.alexander]
    best, closest = -1, []
    for s in SYMBOL_SPACES[symbol]:
        if not is_free(state, s):
            continue
        d = dist_row[s]
        if best < 0 or d < best:
            best, closest = d, [s]
        elif d == best:
            closest.append(s)
    return best, closest


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
