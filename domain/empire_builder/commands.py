"""Commands (rules file §10.2). Sealed commands are ``private``: their fields are recorded for the sender only."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from domain.kernel import Command

# A seat's cubes: every box holds 0 to 15 of them (section 2.2).
CUBES = {"minimum": 0, "maximum": 15}


@dataclass(frozen=True, slots=True)
class AllocateResources(Command):
    """Split all 15 cubes behind the screen (Ruling R14)."""

    type = "allocate_resources"
    private = True
    turn_order: int = field(metadata={"description": "cubes for the turn-order box (a bid for moving early)", **CUBES})
    armies: int = field(metadata={"description": "cubes that become armies", **CUBES})
    temples: int = field(metadata={"description": "cubes for the temples box (pays for movement and temples)", **CUBES})
    cities: int = field(metadata={"description": "cubes for the cities box (pays for movement and cities)", **CUBES})


@dataclass(frozen=True, slots=True)
class ReallocateResources(Command):
    """Re-split the temples + cities cubes in rounds 2 and 3 (R24)."""

    type = "reallocate_resources"
    private = True
    temples: int = field(metadata={"description": "the new temples box; temples + cities stays the same", **CUBES})
    cities: int = field(metadata={"description": "the new cities box", **CUBES})


@dataclass(frozen=True, slots=True)
class ChooseTurnPosition(Command):
    """The highest turn-order bid picks first: a free position in the turn order."""

    type = "choose_turn_position"
    position: int = field(
        metadata={"description": "1 = first, up to the number of players", "minimum": 1, "maximum": 5}
    )


@dataclass(frozen=True, slots=True)
class MoveArmies(Command):
    """The whole movement of a turn (Ruling R34): ``groups`` are ``{from, count, path}``; empty = no movement."""

    type = "move_armies"
    groups: list[dict[str, Any]] = field(
        metadata={
            "description": 'each {"from": "C1".."C6" or a province "k.n", "count": armies >= 1, '
            '"path": 1 to 3 provinces along the arrows}'
        }
    )
    pay_temples: int = field(metadata={"description": "cubes paid from the temples box", **CUBES})
    pay_cities: int = field(
        metadata={"description": "cubes paid from the cities box; the two add up to the cost (R34)", **CUBES}
    )


@dataclass(frozen=True, slots=True)
class AttemptBuilds(Command):
    """Building attempts of a turn: ``attempts`` are ``{province, kind}``; empty = no building."""

    type = "attempt_builds"
    attempts: list[dict[str, Any]] = field(
        metadata={"description": 'each {"province": "k.n", "kind": "temple" or "city"}, where the seat has an army'}
    )


COMMANDS: tuple[type[Command], ...] = (
    AllocateResources,
    ReallocateResources,
    ChooseTurnPosition,
    MoveArmies,
    AttemptBuilds,
)
