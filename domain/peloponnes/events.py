"""Events of Peloponnes (rules file 10.3). Every event is public (section 8): no seat holds secrets.

``after`` = the seat's counters {coins, wood, stone, food, population, luxury} once the event is applied,
so spectators and projections can check the arithmetic.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from domain.kernel import Event

Counters = dict[str, int]


@dataclass(frozen=True, slots=True)
class StacksPrepared(Event):
    stack_sizes: dict[str, int]
    disaster_chits: int


@dataclass(frozen=True, slots=True)
class CivilizationAssigned(Event):
    seat: int
    civilization: str
    after: Counters


@dataclass(frozen=True, slots=True)
class SoloSetupChosen(Event):
    seat: int
    civilization: str
    extra_incomes: list[str]


@dataclass(frozen=True, slots=True)
class TurnOrderSet(Event):
    round: int
    order: list[int]
    bid_values: dict[str, int]  # seat (as a string: JSON keys) -> value of its final bid


@dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    round: int
    stack: str
    auction_slots: int
    conquest_slots: int


@dataclass(frozen=True, slots=True)
class TileRevealed(Event):
    round: int
    tile_id: str
    row: str  # "auction" | "conquest"
    index: int


@dataclass(frozen=True, slots=True)
class SupplyStarted(Event):
    trigger: str  # "tile" | "game_end"
    tile_id: str | None = None


@dataclass(frozen=True, slots=True)
class SupplyResolved(Event):
    seat: int
    population_before: int
    food_spent: int
    luxury_for_food: int
    inhabitants_lost: int
    completed: list[str]
    wood_spent: int
    stone_spent: int
    luxury_for_buildings: int
    abandoned: list[str]
    coins_returned: int
    automatic: bool
    after: Counters


@dataclass(frozen=True, slots=True)
class SupplyEnded(Event):
    trigger: str


@dataclass(frozen=True, slots=True)
class BidPlaced(Event):
    seat: int
    tile_id: str
    row: str
    amount: int
    luxury_spent: int
    after: Counters
    outbid_seat: int | None = None


@dataclass(frozen=True, slots=True)
class BidMoved(Event):
    seat: int
    from_tile_id: str
    to_tile_id: str
    amount: int


@dataclass(frozen=True, slots=True)
class BidWithdrawn(Event):
    seat: int
    tile_id: str
    refund: int
    compensation: int
    automatic: bool
    after: Counters


@dataclass(frozen=True, slots=True)
class PlayerPassed(Event):
    seat: int
    coins_gained: int
    after: Counters


@dataclass(frozen=True, slots=True)
class BiddingEnded(Event):
    round: int
    awards: list[dict[str, Any]]  # [{seat, tile_id, amount}]
    discarded: list[str]


@dataclass(frozen=True, slots=True)
class BuildingPlaced(Event):
    seat: int
    tile_id: str
    mode: str  # "built" | "marked"
    wood_spent: int
    stone_spent: int
    coin_placed: int
    luxury_spent: int
    automatic: bool
    after: Counters


@dataclass(frozen=True, slots=True)
class LandPlaced(Event):
    seat: int
    tile_id: str
    index: int
    placement_rule_waived: bool


@dataclass(frozen=True, slots=True)
class TileRejected(Event):
    seat: int
    tile_id: str
    reason: str  # "not_enough_inhabitants" | "cannot_pay" | "land_mismatch"


@dataclass(frozen=True, slots=True)
class OneTimeIncomeReceived(Event):
    seat: int
    tile_id: str
    population_delta: int
    coins: int
    food: int
    luxury: int
    overflow_luxury: int
    after: Counters


@dataclass(frozen=True, slots=True)
class IncomeCollected(Event):
    seat: int
    population_gain: int
    wood: int
    stone: int
    food: int
    choices: list[dict[str, str]]
    overflow_luxury: int
    coins: int
    luxury_from_population: int
    after: Counters


@dataclass(frozen=True, slots=True)
class DisasterRevealed(Event):
    round: int
    draw: int
    chit: str
    strikes: bool
    chits_on_tile: int | None = None


@dataclass(frozen=True, slots=True)
class DisasterResolved(Event):
    seat: int
    disaster: str
    wood_spent: int
    stone_spent: int
    food_spent: int
    coins_spent: int
    food_lost: int
    population_lost: int
    luxury_lost: int
    removed_tiles: list[str]
    coins_returned: int
    automatic: bool
    after: Counters
    protected_by: str | None = None


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    results: list[dict[str, int]]
    winners: list[int]
    seed: str
    solo: dict[str, Any] | None = None


EVENTS: tuple[type[Event], ...] = (
    StacksPrepared,
    CivilizationAssigned,
    SoloSetupChosen,
    TurnOrderSet,
    RoundStarted,
    TileRevealed,
    SupplyStarted,
    SupplyResolved,
    SupplyEnded,
    BidPlaced,
    BidMoved,
    BidWithdrawn,
    PlayerPassed,
    BiddingEnded,
    BuildingPlaced,
    LandPlaced,
    TileRejected,
    OneTimeIncomeReceived,
    IncomeCollected,
    DisasterRevealed,
    DisasterResolved,
    GameEnded,
)
