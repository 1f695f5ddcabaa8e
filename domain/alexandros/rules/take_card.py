"""Rules file 5.4, take a card (R45-R47)."""

from __future__ import annotations

from collections.abc import Callable

from domain.alexandros.commands import TakeCard
from domain.alexandros.events import CardTaken
from domain.alexandros.rules.cards import draw_cards
from domain.alexandros.rules.general import require_action_left, slot_field
from domain.alexandros.state import State
from domain.kernel import Chance, Command, Event, RuleViolation, Seat
from domain.kernel.errors import BAD_INPUT


def decide_take_card(state: State, seat: Seat, command: TakeCard, chance: Chance) -> list[Event]:
    require_action_left(state)
    if command.source == "display":
        slot = slot_field(command.slot)
        card = state.display[slot]
        if card is None:
            raise RuleViolation(
                "EMPTY_SLOT", f"display slot {slot} is empty; it is refilled when your actions end (R46)"
            )
        return [CardTaken(seat=seat, source="display", slot=slot, card=card)]
    if command.source == "supply":
        if command.slot is not None:
            raise RuleViolation(BAD_INPUT, "slot is only given with source 'display'")
        drawn = draw_cards(state, chance, 1)
        if not drawn:
            raise RuleViolation("SUPPLY_EMPTY", "the supply and the discard pile are both empty")
        ((shuffled, card),) = drawn
        taken = CardTaken(seat=seat, source="supply", slot=None, card=card)
        return [taken] if shuffled is None else [shuffled, taken]
    raise RuleViolation(BAD_INPUT, f"source must be 'display' or 'supply', not {command.source!r}")


DECIDERS: dict[type[Command], Callable[..., list[Event]]] = {
    TakeCard: decide_take_card,
}
