"""Events (rules file §10.3). Seat-keyed maps use the seat number as a string key (JSON)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from domain.kernel import Event


@dataclass(frozen=True, slots=True)
class GameSetUp(Event):
    board_id: str
    robber_hex: list[int]
    terrains: list[str]  # per land hex, board order (the base game's random layout is set here)
    numbers: list[int]  # 0 = no number
    token_crossings: list[int]
    supply_size: int
    bank_piles: dict[str, int]
    gold_supply: int
    dev_deck_size: int
    advisors_in_play: list[str]


@dataclass(frozen=True, slots=True)
class StacksShuffled(Event):
    """The shuffled stacks, sealed: nobody sees them until the seed is revealed (§8, §9).

    ``sealed_for`` is always empty, so the record is private to no seat at all.
    """

    private_to = ("sealed_for",)
    hidden = ("supply", "dev_deck", "tokens")
    sealed_for: list[int]
    supply: list[str]
    dev_deck: list[str]
    tokens: list[str]


@dataclass(frozen=True, slots=True)
class StartingHandDealt(Event):
    private_to = ("seat",)
    hidden = ("cards",)
    seat: int
    cards: dict[str, int]
    card_count: int
    gold: int


@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    turn: int
    seat: int


@dataclass(frozen=True, slots=True)
class SupplyCardDrawn(Event):
    private_to = ("seat",)
    hidden = ("card",)
    seat: int
    card: str


@dataclass(frozen=True, slots=True)
class SupplyClosed(Event):
    cards_to_bank: dict[str, int]


@dataclass(frozen=True, slots=True)
class DiceRolled(Event):
    seat: int
    die1: int
    die2: int
    total: int


@dataclass(frozen=True, slots=True)
class ResourcesProduced(Event):
    gains: dict[str, dict[str, int]]
    withheld: list[str]


@dataclass(frozen=True, slots=True)
class DiscardsRequired(Event):
    owed: dict[str, int]


@dataclass(frozen=True, slots=True)
class CardsDiscarded(Event):
    seat: int
    cards: dict[str, int]
    reason: str  # "seven" | "default"


@dataclass(frozen=True, slots=True)
class RobberMoved(Event):
    seat: int
    hex: list[int]
    cause: str  # "seven" | "knight"


@dataclass(frozen=True, slots=True)
class CardStolen(Event):
    private_to = ("thief", "victim")
    hidden = ("card",)
    thief: int
    victim: int
    card: str | None
    stolen: bool


@dataclass(frozen=True, slots=True)
class ArmyMoved(Event):
    seat: int
    from_position: int
    to_position: int
    crossing: int
    kind: str  # "temple" | "token" | "plain" | "purple"


@dataclass(frozen=True, slots=True)
class ArmyHalted(Event):
    seat: int
    position: int
    roll_total: int | None


@dataclass(frozen=True, slots=True)
class TaskRevealed(Event):
    crossing: int
    task: str


@dataclass(frozen=True, slots=True)
class AuctionOpened(Event):
    crossing: int
    task: str
    accepted: list[str]
    knights_allowed: bool
    round: int
    excluded: list[int]
    to_act: int


@dataclass(frozen=True, slots=True)
class BidPlaced(Event):
    seat: int
    amount: int


@dataclass(frozen=True, slots=True)
class BidderDroppedOut(Event):
    seat: int


@dataclass(frozen=True, slots=True)
class AuctionClosed(Event):
    crossing: int
    winner: int | None
    amount: int | None


@dataclass(frozen=True, slots=True)
class BidPaid(Event):
    seat: int
    items: dict[str, int]
    knights: int


@dataclass(frozen=True, slots=True)
class BidDefaulted(Event):
    seat: int
    amount: int
    owed_discard: int


@dataclass(frozen=True, slots=True)
class SettlementBuilt(Event):
    seat: int
    vertex: str
    source: str  # "temple" | "build" | "founding" (§7.1)
    free: bool  # no building cost paid: a temple reward (R28) or a founding settlement (§7.1)


@dataclass(frozen=True, slots=True)
class TempleLeftEmpty(Event):
    crossing: int
    reason: str  # "no_bids" | "no_piece"


@dataclass(frozen=True, slots=True)
class TaskTokenAwarded(Event):
    seat: int
    crossing: int
    task: str
    tokens_now: int


@dataclass(frozen=True, slots=True)
class TaskTokenRemoved(Event):
    crossing: int
    task: str


@dataclass(frozen=True, slots=True)
class AdvisorChanged(Event):
    advisor: str
    from_seat: int | None
    to_seat: int


@dataclass(frozen=True, slots=True)
class RoadBuilt(Event):
    seat: int
    edge: list[str]
    free: bool


@dataclass(frozen=True, slots=True)
class CityBuilt(Event):
    seat: int
    vertex: str


@dataclass(frozen=True, slots=True)
class FoundingResourcesGained(Event):
    seat: int
    cards: dict[str, int]


@dataclass(frozen=True, slots=True)
class DevelopmentCardBought(Event):
    private_to = ("seat",)
    hidden = ("card",)
    seat: int
    card: str


@dataclass(frozen=True, slots=True)
class KnightPlayed(Event):
    seat: int


@dataclass(frozen=True, slots=True)
class RoadBuildingPlayed(Event):
    seat: int


@dataclass(frozen=True, slots=True)
class YearOfPlentyPlayed(Event):
    seat: int
    taken: dict[str, int]


@dataclass(frozen=True, slots=True)
class MonopolyPlayed(Event):
    seat: int
    resource: str
    taken: dict[str, int]


@dataclass(frozen=True, slots=True)
class LongestRoadChanged(Event):
    holder: int | None
    length: int


@dataclass(frozen=True, slots=True)
class LargestArmyChanged(Event):
    holder: int | None
    size: int


@dataclass(frozen=True, slots=True)
class TradeOffered(Event):
    offer_id: int
    maker: int
    to: list[int]
    give: dict[str, int]
    receive: dict[str, int]


@dataclass(frozen=True, slots=True)
class TradeResponded(Event):
    offer_id: int
    seat: int
    accept: bool


@dataclass(frozen=True, slots=True)
class TradeCompleted(Event):
    offer_id: int
    maker: int
    partner: int
    maker_gave: dict[str, int]
    partner_gave: dict[str, int]


@dataclass(frozen=True, slots=True)
class TradeCancelled(Event):
    offer_id: int
    reason: str  # "maker" | "turn_ended" | "unfunded" (R36f)


@dataclass(frozen=True, slots=True)
class AcceptanceWithdrawn(Event):
    """R36f: ``seat`` no longer holds what it would give for the active player's offer."""

    offer_id: int
    seat: int


