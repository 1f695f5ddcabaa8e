"""The commands of rules file section 10.1 (the sender's seat is implicit)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from domain.kernel import Command


@dataclass(frozen=True, slots=True)
class MoveAlexander(Command):
    """R25-R33: move Alexander with a display card (optionally as a joker) or a hand card."""

    type = "move_alexander"
    source: Literal["display", "hand"] = field(metadata={"description": "move with a display card or a hand card"})
    target: list[int] = field(metadata={"description": "the space [r, c] Alexander moves to"})
    corner: list[int] = field(metadata={"description": "the point [i, x] of the target where he stops"})
    path: list[list[int]] = field(
        metadata={"description": "the points from Alexander's point to the corner along sides: a shortest route"}
    )
    slot: int | None = field(
        default=None, metadata={"description": "0 or 1: the display slot (display only)", "minimum": 0, "maximum": 1}
    )
    card: str | None = field(default=None, metadata={"description": "the hand card's symbol (hand only)"})
    joker_symbol: str | None = field(
        default=None,
        metadata={"description": "play the display card as this symbol (only when its own has no free space)"},
    )


@dataclass(frozen=True, slots=True)
class TakeCard(Command):
    """R45-R47: take a display card or the top card of the supply."""

    type = "take_card"
    source: Literal["display", "supply"] = field(metadata={"description": "a display card or the supply's top card"})
    slot: int | None = field(
        default=None, metadata={"description": "0 or 1: the display slot (display only)", "minimum": 0, "maximum": 1}
    )


@dataclass(frozen=True, slots=True)
class OccupyProvince(Command):
    """R48-R56: occupy the province holding ``governors``, or take it over (with ``compensation``)."""

    type = "occupy_province"
    governors: list[list[int]] = field(
        metadata={"description": "the symbol spaces [r, c] of one province to place governors on (at least one)"}
    )
    compensation: list[str] = field(
        default_factory=list,
        metadata={"description": "take-over only: half the paid cards (rounded up) for the evicted player"},
    )


@dataclass(frozen=True, slots=True)
class LevyTaxes(Command):
    """R57-R60: pay ``card`` (matching one of the sender's governors); every seat scores."""

    type = "levy_taxes"
    card: str = field(metadata={"description": "the symbol of the hand card paid"})


@dataclass(frozen=True, slots=True)
class RetireGovernor(Command):
    """R61: take one of the sender's governors back into his supply."""

    type = "retire_governor"
    space: list[int] = field(metadata={"description": "the space [r, c] of one of the sender's governors"})


@dataclass(frozen=True, slots=True)
class EndTurn(Command):
    """R44: end the ACTIONS step after 0 or 1 actions."""

    type = "end_turn"


COMMANDS: tuple[type[Command], ...] = (MoveAlexander, TakeCard, OccupyProvince, LevyTaxes, RetireGovernor, EndTurn)
