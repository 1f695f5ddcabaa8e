"""The events of rules file section 10.2. Spaces are ``[r,c]``, points ``[i,x]``, sides ``[[i,x],[i',x']]``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from domain.kernel import Event, Seat


@dataclass(frozen=True, slots=True)
class SupplyShuffled(Event):
    """R16 / R65. ``order`` (index 0 = top) is seen by no seat (hidden, with no owner) until the
    seed is revealed; the public form keeps ``reason`` and ``count``."""

    hidden = ("order",)
    reason: str
    count: int
    order: list[str]


@dataclass(frozen=True, slots=True)
class StartPlayerChosen(Event):
    seat: int


@dataclass(frozen=True, slots=True)
class CardTaken(Event):
    """Public when taken from the display; otherwise (deal, supply) private to ``seat`` without ``card``."""

    private_to = ("seat",)
    hidden = ("card",)
    seat: int
    source: str
    slot: int | None
    card: str

    def viewers(self) -> frozenset[Seat] | None:
        if self.source == "display":
            return None
        return frozenset({self.seat})


@dataclass(frozen=True, slots=True)
class DisplayRefilled(Event):
    slot: int
    card: str


@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    seat: int
    turn: int


@dataclass(frozen=True, slots=True)
class AlexanderMoved(Event):
    """This game's ArmyMoved. The rules file names a field ``from``, a Python keyword: the
    attribute is ``from_`` and the serialised form uses ``from``."""

    seat: int
    via: str
    slot: int | None
    card: str
    symbol: str
    from_: list[int]
    target: list[int]
    to: list[int]
    distance: int
    path: list[list[int]]

    def to_dict(self) -> dict[str, Any]:
        return {("from" if name == "from_" else name): value for name, value in Event.to_dict(self).items()}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> AlexanderMoved:
        values = dict(data)
        values["from_"] = values.pop("from")
        return cls(**values)


@dataclass(frozen=True, slots=True)
class WallBuilt(Event):
    seat: int
    side: list[list[int]]
    color: str
    black_left: int
    red_left: int


@dataclass(frozen=True, slots=True)
class GameEndTriggered(Event):
    seat: int
    reason: str


@dataclass(frozen=True, slots=True)
class AlexanderMoveSkipped(Event):
    seat: int
    reason: str


@dataclass(frozen=True, slots=True)
class ProvinceOccupied(Event):
    """``takeover`` is None or ``{from_seat, evicted, eviction_cards, compensation}``."""

    seat: int
    province: list[list[int]]
    governors: list[list[int]]
    cards_paid: list[str]
    takeover: dict[str, Any] | None


@dataclass(frozen=True, slots=True)
class TaxesLevied(Event):
    seat: int
    card: str
    points: list[int]
    scores: list[int]
    scored: list[dict[str, Any]]


@dataclass(frozen=True, slots=True)
class GovernorRetired(Event):
    seat: int
    space: list[int]


@dataclass(frozen=True, slots=True)
class TurnEnded(Event):
    seat: int


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    reason: str
    scores: list[int]
    winners: list[int]
    seed: str


EVENTS: tuple[type[Event], ...] = (
    SupplyShuffled,
    StartPlayerChosen,
    CardTaken,
    DisplayRefilled,
    TurnStarted,
    AlexanderMoved,
    WallBuilt,
    GameEndTriggered,
    AlexanderMoveSkipped,
    ProvinceOccupied,
    TaxesLevied,
    GovernorRetired,
    TurnEnded,
    GameEnded,
)
