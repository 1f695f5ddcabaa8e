"""Peloponnes' analytics (``domain.kernel.facts``): every bidding action, who got which tile for
how much, and its moves."""

from __future__ import annotations

from functools import partial

from domain.kernel.facts import AnalyticsFacts, Context, Fact, FactRows, FactTable, Handler, Move

BIDS = "peloponnes_bids"
AUCTION_RESULTS = "peloponnes_auction_results"

TABLES = {
    BIDS: FactTable(
        (
            ("game_id", "VARCHAR"),
            ("position", "INTEGER"),
            ("recorded_at", "TIMESTAMPTZ"),
            ("round", "INTEGER"),
            ("seat", "INTEGER"),
            ("action", "VARCHAR"),
            ("tile_id", "VARCHAR"),
            ("tile_row", "VARCHAR"),
            ("amount", "INTEGER"),
            ("luxury_spent", "INTEGER"),
            ("outbid_seat", "INTEGER"),
        ),
        "Peloponnes: every bidding action",
        {
            "action": "`bid`, `moved`, `withdrawn` or `passed`",
            "tile_id": "the tile bid on or moved to",
            "tile_row": "`auction` or `conquest`",
            "amount": ("the bid; for `withdrawn` the refund", "coins"),
            "luxury_spent": ("luxury spent on the bid", "luxury"),
            "outbid_seat": "the seat outbid",
        },
    ),
    AUCTION_RESULTS: FactTable(
        (
            ("game_id", "VARCHAR"),
            ("position", "INTEGER"),
            ("round", "INTEGER"),
            ("seat", "INTEGER"),
            ("tile_id", "VARCHAR"),
            ("amount", "INTEGER"),
        ),
        "Peloponnes: who got which tile for how much at the end of each round's bidding",
        {"seat": "who got the tile", "tile_id": "the tile", "amount": ("the price", "coins")},
    ),
}


def bidding_action(action: str, ctx: Context, fact: Fact, out: FactRows) -> None:
    """A bid placed, moved or withdrawn, or a pass: one row of ``peloponnes_bids``, whose fields
    each of them has or has not."""
    data = fact.data
    out.add(
        BIDS,
        {
            "game_id": fact.game_id,
            "position": fact.position,
            "recorded_at": fact.at,
            "round": ctx.get("round"),
            "seat": data["seat"],
            "action": action,
            "tile_id": data.get("tile_id") or data.get("to_tile_id"),
            "tile_row": data.get("row"),
            "amount": data.get("amount", data.get("refund")),
            "luxury_spent": data.get("luxury_spent"),
            "outbid_seat": data.get("outbid_seat"),
        },
    )


def bidding_ended(ctx: Context, fact: Fact, out: FactRows) -> None:
    for award in fact.data["awards"]:
        out.add(
            AUCTION_RESULTS,
            {
                "game_id": fact.game_id,
                "position": fact.position,
                "round": fact.data["round"],
                "seat": award["seat"],
                "tile_id": award["tile_id"],
                "amount": award["amount"],
            },
        )


HANDLERS: dict[str, Handler] = {
    "BidPlaced": partial(bidding_action, "bid"),
    "BidMoved": partial(bidding_action, "moved"),
    "BidWithdrawn": partial(bidding_action, "withdrawn"),
    "PlayerPassed": partial(bidding_action, "passed"),
    "BiddingEnded": bidding_ended,
}

MOVES = {
    "BidPlaced": Move("bid", place="tile_id", item="row", amount="amount", other_seat="outbid_seat"),
    "BidMoved": Move("move_bid", place="to_tile_id", item="from_tile_id", amount="amount"),
    "BidWithdrawn": Move("withdraw_bid", place="tile_id", amount="refund"),
    "PlayerPassed": Move("pass", amount="coins_gained"),
    "BuildingPlaced": Move(
        "building",
        item="mode",
        place="tile_id",
        gave=lambda d: {
            "wood": d["wood_spent"],
            "stone": d["stone_spent"],
            "coins": d["coin_placed"],
            "luxury": d["luxury_spent"],
        },
    ),
    "LandPlaced": Move("land", place="tile_id", amount="index"),
    "TileRejected": Move("reject_tile", item="reason", place="tile_id"),
}

FACTS = AnalyticsFacts(
    tables=TABLES,
    handlers=HANDLERS,
    moves=MOVES,
    score_unit="round",
    rounds={"RoundStarted": lambda _players, data: int(data["round"])},
)
