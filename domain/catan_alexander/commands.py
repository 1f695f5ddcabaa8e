"""Commands (rules file §10.2). A ``Bundle`` is a ``{good: count}`` map; an edge is a pair of
intersection names such as ``["N(1,1)", "S(2,0)"]``; a hex is ``[q, r]``."""

from __future__ import annotations

from dataclasses import dataclass

from domain.kernel import Command


@dataclass(frozen=True, slots=True)
class RollDice(Command):
    type = "roll_dice"


@dataclass(frozen=True, slots=True)
class MoveAlexander(Command):
    type = "move_alexander"


@dataclass(frozen=True, slots=True)
class Discard(Command):
    type = "discard"
    cards: dict[str, int]


@dataclass(frozen=True, slots=True)
class MoveRobber(Command):
    type = "move_robber"
    hex: list[int]
    steal_from: int | None = None


@dataclass(frozen=True, slots=True)
class PlaceBid(Command):
    type = "place_bid"
    amount: int


@dataclass(frozen=True, slots=True)
class PassBid(Command):
    type = "pass_bid"


@dataclass(frozen=True, slots=True)
class PayBid(Command):
    type = "pay_bid"
    items: dict[str, int]
    knights: int = 0


@dataclass(frozen=True, slots=True)
class ChooseAdvisorRecipient(Command):
    type = "choose_advisor_recipient"
    seat: int


@dataclass(frozen=True, slots=True)
class OfferTrade(Command):
    type = "offer_trade"
    give: dict[str, int]
    receive: dict[str, int]
    to: list[int] | None = None


@dataclass(frozen=True, slots=True)
class RespondTrade(Command):
    type = "respond_trade"
    offer_id: int
    accept: bool


@dataclass(frozen=True, slots=True)
class ConfirmTrade(Command):
    type = "confirm_trade"
    offer_id: int
    partner: int


@dataclass(frozen=True, slots=True)
class CancelTrade(Command):
    type = "cancel_trade"
    offer_id: int


@dataclass(frozen=True, slots=True)
class BankTrade(Command):
    type = "bank_trade"
    give: str
    receive: str
    lots: int = 1


@dataclass(frozen=True, slots=True)
class BuildRoad(Command):
    type = "build_road"
    edge: list[str]


@dataclass(frozen=True, slots=True)
class BuildSettlement(Command):
    type = "build_settlement"
    vertex: str


@dataclass(frozen=True, slots=True)
class BuildCity(Command):
    type = "build_city"
    vertex: str


@dataclass(frozen=True, slots=True)
class BuyDevelopmentCard(Command):
    type = "buy_development_card"


@dataclass(frozen=True, slots=True)
class PlayKnight(Command):
    type = "play_knight"
    hex: list[int]
    steal_from: int | None = None


@dataclass(frozen=True, slots=True)
class PlayRoadBuilding(Command):
    type = "play_road_building"
    edges: list[list[str]]


@dataclass(frozen=True, slots=True)
class PlayYearOfPlenty(Command):
    type = "play_year_of_plenty"
    resources: list[str]


@dataclass(frozen=True, slots=True)
class PlayMonopoly(Command):
    type = "play_monopoly"
    resource: str


@dataclass(frozen=True, slots=True)
class EndTurn(Command):
    type = "end_turn"


COMMANDS: tuple[type[Command], ...] = (
    RollDice,
    MoveAlexander,
    Discard,
    MoveRobber,
    PlaceBid,
    PassBid,
    PayBid,
    ChooseAdvisorRecipient,
    OfferTrade,
    RespondTrade,
    ConfirmTrade,
    CancelTrade,
    BankTrade,
    BuildRoad,
    BuildSettlement,
    BuildCity,
    BuyDevelopmentCard,
    PlayKnight,
    PlayRoadBuilding,
    PlayYearOfPlenty,
    PlayMonopoly,
    EndTurn,
)

DEV_PLAY_COMMANDS = ("play_knight", "play_road_building", "play_year_of_plenty", "play_monopoly")
