"""Boards, costs and card tables, loaded once at import.

The hex data lives in ``board.json`` (the scenario board, rules file §2.3-2.5) and
``base_board.json`` (the base game, §7.1). Intersections, paths and their adjacency are
derived here from the hex positions with the coordinate scheme of §2.2, so a transcribed
printed board can replace the data files without code changes.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from domain.kernel.options import OptionSpec

HERE = Path(__file__).parent

RESOURCES = ("brick", "grain", "lumber", "ore", "wool")  # canonical order (§2.1)
GOODS = (*RESOURCES, "gold")
GOLD = 5
GOOD_INDEX = {name: i for i, name in enumerate(GOODS)}
RESOURCE_INDEX = {name: i for i, name in enumerate(RESOURCES)}

TERRAIN_PRODUCT = {
    "hills": 0,
    "fields": 1,
    "forest": 2,
    "mountains": 3,
    "pasture": 4,
    "gold_river": GOLD,
    "desert": -1,
}

# R40: costs in resource counts, canonical order brick, grain, lumber, ore, wool
ROAD_COST = (1, 0, 1, 0, 0)
SETTLEMENT_COST = (1, 1, 1, 0, 1)
CITY_COST = (0, 2, 0, 3, 0)
DEVELOPMENT_COST = (0, 1, 0, 1, 1)

ROADS_PER_PLAYER = 15
SETTLEMENTS_PER_PLAYER = 5
CITIES_PER_PLAYER = 4
GOLD_PIECES = 40  # Ruling R3
CARDS_PER_RESOURCE = 19

# §9 chance #2: canonical order of the development deck before shuffling
DEVELOPMENT_DECK = (
    ("knight",) * 14 + ("road_building",) * 2 + ("year_of_plenty",) * 2 + ("monopoly",) * 2 + ("victory_point",) * 5
)
PROGRESS_COMMAND_CARD = {
    "play_knight": "knight",
    "play_road_building": "road_building",
    "play_year_of_plenty": "year_of_plenty",
    "play_monopoly": "monopoly",
}

# §2.7: tasks, the goods each accepts in bids (knights separately, battle only)
TASKS = ("famine", "bridge", "battle", "statue")
TOKEN_MIX = ("famine",) * 7 + ("bridge",) * 7 + ("battle",) * 7 + ("statue",) * 7
TASK_ACCEPTS: dict[str, tuple[str, ...]] = {
    "village": ("brick", "grain", "lumber", "wool", "gold"),
    "famine": ("grain", "wool", "gold"),
    "bridge": ("brick", "lumber", "gold"),
    "battle": ("ore", "wool", "gold"),
    "statue": ("brick", "ore", "gold"),
}
KNIGHT_BID_VALUE = 3
MAX_BID = 999  # Ruling R22

ADVISORS = ("first", "second", "third")
ADVISOR_VP = {"first": 4, "second": 3, "third": 2}
ADVISORS_IN_PLAY = {3: ("first", "third"), 4: ("first", "second", "third")}  # R34

SCENARIO_GOAL = 14  # R56
BASE_GOAL = 10  # §7.1
SCENARIO_DISCARD_LIMIT = 11  # R13: more than 11 cards discard
BASE_DISCARD_LIMIT = 7
LONGEST_ROAD_MIN = 5
LARGEST_ARMY_MIN = 3

_VERTEX_RE = re.compile(r"^([NS])\((-?\d+),(-?\d+)\)$")

Hex = tuple[int, int]
VertexKey = tuple[str, int, int]


def parse_vertex(name: str) -> VertexKey | None:
    match = _VERTEX_RE.match(name)
    if match is None:
        return None
    return match.group(1), int(match.group(2)), int(match.group(3))


def vertex_name(key: VertexKey) -> str:
    return f"{key[0]}({key[1]},{key[2]})"


def vertex_hexes(key: VertexKey) -> tuple[Hex, Hex, Hex]:
    """§2.2: the three hexes meeting at an intersection."""
    kind, q, r = key
    if kind == "N":
        return (q, r), (q, r - 1), (q + 1, r - 1)
    return (q, r), (q - 1, r + 1), (q, r + 1)


def vertex_neighbours(key: VertexKey) -> tuple[VertexKey, VertexKey, VertexKey]:
    kind, q, r = key
    if kind == "N":
        return ("S", q, r - 1), ("S", q + 1, r - 1), ("S", q + 1, r - 2)
    return ("N", q, r + 1), ("N", q - 1, r + 1), ("N", q - 1, r + 2)


def hex_corners(h: Hex) -> tuple[VertexKey, ...]:
    """Clockwise from the top: N, NE, SE, S, SW, NW."""
    q, r = h
    return ("N", q, r), ("S", q + 1, r - 1), ("N", q, r + 1), ("S", q, r), ("N", q - 1, r + 1), ("S", q, r - 1)


@dataclass(frozen=True)
class Geometry:
    """The static graph of one board: land hexes, intersections, paths, harbours, route."""

    board_id: str
    hexes: tuple[Hex, ...]
    hex_index: dict[Hex, int]
    hex_names: tuple[str, ...]
    default_terrain: tuple[str, ...]
    default_numbers: tuple[int, ...]  # 0 = no number
    vertices: tuple[str, ...]
    vertex_index: dict[str, int]
    vertex_adj: tuple[tuple[int, ...], ...]
    vertex_hexes: tuple[tuple[int, ...], ...]  # land hexes only
    hex_vertices: tuple[tuple[int, ...], ...]
    edges: tuple[tuple[int, int], ...]
    edge_index: dict[tuple[int, int], int]  # (low, high) vertex ids -> edge id
    vertex_edges: tuple[tuple[int, ...], ...]
    harbour_at: dict[int, str]  # vertex -> "generic" or a resource
    harbours: tuple[tuple[str, int], ...]  # (type, edge id)
    robber_start: int
    route: tuple[int, ...]  # vertex of X0 ... X52 (empty on the base board)
    route_kinds: tuple[str, ...]
    route_sites: tuple[str, ...]
    route_index: dict[int, int]  # vertex -> i of Xi
    route_block: tuple[int, ...]  # per vertex: highest Xi on it or next to it (-1: none), for R42

    def edge_between(self, a: int, b: int) -> int | None:
        return self.edge_index.get((a, b) if a < b else (b, a))

    def edge_ref(self, edge: int) -> list[str]:
        a, b = self.edges[edge]
        return [self.vertices[a], self.vertices[b]]


def _build_geometry(
    board_id: str,
    land: list[Hex],
    names: list[str],
    terrain: list[str],
    numbers: list[int],
    harbour_edges: list[tuple[str, tuple[str, str]]] | None,
    coast_start: tuple[str, str] | None,
    coast_harbours: list[tuple[int, str]] | None,
    robber_start: Hex,
    route: list[dict[str, str]],
) -> Geometry:
    land_set = set(land)
    keys: set[VertexKey] = set()
    for h in land:
        keys.update(hex_corners(h))
    ordered = sorted(keys, key=lambda k: (k[2], k[1], k[0]))
    vertex_index = {vertex_name(k): i for i, k in enumerate(ordered)}
    key_index = {k: i for i, k in enumerate(ordered)}
    hex_index = {h: i for i, h in enumerate(land)}
    v_hexes = [tuple(sorted(hex_index[h] for h in vertex_hexes(k) if h in land_set)) for k in ordered]
    adjacency: list[list[int]] = [[] for _ in ordered]
    edges: list[tuple[int, int]] = []
    for i, k in enumerate(ordered):
        for n in vertex_neighbours(k):
            j = key_index.get(n)
            if j is None:
                continue
            shared = set(vertex_hexes(k)) & set(vertex_hexes(n))
            if not shared & land_set:
                continue
            adjacency[i].append(j)
            if i < j:
                edges.append((i, j))
    edges.sort()
    edge_index = {e: n for n, e in enumerate(edges)}
    vertex_edges: list[list[int]] = [[] for _ in ordered]
    for edge_id, (first, second) in enumerate(edges):
        vertex_edges[first].append(edge_id)
        vertex_edges[second].append(edge_id)
    hex_vertices = tuple(tuple(key_index[c] for c in hex_corners(h)) for h in land)

    harbours: list[tuple[str, int]] = []
    if harbour_edges is not None:
        for kind, (corner_a, corner_b) in harbour_edges:
            va, vb = vertex_index[corner_a], vertex_index[corner_b]
            harbours.append((kind, edge_index[(min(va, vb), max(va, vb))]))
    if coast_start is not None and coast_harbours is not None:
        coast = _coast_walk(coast_start, vertex_index, edges, edge_index, vertex_edges, v_hexes)
        harbours.extend((kind, coast[position]) for position, kind in coast_harbours)
    harbour_at: dict[int, str] = {}
    for kind, edge in harbours:
        for v in edges[edge]:
            harbour_at[v] = kind

    route_vertices = tuple(vertex_index[x["vertex"]] for x in route)
    route_index = {v: i for i, v in enumerate(route_vertices)}
    block = []
    for v in range(len(ordered)):
        near = [route_index[u] for u in (v, *adjacency[v]) if u in route_index]
        block.append(max(near) if near else -1)

    return Geometry(
        board_id=board_id,
        hexes=tuple(land),
        hex_index=hex_index,
        hex_names=tuple(names),
        default_terrain=tuple(terrain),
        default_numbers=tuple(numbers),
        vertices=tuple(vertex_name(k) for k in ordered),
        vertex_index=vertex_index,
        vertex_adj=tuple(tuple(a) for a in adjacency),
        vertex_hexes=tuple(v_hexes),
        hex_vertices=hex_vertices,
        edges=tuple(edges),
        edge_index=edge_index,
        vertex_edges=tuple(tuple(e) for e in vertex_edges),
        harbour_at=harbour_at,
        harbours=tuple(harbours),
        robber_start=hex_index[robber_start],
        route=route_vertices,
        route_kinds=tuple(x["kind"] for x in route),
        route_sites=tuple(x.get("site", "") for x in route),
        route_index=route_index,
        route_block=tuple(block),
    )


def _coast_walk(
    start: tuple[str, str],
    vertex_index: dict[str, int],
    edges: list[tuple[int, int]],
    edge_index: dict[tuple[int, int], int],
    vertex_edges: list[list[int]],
    v_hexes: list[tuple[int, ...]],
) -> list[int]:
    """The coastal paths in order, starting with ``start`` and walking in its direction."""

    def coastal(e: int) -> bool:
        a, b = edges[e]
        return len(set(v_hexes[a]) & set(v_hexes[b])) == 1

    a, b = vertex_index[start[0]], vertex_index[start[1]]
    first = edge_index[(min(a, b), max(a, b))]
    order = [first]
    here, previous = b, first
    while True:
        (following,) = [e for e in vertex_edges[here] if e != previous and coastal(e)]
        if following == first:
            return order
        order.append(following)
        x, y = edges[following]
        here = y if x == here else x
        previous = following


def _load_alexander() -> tuple[Geometry, dict[str, object]]:
    raw = json.loads((HERE / "board.json").read_text(encoding="utf-8"))
    land = [(h["q"], h["r"]) for h in raw["hexes"]]
    geometry = _build_geometry(
        board_id=raw["board_id"],
        land=land,
        names=[h["name"] for h in raw["hexes"]],
        terrain=[h["terrain"] for h in raw["hexes"]],
        numbers=[h["number"] or 0 for h in raw["hexes"]],
        harbour_edges=[(h["type"], tuple(h["vertices"])) for h in raw["harbours"]],
        coast_start=None,
        coast_harbours=None,
        robber_start=tuple(raw["robber_start"]),
        route=raw["route"],
    )
    return geometry, raw


def _load_base() -> tuple[Geometry, dict[str, object]]:
    raw = json.loads((HERE / "base_board.json").read_text(encoding="utf-8"))
    land = [(h["q"], h["r"]) for h in raw["hexes"]]
    desert = next((h["q"], h["r"]) for h in raw["hexes"] if h["terrain"] == "desert")
    geometry = _build_geometry(
        board_id=raw["board_id"],
        land=land,
        names=[f"({q},{r})" for q, r in land],
        terrain=[h["terrain"] for h in raw["hexes"]],
        numbers=[h["number"] or 0 for h in raw["hexes"]],
        harbour_edges=None,
        coast_start=tuple(raw["coast_start"]),
        coast_harbours=[(h["coast_path"], h["type"]) for h in raw["harbours"]],
        robber_start=desert,
        route=[],
    )
    return geometry, raw


ALEXANDER, ALEXANDER_RAW = _load_alexander()
BASE, BASE_RAW = _load_base()
GEOMETRIES = {"alexander": ALEXANDER, "base": BASE}
BASE_RANDOM_NUMBERS: tuple[int, ...] = tuple(BASE_RAW["random_number_tokens"])  # type: ignore[arg-type]
BASE_SPIRAL: tuple[Hex, ...] = tuple(tuple(h) for h in BASE_RAW["spiral"])  # type: ignore[attr-defined]

TOKEN_CROSSINGS = tuple(i for i, kind in enumerate(ALEXANDER.route_kinds) if kind == "token")
TEMPLE_CROSSINGS = tuple(i for i, kind in enumerate(ALEXANDER.route_kinds) if kind == "temple")
PERSEPOLIS_POSITION = len(ALEXANDER.route) - 2  # p = 51: X51 passed


OPTIONS = (
    OptionSpec(
        name="board",
        description="the scenario board of Alexander's campaign, or the base game's board (rules 7.1)",
        schema={"type": "string", "enum": ["alexander", "base"], "default": "alexander"},
    ),
    OptionSpec(
        name="layout",
        description="base board only: the beginner layout or a random one",
        schema={"type": "string", "enum": ["beginner", "random"], "default": "beginner"},
        requires={"board": "base"},
    ),
    OptionSpec(
        name="starting_gold",
        description="scenario board only: the gold each seat starts with",
        schema={"type": "integer", "enum": [8, 0], "default": 8},
        requires={"board": "alexander"},
    ),
)
"""The options of a game (``GameDefinition.options``): their schemas are what clients are shown."""
