"""Mutable game state of Peloponnes (rules file 2.2). States compare with == and deepcopy cleanly.

Undrawn tiles and disaster chits are kept as sorted lists of what is left: their order is never fixed in
advance; each draw picks uniformly from what is left with the stream of its stack (section 9), so the state
holds no hidden information at all.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from domain.peloponnes.data import DISASTERS, INITIAL_CHITS, STACKS

# Phases (rules file 10.1, plus the automatic ones in between).
SETUP = "setup"
DEALING = "dealing"
SOLO_SETUP = "solo_setup"
ROUND_END = "round_end"  # the next round (or the final supply round) starts
REVEAL = "reveal"
SUPPLY = "supply"
BIDDING = "bidding"
TURN_ORDER = "turn_order"
PLACEMENT = "placement"
INCOME = "income"
DISASTER = "disaster"
SCORING = "scoring"
ENDED = "ended"
PHASES = (
    SETUP,
    DEALING,
    SOLO_SETUP,
    ROUND_END,
    REVEAL,
    SUPPLY,
    BIDDING,
    TURN_ORDER,
    PLACEMENT,
    INCOME,
    DISASTER,
    SCORING,
    ENDED,
)

AUCTION = "auction"
CONQUEST = "conquest"

# bid_status values (2.2); "displaced" = outbid and not yet answered (R19)
NO_BID = "none"
HAS_BID = "bid"
PASSED = "passed"
WITHDRAWN = "withdrawn"
DISPLACED = "displaced"


@dataclass(slots=True)
class Building:
    tile_id: str
    unfinished: bool


@dataclass(slots=True)
class Slot:
    """One display tile: its row, and the bid lying on it (if any)."""

    tile_id: str
    row: str
    bidder: int | None = None
    amount: int = 0


@dataclass(slots=True)
class SeatState:
    civilization: str | None = None
    coins: int = 0
    wood: int = 0
    stone: int = 0
    food: int = 0
    population: int = 0
    luxury: int = 0
    buildings: list[Building] = field(default_factory=list)  # index 0 = next to the civilization tile
    lands: list[str] = field(default_factory=list)  # index 0 = next to the civilization tile
    extra_incomes: list[str] = field(default_factory=list)
    bid_status: str = NO_BID
    bid_tile: str | None = None
    bid_amount: int = 0
    won: str | None = None  # the tile awarded in step b, until it is placed or rejected

    def counters(self) -> dict[str, int]:
        return {
            "coins": self.coins,
            "wood": self.wood,
            "stone": self.stone,
            "food": self.food,
            "population": self.population,
            "luxury": self.luxury,
        }

    def set_counters(self, after: dict[str, int]) -> None:
        self.coins = after["coins"]
        self.wood = after["wood"]
        self.stone = after["stone"]
        self.food = after["food"]
        self.population = after["population"]
        self.luxury = after["luxury"]

    def owns_building(self, tile_ids: frozenset[str]) -> bool:
        return any(b.tile_id in tile_ids for b in self.buildings)


@dataclass(slots=True)
class State:
    players: int
    solo_level: int | None
    phase: str = SETUP
    round: int = 0
    seats: list[SeatState] = field(default_factory=list)
    turn_order: list[int] = field(default_factory=list)
    stacks: dict[str, list[str]] = field(default_factory=lambda: {s: list(t) for s, t in STACKS.items()})
    chits: list[str] = field(default_factory=lambda: list(INITIAL_CHITS))
    chits_on_tile: dict[str, int] = field(default_factory=lambda: dict.fromkeys(DISASTERS, 0))
    box: list[str] = field(default_factory=list)  # tiles out of the game
    box_chits: list[str] = field(default_factory=list)
    display: list[Slot] = field(default_factory=list)  # in draw order
    auction_slots: int = 0
    # bidding (step b)
    turn_index: int = 0  # index into turn_order of the next regular turn
    displaced: int | None = None
    displaced_from: str | None = None
    # simultaneous steps: seats still to resolve, in turn order (R49)
    pending: list[int] = field(default_factory=list)
    supply_due: str | None = None  # a supply tile was just revealed (R12)
    supply_trigger: str | None = None
    draws: int = 0  # disaster chits flipped this round
    strike: str | None = None  # the disaster being resolved
    results: list[dict[str, Any]] | None = None
    winners: list[int] = field(default_factory=list)
    seed: str | None = None  # revealed by GameEnded

    @property
    def is_solo(self) -> bool:
        return self.solo_level is not None

    def slot(self, tile_id: str) -> Slot | None:
        for s in self.display:
            if s.tile_id == tile_id:
                return s
        return None

    def row(self, row: str) -> list[Slot]:
        return [s for s in self.display if s.row == row]


def initial_state(players: int, options: dict[str, Any]) -> State:
    solo_level = options.get("solo_level") if players == 1 else None
    return State(players=players, solo_level=solo_level, seats=[SeatState() for _ in range(players)])
