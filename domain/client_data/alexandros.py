"""Alexandros for clients: the triangle board (every space with its symbol and corners, every point
with its position), the start point and the components.

Points are ``[i, x]`` (rules 2.3.1): row ``i`` from the top, ``x`` in half side lengths. A point's
position on a drawing with sides of length 1 is ``(x / 2, i * sqrt(3) / 2)``; ``xy`` gives it.
"""

from __future__ import annotations

import math
from typing import Any

from domain.alexandros import data

ROW_HEIGHT = math.sqrt(3) / 2


def point_xy(point: tuple[int, int]) -> list[float]:
    i, x = point
    return [x / 2, round(i * ROW_HEIGHT, 6)]


def static() -> dict[str, Any]:
    return {
        "board_id": data.BOARD_ID,
        "rows": list(data.ROWS),
        "symbols": list(data.SYMBOLS),
        "spaces": [
            {
                "space": list(rc),
                "symbol": data.SPACE_SYMBOL[s],
                "corners": [data.point_coord(p) for p in data.SPACE_CORNERS[s]],
            }
            for s, rc in enumerate(data.SPACES)
        ],
        "points": [{"point": list(p), "xy": point_xy(p)} for p in data.POINTS],
        "start_point": data.point_coord(data.START_POINT),
        "components": {
            "cards_per_symbol": data.CARDS_PER_SYMBOL,
            "governors_per_seat": data.GOVERNORS_PER_SEAT,
            "black_walls": data.BLACK_WALLS,
            "red_walls": data.RED_WALLS,
            "display_slots": data.DISPLAY_SLOTS,
            "actions_per_turn": data.ACTIONS_PER_TURN,
            "winning_score": data.WINNING_SCORE,
        },
    }
