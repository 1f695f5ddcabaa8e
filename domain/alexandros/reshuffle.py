"""The face-down supply put in a new order when the game's chance changes under it (a fork's new
seed, a seat's contribution). Only the order of the undrawn cards is drawn again."""

from __future__ import annotations

from domain.alexandros.events import SupplyShuffled
from domain.alexandros.state import State
from domain.kernel import Chance, Event

RESEED = "reseed"  # SupplyShuffled.reason: not R16's setup, not R65's reshuffle of the discards


def reshuffle_hidden(state: State, chance: Chance) -> list[Event]:
    if not state.supply:
        return []
    order = chance.shuffle("reseed:supply", state.supply)
    return [SupplyShuffled(reason=RESEED, count=len(order), order=order)]
