"""Commands of Peloponnes (rules file 10.2). The sender is the seat; field values are checked in ``rules``."""

from __future__ import annotations

from dataclasses import dataclass

from domain.kernel import Command


@dataclass(frozen=True, slots=True)
class ChooseSoloSetup(Command):
    type = "choose_solo_setup"
    civilization: str
    extra_incomes: list[str]


@dataclass(frozen=True, slots=True)
class PlaceBid(Command):
    type = "place_bid"
    tile_id: str
    amount: int


@dataclass(frozen=True, slots=True)
class PassTurn(Command):
    type = "pass_turn"


@dataclass(frozen=True, slots=True)
class MoveBid(Command):
    type = "move_bid"
    tile_id: str


@dataclass(frozen=True, slots=True)
class WithdrawBid(Command):
    type = "withdraw_bid"


@dataclass(frozen=True, slots=True)
class PlaceBuilding(Command):
    type = "place_building"
    mode: str  # "build" | "mark"


@dataclass(frozen=True, slots=True)
class ChooseIncome(Command):
    type = "choose_income"
    choices: list[dict[str, str]]  # [{tile_id, resource}]


@dataclass(frozen=True, slots=True)
class ResolveSupply(Command):
    type = "resolve_supply"
    feed_with_luxury: int
    complete: list[str]


@dataclass(frozen=True, slots=True)
class ResolveDisaster(Command):
    type = "resolve_disaster"
    keep: list[str]


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
