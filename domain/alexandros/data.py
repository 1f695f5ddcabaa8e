"""The board and the components, loaded once from the data files beside this module.

Spaces, points and sides get integer ids here so that the rules can work on flat lists;
the coordinates ``[r,c]`` / ``[i,x]`` of the rules file (section 2.3.1) appear only at the edges
(commands, events, views). Everything the rules need about the geometry (adjacency, all-pairs
distances on the route graph) is computed once at import.
"""

from __future__ import annotations

import json
from collections import deque
from pathlib import Path
from typing import Any

from domain.kernel.options import OptionSpec

_HERE = Path(__file__).parent


def _load(name: str) -> dict[str, Any]:
    table: dict[str, Any] = json.loads((_HERE / name).read_text(encoding="utf-8"))
    return table


_BOARD = _load("board.json")
_COMPONENTS = _load("components.json")

BOARD_ID: str = _BOARD["id"]
ROWS: tuple[str, ...] = tuple(_BOARD["rows"])
SYMBOLS: tuple[str, ...] = tuple(_COMPONENTS["symbols"])
SYMBOL_OF_LETTER: dict[str, str] = dict(_BOARD["symbols"])
CARDS_PER_SYMBOL: int = _COMPONENTS["cards_per_symbol"]
GOVERNORS_PER_SEAT: int = _COMPONENTS["governors_per_seat"]
BLACK_WALLS: int = _COMPONENTS["black_walls"]
RED_WALLS: int = _COMPONENTS["red_walls"]
DISPLAY_SLOTS: int = _COMPONENTS["display_slots"]
ACTIONS_PER_TURN: int = _COMPONENTS["actions_per_turn"]
WINNING_SCORE: int = _COMPONENTS["winning_score"]

SEA = "~"

Coord = tuple[int, int]


def space_corners(r: int, c: int) -> tuple[Coord, Coord, Coord]:
    """The three corner points of s(r,c) (rules 2.3.1): ▽ when r+c is even, △ when odd."""
    if (r + c) % 2 == 0:
        return (r, c), (r, c + 2), (r + 1, c + 1)
    return (r, c + 1), (r + 1, c), (r + 1, c + 2)


def _side(a: Coord, b: Coord) -> tuple[Coord, Coord]:
    return (a, b) if a < b else (b, a)


def space_side_pairs(r: int, c: int) -> tuple[tuple[Coord, Coord], ...]:
    p, q, s = space_corners(r, c)
    return _side(p, q), _side(p, s), _side(q, s)


# -- spaces -----------------------------------------------------------------------------------------

SPACES: tuple[Coord, ...] = tuple((r, c) for r, row in enumerate(ROWS) for c, ch in enumerate(row) if ch != SEA)
SPACE_ID: dict[Coord, int] = {rc: i for i, rc in enumerate(SPACES)}
SPACE_SYMBOL: tuple[str | None, ...] = tuple(SYMBOL_OF_LETTER.get(ROWS[r][c]) for r, c in SPACES)
IS_OPEN: tuple[bool, ...] = tuple(sym is None for sym in SPACE_SYMBOL)
SYMBOL_SPACE_IDS: tuple[int, ...] = tuple(i for i, sym in enumerate(SPACE_SYMBOL) if sym is not None)
SYMBOL_SPACES: dict[str, tuple[int, ...]] = {
    sym: tuple(i for i, s in enumerate(SPACE_SYMBOL) if s == sym) for sym in SYMBOLS
}

# -- points -----------------------------------------------------------------------------------------

POINTS: tuple[Coord, ...] = tuple(sorted({p for r, c in SPACES for p in space_corners(r, c)}))
POINT_ID: dict[Coord, int] = {p: i for i, p in enumerate(POINTS)}
SPACE_CORNERS: tuple[tuple[int, int, int], ...] = tuple(
    tuple(POINT_ID[p] for p in space_corners(r, c))  # type: ignore[misc]
    for r, c in SPACES
)
POINT_SPACES: tuple[frozenset[int], ...] = tuple(
    frozenset(s for s, corners in enumerate(SPACE_CORNERS) if p in corners) for p in range(len(POINTS))
)
START_POINT: int = POINT_ID[tuple(_BOARD["start_point"])]

