"""The per-viewer view: everything the viewer may know (§8), nothing more."""

from __future__ import annotations

from typing import Literal, NotRequired, cast

from typing_extensions import TypedDict  # the API's schemas (pydantic) need this one before Python 3.12

from domain.catan_alexander.data import GOODS, RESOURCES, TOKEN_CROSSINGS
from domain.catan_alexander.moves import optional
from domain.catan_alexander.rules import awaited, bundle_of, hex_ref, public_vp, total_vp, vp_cards
from domain.catan_alexander.state import GAME_OVER, State
from domain.kernel import Viewer


class CatanAlexanderPlayerView(TypedDict):
    """A seat's public figures; its hand and cards to the seat itself, and to everybody after the end."""

    seat: int
    hand_size: int
    gold: int
    development_cards: int
    army: int
    road_length: int
    tokens: int
    public_vp: int
    settlements_left: int
    cities_left: int
    roads_left: int
    hand: NotRequired[dict[str, int]]
    development: NotRequired[list[str]]
    development_new: NotRequired[list[str]]
    total_vp: NotRequired[int]
    vp_cards: NotRequired[int]


class CatanAlexanderAuctionView(TypedDict):
    crossing: int
    task: str
    round: int
    excluded: list[int]
    dropped: list[int]
    high_bid: int
    high_bidder: int | None
    to_act: int | None


class CatanAlexanderAdvisorChoiceView(TypedDict):
    """R32: the Advisor card the new First Advisor holder must pass on."""

    giver: int
    card: str
    eligible: list[int]


class CatanAlexanderOfferView(TypedDict):
    offer_id: int
    maker: int
    to: list[int]
    give: dict[str, int]
    receive: dict[str, int]
    responses: dict[str, bool]


class CatanAlexanderHexView(TypedDict):
    hex: list[int]
    product: str | None
    number: int | None


class CatanAlexanderBuildingView(TypedDict):
    vertex: str
    seat: int
    kind: Literal["settlement", "city"]


class CatanAlexanderRoadView(TypedDict):
    edge: list[str]
    seat: int


class CatanAlexanderRevealedView(TypedDict):
    """After the end (§8): the face-down tokens, the three set aside, the undrawn stacks' order."""

    face_down_tokens: dict[str, str]
    set_aside_tokens: list[str]
    development_deck: list[str]
    supply_stack: list[str]


# ``state.PHASES`` spelled out for the contract's enum (a test holds the two equal)
CatanAlexanderPhase = Literal[
    "BEFORE_ROLL",
    "ALEXANDER",
    "DISCARD",
    "ROBBER",
    "AUCTION",
    "PAYMENT",
    "DEFAULT_DISCARD",
    "ADVISOR_CHOICE",
    "TRADE_BUILD",
    "FOUNDING_SETTLEMENT",
    "FOUNDING_ROAD",
    "GAME_OVER",
    "SETUP",
    "TURN_START",
    "AUCTION_CLOSE",
    "AUCTION_REOPEN",
    "REWARD",
]


class CatanAlexanderView(TypedDict):
    """Everything the viewer may know (§8), nothing more."""

    game: Literal["catan_alexander"]
    board: str
    phase: CatanAlexanderPhase
    turn: int
    active: int
    awaited: dict[str, list[str]]
    optional: dict[str, list[str]]
    roll: int | None
    played_development_card: bool
    hexes: list[CatanAlexanderHexView]
    robber: list[int] | None
    buildings: list[CatanAlexanderBuildingView]
    roads: list[CatanAlexanderRoadView]
    bank: dict[str, int]
    gold_supply: int
    supply_stack: int
    supply_open: bool
    development_deck: int
    longest_road: int | None
    largest_army: int | None
    alexander: int
    face_down_tokens: list[int]
    advisors: dict[str, int | None]
    auction: CatanAlexanderAuctionView | None
    advisor_choice: CatanAlexanderAdvisorChoiceView | None
    owed_discards: dict[str, int]
    default_owed: int
    offers: list[CatanAlexanderOfferView]
    players: list[CatanAlexanderPlayerView]
    end_reason: str | None
    winners: list[int]
    revealed: CatanAlexanderRevealedView | None


