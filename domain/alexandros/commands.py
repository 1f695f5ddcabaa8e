"""The commands of rules file section 10.1 (the sender's seat is implicit)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, fields
from typing import Any, Literal

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


def slot_setters(cls: type[Command]) -> tuple[Callable[[Any, Any], None], ...]:
    """The setters of a slotted command's fields, in field order: they fill a new instance (from
    ``object.__new__``) as its ``__init__`` would, without the frozen dataclass's lookup of
    ``object.__setattr__`` per field, which is most of the cost of a command."""
    return tuple(cls.__dict__[f.name].__set__ for f in fields(cls))


_new = object.__new__
_SET_SOURCE, _SET_TARGET, _SET_CORNER, _SET_PATH, _SET_SLOT, _SET_CARD, _SET_JOKER = slot_setters(MoveAlexander)
_SET_GOVERNORS, _SET_COMPENSATION = slot_setters(OccupyProvince)


def moves_with_card(
    source: str,
    slot: int | None,
    card: str | None,
    joker_symbol: str | None,
    destinations: Iterable[tuple[list[int], list[int], list[list[int]]]],
) -> list[MoveAlexander]:
    """``[MoveAlexander(source, target, corner, path, slot, card, joker_symbol) for target, corner,
    path in destinations]``, the same commands built the fast way (for the legal-move listing,
    which builds dozens per state from values that are valid by construction)."""
    moves: list[MoveAlexander] = []
    add = moves.append
    for target, corner, path in destinations:
        move = _new(MoveAlexander)
        _SET_SOURCE(move, source)
        _SET_TARGET(move, target)
        _SET_CORNER(move, corner)
        _SET_PATH(move, path)
        _SET_SLOT(move, slot)
        _SET_CARD(move, card)
        _SET_JOKER(move, joker_symbol)
        add(move)
    return moves


def occupation(governors: list[list[int]], compensation: list[str]) -> OccupyProvince:
    """``OccupyProvince(governors, compensation)``, built the fast way (for the listing)."""
    command = _new(OccupyProvince)
    _SET_GOVERNORS(command, governors)
    _SET_COMPENSATION(command, compensation)
    return command


COMMANDS: tuple[type[Command], ...] = (MoveAlexander, TakeCard, OccupyProvince, LevyTaxes, RetireGovernor, EndTurn)
