"""Rules file 5.6, step e: population and one-time income (applied with the placement it completes)."""

from __future__ import annotations

from domain.peloponnes.data import TILES
from domain.peloponnes.events import OneTimeIncomeReceived
from domain.peloponnes.rules.general import add_goods
from domain.peloponnes.state import SeatState


def one_time_income(s: SeatState, tile_id: str, after: dict[str, int], seat: int) -> OneTimeIncomeReceived:
    """R31: population change, coins, food (with overflow, R4a) and luxury printed on the tile."""
    tile = TILES[tile_id]
    after, overflow = add_goods(after, 0, 0, tile.food)
    after["population"] = max(0, after["population"] + tile.population)
    after["coins"] += tile.coins
    after["luxury"] += tile.luxury
    return OneTimeIncomeReceived(seat, tile_id, tile.population, tile.coins, tile.food, tile.luxury, overflow, after)
