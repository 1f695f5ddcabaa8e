"""What the bots share: a fast copy of a game state, a canonical deal of unknown cards, and the
conversion of a position's points into shares of the win.

A bot never decides on the state it is given: it decides on ``GameDefinition.sample_state(state,
seat, chance)``, a fresh full state in which everything the seat may not know has been drawn again
from what the seat does know. Twin states that differ only in hidden things give the same sample
for the same chance, so the bot cannot tell them apart.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from typing import Any, TypeVar, cast

from domain.kernel.chance import Chance

T = TypeVar("T")
S = TypeVar("S")

_ATOMS = frozenset({int, str, float, bool, type(None), tuple, frozenset, bytes})


def _fields(cls: type) -> tuple[tuple[str, bool], ...]:
    """The dataclass's fields, each with whether it is state (compared) or a static lookup shared by copies."""
    cached: tuple[tuple[str, bool], ...] | None = cls.__dict__.get("_bot_clone_fields")
    if cached is None:
        cached = tuple((f.name, f.compare) for f in dataclasses.fields(cls))
        type.__setattr__(cls, "_bot_clone_fields", cached)
    return cached


def clone_state(value: T) -> T:
    """A deep copy of a game state made of dataclasses, lists, dicts, sets and immutable values, a few
    times faster than ``copy.deepcopy`` (no memo: a state shares no mutable part between two places).

    Tuples, frozensets and frozen dataclasses are immutable and shared; a dataclass field declared
    ``compare=False`` is a static lookup (a board's geometry) and shared too."""
    return cast(T, _clone(value))


def _clone(value: Any) -> Any:
    kind = type(value)
    if kind in _ATOMS:
        return value
    if kind is list:
        # A state's lists hold one kind of thing (``list[int]``, ``list[Slot]``): the ends tell which.
        if not value or (type(value[0]) in _ATOMS and type(value[-1]) in _ATOMS):
            return value[:]
        return [_clone(x) for x in value]
    if kind is dict:
        return {k: _clone(v) for k, v in value.items()}
    if kind is set:
        return set(value)
    params = getattr(kind, "__dataclass_params__", None)
    if params is None:
        raise TypeError(f"clone_state cannot copy a {kind.__name__}")
    if params.frozen:
        return value
    copied = object.__new__(kind)
    for name, compared in _fields(kind):
        part = getattr(value, name)
        object.__setattr__(copied, name, _clone(part) if compared else part)
    return copied


def deal(chance: Chance, purpose: str, pool: Sequence[T], sizes: Sequence[int]) -> list[list[T]]:
    """The unknown cards ``pool`` dealt again into piles of ``sizes`` (the rest in a last pile).

    The pool is sorted first, so that how the cards lay before (which twin state it was) never
    shows through in the deal: only the multiset counts, and that is what the seat knows."""
    shuffled = _shuffled(chance, purpose, sorted(pool))  # type: ignore[type-var]
    piles: list[list[T]] = []
    start = 0
    for size in sizes:
        piles.append(shuffled[start : start + size])
        start += size
    piles.append(shuffled[start:])
    return piles


_BITS = 1 << 256


def _shuffled(chance: Chance, purpose: str, items: list[T]) -> list[T]:
    """Fisher-Yates with many picks from each draw: a sample is dealt for every playout, and a keyed
    hash per card (``Chance.shuffle``) cost more than the playout itself. A draw is taken again
    before the bias of a pick could exceed 2**-64."""
    pool, left = 0, 1
    for i in range(len(items) - 1, 0, -1):
        if left < (i + 1) << 64:
            pool, left = chance.below(purpose, _BITS), _BITS
        pool, j = divmod(pool, i + 1)
        left //= i + 1
        items[i], items[j] = items[j], items[i]
    return items


def win_shares(points: Sequence[float], spread: float) -> list[float]:
    """Points per seat as estimated shares of the win (they sum to 1): a softmax, ``spread`` points
    being what makes a lead count e times more; a bot maximises its own share."""
    best = max(points)
    weights = [math.exp((p - best) / spread) for p in points]
    total = sum(weights)
    return [w / total for w in weights]


def final_shares(winners: Sequence[int], players: int) -> list[float]:
    """An ended game: the winners share the win."""
    if not winners:
        return [1.0 / players] * players
    share = 1.0 / len(winners)
    return [share if seat in winners else 0.0 for seat in range(players)]
