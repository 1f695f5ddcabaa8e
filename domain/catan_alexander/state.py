"""The mutable game state. Resource vectors are lists in canonical order (brick, grain, lumber,
ore, wool); a ``goods`` vector has gold at index 5. Intersections, paths and hexes are the
integer ids of ``data.Geometry``."""

from __future__ import annotations

from bisect import insort
from dataclasses import dataclass, field
from typing import Any

from domain.catan_alexander.data import GEOMETRIES, Geometry

# Phases where a seat is awaited
BEFORE_ROLL = "BEFORE_ROLL"
ALEXANDER = "ALEXANDER"
DISCARD = "DISCARD"
ROBBER = "ROBBER"
AUCTION = "AUCTION"
PAYMENT = "PAYMENT"
DEFAULT_DISCARD = "DEFAULT_DISCARD"
ADVISOR_CHOICE = "ADVISOR_CHOICE"
TRADE_BUILD = "TRADE_BUILD"
FOUNDING_SETTLEMENT = "FOUNDING_SETTLEMENT"
FOUNDING_ROAD = "FOUNDING_ROAD"
GAME_OVER = "GAME_OVER"
# Phases resolved by automatic steps (``rules.advance``)
SETUP = "SETUP"
TURN_START = "TURN_START"
AUCTION_CLOSE = "AUCTION_CLOSE"
AUCTION_REOPEN = "AUCTION_REOPEN"
REWARD = "REWARD"
PHASES = (
    BEFORE_ROLL,
    ALEXANDER,
    DISCARD,
    ROBBER,
    AUCTION,
    PAYMENT,
    DEFAULT_DISCARD,
    ADVISOR_CHOICE,
    TRADE_BUILD,
    FOUNDING_SETTLEMENT,
    FOUNDING_ROAD,
    GAME_OVER,
    SETUP,
    TURN_START,
    AUCTION_CLOSE,
    AUCTION_REOPEN,
    REWARD,
)


@dataclass
class Auction:
    crossing: int
    task: str  # "village" or a token task
    round: int = 1
    excluded: list[int] = field(default_factory=list)  # R27: defaulters on this task
    dropped: list[int] = field(default_factory=list)
    high_bid: int = 0
    high_bidder: int | None = None
    to_act: int | None = None


@dataclass
class Offer:
    offer_id: int
    maker: int
    to: list[int]
    give: list[int]  # goods vector
    receive: list[int]
    responses: dict[int, bool] = field(default_factory=dict)


@dataclass
class Handdown:
    """R32: the Advisor card the new First Advisor holder must pass on."""

    card: str
    giver: int
    eligible: list[int]


