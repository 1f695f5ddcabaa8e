"""Commands (rules file §10.2). A ``Bundle`` is a ``{good: count}`` map; an edge is a pair of
intersection names such as ``["N(1,1)", "S(2,0)"]``; a hex is ``[q, r]``."""

from __future__ import annotations

from dataclasses import dataclass, field

from domain.kernel import Command


@dataclass(frozen=True, slots=True)
class RollDice(Command):
    """Roll both dice: production, or on a 7 discards and the robber (the active seat, before anything else)."""

    type = "roll_dice"


@dataclass(frozen=True, slots=True)
class MoveAlexander(Command):
    """Scenario board: move Alexander on along his route after the roll."""

    type = "move_alexander"


@dataclass(frozen=True, slots=True)
class Discard(Command):
    """After a 7: give up half your resource cards (rounded down) when you hold more than 11 (base board: 7)."""

    type = "discard"
    cards: dict[str, int] = field(metadata={"description": "{resource: count}, no gold, adding up to the number owed"})


@dataclass(frozen=True, slots=True)
class MoveRobber(Command):
    """After a 7: move the robber to another land hex and draw a card from a player built there."""

    type = "move_robber"
    hex: list[int] = field(metadata={"description": "the land hex [q, r]"})
    steal_from: int | None = field(
        default=None, metadata={"description": "a seat with a building on the hex; null only when there is none"}
    )


@dataclass(frozen=True, slots=True)
class PlaceBid(Command):
    """Scenario auction: bid more than the highest bid so far for the task."""

    type = "place_bid"
    amount: int = field(
        metadata={"description": "1 to 999, above the current highest bid", "minimum": 1, "maximum": 999}
    )


@dataclass(frozen=True, slots=True)
class PassBid(Command):
    """Scenario auction: drop out of this auction."""

    type = "pass_bid"


@dataclass(frozen=True, slots=True)
class PayBid(Command):
    """Scenario auction won: pay the bid in the goods the task accepts (knights count 3 in a battle)."""

    type = "pay_bid"
    items: dict[str, int] = field(metadata={"description": "{good: count} the task accepts"})
    knights: int = field(default=0, metadata={"description": "knights from the army, battle tasks only", "minimum": 0})


@dataclass(frozen=True, slots=True)
class ChooseAdvisorRecipient(Command):
    """The new First Advisor holder chooses who receives the lower advisor (R32)."""

    type = "choose_advisor_recipient"
    seat: int = field(metadata={"description": "an eligible seat", "minimum": 0, "maximum": 3})


@dataclass(frozen=True, slots=True)
class OfferTrade(Command):
    """Offer goods to other players (the active seat), or a counter-offer to the active seat."""

    type = "offer_trade"
    give: dict[str, int] = field(metadata={"description": "{good: count} the maker gives"})
    receive: dict[str, int] = field(metadata={"description": "{good: count} the maker wants; no good on both sides"})
    to: list[int] | None = field(
        default=None, metadata={"description": "the seats addressed; null: every other player"}
    )


@dataclass(frozen=True, slots=True)
class RespondTrade(Command):
    """An addressee accepts or declines an open offer."""

    type = "respond_trade"
    offer_id: int = field(metadata={"description": "an open offer"})
    accept: bool = field(metadata={"description": "true: willing to trade on these terms"})


@dataclass(frozen=True, slots=True)
class ConfirmTrade(Command):
    """The active seat closes its offer with one player who accepted it."""

    type = "confirm_trade"
    offer_id: int = field(metadata={"description": "the active seat's own open offer"})
    partner: int = field(metadata={"description": "a seat that accepted it", "minimum": 0, "maximum": 3})


@dataclass(frozen=True, slots=True)
class CancelTrade(Command):
    """The maker withdraws an open offer."""

    type = "cancel_trade"
    offer_id: int = field(metadata={"description": "the sender's own open offer"})


@dataclass(frozen=True, slots=True)
class BankTrade(Command):
    """Trade with the bank (or a harbour) at the seat's rate (R38)."""

    type = "bank_trade"
    give: str = field(metadata={"description": "the good given, rate x lots of it"})
    receive: str = field(metadata={"description": "the good received, one per lot"})
    lots: int = field(default=1, metadata={"description": "how many lots", "minimum": 1})


@dataclass(frozen=True, slots=True)
class BuildRoad(Command):
    """Build a road (brick + lumber) on a free path touching the seat's network."""

    type = "build_road"
    edge: list[str] = field(metadata={"description": 'the path\'s two intersections, e.g. ["N(1,1)", "S(2,0)"]'})


@dataclass(frozen=True, slots=True)
class BuildSettlement(Command):
    """Build a settlement (brick + lumber + grain + wool) at the end of an own road, two paths from any other."""

    type = "build_settlement"
    vertex: str = field(metadata={"description": 'an intersection, e.g. "N(1,1)"'})


@dataclass(frozen=True, slots=True)
class BuildCity(Command):
    """Upgrade an own settlement to a city (3 ore + 2 grain)."""

    type = "build_city"
    vertex: str = field(metadata={"description": "an intersection with the sender's settlement"})


@dataclass(frozen=True, slots=True)
class BuyDevelopmentCard(Command):
    """Buy a development card (ore + grain + wool)."""

    type = "buy_development_card"


@dataclass(frozen=True, slots=True)
class PlayKnight(Command):
    """Play a knight bought before this turn: move the robber, as after a 7."""

    type = "play_knight"
    hex: list[int] = field(metadata={"description": "the land hex [q, r]"})
    steal_from: int | None = field(
        default=None, metadata={"description": "a seat with a building on the hex; null only when there is none"}
    )


@dataclass(frozen=True, slots=True)
class PlayRoadBuilding(Command):
    """Play Road Building: up to two free roads, placed in order."""

    type = "play_road_building"
    edges: list[list[str]] = field(metadata={"description": "1 or 2 paths, each a pair of intersections"})


@dataclass(frozen=True, slots=True)
class PlayYearOfPlenty(Command):
    """Play Year of Plenty: take two resource cards from the bank."""

    type = "play_year_of_plenty"
    resources: list[str] = field(metadata={"description": "2 resources (1 if the bank holds only 1 card), no gold"})


@dataclass(frozen=True, slots=True)
class PlayMonopoly(Command):
    """Play Monopoly: every other player gives the sender all cards of one resource."""

    type = "play_monopoly"
    resource: str = field(metadata={"description": '"brick", "grain", "lumber", "ore" or "wool"'})


@dataclass(frozen=True, slots=True)
class EndTurn(Command):
    """End the turn (closes every open trade offer)."""

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
