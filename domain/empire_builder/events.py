"""Events (rules file §10.3). Dicts keyed by seat use the seat number as a string (JSON-native keys)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from domain.kernel import Event


@dataclass(frozen=True, slots=True)
class CampaignStarted(Event):
    campaign: int
    region: int
    symbol: str
    first_campaign: bool


@dataclass(frozen=True, slots=True)
class AllocationCommitted(Event):
    """Sealed: only ``seat`` sees the split; everybody else sees ``{seat}`` (§8)."""

    private_to = ("seat",)
    hidden = ("turn_order", "armies", "temples", "cities")
    seat: int
    turn_order: int
    armies: int
    temples: int
    cities: int


@dataclass(frozen=True, slots=True)
class AllocationsRevealed(Event):
    campaign: int
    allocations: list[dict[str, int]]  # {seat, turn_order, armies, temples, cities}, every seat


@dataclass(frozen=True, slots=True)
class LotDrawn(Event):
    purpose: str
    campaign: int
    candidates: list[int]
    order: list[int]


@dataclass(frozen=True, slots=True)
class TurnPositionChosen(Event):
    seat: int
    position: int


@dataclass(frozen=True, slots=True)
class TurnOrderSet(Event):
    campaign: int
    order: list[int]
    spent: dict[str, int]


@dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    campaign: int
    round: int


@dataclass(frozen=True, slots=True)
class ReallocationCommitted(Event):
    """Sealed like ``AllocationCommitted``."""

    private_to = ("seat",)
    hidden = ("temples", "cities")
    seat: int
    temples: int
    cities: int


@dataclass(frozen=True, slots=True)
class ReallocationsRevealed(Event):
    campaign: int
    round: int
    boxes: list[dict[str, int]]  # {seat, temples, cities}, every seat


@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    campaign: int
    round: int
    seat: int
    position: int


@dataclass(frozen=True, slots=True)
class ArmyMoved(Event):
    """One group of a ``move_armies``. The attribute ``from_`` is recorded as the rules file's ``from``
    (a Python keyword cannot name a field)."""

    seat: int
    from_: str
    count: int
    path: list[str]
    cost: int

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "from": self.from_, "count": self.count, "path": self.path, "cost": self.cost}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ArmyMoved:
        return cls(data["seat"], data["from"], data["count"], data["path"], data["cost"])


@dataclass(frozen=True, slots=True)
class MovementPaid(Event):
    seat: int
    temples: int
    cities: int


@dataclass(frozen=True, slots=True)
class GoalReached(Event):
    campaign: int
    round: int
    seat: int
    province: str


@dataclass(frozen=True, slots=True)
class MovementPassed(Event):
    """Not in the rules file: an empty ``move_armies`` (§10.2 "no movement") must still end the movement step,
    and only events change state. A step skipped under Ruling R27 emits nothing, as the ruling says."""

    campaign: int
    round: int
    seat: int


@dataclass(frozen=True, slots=True)
class BuildAttempted(Event):
    seat: int
    province: str
    kind: str


@dataclass(frozen=True, slots=True)
class BuildingPassed(Event):
    """Not in the rules file: an empty ``attempt_builds`` (§10.2 "no building") must still end the building step."""

    campaign: int
    round: int
    seat: int


@dataclass(frozen=True, slots=True)
class ProvinceScored(Event):
    campaign: int
    round: int
    province: str
    armies: dict[str, int]
    seat: int | None
    vp: int


@dataclass(frozen=True, slots=True)
class TempleBuilt(Event):
    campaign: int
    round: int
    province: str
    seat: int
    bids: dict[str, int]
    paid: int
    vp: int


@dataclass(frozen=True, slots=True)
class CityFounded(Event):
    campaign: int
    round: int
    province: str
    seat: int
    bids: dict[str, int]
    paid: int
    vp: int


@dataclass(frozen=True, slots=True)
class BuildAttemptFailed(Event):
    campaign: int
    round: int
    province: str
    kind: str
    seat: int
    reason: str  # cannot_pay, outbid, tie


@dataclass(frozen=True, slots=True)
class CampaignEnded(Event):
    campaign: int
    reason: str  # goal_reached, round_limit


@dataclass(frozen=True, slots=True)
class AwardScored(Event):
    award: str
    region: int | None
    counts: dict[str, int]
    seat: int | None
    vp: int


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    scores: dict[str, int]
    winners: list[int]
    seed: str


EVENTS: tuple[type[Event], ...] = (
    CampaignStarted,
    AllocationCommitted,
    AllocationsRevealed,
    LotDrawn,
    TurnPositionChosen,
    TurnOrderSet,
    RoundStarted,
    ReallocationCommitted,
    ReallocationsRevealed,
    TurnStarted,
    ArmyMoved,
    MovementPaid,
    GoalReached,
    MovementPassed,
    BuildAttempted,
    BuildingPassed,
    ProvinceScored,
    TempleBuilt,
    CityFounded,
    BuildAttemptFailed,
    CampaignEnded,
    AwardScored,
    GameEnded,
)