@dataclass
class State:
    players: int
    board: str  # "alexander" or "base"
    options: dict[str, Any]
    scenario: bool = True  # the Alexander board (False: the base game option)
    phase: str = SETUP
    turn: int = 0
    active: int = 0
    # holdings
    hands: list[list[int]] = field(default_factory=list)
    gold: list[int] = field(default_factory=list)
    dev_hand: list[list[str]] = field(default_factory=list)  # playable (bought before this turn)
    dev_new: list[list[str]] = field(default_factory=list)  # bought this turn
    army: list[int] = field(default_factory=list)  # R54: knights face up
    tokens_won: list[int] = field(default_factory=list)
    # bank
    bank: list[int] = field(default_factory=lambda: [0] * 5)
    gold_supply: int = 0
    supply: list[int] = field(default_factory=list)  # undrawn supply stack, top first (hidden)
    supply_open: bool = False
    dev_deck: list[str] = field(default_factory=list)  # top first (hidden)
    # board
    hex_product: list[int] = field(default_factory=list)  # per hex: goods index, -1 desert
    hex_number: list[int] = field(default_factory=list)  # 0 = none
    # per dice total: (hex, product, corner intersections) of its producing hexes
    producing_hexes: list[list[tuple[int, int, tuple[int, ...]]]] = field(default_factory=list)
    # per dice total: (hex, product, intersection) for each building on its producing hexes, sorted;
    # kept as buildings are placed, so that a roll looks at the buildings only
    producers: list[list[tuple[int, int, int]]] = field(default_factory=list)
    robber: int = 0
    owner: list[int] = field(default_factory=list)  # per intersection: seat or -1
    level: list[int] = field(default_factory=list)  # per intersection: 0 empty, 1 settlement, 2 city
    road_owner: list[int] = field(default_factory=list)  # per path: seat or -1
    buildings_of: list[list[int]] = field(default_factory=list)  # per seat: its intersections, in build order
    roads_of: list[list[int]] = field(default_factory=list)  # per seat: its paths, in build order
    settlements: list[int] = field(default_factory=list)  # on the board, per seat
    cities: list[int] = field(default_factory=list)
    roads: list[int] = field(default_factory=list)
    road_length: list[int] = field(default_factory=list)
    trade_rates: list[list[int]] = field(default_factory=list)  # per seat, per good: bank rate (R38)
    longest_road: int | None = None
    largest_army: int | None = None
    # R53: who is entitled to each card, kept as road lengths and armies change (``claim_special_cards``)
    road_claim: int | None = None
    army_claim: int | None = None
    # scenario
    position: int = 0
    tokens_on_board: dict[int, str] = field(default_factory=dict)  # crossing -> task (hidden)
    token_order: list[str] = field(default_factory=list)  # all 28, for GameEnded (hidden)
    advisors: dict[str, int | None] = field(default_factory=dict)
    handdown: Handdown | None = None
    auction: Auction | None = None
    default_owed: int = 0
    # turn
    roll: int | None = None
    played_dev: bool = False
    owed_discards: dict[int, int] = field(default_factory=dict)
    steals: int = 0
    offers: dict[int, Offer] = field(default_factory=dict)
    next_offer_id: int = 1
    founding_step: int = 0
    founding_vertex: int = -1
    # end
    end_reason: str | None = None
    winners: list[int] = field(default_factory=list)
    final_totals: list[int] = field(default_factory=list)

    # the board's static graph, looked up once (not compared, not shown, not pickled)
    geometry: Geometry = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.geometry = GEOMETRIES[self.board]

    def __getstate__(self) -> dict[str, Any]:
        """Snapshots and copies hold the state without the static board, found again by name."""
        saved = dict(self.__dict__)
        del saved["geometry"]
        return saved

    def __setstate__(self, saved: dict[str, Any]) -> None:
        self.__dict__.update(saved)
        self.geometry = GEOMETRIES[self.board]
        if "producers" not in saved:  # a snapshot from before the field
            self.producers = [
                sorted((h, product, v) for h, product, corners in hexes for v in corners if self.owner[v] >= 0)
                for hexes in self.producing_hexes
            ]
        if "road_claim" not in saved:  # a snapshot from before the fields: its cards are where R53 puts them
            self.road_claim, self.army_claim = self.longest_road, self.largest_army

    def add_producer(self, vertex: int) -> None:
        """A building on ``vertex``: its producing hexes now look at it."""
        for h in self.geometry.vertex_hexes[vertex]:
            if self.hex_number[h] and self.hex_product[h] >= 0:
                insort(self.producers[self.hex_number[h]], (h, self.hex_product[h], vertex))

    def founding_seat(self) -> int:
        n = self.players
        step = self.founding_step
        return step if step < n else 2 * n - 1 - step


def initial_state(players: int, options: dict[str, Any]) -> State:
    board = options.get("board", "alexander")
    state = State(players=players, board=board, options=dict(options), scenario=board == "alexander")
    geometry = state.geometry
    n = players
    state.hands = [[0] * 5 for _ in range(n)]
    state.gold = [0] * n
    state.dev_hand = [[] for _ in range(n)]
    state.dev_new = [[] for _ in range(n)]
    state.army = [0] * n
    state.tokens_won = [0] * n
    state.owner = [-1] * len(geometry.vertices)
    state.level = [0] * len(geometry.vertices)
    state.road_owner = [-1] * len(geometry.edges)
    state.buildings_of = [[] for _ in range(n)]
    state.roads_of = [[] for _ in range(n)]
    state.settlements = [0] * n
    state.cities = [0] * n
    state.roads = [0] * n
    state.road_length = [0] * n
    state.trade_rates = [[4] * 6 for _ in range(n)]
    return state
