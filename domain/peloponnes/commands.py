"""Commands of Peloponnes (rules file 10.2). The sender is the seat; field values are checked in ``rules``."""

from __future__ import annotations

from dataclasses import dataclass, field

from domain.kernel import Command


@dataclass(frozen=True, slots=True)
class ChooseSoloSetup(Command):
    """Solo game only (section 7.2): choose the civilization and the level's extra round incomes."""

    type = "choose_solo_setup"
    civilization: str = field(metadata={"description": "a civilization tile id"})
    extra_incomes: list[str] = field(
        metadata={"description": '"wood", "stone" or "food", as many as the level gives (0, 1, 2, 3, 3), no repeats'}
    )


@dataclass(frozen=True, slots=True)
class PlaceBid(Command):
    """Bid on an offered tile (5.3): at least its minimum; outbid a bid already there; a conquest
    tile costs exactly its minimum + 3. Coins, with 2 luxury standing in for each missing coin."""

    type = "place_bid"
    tile_id: str = field(metadata={"description": "a tile in the auction row or the conquest row"})
    amount: int = field(metadata={"description": "coins", "minimum": 1})


@dataclass(frozen=True, slots=True)
class PassTurn(Command):
    """Bid nothing this round (5.3)."""

    type = "pass_turn"


@dataclass(frozen=True, slots=True)
class MoveBid(Command):
    """A displaced bidder moves the same bid to a free tile it still covers (5.3)."""

    type = "move_bid"
    tile_id: str = field(metadata={"description": "a free offered tile, not the one the bid was displaced from"})


@dataclass(frozen=True, slots=True)
class WithdrawBid(Command):
    """A displaced bidder takes the bid back and gets nothing this round (5.3)."""

    type = "withdraw_bid"


@dataclass(frozen=True, slots=True)
class PlaceBuilding(Command):
    """Pay for a won building now, or place it unfinished, to be completed at a supply round (5.5)."""

    type = "place_building"
    mode: str = field(metadata={"description": '"build" (pay wood and stone now) or "mark" (unfinished)'})


@dataclass(frozen=True, slots=True)
class ChooseIncome(Command):
    """Owners of the Port or the Temple of Apollo choose what each gives this round (5.7)."""

    type = "choose_income"
    choices: list[dict[str, str]] = field(
        metadata={
            "description": 'one {tile_id, resource} per such tile owned; resource "wood", "stone", "food" or "coin"'
        }
    )


@dataclass(frozen=True, slots=True)
class ResolveSupply(Command):
    """At a supply round (5.9): feed people with luxury and complete unfinished buildings."""

    type = "resolve_supply"
    feed_with_luxury: int = field(
        metadata={"description": "luxury spent on food, within the range rule R46a allows", "minimum": 0}
    )
    complete: list[str] = field(metadata={"description": "tile ids of own unfinished buildings to complete now"})


@dataclass(frozen=True, slots=True)
class ResolveDisaster(Command):
    """After an earthquake (buildings) or a tempest (lands): which of the seat's tiles survive (5.8)."""

    type = "resolve_disaster"
    keep: list[str] = field(
        metadata={"description": "tile ids to keep: at most min(wood, stone) resp. min(food, coins) of them"}
    )


COMMANDS: tuple[type[Command], ...] = (
    ChooseSoloSetup,
    PlaceBid,
    PassTurn,
    MoveBid,
    WithdrawBid,
    PlaceBuilding,
    ChooseIncome,
    ResolveSupply,
    ResolveDisaster,
)
