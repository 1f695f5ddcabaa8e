"""Per-viewer view. Peloponnes has no private information (rules file section 8): every viewer sees the same
public table. Hidden from everyone: the undrawn order of stacks and chits (the state does not hold it) and the
civilizations not dealt, which the view shows once the game has ended and revealed its seed."""

from __future__ import annotations

from typing import Any, Literal, cast

from typing_extensions import TypedDict  # the API's schemas (pydantic) need this one before Python 3.12

from domain.kernel import Viewer
from domain.peloponnes.rules import awaited, undealt_civilizations
from domain.peloponnes.state import DISPLACED, SeatState, State


class PeloponnesBidView(TypedDict):
    """A seat's bid: the tile it lies on (null: displaced, R19) and its amount."""

    tile_id: str | None
    amount: int


class PeloponnesBuildingView(TypedDict):
    tile_id: str
    unfinished: bool


class PeloponnesSeatView(TypedDict):
    seat: int
    civilization: str | None
    coins: int
    wood: int
    stone: int
    food: int
    population: int
    luxury: int
    buildings: list[PeloponnesBuildingView]
    lands: list[str]
    extra_incomes: list[str]
    bid: PeloponnesBidView | None
    bid_status: str
    won: str | None


class PeloponnesSlotView(TypedDict):
    """A display tile and the bid lying on it."""

    tile_id: str
    bidder: int | None
    amount: int


class PeloponnesResultView(TypedDict):
    """A seat's final scoring (section 6)."""

    seat: int
    tile_prestige: int
    coin_prestige: int
    prestige: int
    population_points: int
    final: int
    higher: int
    luxury: int
    rank: int


# ``state.PHASES`` spelled out for the contract's enum (a test holds the two equal)
PeloponnesPhase = Literal[
    "setup",
    "dealing",
    "solo_setup",
    "round_end",
    "reveal",
    "supply",
    "bidding",
    "turn_order",
    "placement",
    "income",
    "disaster",
    "scoring",
    "ended",
]


class PeloponnesView(TypedDict):
    """The public table of Peloponnes (the same for every viewer)."""

    viewer: Viewer
    players: int
    solo_level: int | None
    round: int
    phase: PeloponnesPhase
    turn_order: list[int]
    auction: list[PeloponnesSlotView]
    conquest: list[PeloponnesSlotView]
    displaced: int | None
    displaced_from: str | None
    strike: str | None
    chits_on_tile: dict[str, int]
    stacks_left: dict[str, int]
    chits_left: int
    box: list[str]
    box_chits: list[str]
    seats: list[PeloponnesSeatView]
    awaited: dict[str, list[str]]
    results: list[PeloponnesResultView] | None
    winners: list[int]
    undealt_civilizations: list[str]


def bid_view(s: SeatState) -> PeloponnesBidView | None:
    """R19: a displaced bid lies on no tile until it is moved or withdrawn, but its amount is known to all."""
    if s.bid_status == DISPLACED:
        return {"tile_id": None, "amount": s.bid_amount}
    return None if s.bid_tile is None else {"tile_id": s.bid_tile, "amount": s.bid_amount}


def seat_view(seat: int, s: SeatState) -> PeloponnesSeatView:
    return {
        "seat": seat,
        "civilization": s.civilization,
        "coins": s.coins,
        "wood": s.wood,
        "stone": s.stone,
        "food": s.food,
        "population": s.population,
        "luxury": s.luxury,
        "buildings": [{"tile_id": b.tile_id, "unfinished": b.unfinished} for b in s.buildings],
        "lands": list(s.lands),
        "extra_incomes": list(s.extra_incomes),
        "bid": bid_view(s),
        "bid_status": s.bid_status,
        "won": s.won,
    }


def result_view(r: dict[str, Any]) -> PeloponnesResultView:
    return {
        "seat": r["seat"],
        "tile_prestige": r["tile_prestige"],
        "coin_prestige": r["coin_prestige"],
        "prestige": r["prestige"],
        "population_points": r["population_points"],
        "final": r["final"],
        "higher": r["higher"],
        "luxury": r["luxury"],
        "rank": r["rank"],
    }


def view(state: State, viewer: Viewer) -> PeloponnesView:
    return {
        "viewer": viewer,
        "players": state.players,
        "solo_level": state.solo_level,
        "round": state.round,
        "phase": cast(PeloponnesPhase, state.phase),
        "turn_order": list(state.turn_order),
        "auction": [
            {"tile_id": s.tile_id, "bidder": s.bidder, "amount": s.amount} for s in state.display if s.row == "auction"
        ],
        "conquest": [
            {"tile_id": s.tile_id, "bidder": s.bidder, "amount": s.amount} for s in state.display if s.row == "conquest"
        ],
        "displaced": state.displaced,
        "displaced_from": state.displaced_from,
        "strike": state.strike,
        "chits_on_tile": dict(state.chits_on_tile),
        "stacks_left": {stack: len(tiles) for stack, tiles in state.stacks.items()},
        "chits_left": len(state.chits),
        "box": list(state.box),
        "box_chits": list(state.box_chits),
        "seats": [seat_view(seat, s) for seat, s in enumerate(state.seats)],
        "awaited": {str(seat): list(kinds) for seat, kinds in awaited(state).items()},
        "results": None if state.results is None else [result_view(r) for r in state.results],
        "winners": list(state.winners),
        # hidden from everyone while the game runs; public once GameEnded has revealed the seed
        "undealt_civilizations": undealt_civilizations(state),
    }
