"""Catan "Alexander the Great" and the base board for clients: for each board its hexes (position,
name, printed terrain and number), every intersection with its position, every path, the harbours
and Alexander's route; the costs, the development deck, the tasks and the advisors.

Hexes are axial ``[q, r]`` and intersections ``N(q,r)`` / ``S(q,r)`` (rules 2.2). Positions are for
pointy-top hexes of circumradius 1: a hex's centre is ``(sqrt(3) * (q + r / 2), 1.5 * r)``, its
``N`` corner one unit above, its ``S`` corner one unit below.
"""

from __future__ import annotations

import math
from typing import Any

from domain.catan_alexander import data

SQRT3 = math.sqrt(3)


def hex_centre(q: int, r: int) -> tuple[float, float]:
    return SQRT3 * (q + r / 2), 1.5 * r


def vertex_xy(name: str) -> list[float]:
    key = data.parse_vertex(name)
    assert key is not None, name
    kind, q, r = key
    x, y = hex_centre(q, r)
    return [round(x, 6), round(y - 1 if kind == "N" else y + 1, 6)]


def board(geometry: data.Geometry) -> dict[str, Any]:
    return {
        "board_id": geometry.board_id,
        "hexes": [
            {
                "hex": list(h),
                "name": geometry.hex_names[i],
                "terrain": geometry.default_terrain[i],
                "number": geometry.default_numbers[i] or None,
                "centre": [round(c, 6) for c in hex_centre(*h)],
                "corners": [geometry.vertices[v] for v in geometry.hex_vertices[i]],
            }
            for i, h in enumerate(geometry.hexes)
        ],
        "vertices": [{"vertex": name, "xy": vertex_xy(name)} for name in geometry.vertices],
        "edges": [geometry.edge_ref(e) for e in range(len(geometry.edges))],
        "harbours": [{"type": kind, "edge": geometry.edge_ref(edge)} for kind, edge in geometry.harbours],
        "robber_start": list(geometry.hexes[geometry.robber_start]),
        "route": [
            {"x": i, "vertex": geometry.vertices[v], "kind": geometry.route_kinds[i], "site": geometry.route_sites[i]}
            for i, v in enumerate(geometry.route)
        ],
    }


def static() -> dict[str, Any]:
    def costs(amounts: tuple[int, ...]) -> dict[str, int]:
        return {r: n for r, n in zip(data.RESOURCES, amounts, strict=True) if n}

    return {
        "boards": {name: board(geometry) for name, geometry in data.GEOMETRIES.items()},
        "resources": list(data.RESOURCES),
        "goods": list(data.GOODS),
        "terrain_product": {t: (data.GOODS[p] if p >= 0 else None) for t, p in data.TERRAIN_PRODUCT.items()},
        "costs": {
            "road": costs(data.ROAD_COST),
            "settlement": costs(data.SETTLEMENT_COST),
            "city": costs(data.CITY_COST),
            "development_card": costs(data.DEVELOPMENT_COST),
        },
        "pieces_per_player": {
            "roads": data.ROADS_PER_PLAYER,
            "settlements": data.SETTLEMENTS_PER_PLAYER,
            "cities": data.CITIES_PER_PLAYER,
        },
        "development_deck": {card: data.DEVELOPMENT_DECK.count(card) for card in dict.fromkeys(data.DEVELOPMENT_DECK)},
        "tasks": list(data.TASKS),
        "task_accepts": {task: list(goods) for task, goods in data.TASK_ACCEPTS.items()},
        "knight_bid_value": data.KNIGHT_BID_VALUE,
        "advisors": {a: {"vp": data.ADVISOR_VP[a]} for a in data.ADVISORS},
        "advisors_in_play": {str(n): list(a) for n, a in data.ADVISORS_IN_PLAY.items()},
        "goals": {"alexander": data.SCENARIO_GOAL, "base": data.BASE_GOAL},
        "discard_limits": {"alexander": data.SCENARIO_DISCARD_LIMIT, "base": data.BASE_DISCARD_LIMIT},
        "longest_road_min": data.LONGEST_ROAD_MIN,
        "largest_army_min": data.LARGEST_ARMY_MIN,
        "token_crossings": list(data.TOKEN_CROSSINGS),
        "temple_crossings": list(data.TEMPLE_CROSSINGS),
    }