# -- sides ------------------------------------------------------------------------------------------


def _build_sides() -> tuple[tuple[tuple[int, int], ...], tuple[tuple[int, ...], ...]]:
    spaces_of: dict[tuple[Coord, Coord], list[int]] = {}
    for s, (r, c) in enumerate(SPACES):
        for pair in space_side_pairs(r, c):
            spaces_of.setdefault(pair, []).append(s)
    ordered = sorted(spaces_of)
    return (
        tuple((POINT_ID[a], POINT_ID[b]) for a, b in ordered),
        tuple(tuple(spaces_of[pair]) for pair in ordered),
    )


SIDES, SIDE_SPACES = _build_sides()
SIDE_ID: dict[tuple[int, int], int] = {}
for _sid, (_a, _b) in enumerate(SIDES):
    SIDE_ID[(_a, _b)] = _sid
    SIDE_ID[(_b, _a)] = _sid
IS_INTERIOR: tuple[bool, ...] = tuple(len(spaces) == 2 for spaces in SIDE_SPACES)
SPACE_SIDES: tuple[tuple[int, int, int], ...] = tuple(
    tuple(SIDE_ID[(POINT_ID[a], POINT_ID[b])] for a, b in space_side_pairs(r, c))  # type: ignore[misc]
    for r, c in SPACES
)
# Neighbours across interior sides, with the side between them (for flood fills over walls).
SPACE_NEIGHBOURS: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((next(o for o in SIDE_SPACES[side] if o != s), side) for side in SPACE_SIDES[s] if IS_INTERIOR[side])
    for s in range(len(SPACES))
)

# -- route graph (rules R3, R4) -----------------------------------------------------------------------

POINT_NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted({b for a, b in SIDES if a == p} | {a for a, b in SIDES if b == p})) for p in range(len(POINTS))
)


def _distances_from(origin: int) -> list[int]:
    dist = [-1] * len(POINTS)
    dist[origin] = 0
    queue = deque([origin])
    while queue:
        p = queue.popleft()
        for q in POINT_NEIGHBOURS[p]:
            if dist[q] < 0:
                dist[q] = dist[p] + 1
                queue.append(q)
    return dist


# DIST[a][b]: sides on a shortest route from point a to point b. Walls never change it (R3).
DIST: tuple[tuple[int, ...], ...] = tuple(tuple(_distances_from(p)) for p in range(len(POINTS)))
# SPACE_DIST[p][s]: the distance from point p to space s, the nearest of its corners (R3).
SPACE_DIST: tuple[tuple[int, ...], ...] = tuple(
    tuple(min(row[c] for c in corners) for corners in SPACE_CORNERS) for row in DIST
)

# -- coordinates at the edges ---------------------------------------------------------------------------


def space_coord(space: int) -> list[int]:
    return list(SPACES[space])


def point_coord(point: int) -> list[int]:
    return list(POINTS[point])


def side_coord(side: int) -> list[list[int]]:
    a, b = SIDES[side]
    return [point_coord(a), point_coord(b)]


def parse_space(value: Any) -> int | None:
    """The id of the space ``[r,c]``, or None when ``value`` is not a space of the board."""
    if isinstance(value, list) and len(value) == 2 and all(type(v) is int for v in value):
        return SPACE_ID.get((value[0], value[1]))
    return None


def parse_point(value: Any) -> int | None:
    """The id of the point ``[i,x]``, or None when ``value`` is not a point of the board."""
    if isinstance(value, list) and len(value) == 2 and all(type(v) is int for v in value):
        return POINT_ID.get((value[0], value[1]))
    return None


def parse_side(value: Any) -> int | None:
    if isinstance(value, list) and len(value) == 2:
        a, b = parse_point(value[0]), parse_point(value[1])
        if a is not None and b is not None:
            return SIDE_ID.get((a, b))
    return None


OPTIONS = (
    OptionSpec(
        name="board",
        description="the board (the game has no variants; one board)",
        schema={"type": "string", "enum": [BOARD_ID], "default": BOARD_ID},
    ),
)
"""The options of a game (``GameDefinition.options``): their schemas are what clients are shown."""
