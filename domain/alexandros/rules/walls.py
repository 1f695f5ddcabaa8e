"""Rules file 5.2, walls (R35-R41)."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

from domain.alexandros.data import IS_INTERIOR, SIDE_ID, SIDE_SPACES, parse_side, side_coord
from domain.alexandros.events import GameEndTriggered, WallBuilt
from domain.alexandros.state import BLACK, NO_WALL, RED, State, split_by_wall
from domain.kernel import Event, Seat


def walls_for_route(state: State, seat: Seat, path: list[int]) -> list[Event]:
    """R35-R39: a wall on every unwalled interior side of the route, in route order; black first,
    then red (which triggers the end, R37); sides beyond the red walls stay unwalled (R39)."""
    events: list[Event] = []
    black, red = state.black_left, state.red_left
    for a, b in itertools.pairwise(path):
        side = SIDE_ID[(a, b)]
        if not IS_INTERIOR[side] or state.walls[side] != NO_WALL:
            continue
        if black > 0:
            black -= 1
            color = "black"
        elif red > 0:
            red -= 1
            color = "red"
        else:
            break
        events.append(WallBuilt(seat=seat, side=side_coord(side), color=color, black_left=black, red_left=red))
    if red < state.red_left and state.end_reason is None:
        events.append(GameEndTriggered(seat=seat, reason="walls"))
    return events


def _wall(state: State, e: WallBuilt) -> None:
    side = parse_side(e.side)
    assert side is not None
    state.walls[side] = BLACK if e.color == "black" else RED
    state.black_left, state.red_left = e.black_left, e.red_left
    a, b = SIDE_SPACES[side]
    if state.province[a] == state.province[b]:  # only a wall inside one province can split it
        split_by_wall(state.province, state.walls, a, b)


EVOLVERS: dict[type[Event], Callable[[State, Any], None]] = {
    WallBuilt: _wall,
}
