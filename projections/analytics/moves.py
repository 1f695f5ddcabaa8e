"""Moves: every player's act, one row each of ``<game>_moves``, in typed columns, made from a
record's public data as its game's ``Move`` specs say (``facts.moves``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from operator import methodcaller
from typing import Any

from domain.kernel.facts import Data, Field, Move
from projections.analytics.rows import Values


def _place(value: Any) -> str | None:
    """Where, as text: a vertex or tile id as it is, a hex ``q,r``, a side or path ``q,r q,r``."""
    if value is None:
        return None
    if isinstance(value, str | int):
        return str(value)
    if all(isinstance(v, int) for v in value):
        return ",".join(map(str, value))
    return " ".join(_place(v) or "" for v in value)


def _goods(value: Any) -> dict[str, int] | None:
    """Cards or goods by name (a list of names counts each; a count of 0 is left out), or None."""
    if value is None:
        return None
    if isinstance(value, list):
        counted: dict[str, int] = {}
        for name in value:
            counted[str(name)] = counted.get(str(name), 0) + 1
        return counted
    return {str(k): int(v) for k, v in value.items() if v}


Getter = Callable[[Data], Any]


def _getter(how: Field) -> Getter:
    """How a ``Move`` reads a field, as one call: ``data.get(name)`` at C speed for a field name."""
    if callable(how):
        return how
    return methodcaller("get", how)


def _optional(how: Field | None) -> Getter | None:
    """``_getter`` of a field a move may not have (None: it has not)."""
    return None if how is None else _getter(how)


def _text(value: Any) -> str | None:
    return None if value is None else str(value)


MoveRow = Callable[[str, int, datetime, Any, Any, Data], Values]


def _move_maker(spec: Move) -> MoveRow:
    """The function that makes ``spec``'s row of ``<game>_moves`` (its getters looked up once;
    a field the move has not is no call at all)."""
    seat, move = _getter(spec.seat), spec.move
    item, place, other = _optional(spec.item), _optional(spec.place), _optional(spec.other_seat)
    amount_of, gave, received = _optional(spec.amount), _optional(spec.gave), _optional(spec.received)

    def row(game_id: str, position: int, at: datetime, turn: Any, round_: Any, data: Data) -> Values:
        amount = None if amount_of is None else amount_of(data)
        return (
            game_id,
            position,
            at,
            turn,
            round_,
            seat(data),
            move,
            None if item is None else _text(item(data)),
            None if place is None else _place(place(data)),
            None if other is None else other(data),
            amount if type(amount) is int else None,
            None if gave is None else _goods(gave(data)),
            None if received is None else _goods(received(data)),
        )

    return row


def move_rows(moves: Mapping[str, Move]) -> dict[str, MoveRow]:
    """The row maker of each record type that is a move."""
    return {kind: _move_maker(spec) for kind, spec in moves.items()}
