"""Rules file 5.4, rounds 2 and 3: the sealed reallocation (R24)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.empire_builder.commands import ReallocateResources
from domain.empire_builder.events import ReallocationCommitted, ReallocationsRevealed
from domain.empire_builder.rules.general import check_counts
from domain.empire_builder.state import TURNS, State
from domain.kernel import Command, Event, RuleViolation

SUM_MISMATCH = "SUM_MISMATCH"


def reallocation_due(state: State) -> list[int]:
    """Ruling R25: seats with temples + cities > 0 that have not yet committed."""
    return [s for s, p in enumerate(state.seats) if p.temples + p.cities > 0 and s not in state.sealed]


def decide_reallocation(state: State, seat: int, command: ReallocateResources) -> list[Event]:
    """R24. The total is public (§8), so naming it reveals nothing."""
    check_counts(temples=command.temples, cities=command.cities)
    player = state.seats[seat]
    total = player.temples + player.cities
    if command.temples + command.cities != total:
        raise RuleViolation(
            SUM_MISMATCH, f"temples + cities must stay {total}; you sent {command.temples + command.cities}"
        )
    return [ReallocationCommitted(seat, command.temples, command.cities)]


def _reallocation_committed(state: State, e: ReallocationCommitted) -> None:
    state.sealed[e.seat] = (e.temples, e.cities)


def _reallocations_revealed(state: State, e: ReallocationsRevealed) -> None:
    for box in e.boxes:
        p = state.seats[box["seat"]]
        p.temples, p.cities = box["temples"], box["cities"]
    state.sealed = {}
    state.phase = TURNS


DECIDERS: dict[type[Command], Callable[[State, int, Any], list[Event]]] = {
    ReallocateResources: decide_reallocation,
}


EVOLVERS: dict[type[Event], Callable[[State, Any], None]] = {
    ReallocationCommitted: _reallocation_committed,
    ReallocationsRevealed: _reallocations_revealed,
}
