"""The schematic layout of the map (layout.json): every location placed once, inside the drawing,
and no two overlapping, so a client can draw the map from it."""

from __future__ import annotations

import itertools
import math

from domain.client_data.empire_builder import layout
from domain.empire_builder.data import PROVINCES, SYMBOLS


def radius(location: str, placed: dict) -> float:
    return float(placed["symbol_radius"] if location in SYMBOLS else placed["province_radius"])


def test_every_province_and_campaign_symbol_is_placed_and_nothing_else() -> None:
    placed = layout()
    assert set(placed["locations"]) == set(PROVINCES) | set(SYMBOLS)


def test_every_location_lies_inside_the_drawing() -> None:
    placed = layout()
    for location, (x, y) in placed["locations"].items():
        r = radius(location, placed)
        assert r <= x <= placed["width"] - r, location
        assert r <= y <= placed["height"] - r, location


def test_no_two_locations_overlap() -> None:
    placed = layout()
    for (a, (ax, ay)), (b, (bx, by)) in itertools.combinations(placed["locations"].items(), 2):
        gap = math.dist((ax, ay), (bx, by)) - radius(a, placed) - radius(b, placed)
        assert gap > 0, f"{a} and {b} overlap"
