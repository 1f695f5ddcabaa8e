"""The commands of rules file section 10.1 (the sender's seat is implicit)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from domain.kernel import Command


@dataclass(frozen=True, slots=True)
class MoveAlexander(Command):
    """R25-R33: move Alexander with a display card (optionally as a joker) or a hand card."""

    type = "move_alexander"
    source: Literal["display", "hand"]
    target: list[int]
    corner: list[int]
    path: list[list[int]]
    slot: int | None = None
    card: str | None = None
    joker_symbol: str | None = None


@dataclass(frozen=True, slots=True)
class TakeCard(Command):
    """R45-R47: take a display card or the top card of the supply."""

    type = "take_card"
    source: Literal["display", "supply"]
    slot: int | None = None


@dataclass(frozen=True, slots=True)
class OccupyProvince(Command):
    """R48-R56: occupy the province holding ``governors``, or take it over (with ``compensation``)."""

    type = "occupy_province"
    governors: list[list[int]]
    compensation: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class LevyTaxes(Command):
    """R57-R60: pay ``card`` (matching one of the sender's governors); every seat scores."""

    type = "levy_taxes"
    card: str


@dataclass(frozen=True, slots=True)
class RetireGovernor(Command):
    """R61: take one of the sender's governors back into his supply."""

    type = "retire_governor"
    space: list[int]


@dataclass(frozen=True, slots=True)
class EndTurn(Command):
    """R44: end the ACTIONS step after 0 or 1 actions."""

    type = "end_turn"


COMMANDS: tuple[type[Command], ...] = (MoveAlexander, TakeCard, OccupyProvince, LevyTaxes, RetireGovernor, EndTurn)