def view(state: State, viewer: Viewer) -> CatanAlexanderView:
    geometry = state.geometry
    players: list[CatanAlexanderPlayerView] = []
    for s in range(state.players):
        entry: CatanAlexanderPlayerView = {
            "seat": s,
            "hand_size": sum(state.hands[s]),
            "gold": state.gold[s],
            "development_cards": len(state.dev_hand[s]) + len(state.dev_new[s]),
            "army": state.army[s],
            "road_length": state.road_length[s],
            "tokens": state.tokens_won[s],
            "public_vp": public_vp(state, s),
            "settlements_left": 5 - state.settlements[s],
            "cities_left": 4 - state.cities[s],
            "roads_left": 15 - state.roads[s],
        }
        if viewer == s or state.phase == GAME_OVER:
            entry["hand"] = bundle_of(state.hands[s], RESOURCES)
            entry["development"] = sorted(state.dev_hand[s])
            entry["development_new"] = sorted(state.dev_new[s])
            entry["total_vp"] = total_vp(state, s)
            entry["vp_cards"] = vp_cards(state, s)
        players.append(entry)
    auction: CatanAlexanderAuctionView | None = None
    if state.auction is not None:
        a = state.auction
        auction = {
            "crossing": a.crossing,
            "task": a.task,
            "round": a.round,
            "excluded": list(a.excluded),
            "dropped": list(a.dropped),
            "high_bid": a.high_bid,
            "high_bidder": a.high_bidder,
            "to_act": a.to_act,
        }
    return {
        "game": "catan_alexander",
        "board": state.board,
        "phase": cast(CatanAlexanderPhase, state.phase),
        "turn": state.turn,
        "active": state.active,
        "awaited": {str(s): list(c) for s, c in awaited(state).items()},
        "optional": {str(s): list(c) for s, c in optional(state).items()},
        "roll": state.roll,
        "played_development_card": state.played_dev,
        "hexes": [
            {
                "hex": hex_ref(geometry, h),
                "product": GOODS[p] if p >= 0 else None,
                "number": state.hex_number[h] or None,
            }
            for h, p in enumerate(state.hex_product)
        ],
        "robber": hex_ref(geometry, state.robber) if state.hex_product else None,
        "buildings": [
            {"vertex": geometry.vertices[v], "seat": o, "kind": "city" if state.level[v] == 2 else "settlement"}
            for v, o in enumerate(state.owner)
            if o >= 0
        ],
        "roads": [{"edge": geometry.edge_ref(e), "seat": o} for e, o in enumerate(state.road_owner) if o >= 0],
        "bank": bundle_of(state.bank, RESOURCES),
        "gold_supply": state.gold_supply,
        "supply_stack": len(state.supply),
        "supply_open": state.supply_open,
        "development_deck": len(state.dev_deck),
        "longest_road": state.longest_road,
        "largest_army": state.largest_army,
        "alexander": state.position,
        "face_down_tokens": sorted(state.tokens_on_board),
        "advisors": dict(state.advisors),
        "auction": auction,
        "advisor_choice": (
            {"giver": state.handdown.giver, "card": state.handdown.card, "eligible": list(state.handdown.eligible)}
            if state.handdown is not None
            else None
        ),
        "owed_discards": {str(s): n for s, n in state.owed_discards.items()},
        "default_owed": state.default_owed,
        "offers": [
            {
                "offer_id": o.offer_id,
                "maker": o.maker,
                "to": list(o.to),
                "give": bundle_of(o.give),
                "receive": bundle_of(o.receive),
                "responses": {str(s): a for s, a in o.responses.items()},
            }
            for o in state.offers.values()
        ],
        "players": players,
        "end_reason": state.end_reason,
        "winners": list(state.winners),
        "revealed": revealed(state) if state.phase == GAME_OVER else None,
    }


def revealed(state: State) -> CatanAlexanderRevealedView:
    """After the end everything is public (§8): the face-down tokens, the three set aside, and the
    order of the undrawn stacks."""
    return {
        "face_down_tokens": {str(c): task for c, task in sorted(state.tokens_on_board.items())},
        "set_aside_tokens": state.token_order[len(TOKEN_CROSSINGS) :],
        "development_deck": list(state.dev_deck),
        "supply_stack": [RESOURCES[card] for card in state.supply],
    }