@dataclass(frozen=True, slots=True)
class BankTraded(Event):
    seat: int
    gave: dict[str, int]
    received: dict[str, int]


@dataclass(frozen=True, slots=True)
class TurnEnded(Event):
    seat: int


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    reason: str  # "persepolis" | "vp14" | "vp10" (base game)
    scores: dict[str, dict[str, int]]
    winners: list[int]
    hands: dict[str, dict[str, Any]]
    token_order: list[str]
    seed: str


@dataclass(frozen=True, slots=True)
class HiddenStacksReshuffled(Event):
    """Sealed like ``StacksShuffled``: ``sealed_for`` is always empty, so no seat sees the orders
    until the seed is revealed. ``tokens`` maps each crossing (as text) still holding a face-down
    task token to its task."""

    private_to = ("sealed_for",)
    hidden = ("supply", "dev_deck", "tokens")
    sealed_for: list[int]
    supply: list[str]
    dev_deck: list[str]
    tokens: dict[str, str]


EVENTS: tuple[type[Event], ...] = (
    GameSetUp,
    StacksShuffled,
    StartingHandDealt,
    TurnStarted,
    SupplyCardDrawn,
    SupplyClosed,
    DiceRolled,
    ResourcesProduced,
    DiscardsRequired,
    CardsDiscarded,
    RobberMoved,
    CardStolen,
    ArmyMoved,
    ArmyHalted,
    TaskRevealed,
    AuctionOpened,
    BidPlaced,
    BidderDroppedOut,
    AuctionClosed,
    BidPaid,
    BidDefaulted,
    SettlementBuilt,
    TempleLeftEmpty,
    TaskTokenAwarded,
    TaskTokenRemoved,
    AdvisorChanged,
    RoadBuilt,
    CityBuilt,
    FoundingResourcesGained,
    DevelopmentCardBought,
    KnightPlayed,
    RoadBuildingPlayed,
    YearOfPlentyPlayed,
    MonopolyPlayed,
    LongestRoadChanged,
    LargestArmyChanged,
    TradeOffered,
    TradeResponded,
    TradeCompleted,
    TradeCancelled,
    AcceptanceWithdrawn,
    BankTraded,
    TurnEnded,
    GameEnded,
    HiddenStacksReshuffled,
)
