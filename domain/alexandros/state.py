"""The aggregate's state (rules file section 10.3), on the integer ids of ``data``.

``province`` is derived from ``walls`` (R8) and kept up to date by ``evolve`` so that the rules
never flood-fill twice for the same walls; replay rebuilds it the same way.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from domain.alexandros.data import (
    BLACK_WALLS,
    DISPLAY_SLOTS,
    GOVERNORS_PER_SEAT,
    RED_WALLS,
    SIDES,
    SPACE_NEIGHBOURS,
    SPACES,
    START_POINT,
    SYMBOLS,
)

NO_WALL, BLACK, RED = 0, 1, 2
WALL_COLORS = {BLACK: "black", RED: "red"}
NOBODY = -1

# Steps of a game (R19).
SETUP = "setup"
MOVE = "move"
ACTIONS = "actions"
TURN_OVER = "turn_over"  # after TurnEnded: the next TurnStarted or GameEnded follows
OVER = "over"
STEPS = (SETUP, MOVE, ACTIONS, TURN_OVER, OVER)


def empty_hand() -> dict[str, int]:
    return dict.fromkeys(SYMBOLS, 0)


@dataclass
class State:
    players: int
    step: str = SETUP
    seat: int = 0
    turn: int = 0
    actions_taken: int = 0
    levied: bool = False
    end_reason: str | None = None  # the game-end flag (R37, R34): "walls" or "no_free_space"
    alexander: int = START_POINT
    walls: list[int] = field(default_factory=lambda: [NO_WALL] * len(SIDES))
    black_left: int = BLACK_WALLS
    red_left: int = RED_WALLS
    province: list[int] = field(default_factory=lambda: [0] * len(SPACES))
    governors: list[int] = field(default_factory=lambda: [NOBODY] * len(SPACES))
    governor_supply: list[int] = field(default_factory=list)
    display: list[str | None] = field(default_factory=lambda: [None] * DISPLAY_SLOTS)
    supply: list[str] = field(default_factory=list)
    discard: list[str] = field(default_factory=list)
    hands: list[dict[str, int]] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)
    reshuffles: int = 0
    winners: list[int] = field(default_factory=list)
    end: str | None = None  # GameEnded's reason

    @classmethod
    def new(cls, players: int) -> State:
        return cls(
            players=players,
            governor_supply=[GOVERNORS_PER_SEAT] * players,
            hands=[empty_hand() for _ in range(players)],
            scores=[0] * players,
        )


def initial_state(players: int, options: dict[str, Any]) -> State:
    """The state before any event; the one option (the board) changes nothing in it."""
    return State.new(players)


def label_provinces(walls: list[int]) -> list[int]:
    """R8: each space's province, labelled by the smallest space id in it (flood fill over unwalled
    interior sides)."""
    label = [-1] * len(SPACES)
    for start in range(len(SPACES)):
        if label[start] >= 0:
            continue
        label[start] = start
        stack = [start]
        while stack:
            s = stack.pop()
            for other, side in SPACE_NEIGHBOURS[s]:
                if label[other] < 0 and walls[side] == NO_WALL:
                    label[other] = start
                    stack.append(other)
    return label


def split_by_wall(province: list[int], walls: list[int], a: int, b: int) -> None:
    """R41: after a new wall between the neighbours ``a`` and ``b`` of one province, relabel the
    province in place if they are no longer connected. Two searches run in turn from both sides
    and stop when they meet (no split) or one runs out (that side is a part of its own), so the
    cost follows the smaller part, not the province."""
    seen = ({a}, {b})
    queues = ([a], [b])
    heads = [0, 0]
    while True:
        for k in (0, 1):
            queue = queues[k]
            if heads[k] == len(queue):
                _relabel(province, seen[k], province[a])
                return
            here = queue[heads[k]]
            heads[k] += 1
            mine, theirs = seen[k], seen[1 - k]
            for other, side in SPACE_NEIGHBOURS[here]:
                if walls[side] == NO_WALL and other not in mine:
                    if other in theirs:
                        return
                    mine.add(other)
                    queue.append(other)


def _relabel(province: list[int], part: set[int], old: int) -> None:
    """Split ``part`` off the province labelled ``old``; both keep the smallest space id as label."""
    rest = [s for s, label in enumerate(province) if label == old and s not in part]
    part_label, rest_label = min(part), min(rest)
    for s in part:
        province[s] = part_label
    for s in rest:
        province[s] = rest_label
