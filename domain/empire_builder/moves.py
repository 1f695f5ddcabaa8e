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
from domain.empire_builder.rules import Group, awaited, build_options, group_costs
from domain.empire_builder.state import State
from domain.kernel import Chance, Command

ALLOCATION_SAMPLES = 12
MOVEMENT_SAMPLES = 6
NEXT: dict[str, tuple[str, ...]] = {origin: tuple(targets) for origin, targets in ARROWS.items()}


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


def random_path(origin: str, draws: Draws) -> list[str]:
    """A walk of 1-3 arrows from ``origin`` (shorter where it runs into a province with no way out)."""
    path: list[str] = []
    here = origin
    for _ in range(1 + draws.below(MAX_PATH)):
        targets = NEXT.get(here, ())
        if not targets:
            break
        here = targets[draws.below(len(targets))] if len(targets) > 1 else targets[0]
        path.append(here)
    return path


def movement_moves(state: State, seat: int, draws: Draws) -> list[Command]:
    """Staying put, plus random affordable movements with a random payment split."""
    p = state.seats[seat]
    moves: list[Command] = [MoveArmies([], 0, 0)]
    seen: set[str] = set()
    for _ in range(MOVEMENT_SAMPLES):
        groups: list[Group] = []
        for origin, count in sorted(p.at.items()):
            moving = draws.below(count + 1)
            path = random_path(origin, draws) if moving else []
            if path:
                groups.append(Group(origin, moving, tuple(path)))
        if not groups:
            continue
        cost = sum(group_costs(groups))
        if cost > p.temples + p.cities:
            continue
        low, high = max(0, cost - p.cities), min(cost, p.temples)
        pay_temples = low + draws.below(high - low + 1)
        raw: list[dict[str, Any]] = [{"from": g.origin, "count": g.count, "path": list(g.path)} for g in groups]
        key = repr((raw, pay_temples))
        if key not in seen:
            seen.add(key)
            moves.append(MoveArmies(raw, pay_temples, cost - pay_temples))
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


def legal_moves(state: State, seat: int, rng: Chance) -> list[Command]:
    allowed = awaited(state).get(seat, ())
    if not allowed:
        return []
    command = allowed[0]
    if command == "move_armies":
        return movement_moves(state, seat, Draws(rng))
    if command == "attempt_builds":
        return build_moves(state, seat, Draws(rng))
    if command == "allocate_resources":
        return allocation_moves(Draws(rng))
    if command == "reallocate_resources":
        return reallocation_moves(state, seat)
    return position_moves(state)
