"""What the bots need of Empire Builder: a state drawn from a seat's knowledge, and a position's value.

Hidden (§8): the other seats' sealed commits of the open allocation or reallocation. A sample
replaces each by a commit drawn from that seat's legal moves, which use only public state and the
seat's own boxes, so the sample never depends on what the others really sealed."""

from __future__ import annotations

from typing import Any

from domain.empire_builder.moves import legal_moves
from domain.empire_builder.rules import decide, evolve
from domain.empire_builder.scoring import final_awards
from domain.empire_builder.state import REALLOCATION, State
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


def boxes(state: State, seat: Seat) -> tuple[int, int, int]:
    """The seat's armies, temple and city cubes as they stand once the open sealed step is revealed:
    its commit, where it has sealed one (a sample's other seats have sealed commits drawn for them)."""
    player, sealed = state.seats[seat], state.sealed.get(seat)
    if sealed is None:
        return player.armies, player.temples, player.cities
    if state.phase == REALLOCATION:
        temples, cities = sealed
        return player.armies, temples, cities
    _, armies, temples, cities = sealed
    return armies, temples, cities


def cubes_worth(armies: int, temples: int, cities: int) -> float:
    """What the cubes in a player's boxes promise: armies win majorities; temple and city money
    pays for moves (R32) and buildings (R47, R48), and both need an army of the campaign (R23, R38),
    so without one it promises nothing (a search that valued it anyway sealed whole campaigns
    into cities with no army to found them)."""
    money = temples + cities if armies else 0
    return CUBE_WEIGHT * (armies + money)


def evaluate(state: State) -> list[float]:
    points = [float(p.vp) + cubes_worth(*boxes(state, seat)) for seat, p in enumerate(state.seats)]
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
