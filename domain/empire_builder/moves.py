"""Legal moves (§10.2 "Legal moves"): complete lists where small, samples drawn with ``rng`` where large.

Only public state and the seat's own boxes are used; other seats' sealed commits never are (§8).
"""

from __future__ import annotations

from typing import Any

from domain.empire_builder.commands import (
    AllocateResources,
    AttemptBuilds,
    ChooseTurnPosition,
    MoveArmies,
    ReallocateResources,
)
from domain.empire_builder.data import ALL_SPLITS, ARROWS, CITY, CITY_PIECES, MAX_PATH, TEMPLE, TEMPLE_PIECES
from domain.empire_builder.rules import awaited, build_options
from domain.empire_builder.state import State
from domain.kernel import Chance, Command, LegalMoves

ALLOCATION_SAMPLES = 12
MOVEMENT_SAMPLES = 6


class Draws:
    """Many small random choices from few draws of ``rng``: each draw is an HMAC, and sampling is the hot path."""

    __slots__ = ("_pool", "_range", "_rng")

    _BITS = 1 << 255

    def __init__(self, rng: Chance) -> None:
        self._rng = rng
        self._pool = 0
        self._range = 1

    def below(self, n: int) -> int:
        if self._range < n << 64:  # too little entropy left for a near-uniform pick
            self._pool = self._rng.below("moves", self._BITS)
            self._range = self._BITS
        self._pool, pick = divmod(self._pool, n)
        self._range //= n
        return pick


def allocation_moves(draws: Draws) -> list[Command]:
    picks = sorted({draws.below(len(ALL_SPLITS)) for _ in range(ALLOCATION_SAMPLES)})
    return [AllocateResources(*ALL_SPLITS[i]) for i in picks]


def reallocation_moves(state: State, seat: int) -> list[Command]:
    p = state.seats[seat]
    total = p.temples + p.cities
    return [ReallocateResources(t, total - t) for t in range(total + 1)]


def position_moves(state: State) -> list[Command]:
    taken = set(state.chosen.values())
    return [ChooseTurnPosition(pos) for pos in range(1, state.players + 1) if pos not in taken]


def paths_from(origin: str) -> tuple[tuple[tuple[str, ...], int], ...]:
    """Every path of 1-3 arrows out of ``origin`` (R29) with its entry cost (R8)."""
    found: list[tuple[tuple[str, ...], int]] = []
    frontier: list[tuple[tuple[str, ...], str, int]] = [((), origin, 0)]
    for _ in range(MAX_PATH):
        frontier = [
            ((*path, there), there, cost + price)
            for path, here, cost in frontier
            for there, price in ARROWS.get(here, {}).items()
        ]
        found.extend((path, cost) for path, _, cost in frontier)
    return tuple(found)


PATHS = {origin: paths_from(origin) for origin in ARROWS}


def movement_moves(state: State, seat: int, draws: Draws) -> list[Command]:
    """Staying put, plus random affordable movements with a random payment split.

    A sample has at most one group per start location, so no arrow is shared and the cost is the
    sum of the paths' costs (Ruling R34).
    """
    p = state.seats[seat]
    moves: list[Command] = [MoveArmies([], 0, 0)]
    seen: set[tuple[Any, ...]] = set()
    standing = sorted(p.at.items())
    for _ in range(MOVEMENT_SAMPLES):
        picks = []
        cost = 0
        for origin, count in standing:
            paths = PATHS[origin]
            moving = draws.below(count + 1)
            if moving and paths:
                path, price = paths[draws.below(len(paths))]
                picks.append((origin, moving, path))
                cost += price
        if not picks or cost > p.temples + p.cities:
            continue
        low, high = max(0, cost - p.cities), min(cost, p.temples)
        pay_temples = low + draws.below(high - low + 1)
        key = (*picks, pay_temples)
        if key not in seen:
            seen.add(key)
            groups = [{"from": origin, "count": moving, "path": list(path)} for origin, moving, path in picks]
            moves.append(MoveArmies(groups, pay_temples, cost - pay_temples))
    return moves


def build_moves(state: State, seat: int, draws: Draws) -> list[Command]:
    """No building, every single attempt, and one random combination within the pieces left (Ruling R42)."""
    options = build_options(state, seat)
    moves: list[Command] = [AttemptBuilds([])]
    moves.extend(AttemptBuilds([{"province": prov, "kind": kind}]) for prov, kind in options)
    if len(options) > 1:
        p = state.seats[seat]
        left = {TEMPLE: TEMPLE_PIECES - p.temples_built, CITY: CITY_PIECES - p.cities_built}
        combination = []
        for prov, kind in options:
            if left[kind] and draws.below(2):
                left[kind] -= 1
                combination.append({"province": prov, "kind": kind})
        if len(combination) > 1:
            moves.append(AttemptBuilds(combination))
    return moves


def legal_moves(state: State, seat: int, rng: Chance) -> LegalMoves:
    """Allocations, movements and combined building attempts are samples; the rest is complete."""
    allowed = awaited(state).get(seat, ())
    if not allowed:
        return LegalMoves()
    command = allowed[0]
    if command == "move_armies":
        return LegalMoves(movement_moves(state, seat, Draws(rng)), complete=not can_move(state, seat))
    if command == "attempt_builds":
        return LegalMoves(build_moves(state, seat, Draws(rng)), complete=len(build_options(state, seat)) <= 1)
    if command == "allocate_resources":
        return LegalMoves(allocation_moves(Draws(rng)), complete=False)
    if command == "reallocate_resources":
        return LegalMoves(reallocation_moves(state, seat))
    return LegalMoves(position_moves(state))


def can_move(state: State, seat: int) -> bool:
    """Whether any army of the seat could pay for a path out of where it stands (else staying is all)."""
    p = state.seats[seat]
    budget = p.temples + p.cities
    return any(count and any(cost <= budget for _, cost in PATHS[origin]) for origin, count in p.at.items())
