"""Rules file 5.2, step a: reveal tiles."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.kernel import Chance, Event
from domain.peloponnes.data import DISPLAY_SIZE, STACK_OF_ROUND, TILES
from domain.peloponnes.events import SupplyStarted, TileRevealed
from domain.peloponnes.rules.bidding import enter_bidding
from domain.peloponnes.state import AUCTION, CONQUEST, Slot, State


def reveal_next_tile(state: State, chance: Chance) -> list[Event]:
    """R8/R10/R12: draw one tile at a time; a supply tile interrupts the reveal with a supply round."""
    if state.supply_due is not None:
        return [SupplyStarted("tile", state.supply_due)]
    stack = STACK_OF_ROUND[state.round]
    remaining = state.stacks[stack]
    tile_id = remaining[chance.below(f"stack:{stack}", len(remaining))]
    in_auction = sum(1 for s in state.display if s.row == AUCTION)
    if in_auction < state.auction_slots:
        return [TileRevealed(state.round, tile_id, AUCTION, in_auction)]
    return [TileRevealed(state.round, tile_id, CONQUEST, len(state.display) - in_auction)]


def _tile_revealed(state: State, e: TileRevealed) -> None:
    state.stacks[TILES[e.tile_id].stack].remove(e.tile_id)
    state.display.append(Slot(e.tile_id, e.row))
    if TILES[e.tile_id].supply:
        state.supply_due = e.tile_id
    elif len(state.display) == DISPLAY_SIZE:
        enter_bidding(state)


EVOLVERS: dict[type[Event], Callable[[State, Any], None]] = {
    TileRevealed: _tile_revealed,
}
