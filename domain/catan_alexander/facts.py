"""Catan's analytics (``domain.kernel.facts``): its rolls, what they produced, the temple auctions
and their bids, and its moves.

The context follows the public board: which board, its terrains and numbers, the robber's hex,
the roll being paid and the auction under way.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.catan_alexander.data import (
    CITY_COST,
    DEVELOPMENT_COST,
    GEOMETRIES,
    RESOURCES,
    ROAD_COST,
    SETTLEMENT_COST,
    TERRAIN_PRODUCT,
    Geometry,
)
from domain.kernel.facts import (
    AnalyticsFacts,
    Context,
    Data,
    Fact,
    FactRows,
    FactTable,
    Handler,
    Move,
    round_of_turns,
)

DICE_ROLLS = "catan_dice_rolls"
PRODUCING_HEXES = "catan_producing_hexes"
PRODUCTION = "catan_production"
BIDS = "catan_bids"
AUCTIONS = "catan_auctions"

TABLES = {
    DICE_ROLLS: FactTable(
        (
            ("game_id", "VARCHAR"),
            ("position", "INTEGER"),
            ("recorded_at", "TIMESTAMPTZ"),
            ("turn", "INTEGER"),
            ("seat", "INTEGER"),
            ("die1", "INTEGER"),
            ("die2", "INTEGER"),
            ("total", "INTEGER"),
            ("robber_hex", "INTEGER"),
            ("producing_hexes", "INTEGER"),
        ),
        "Catan: every roll",
        {
            "seat": "who rolled",
            "die1": ("the first die", "pips"),
            "die2": ("the second die", "pips"),
            "total": ("the two dice", "pips"),
            "robber_hex": "the hex the robber stood on (index in the board's hex list)",
            "producing_hexes": ("hexes with that number that produced: not the robber's, not the desert", "hexes"),
        },
    ),
    PRODUCING_HEXES: FactTable(
        (
            ("game_id", "VARCHAR"),
            ("position", "INTEGER"),
            ("total", "INTEGER"),
            ("hex", "INTEGER"),
            ("hex_name", "VARCHAR"),
            ("q", "INTEGER"),
            ("r", "INTEGER"),
            ("terrain", "VARCHAR"),
            ("blocked", "BOOLEAN"),
        ),
        "Catan: every hex carrying the rolled number, per roll",
        {
            "position": "the roll's",
            "total": ("the roll", "pips"),
            "hex": "index in the board's hex list",
            "hex_name": "the hex's name on the board",
            "q": "axial coordinate q",
            "r": "axial coordinate r",
            "terrain": "the hex's terrain",
            "blocked": "the robber stood on it",
        },
    ),
    PRODUCTION: FactTable(
        (
            ("game_id", "VARCHAR"),
            ("position", "INTEGER"),
            ("roll_position", "INTEGER"),
            ("total", "INTEGER"),
            ("seat", "INTEGER"),
            ("good", "VARCHAR"),
            ("amount", "INTEGER"),
        ),
        "Catan: what each roll paid",
        {
            "position": "`ResourcesProduced`'s",
            "roll_position": "the roll's",
            "total": ("the roll", "pips"),
            "seat": "who received",
            "good": "the resource",
            "amount": ("how many", "cards"),
        },
    ),
    BIDS: FactTable(
        (
            ("game_id", "VARCHAR"),
            ("position", "INTEGER"),
            ("recorded_at", "TIMESTAMPTZ"),
            ("auction", "INTEGER"),
            ("crossing", "INTEGER"),
            ("task", "VARCHAR"),
            ("auction_round", "INTEGER"),
            ("seat", "INTEGER"),
            ("action", "VARCHAR"),
            ("amount", "INTEGER"),
        ),
        "Catan: every bid in a temple auction",
        {
            "auction": "1 = the game's first auction",
            "crossing": "the temple crossing auctioned",
            "task": "the task revealed there",
            "auction_round": "an auction re-opened after a default counts up",
            "seat": "who bid",
            "action": "`bid` or `dropped_out`",
            "amount": ("the bid", "cards"),
        },
    ),
    AUCTIONS: FactTable(
        (
            ("game_id", "VARCHAR"),
            ("auction", "INTEGER"),
            ("opened_position", "INTEGER"),
            ("closed_position", "INTEGER"),
            ("turn", "INTEGER"),
            ("crossing", "INTEGER"),
            ("task", "VARCHAR"),
            ("auction_round", "INTEGER"),
            ("knights_allowed", "BOOLEAN"),
            ("bids", "INTEGER"),
            ("winner", "INTEGER"),
            ("amount", "INTEGER"),
        ),
        "Catan: every temple auction",
        {
            "auction": "1 = the game's first auction",
            "opened_position": "`AuctionOpened`'s position",
            "closed_position": "`AuctionClosed`'s position",
            "crossing": "the temple crossing auctioned",
            "task": "the task revealed there",
            "auction_round": "an auction re-opened after a default counts up",
            "knights_allowed": "knights could be bid",
            "bids": ("bids placed", "bids"),
            "winner": "the winning seat (NULL: nobody)",
            "amount": ("the winning bid", "cards"),
        },
    ),
}


def _geometry(ctx: Context) -> Geometry:
    return GEOMETRIES[ctx["board"]]


def game_set_up(ctx: Context, fact: Fact, out: FactRows) -> None:
    data = fact.data
    board = next(key for key, g in GEOMETRIES.items() if g.board_id == data["board_id"])
    ctx["board"] = board
    ctx["terrains"] = data["terrains"]
    ctx["numbers"] = data["numbers"]
    ctx["robber"] = GEOMETRIES[board].hex_index[(data["robber_hex"][0], data["robber_hex"][1])]
    ctx["auctions"] = 0


def robber_moved(ctx: Context, fact: Fact, out: FactRows) -> None:
    ctx["robber"] = _geometry(ctx).hex_index[(fact.data["hex"][0], fact.data["hex"][1])]


def dice_rolled(ctx: Context, fact: Fact, out: FactRows) -> None:
    """The roll, and every hex carrying its number (a desert carries none)."""
    data, game_id, position = fact.data, fact.game_id, fact.position
    total = data["total"]
    geometry = _geometry(ctx)
    producing = 0
    for index, number in enumerate(ctx["numbers"]):
        if number != total or TERRAIN_PRODUCT.get(ctx["terrains"][index], -1) < 0:
            continue
        blocked = index == ctx["robber"]
        producing += not blocked
        q, r = geometry.hexes[index]
        out.add(
            PRODUCING_HEXES,
            {
                "game_id": game_id,
                "position": position,
                "total": total,
                "hex": index,
                "hex_name": geometry.hex_names[index],
                "q": q,
                "r": r,
                "terrain": ctx["terrains"][index],
                "blocked": blocked,
            },
        )
    out.add(
        DICE_ROLLS,
        {
            "game_id": game_id,
            "position": position,
            "recorded_at": fact.at,
            "turn": ctx.get("turn"),
            "seat": data["seat"],
            "die1": data["die1"],
            "die2": data["die2"],
            "total": total,
            "robber_hex": ctx["robber"],
            "producing_hexes": producing,
        },
    )
    ctx["roll"] = [position, total]


def resources_produced(ctx: Context, fact: Fact, out: FactRows) -> None:
    roll_position, total = ctx.get("roll") or [None, None]
    for seat, goods in fact.data["gains"].items():
        for good, amount in goods.items():
            out.add(
                PRODUCTION,
                {
                    "game_id": fact.game_id,
                    "position": fact.position,
                    "roll_position": roll_position,
                    "total": total,
                    "seat": int(seat),
                    "good": good,
                    "amount": amount,
                },
            )


def auction_opened(ctx: Context, fact: Fact, out: FactRows) -> None:
    data = fact.data
    ctx["auctions"] = ctx.get("auctions", 0) + 1
    ctx["auction"] = {
        "auction": ctx["auctions"],
        "opened_position": fact.position,
        "turn": ctx.get("turn"),
        "crossing": data["crossing"],
        "task": data["task"],
        "auction_round": data["round"],
        "knights_allowed": data["knights_allowed"],
        "bids": 0,
    }


def _bid_row(auction: Context, fact: Fact, action: str) -> dict[str, Any]:
    return {
        "game_id": fact.game_id,
        "position": fact.position,
        "recorded_at": fact.at,
        "auction": auction["auction"],
        "crossing": auction["crossing"],
        "task": auction["task"],
        "auction_round": auction["auction_round"],
        "seat": fact.data["seat"],
        "action": action,
        "amount": fact.data.get("amount"),
    }


def bid_placed(ctx: Context, fact: Fact, out: FactRows) -> None:
    auction = ctx["auction"]
    auction["bids"] += 1
    out.add(BIDS, _bid_row(auction, fact, "bid"))


def bidder_dropped_out(ctx: Context, fact: Fact, out: FactRows) -> None:
    out.add(BIDS, _bid_row(ctx["auction"], fact, "dropped_out"))


def auction_closed(ctx: Context, fact: Fact, out: FactRows) -> None:
    auction = ctx.pop("auction")
    out.add(
        AUCTIONS,
        {
            "game_id": fact.game_id,
            **auction,
            "closed_position": fact.position,
            "winner": fact.data["winner"],
            "amount": fact.data["amount"],
        },
    )


HANDLERS: dict[str, Handler] = {
    "GameSetUp": game_set_up,
    "RobberMoved": robber_moved,
    "DiceRolled": dice_rolled,
    "ResourcesProduced": resources_produced,
    "AuctionOpened": auction_opened,
    "BidPlaced": bid_placed,
    "BidderDroppedOut": bidder_dropped_out,
    "AuctionClosed": auction_closed,
}


def _cost(cost: tuple[int, ...]) -> dict[str, int]:
    """A cost tuple of the rules (in ``RESOURCES`` order) by name."""
    return {good: n for good, n in zip(RESOURCES, cost, strict=True) if n}


def _paid(cost: tuple[int, ...]) -> Callable[[Data], Any]:
    """What a building cost, unless it was free (the setup's)."""
    return lambda data: None if data.get("free") else _cost(cost)


MOVES = {
    "DiceRolled": Move("roll", amount="total"),
    "SettlementBuilt": Move("settlement", item="source", place="vertex", gave=_paid(SETTLEMENT_COST)),
    "CityBuilt": Move("city", place="vertex", gave=lambda d: _cost(CITY_COST)),
    "RoadBuilt": Move("road", place="edge", gave=_paid(ROAD_COST)),
    "DevelopmentCardBought": Move("development_card", item="card", gave=lambda d: _cost(DEVELOPMENT_COST)),
    "KnightPlayed": Move("play_card", item=lambda d: "knight"),
    "RoadBuildingPlayed": Move("play_card", item=lambda d: "road_building"),
    "YearOfPlentyPlayed": Move("play_card", item=lambda d: "year_of_plenty", received="taken"),
    "MonopolyPlayed": Move("play_card", item=lambda d: "monopoly", received="taken"),
    "RobberMoved": Move("robber", item="cause", place="hex"),
    "CardStolen": Move("steal", seat="thief", other_seat="victim", item="card"),
    "CardsDiscarded": Move("discard", item="reason", gave="cards"),
    "ArmyMoved": Move("army", item="kind", place="to_position", amount=lambda d: d["to_position"] - d["from_position"]),
    "BidPlaced": Move("bid", amount="amount"),
    "BidderDroppedOut": Move("drop_out"),
    "BidPaid": Move("pay_bid", amount="knights", gave="items"),
    "TradeOffered": Move("offer", seat="maker", gave="give", received="receive"),
    "TradeResponded": Move("respond", item=lambda d: "accept" if d.get("accept") else "decline"),
    "TradeCompleted": Move("trade", seat="maker", other_seat="partner", gave="maker_gave", received="partner_gave"),
    "BankTraded": Move("bank_trade", gave="gave", received="received"),
    "TurnEnded": Move("end_turn"),
}

FACTS = AnalyticsFacts(
    tables=TABLES, handlers=HANDLERS, moves=MOVES, score_unit="round", rounds={"TurnStarted": round_of_turns}
)
