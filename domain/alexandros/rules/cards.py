"""Rules file 5.9, cards (R63-R66): drawing from the supply, reshuffles, the display."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.alexandros.events import CardTaken, DisplayRefilled, SupplyShuffled
from domain.alexandros.state import State
from domain.kernel import Chance, Event


def draw_cards(state: State, chance: Chance, count: int) -> list[tuple[SupplyShuffled | None, str]]:
    """Draw up to ``count`` cards from the top of the supply (R65: when it is empty, the whole discard
    pile is shuffled into a new supply first). Each card comes with the reshuffle that preceded it,
    which must be applied between the previous draw and this one; fewer cards come back when the
    supply and the discard pile run dry."""
    supply, discard, reshuffles = list(state.supply), list(state.discard), state.reshuffles
    drawn: list[tuple[SupplyShuffled | None, str]] = []
    for _ in range(count):
        shuffled = None
        if not supply:
            if not discard:
                break
            reshuffles += 1
            supply = chance.shuffle(f"deck:{reshuffles}", discard)
            shuffled = SupplyShuffled(reason="reshuffle", count=len(supply), order=list(supply))
            discard = []
        drawn.append((shuffled, supply.pop(0)))
    return drawn


def refill_events(state: State, chance: Chance, slots: list[int]) -> list[Event]:
    """R46/R33: turn up a card into each of ``slots`` in order, reshuffling where needed (R65)."""
    events: list[Event] = []
    for slot, (shuffled, card) in zip(slots, draw_cards(state, chance, len(slots)), strict=False):
        if shuffled is not None:
            events.append(shuffled)
        events.append(DisplayRefilled(slot=slot, card=card))
    return events


def _shuffled(state: State, e: SupplyShuffled) -> None:
    state.supply = list(e.order)
    if e.reason == "reshuffle":
        state.discard = []
        state.reshuffles += 1


def _card_taken(state: State, e: CardTaken) -> None:
    if e.source == "display":
        state.display[e.slot] = None  # type: ignore[index]
    else:
        state.supply.pop(0)
    state.hands[e.seat][e.card] += 1
    if e.source != "deal":
        state.actions_taken += 1


def _refilled(state: State, e: DisplayRefilled) -> None:
    state.supply.pop(0)
    state.display[e.slot] = e.card


EVOLVERS: dict[type[Event], Callable[[State, Any], None]] = {
    SupplyShuffled: _shuffled,
    CardTaken: _card_taken,
    DisplayRefilled: _refilled,
}
