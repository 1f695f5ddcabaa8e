"""Rules file 5.2, the supply stack (R7-R9)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.catan_alexander import events as ev
from domain.catan_alexander.data import RESOURCE_INDEX
from domain.catan_alexander.state import State
from domain.kernel import Event


def on_supply_card_drawn(state: State, e: ev.SupplyCardDrawn) -> None:
    state.hands[e.seat][RESOURCE_INDEX[e.card]] += 1
    del state.supply[0]


def on_supply_closed(state: State, e: ev.SupplyClosed) -> None:
    for name, count in e.cards_to_bank.items():
        state.bank[RESOURCE_INDEX[name]] += count
    state.supply = []
    state.supply_open = False


EVOLVERS: dict[type[Event], Callable[[State, Any], None]] = {
    ev.SupplyCardDrawn: on_supply_card_drawn,
    ev.SupplyClosed: on_supply_closed,
}
