"""Rules file 5.4, step c: the new turn order (R23-R24)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.kernel import Event
from domain.peloponnes.events import TurnOrderSet
from domain.peloponnes.rules.placement import enter_placement
from domain.peloponnes.state import ROUND_END, State


def new_turn_order(state: State) -> TurnOrderSet:
    """R23/R23a: by final bid amount, highest first; passes and withdrawals count 0; ties keep the old order."""
    values = {seat: 0 for seat in state.turn_order}
    for slot in state.display:
        if slot.bidder is not None:
            values[slot.bidder] = slot.amount
    order = sorted(state.turn_order, key=lambda seat: -values[seat])
    return TurnOrderSet(state.round, order, {str(seat): values[seat] for seat in sorted(values)})


def _turn_order_set(state: State, e: TurnOrderSet) -> None:
    state.turn_order = list(e.order)
    if e.round == 0:
        state.phase = ROUND_END
    else:
        enter_placement(state)


EVOLVERS: dict[type[Event], Callable[[State, Any], None]] = {
    TurnOrderSet: _turn_order_set,
}
