"""Commands (rules file §10.2). Sealed commands are ``private``: their fields are recorded for the sender only."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from domain.kernel import Command


@dataclass(frozen=True, slots=True)
class AllocateResources(Command):
    """Split all 15 cubes behind the screen (Ruling R14)."""

    type = "allocate_resources"
    private = True
    turn_order: int
    armies: int
    temples: int
    cities: int


@dataclass(frozen=True, slots=True)
class ReallocateResources(Command):
    """Re-split the temples + cities cubes in rounds 2 and 3 (R24)."""

    type = "reallocate_resources"
    private = True
    temples: int
    cities: int


@dataclass(frozen=True, slots=True)
class ChooseTurnPosition(Command):
    type = "choose_turn_position"
    position: int


@dataclass(frozen=True, slots=True)
class MoveArmies(Command):
    """The whole movement of a turn (Ruling R34): ``groups`` are ``{from, count, path}``; empty = no movement."""

    type = "move_armies"
    groups: list[dict[str, Any]]
    pay_temples: int
    pay_cities: int


@dataclass(frozen=True, slots=True)
class AttemptBuilds(Command):
    """Building attempts of a turn: ``attempts`` are ``{province, kind}``; empty = no building."""

    type = "attempt_builds"
    attempts: list[dict[str, Any]]


COMMANDS: tuple[type[Command], ...] = (
    AllocateResources,
    ReallocateResources,
    ChooseTurnPosition,
    MoveArmies,
    AttemptBuilds,
)
