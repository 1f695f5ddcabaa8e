"""What the bots need of Empire Builder: a state drawn from a seat's knowledge, and a position's value.

Hidden (§8): the other seats' sealed commits of the open allocation or reallocation. A sample
replaces each by a commit drawn from that seat's legal moves, which use only public state and the
seat's own boxes, so the sample never depends on what the others really sealed."""

from __future__ import annotations

from typing import Any

from domain.empire_builder.moves import legal_moves
from domain.empire_builder.rules import decide, evolve
from domain.empire_builder.scoring import final_awards
from domain.empire_builder.state import State
from domain.kernel import Chance, Seat
from domain.kernel.sampling import clone_state, win_shares

SPREAD = 4.0
# Cubes in hand become armies on the map and buildings, which become VP and majorities.
CUBE_WEIGHT = 0.2
AWARD_WEIGHT = 0.8  # the majorities as they stand are scored at the end, if they hold


def sample_state(state: State, seat: Seat, chance: Chance) -> State:
    sample = clone_state(state)
    others = sorted(s for s in sample.sealed if s != seat)
    for other in others:
        del sample.sealed[other]
    for other in others:
        moves = legal_moves(sample, other, chance)
        move = moves[chance.below("sample:empire_builder", len(moves))]
        for event in decide(sample, other, move, chance):
            sample = evolve(sample, event)
    return sample


def evaluate(state: State) -> list[float]:
    points = [float(p.vp) + CUBE_WEIGHT * (p.armies + p.temples + p.cities) for p in state.seats]
    for award in final_awards(state):
        if award.seat is not None:
            points[award.seat] += AWARD_WEIGHT * award.vp
    return win_shares(points, SPREAD)


def observe(state: State, event_type: str, data: dict[str, Any], whole: bool, seat: Seat) -> dict[str, Any]:
    """Stand-ins for a seat's client: another seat's sealed commit is recorded as zeros until the reveal
    shows it (``sample_state`` draws a commit for it meanwhile)."""
    if not whole and event_type in ("AllocationCommitted", "ReallocationCommitted"):
        hidden = (
            ("turn_order", "armies", "temples", "cities")
            if event_type == "AllocationCommitted"
            else ("temples", "cities")
        )
        return {**data, **dict.fromkeys(hidden, 0)}
    return data
