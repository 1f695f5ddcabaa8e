"""The analytics read model: the public facts of every game as rows of plain tables.

Pure: this module turns a game's records (in log order) into rows; ``infra.analytics.store`` stores
them in DuckDB with the projection's position. What a row may hold is what the per-viewer
filter (``domain.kernel.log.for_viewer``) shows a spectator: the public forms while a game
runs, everything once it has ended (the seed is revealed then, and the full log with it).

Three kinds of tables:

- ``games``: one row per game (who played what, when, how it ended);
- ``records``: one row per record, its data as JSON (``data`` of ``for_viewer``);
- fact tables per game, one row per fact the players ask about (dice rolls, bids, allocations,
  walls ...), made by one handler per game from the public records as they arrive (so that a
  fact row never changes when its game ends).

Scores by round come from the game's own ``scoreboard`` over a replay of the full record, so
they exist only for ended games (a running game's state cannot be rebuilt from public forms).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from operator import itemgetter, methodcaller
from typing import Any

import orjson

from domain.catalog import GAMES
from domain.catan_alexander.data import (
    CITY_COST,
    DEVELOPMENT_COST,
    GEOMETRIES,
    ROAD_COST,
    SETTLEMENT_COST,
    TERRAIN_PRODUCT,
    Geometry,
)
from domain.kernel.game import Scoreboard
from domain.kernel.log import COMMAND_ACCEPTED, GAME_CREATED, GAME_ENDED, Record, canonical
from domain.kernel.match import SEAT_KEYED, SEAT_TAKEN

# -- the schema ---------------------------------------------------------------------------------
# Column types are DuckDB's; ``docs/analytics.md`` explains every column.

Columns = tuple[tuple[str, str], ...]

GAMES_TABLE = "games"
RECORDS_TABLE = "records"
SCORES_TABLE = "scores"
SEATS_TABLE = "game_seats"

TABLES: dict[str, Columns] = {
    GAMES_TABLE: (
        ("game_id", "VARCHAR"),
        ("game", "VARCHAR"),
        ("players", "INTEGER"),
        ("options", "JSON"),
        ("status", "VARCHAR"),
        ("version", "INTEGER"),
        ("commands", "INTEGER"),
        ("rounds", "INTEGER"),
        ("created_at", "TIMESTAMPTZ"),
        ("last_activity", "TIMESTAMPTZ"),
        ("ended_at", "TIMESTAMPTZ"),
        ("scores", "DOUBLE[]"),
        ("placings", "INTEGER[]"),
        ("winners", "INTEGER[]"),
        ("fingerprint", "VARCHAR"),
        ("seed", "VARCHAR"),
        ("forked_from", "VARCHAR"),
        ("forked_from_version", "INTEGER"),
        ("tournament", "VARCHAR"),
    ),
    RECORDS_TABLE: (
        ("game_id", "VARCHAR"),
        ("game", "VARCHAR"),
        ("position", "INTEGER"),
        ("type", "VARCHAR"),
        ("seat", "INTEGER"),
        ("private", "BOOLEAN"),
        ("recorded_at", "TIMESTAMPTZ"),
        ("data", "JSON"),
        ("turn", "INTEGER"),
        ("round", "INTEGER"),
    ),
    SEATS_TABLE: (
        ("game_id", "VARCHAR"),
        ("game", "VARCHAR"),
        ("players", "INTEGER"),
        ("seat", "INTEGER"),
        ("name", "VARCHAR"),
        ("tournament", "VARCHAR"),
        ("tournament_player", "INTEGER"),
        ("status", "VARCHAR"),
        ("score", "DOUBLE"),
        ("place", "INTEGER"),
        ("won", "BOOLEAN"),
    ),
    SCORES_TABLE: (
        ("game_id", "VARCHAR"),
        ("game", "VARCHAR"),
        ("unit", "VARCHAR"),
        ("round", "INTEGER"),
        ("position", "INTEGER"),
        ("final", "BOOLEAN"),
        ("seat", "INTEGER"),
        ("score", "DOUBLE"),
        ("place", "INTEGER"),
    ),
    "catan_dice_rolls": (
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
    "catan_producing_hexes": (
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
    "catan_production": (
        ("game_id", "VARCHAR"),
        ("position", "INTEGER"),
        ("roll_position", "INTEGER"),
        ("total", "INTEGER"),
        ("seat", "INTEGER"),
        ("good", "VARCHAR"),
        ("amount", "INTEGER"),
    ),
    "catan_bids": (
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
    "catan_auctions": (
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
    "peloponnes_bids": (
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
    "peloponnes_auction_results": (
        ("game_id", "VARCHAR"),
        ("position", "INTEGER"),
        ("round", "INTEGER"),
        ("seat", "INTEGER"),
        ("tile_id", "VARCHAR"),
        ("amount", "INTEGER"),
    ),
    "empire_builder_allocations": (
        ("game_id", "VARCHAR"),
        ("position", "INTEGER"),
        ("campaign", "INTEGER"),
        ("round", "INTEGER"),
        ("kind", "VARCHAR"),
        ("seat", "INTEGER"),
        ("turn_order", "INTEGER"),
        ("armies", "INTEGER"),
        ("temples", "INTEGER"),
        ("cities", "INTEGER"),
    ),
    "empire_builder_contests": (
        ("game_id", "VARCHAR"),
        ("position", "INTEGER"),
        ("campaign", "INTEGER"),
        ("round", "INTEGER"),
        ("province", "VARCHAR"),
        ("kind", "VARCHAR"),
        ("contenders", "INTEGER"),
        ("stakes", "JSON"),
        ("seat", "INTEGER"),
        ("outcome", "VARCHAR"),
        ("paid", "INTEGER"),
        ("vp", "INTEGER"),
    ),
    "alexandros_walls": (
        ("game_id", "VARCHAR"),
        ("position", "INTEGER"),
        ("recorded_at", "TIMESTAMPTZ"),
        ("turn", "INTEGER"),
        ("seat", "INTEGER"),
        ("color", "VARCHAR"),
        ("side", "JSON"),
        ("black_left", "INTEGER"),
        ("red_left", "INTEGER"),
    ),
    "alexandros_provinces": (
        ("game_id", "VARCHAR"),
        ("position", "INTEGER"),
        ("turn", "INTEGER"),
        ("seat", "INTEGER"),
        ("spaces", "INTEGER"),
        ("governors", "INTEGER"),
        ("cards_paid", "INTEGER"),
        ("takeover_from", "INTEGER"),
        ("evicted", "INTEGER"),
    ),
    "alexandros_taxes": (
        ("game_id", "VARCHAR"),
        ("position", "INTEGER"),
        ("turn", "INTEGER"),
        ("levier", "INTEGER"),
        ("card", "VARCHAR"),
        ("seat", "INTEGER"),
        ("points", "INTEGER"),
        ("score_after", "INTEGER"),
    ),
}

Row = dict[str, Any]
Values = tuple[Any, ...]  # a row as its values, in the order of its table's columns

_slow_json = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode


def record_json(data: dict[str, Any]) -> bytes:
    """``canonical``'s form of a record's data as UTF-8 (orjson's sorted keys, compact, not
    escaped: the same text, at a fifth of the cost); the standard encoder for what orjson does
    not encode (an integer beyond 64 bits)."""
    try:
        return orjson.dumps(data, option=orjson.OPT_SORT_KEYS)
    except TypeError:  # orjson.JSONEncodeError
        return _slow_json(data).encode()


class Rows:
    """Rows to insert, by table: each row its values in the order of the table's columns (so
    that a batch becomes columns at C speed, ``zip(*rows)``); ``records``, one row per record,
    straight as its columns (``columns``: one list per column), with no tuple per row."""

    def __init__(self) -> None:
        self.rows: dict[str, list[Values]] = {name: [] for name in TABLES if name != RECORDS_TABLE}
        self.columns: tuple[list[Any], ...] = tuple([] for _ in TABLES[RECORDS_TABLE])

    def add(self, table: str, row: Row) -> None:
        """A row given by column name (the fact tables: a few rows a game)."""
        self.rows[table].append(_VALUES_OF[table](row))

    @property
    def tables(self) -> dict[str, list[Row]]:
        """The rows as dicts by column name (for reading them in tests)."""
        found = {
            table: [dict(zip(_NAMES[table], values, strict=True)) for values in rows]
            for table, rows in self.rows.items()
        }
        found[RECORDS_TABLE] = [
            dict(zip(_NAMES[RECORDS_TABLE], values, strict=True)) for values in zip(*self.columns, strict=True)
        ]
        return found


# -- per game: the facts players ask about ------------------------------------------------------

Context = dict[str, Any]  # a running game's public bookkeeping (JSON-serialisable)
Handler = Callable[[Context, str, int, datetime, str, dict[str, Any], Rows], None]


def _catan_geometry(context: Context) -> Geometry:
    return GEOMETRIES[context["board"]]


def catan_facts(
    ctx: Context, game_id: str, position: int, at: datetime, kind: str, data: dict[str, Any], out: Rows
) -> None:
    if kind == "GameSetUp":
        board = next(key for key, g in GEOMETRIES.items() if g.board_id == data["board_id"])
        ctx["board"] = board
        ctx["terrains"] = data["terrains"]
        ctx["numbers"] = data["numbers"]
        ctx["robber"] = GEOMETRIES[board].hex_index[(data["robber_hex"][0], data["robber_hex"][1])]
        ctx["auctions"] = 0
    elif kind == "RobberMoved":
        ctx["robber"] = _catan_geometry(ctx).hex_index[(data["hex"][0], data["hex"][1])]
    elif kind == "DiceRolled":
        total = data["total"]
        geometry = _catan_geometry(ctx)
        producing = 0
        for index, number in enumerate(ctx["numbers"]):
            if number != total or TERRAIN_PRODUCT.get(ctx["terrains"][index], -1) < 0:
                continue
            blocked = index == ctx["robber"]
            producing += not blocked
            q, r = geometry.hexes[index]
            out.add(
                "catan_producing_hexes",
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
            "catan_dice_rolls",
            {
                "game_id": game_id,
                "position": position,
                "recorded_at": at,
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
    elif kind == "ResourcesProduced":
        roll_position, total = ctx.get("roll") or [None, None]
        for seat, goods in data["gains"].items():
            for good, amount in goods.items():
                out.add(
                    "catan_production",
                    {
                        "game_id": game_id,
                        "position": position,
                        "roll_position": roll_position,
                        "total": total,
                        "seat": int(seat),
                        "good": good,
                        "amount": amount,
                    },
                )
    elif kind == "AuctionOpened":
        ctx["auctions"] = ctx.get("auctions", 0) + 1
        ctx["auction"] = {
            "auction": ctx["auctions"],
            "opened_position": position,
            "turn": ctx.get("turn"),
            "crossing": data["crossing"],
            "task": data["task"],
            "auction_round": data["round"],
            "knights_allowed": data["knights_allowed"],
            "bids": 0,
        }
    elif kind in ("BidPlaced", "BidderDroppedOut"):
        auction = ctx["auction"]
        if kind == "BidPlaced":
            auction["bids"] += 1
        out.add(
            "catan_bids",
            {
                "game_id": game_id,
                "position": position,
                "recorded_at": at,
                "auction": auction["auction"],
                "crossing": auction["crossing"],
                "task": auction["task"],
                "auction_round": auction["auction_round"],
                "seat": data["seat"],
                "action": "bid" if kind == "BidPlaced" else "dropped_out",
                "amount": data.get("amount"),
            },
        )
    elif kind == "AuctionClosed":
        auction = ctx.pop("auction")
        out.add(
            "catan_auctions",
            {
                "game_id": game_id,
                **auction,
                "closed_position": position,
                "winner": data["winner"],
                "amount": data["amount"],
            },
        )


def peloponnes_facts(
    ctx: Context, game_id: str, position: int, at: datetime, kind: str, data: dict[str, Any], out: Rows
) -> None:
    if kind in ("BidPlaced", "BidMoved", "BidWithdrawn", "PlayerPassed"):
        action = {"BidPlaced": "bid", "BidMoved": "moved", "BidWithdrawn": "withdrawn", "PlayerPassed": "passed"}[kind]
        out.add(
            "peloponnes_bids",
            {
                "game_id": game_id,
                "position": position,
                "recorded_at": at,
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
    elif kind == "BiddingEnded":
        for award in data["awards"]:
            out.add(
                "peloponnes_auction_results",
                {
                    "game_id": game_id,
                    "position": position,
                    "round": data["round"],
                    "seat": award["seat"],
                    "tile_id": award["tile_id"],
                    "amount": award["amount"],
                },
            )


def empire_builder_facts(
    ctx: Context, game_id: str, position: int, at: datetime, kind: str, data: dict[str, Any], out: Rows
) -> None:
    if kind in ("AllocationsRevealed", "ReallocationsRevealed"):
        entries = data["allocations"] if kind == "AllocationsRevealed" else data["boxes"]
        for entry in entries:
            out.add(
                "empire_builder_allocations",
                {
                    "game_id": game_id,
                    "position": position,
                    "campaign": data["campaign"],
                    "round": data.get("round"),
                    "kind": "allocation" if kind == "AllocationsRevealed" else "reallocation",
                    "seat": entry["seat"],
                    "turn_order": entry.get("turn_order"),
                    "armies": entry.get("armies"),
                    "temples": entry["temples"],
                    "cities": entry["cities"],
                },
            )
        return
    stakes: dict[str, int] | None
    if kind == "ProvinceScored":
        stakes, building, outcome = data["armies"], "province", "scored" if data["seat"] is not None else "no_majority"
        where = data["province"]
    elif kind == "AwardScored":
        stakes, building, outcome = data["counts"], "award", "scored" if data["seat"] is not None else "no_majority"
        where = data["award"] if data["region"] is None else f"{data['award']}:{data['region']}"
    elif kind == "BuildAttemptFailed":
        stakes, building, outcome, where = None, data["kind"], data["reason"], data["province"]
    elif kind in ("TempleBuilt", "CityFounded"):
        stakes, building, outcome = data["bids"], "temple" if kind == "TempleBuilt" else "city", "built"
        where = data["province"]
    else:
        return
    out.add(
        "empire_builder_contests",
        {
            "game_id": game_id,
            "position": position,
            "campaign": data.get("campaign", ctx.get("round")),
            "round": data.get("round"),
            "province": where,
            "kind": building,
            "contenders": sum(1 for v in stakes.values() if v) if stakes is not None else None,
            "stakes": canonical(stakes) if stakes is not None else None,
            "seat": data["seat"],
            "outcome": outcome,
            "paid": data.get("paid"),
            "vp": data.get("vp"),
        },
    )


def alexandros_facts(
    ctx: Context, game_id: str, position: int, at: datetime, kind: str, data: dict[str, Any], out: Rows
) -> None:
    if kind == "WallBuilt":
        out.add(
            "alexandros_walls",
            {
                "game_id": game_id,
                "position": position,
                "recorded_at": at,
                "turn": ctx.get("turn"),
                "seat": data["seat"],
                "color": data["color"],
                "side": canonical(data["side"]),
                "black_left": data["black_left"],
                "red_left": data["red_left"],
            },
        )
    elif kind == "ProvinceOccupied":
        takeover = data["takeover"] or {}
        evicted = takeover.get("evicted")
        out.add(
            "alexandros_provinces",
            {
                "game_id": game_id,
                "position": position,
                "turn": ctx.get("turn"),
                "seat": data["seat"],
                "spaces": len(data["province"]),
                "governors": len(data["governors"]),
                "cards_paid": len(data["cards_paid"]),
                "takeover_from": takeover.get("from_seat"),
                "evicted": len(evicted) if isinstance(evicted, list) else evicted,
            },
        )
    elif kind == "TaxesLevied":
        for seat, (points, score) in enumerate(zip(data["points"], data["scores"], strict=True)):
            out.add(
                "alexandros_taxes",
                {
                    "game_id": game_id,
                    "position": position,
                    "turn": ctx.get("turn"),
                    "levier": data["seat"],
                    "card": data["card"],
                    "seat": seat,
                    "points": points,
                    "score_after": score,
                },
            )


def no_facts(
    ctx: Context, game_id: str, position: int, at: datetime, kind: str, data: dict[str, Any], out: Rows
) -> None:
    """A game without fact tables (the tests' fixture game): games, records and scores only."""


# The record types each game's handler makes fact rows of (it is called for no other).
FACT_KINDS: dict[str, frozenset[str]] = {
    "catan_alexander": frozenset(
        {
            "GameSetUp",
            "RobberMoved",
            "DiceRolled",
            "ResourcesProduced",
            "AuctionOpened",
            "BidPlaced",
            "BidderDroppedOut",
            "AuctionClosed",
        }
    ),
    "peloponnes": frozenset({"BidPlaced", "BidMoved", "BidWithdrawn", "PlayerPassed", "BiddingEnded"}),
    "empire_builder": frozenset(
        {
            "AllocationsRevealed",
            "ReallocationsRevealed",
            "ProvinceScored",
            "AwardScored",
            "BuildAttemptFailed",
            "TempleBuilt",
            "CityFounded",
        }
    ),
    "alexandros": frozenset({"WallBuilt", "ProvinceOccupied", "TaxesLevied"}),
}

FACTS: dict[str, Handler] = {
    "catan_alexander": catan_facts,
    "peloponnes": peloponnes_facts,
    "empire_builder": empire_builder_facts,
    "alexandros": alexandros_facts,
}

# What ``scores.round`` counts, per game, and which record starts the next one.
SCORE_UNITS = {"peloponnes": "round", "empire_builder": "campaign", "catan_alexander": "round", "alexandros": "round"}


def period_started(game: str, players: int, record: Record) -> int | None:
    """The round (campaign) that ``record`` starts, if it starts one."""
    if game == "peloponnes" and record.type == "RoundStarted":
        return int(record.data["round"])
    if game == "empire_builder" and record.type == "CampaignStarted":
        return int(record.data["campaign"])
    if game in ("catan_alexander", "alexandros") and record.type == "TurnStarted":
        turn = int(record.data["turn"])
        return (turn - 1) // players + 1 if (turn - 1) % players == 0 else None
    return None


# -- moves: every player's act, one row each, in typed columns ----------------------------------


def _place(value: Any) -> str | None:
    """Where, as text: a vertex or tile id as it is, a hex ``q,r``, a side or path ``q,r q,r``."""
    if value is None:
        return None
    if isinstance(value, str | int):
        return str(value)
    if all(isinstance(v, int) for v in value):
        return ",".join(map(str, value))
    return " ".join(_place(v) or "" for v in value)


def _goods(value: Any) -> dict[str, int] | None:
    """Cards or goods by name (a list of names counts each), or None."""
    if value is None:
        return None
    if isinstance(value, list):
        counted: dict[str, int] = {}
        for name in value:
            counted[str(name)] = counted.get(str(name), 0) + 1
        return counted
    return {str(k): int(v) for k, v in value.items() if v}


CATAN_GOODS = ("brick", "grain", "lumber", "ore", "wool")  # the order of the domain's cost tuples


def _cost(cost: tuple[int, ...]) -> dict[str, int]:
    return {good: n for good, n in zip(CATAN_GOODS, cost, strict=True) if n}


@dataclass(frozen=True, slots=True)
class Move:
    """How one record type becomes a row of ``<game>_moves``: the kind of move, and which field
    of the record's (public) data holds what, where, whom, how many, and the goods given and
    received. A field name, or a function of the data."""

    move: str
    seat: str | Callable[[dict[str, Any]], Any] = "seat"
    item: str | Callable[[dict[str, Any]], Any] | None = None
    place: str | Callable[[dict[str, Any]], Any] | None = None
    other_seat: str | Callable[[dict[str, Any]], Any] | None = None
    amount: str | Callable[[dict[str, Any]], Any] | None = None
    gave: str | Callable[[dict[str, Any]], Any] | None = None
    received: str | Callable[[dict[str, Any]], Any] | None = None


def _paid(cost: tuple[int, ...]) -> Callable[[dict[str, Any]], Any]:
    return lambda data: None if data.get("free") else _cost(cost)


MOVES: dict[str, dict[str, Move]] = {
    "catan_alexander": {
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
        "ArmyMoved": Move(
            "army", item="kind", place="to_position", amount=lambda d: d["to_position"] - d["from_position"]
        ),
        "BidPlaced": Move("bid", amount="amount"),
        "BidderDroppedOut": Move("drop_out"),
        "BidPaid": Move("pay_bid", amount="knights", gave="items"),
        "TradeOffered": Move("offer", seat="maker", gave="give", received="receive"),
        "TradeResponded": Move("respond", item=lambda d: "accept" if d.get("accept") else "decline"),
        "TradeCompleted": Move("trade", seat="maker", other_seat="partner", gave="maker_gave", received="partner_gave"),
        "BankTraded": Move("bank_trade", gave="gave", received="received"),
        "TurnEnded": Move("end_turn"),
    },
    "alexandros": {
        "CardTaken": Move("take_card", item="card", place="source", amount="slot"),
        "AlexanderMoved": Move("alexander", item="card", place="to", amount="distance"),
        "AlexanderMoveSkipped": Move("skip_alexander", item="reason"),
        "WallBuilt": Move("wall", item="color", place="side"),
        "ProvinceOccupied": Move(
            "occupy",
            place="province",
            other_seat=lambda d: (d.get("takeover") or {}).get("from_seat"),
            amount=lambda d: len(d.get("province") or []),
            gave="cards_paid",
        ),
        "TaxesLevied": Move("tax", item="card", amount=lambda d: d["points"][d["seat"]]),
        "GovernorRetired": Move("retire_governor", place="space"),
        "TurnEnded": Move("end_turn"),
    },
    "peloponnes": {
        "BidPlaced": Move("bid", place="tile_id", item="row", amount="amount", other_seat="outbid_seat"),
        "BidMoved": Move("move_bid", place="to_tile_id", item="from_tile_id", amount="amount"),
        "BidWithdrawn": Move("withdraw_bid", place="tile_id", amount="refund"),
        "PlayerPassed": Move("pass", amount="coins_gained"),
        "BuildingPlaced": Move(
            "building",
            item="mode",
            place="tile_id",
            gave=lambda d: _goods(
                {
                    "wood": d["wood_spent"],
                    "stone": d["stone_spent"],
                    "coins": d["coin_placed"],
                    "luxury": d["luxury_spent"],
                }
            ),
        ),
        "LandPlaced": Move("land", place="tile_id", amount="index"),
        "TileRejected": Move("reject_tile", item="reason", place="tile_id"),
    },
    "empire_builder": {
        "AllocationCommitted": Move("allocate", amount="armies"),
        "TurnPositionChosen": Move("turn_position", amount="position"),
        "ReallocationCommitted": Move("reallocate"),
        "ArmyMoved": Move(
            "army",
            item="from",
            place=lambda d: (d.get("path") or [None])[-1],
            amount="count",
            gave=lambda d: {"movement": d["cost"]} if d.get("cost") else None,
        ),
        "MovementPaid": Move("pay_movement", gave=lambda d: _goods({"temples": d["temples"], "cities": d["cities"]})),
        "MovementPassed": Move("pass_movement"),
        "BuildAttempted": Move("build", item="kind", place="province"),
        "BuildingPassed": Move("pass_building"),
    },
}


def _move_columns() -> Columns:
    return (
        ("game_id", "VARCHAR"),
        ("position", "INTEGER"),
        ("recorded_at", "TIMESTAMPTZ"),
        ("turn", "INTEGER"),
        ("round", "INTEGER"),
        ("seat", "INTEGER"),
        ("move", "VARCHAR"),
        ("item", "VARCHAR"),
        ("place", "VARCHAR"),
        ("other_seat", "INTEGER"),
        ("amount", "INTEGER"),
        ("gave", "MAP(VARCHAR, INTEGER)"),
        ("received", "MAP(VARCHAR, INTEGER)"),
    )


def moves_table(game: str) -> str:
    return f"{game}_moves"


Getter = Callable[[dict[str, Any]], Any]


def _getter(how: str | Callable[[dict[str, Any]], Any]) -> Getter:
    """How a ``Move`` reads a field, as one call: ``data.get(name)`` at C speed for a field name."""
    if callable(how):
        return how
    return methodcaller("get", how)


MoveRow = Callable[[str, int, datetime, Any, Any, dict[str, Any]], Values]


def _move_maker(spec: Move) -> MoveRow:
    """The function that makes ``spec``'s row of ``<game>_moves`` (its getters looked up once;
    a field the move has not is no call at all)."""
    seat, move = _getter(spec.seat), spec.move
    item, place, other = _optional(spec.item), _optional(spec.place), _optional(spec.other_seat)
    amount_of, gave, received = _optional(spec.amount), _optional(spec.gave), _optional(spec.received)

    def row(game_id: str, position: int, at: datetime, turn: Any, round_: Any, data: dict[str, Any]) -> Values:
        amount = None if amount_of is None else amount_of(data)
        return (
            game_id,
            position,
            at,
            turn,
            round_,
            seat(data),
            move,
            None if item is None else _text(item(data)),
            None if place is None else _place(place(data)),
            None if other is None else other(data),
            amount if type(amount) is int else None,
            None if gave is None else _goods(gave(data)),
            None if received is None else _goods(received(data)),
        )

    return row


def _optional(how: str | Callable[[dict[str, Any]], Any] | None) -> Getter | None:
    """``_getter`` of a field a move may not have (None: it has not)."""
    return None if how is None else _getter(how)


def _text(value: Any) -> str | None:
    return None if value is None else str(value)


TABLES.update({moves_table(game): _move_columns() for game in MOVES})
MOVE_ROWS: dict[str, dict[str, MoveRow]] = {
    game: {kind: _move_maker(spec) for kind, spec in specs.items()} for game, specs in MOVES.items()
}
_NAMES = {table: tuple(name for name, _ in columns) for table, columns in TABLES.items()}


def _values_of(names: tuple[str, ...]) -> Callable[[Row], Values]:
    """A row's values in its table's column order (``itemgetter`` of one name gives no tuple)."""
    if len(names) > 1:
        return itemgetter(*names)
    (name,) = names
    return lambda row: (row[name],)


_VALUES_OF: dict[str, Callable[[Row], Values]] = {table: _values_of(names) for table, names in _NAMES.items()}


# -- one game ------------------------------------------------------------------------------------


def new_context(game_id: str, created: Record, at: datetime) -> Context:
    forked_from = created.data.get("forked_from") or {}
    options = created.data.get("options") or {}
    return {
        "game_id": game_id,
        "game": created.data["game"],
        "players": created.data["players"],
        "options": options,
        "created_at": at.isoformat(),
        "forked_from": forked_from.get("game_id"),
        "forked_from_version": forked_from.get("version"),
        # The tournament store knows which games are its tables, not the game's record: the
        # projection is told (``name_tournament``) once the tournament has recorded the table.
        "tournament": None,
        "table_players": None,  # a tournament table's players by seat: [[player, name], ...]
        "names": {},  # seat (text: a JSON key) -> the name it was taken with
        "version": 0,
        "commands": 0,
        "round": None,
    }


TablePlayers = list[tuple[int, str]]  # a tournament table's players by seat: (player number, name)


def name_tournament(ctx: Context, tournament: str | None, players: TablePlayers | None = None) -> None:
    """The tournament the game of ``ctx`` is a table of, and its players, once known (they
    never change after)."""
    if ctx["tournament"] is None and tournament is not None:
        ctx["tournament"] = tournament
    if ctx.get("table_players") is None and players is not None:
        ctx["table_players"] = [list(p) for p in players]


def add_records(ctx: Context, records: Sequence[tuple[Record, datetime]], revealed: bool, out: Rows) -> datetime | None:
    """Records of the game of ``ctx``, in order: their rows in ``records``, in ``<game>_moves``
    and in the fact tables; the time of the last one (None: none).

    ``records`` is made a column at a time (a list comprehension per column, a run of equal
    values per turn and round): no Python tuple per record. One loop visits only the records
    that move the clock, name a seat, or make a move or a fact (a record costs about a
    microsecond here, its JSON half of it).

    Facts come from public records only, so that a fact row never changes when its game ends
    (what a private record holds is in ``records`` once the game has ended); so do moves (from
    the public form of a private record).
    """
    if not records:
        return None
    game_id, game = ctx["game_id"], ctx["game"]
    items = [record for record, _ in records]
    times = [at for _, at in records]
    kinds = [record.type for record in items]
    private = [record.viewers is not None for record in items]
    publics = [record.data if record.viewers is None else (record.public or {}) for record in items]
    datas = [record.data for record in items] if revealed else publics
    turns, rounds = _clock_columns(ctx, game, items, kinds, times, publics, out)
    _record_columns(out, game_id, game, items, kinds, private, times, datas, turns, rounds)
    ctx["version"] = items[-1].position
    ctx["commands"] += kinds.count(COMMAND_ACCEPTED)
    return times[-1]


def _record_columns(
    out: Rows,
    game_id: str,
    game: str,
    items: list[Record],
    kinds: list[str],
    private: list[bool],
    times: list[datetime],
    datas: list[dict[str, Any]],
    turns: list[Any],
    rounds: list[Any],
) -> None:
    """Rows of ``records`` onto ``out``'s columns, a column at a time."""
    count = len(items)
    (c_game_id, c_game, c_position, c_type, c_seat, c_private, c_at, c_data, c_turn, c_round) = out.columns
    c_game_id += [game_id] * count
    c_game += [game] * count
    c_position += [record.position for record in items]
    c_type += kinds
    c_seat += [seat if type(seat) is int else None for seat in map(_SEAT_OF, datas)]
    c_private += private
    c_at += times
    c_data += record_jsons(datas)
    c_turn += turns
    c_round += rounds


def _rewrite_private(ctx: Context, earlier: list[tuple[Record, datetime]], out: Rows) -> None:
    """The private records among ``earlier`` (stored as a spectator saw them) again, in full,
    at the turn and round they were recorded in."""
    clock: Context = {**ctx, "turn": None, "round": None}
    turns: list[Any] = []
    rounds: list[Any] = []
    chosen: list[tuple[Record, datetime]] = []
    for record, at in earlier:
        if record.type in CLOCK_KINDS:
            advance_clock(clock, record)
        if record.viewers is not None:
            chosen.append((record, at))
            turns.append(clock.get("turn"))
            rounds.append(clock.get("round"))
    if not chosen:
        return
    items = [record for record, _ in chosen]
    datas = [record.data for record in items]
    kinds = [record.type for record in items]
    times = [at for _, at in chosen]
    _record_columns(out, ctx["game_id"], ctx["game"], items, kinds, [True] * len(items), times, datas, turns, rounds)


_SEAT_OF = methodcaller("get", "seat")


def record_jsons(datas: list[dict[str, Any]]) -> list[bytes]:
    """``record_json`` of each (orjson called directly: one call a record)."""
    dumps, sort = orjson.dumps, orjson.OPT_SORT_KEYS
    try:
        return [dumps(data, option=sort) for data in datas]
    except TypeError:  # an integer beyond 64 bits somewhere: that record by the standard encoder
        return [record_json(data) for data in datas]


def _clock_columns(
    ctx: Context,
    game: str,
    items: list[Record],
    kinds: list[str],
    times: list[datetime],
    publics: list[dict[str, Any]],
    out: Rows,
) -> tuple[list[Any], list[Any]]:
    """The ``turn`` and ``round`` columns of the records (a record that starts one is in it),
    advancing ``ctx``'s clock; with the moves and facts of the records that make them, at the
    turn and round they were made in."""
    game_id = ctx["game_id"]
    moves = MOVE_ROWS.get(game, {})
    add_move = out.rows[moves_table(game)].append if moves else None
    facts, fact_kinds = FACTS.get(game, no_facts), FACT_KINDS.get(game, frozenset())
    visited = _VISITED.get(game) or _visited(game)
    turns: list[Any] = []
    rounds: list[Any] = []
    turn, round_ = ctx.get("turn"), ctx.get("round")
    done = 0  # the records whose turn and round are in the columns
    for index, kind in enumerate(kinds):
        if kind not in visited:
            continue
        record = items[index]
        if kind in CLOCK_KINDS:
            advance_clock(ctx, record)
            if ctx.get("turn") != turn or ctx.get("round") != round_:
                turns += [turn] * (index - done)
                rounds += [round_] * (index - done)
                done = index
                turn, round_ = ctx.get("turn"), ctx.get("round")
        if kind == SEAT_TAKEN:
            ctx.setdefault("names", {})[str(record.data["seat"])] = record.data["name"]
            continue
        move = moves.get(kind)
        if move is not None and add_move is not None:
            add_move(move(game_id, record.position, times[index], turn, round_, publics[index]))
        if kind in fact_kinds and record.viewers is None:
            facts(ctx, game_id, record.position, times[index], kind, record.data, out)
    turns += [turn] * (len(kinds) - done)
    rounds += [round_] * (len(kinds) - done)
    return turns, rounds


_VISITED: dict[str, frozenset[str]] = {}


def _visited(game: str) -> frozenset[str]:
    """The record types ``add_records`` looks at one by one in ``game`` (every other is only
    its row of ``records``)."""
    kinds = CLOCK_KINDS | {SEAT_TAKEN} | set(MOVE_ROWS.get(game, {})) | FACT_KINDS.get(game, frozenset())
    _VISITED[game] = frozenset(kinds - {GAME_CREATED, COMMAND_ACCEPTED})
    return _VISITED[game]


# The kernel's records: they change a match's bookkeeping (seats, commands), never the game's state.
KERNEL_KINDS = frozenset({GAME_CREATED, COMMAND_ACCEPTED, SEAT_TAKEN, SEAT_KEYED})

# The records that start a turn or a round (``advance_clock``): every other leaves the clock as it is.
CLOCK_KINDS = frozenset({"TurnStarted", "RoundStarted", "CampaignStarted"})


def advance_clock(ctx: Context, record: Record) -> None:
    """The turn and round ``record`` belongs to, in ``ctx`` (a record that starts one is in it).
    ``turn`` counts the game's ``TurnStarted`` records (Catan's and Alexandros' own numbers);
    ``round`` is what ``scores.round`` counts (``SCORE_UNITS``)."""
    if record.type == GAME_CREATED or record.type == COMMAND_ACCEPTED:
        return
    if record.type == "TurnStarted":
        turn = record.data.get("turn")
        ctx["turn"] = turn if type(turn) is int else (ctx.get("turn") or 0) + 1
    started = period_started(ctx["game"], ctx["players"], record)
    if started is not None:
        ctx["round"] = started


def game_row(ctx: Context, ended: Ended | None = None) -> Row:
    row = {
        "game_id": ctx["game_id"],
        "game": ctx["game"],
        "players": ctx["players"],
        "options": canonical(ctx["options"]),
        "status": "running",
        "version": ctx["version"],
        "commands": ctx["commands"],
        "rounds": ctx.get("round"),
        "created_at": datetime.fromisoformat(ctx["created_at"]),
        "last_activity": datetime.fromisoformat(ctx["last_activity"]),
        "ended_at": None,
        "scores": None,
        "placings": None,
        "winners": None,
        "fingerprint": None,
        "seed": None,
        "forked_from": ctx["forked_from"],
        "forked_from_version": ctx["forked_from_version"],
        "tournament": ctx["tournament"],
    }
    if ended is not None:
        row.update(
            status="ended",
            ended_at=ended.at,
            scores=[float(s) for s in ended.scoreboard.scores],
            placings=list(ended.scoreboard.placings),
            winners=list(ended.scoreboard.winners),
            fingerprint=ended.fingerprint,
            seed=ended.seed,
        )
    return row


def seat_rows(ctx: Context, ended: Ended | None = None) -> list[Row]:
    """The game's seats in ``game_seats``: who sat there (the name a seat was taken with, else
    the tournament player's), and once ended their final score and place."""
    table = ctx.get("table_players") or []
    out = []
    for seat in range(ctx["players"]):
        player = table[seat] if seat < len(table) else None
        name = (ctx.get("names") or {}).get(str(seat)) or (player[1] if player else None)
        row = {
            "game_id": ctx["game_id"],
            "game": ctx["game"],
            "players": ctx["players"],
            "seat": seat,
            "name": name,
            "tournament": ctx["tournament"],
            "tournament_player": player[0] if player else None,
            "status": "running",
            "score": None,
            "place": None,
            "won": None,
        }
        if ended is not None:
            board = ended.scoreboard
            row.update(
                status="ended",
                score=float(board.scores[seat]),
                place=board.placings[seat],
                won=seat in board.winners,
            )
        out.append(row)
    return out


@dataclass(frozen=True, slots=True)
class Ended:
    at: datetime
    scoreboard: Scoreboard
    fingerprint: str
    seed: str | None


def _records_of(
    ctx: Context | None,
    game_id: str,
    records: Iterable[tuple[Record, datetime]],
    revealed: bool,
    out: Rows,
    tournament: str | None,
    table_players: TablePlayers | None = None,
) -> Context:
    records = list(records)
    if records and records[0][0].type == GAME_CREATED:
        ctx = new_context(game_id, records[0][0], records[0][1])
    assert ctx is not None and records, f"{game_id}: a record before GameCreated"
    assert all(record.type != GAME_CREATED for record, _ in records[1:]), f"{game_id}: a second GameCreated"
    last_at = add_records(ctx, records, revealed, out)
    assert last_at is not None
    ctx["last_activity"] = last_at.isoformat()
    name_tournament(ctx, tournament, table_players)
    return ctx


def running_game(
    ctx: Context | None,
    game_id: str,
    records: Iterable[tuple[Record, datetime]],
    out: Rows,
    tournament: str | None = None,
    table_players: TablePlayers | None = None,
) -> Context:
    """Records of a running game (public forms), after those ``ctx`` has seen; the new context.
    ``tournament``: the tournament the game is a table of, if any (and known yet), and
    ``table_players`` its players by seat."""
    ctx = _records_of(ctx, game_id, records, False, out, tournament, table_players)
    out.add(GAMES_TABLE, game_row(ctx))
    for row in seat_rows(ctx):
        out.add(SEATS_TABLE, row)
    return ctx


def ended_game(
    ctx: Context | None,
    game_id: str,
    earlier: list[tuple[Record, datetime]],
    records: list[tuple[Record, datetime]],
    out: Rows,
    tournament: str | None = None,
    table_players: TablePlayers | None = None,
) -> None:
    """The last records of a game, up to ``GameEnded``, after those ``ctx`` has seen (``earlier``,
    whose rows are stored as a spectator saw them: their private ones are written again, in full).
    ``tournament``: the tournament the game is a table of, if any.

    The whole game is replayed (its own rules, no rule runs: events record outcomes) so that
    the scores of each round come from its own scoreboard.
    """
    ctx = _records_of(ctx, game_id, records, True, out, tournament, table_players)
    _rewrite_private(ctx, earlier, out)
    whole = earlier + records
    created, last = whole[0][0], whole[-1][0]
    assert created.type == GAME_CREATED and last.type == GAME_ENDED, f"{game_id}: not a whole ended game"
    game = GAMES.get(ctx["game"])
    players = ctx["players"]
    state = game.initial_state(players, ctx["options"])
    evolve, event_types = game.evolve, game.event_types
    unit = SCORE_UNITS.get(game.id, "round")
    period: int | None = None
    for record, _ in whole:
        kind = record.type
        if kind in CLOCK_KINDS:
            started = period_started(game.id, players, record)
            if started is not None and period is not None:
                _score_rows(ctx, unit, period, record.position - 1, False, game.scoreboard(state), out)
            if started is not None:
                period = started
        if kind not in KERNEL_KINDS:  # the game's own event (``Match.apply_record``, the state alone)
            state = evolve(state, event_types[kind].from_dict(record.data))
    scoreboard = game.scoreboard(state)
    _score_rows(ctx, unit, period, last.position, True, scoreboard, out)
    seed = last.data.get("seed")
    ended = Ended(whole[-1][1], scoreboard, last.hash, seed if isinstance(seed, str) else None)
    out.add(GAMES_TABLE, game_row(ctx, ended))
    for row in seat_rows(ctx, ended):
        out.add(SEATS_TABLE, row)


def _score_rows(
    ctx: Context, unit: str, period: int | None, position: int, final: bool, scoreboard: Scoreboard, out: Rows
) -> None:
    for seat, (score, placing) in enumerate(zip(scoreboard.scores, scoreboard.placings, strict=True)):
        out.add(
            SCORES_TABLE,
            {
                "game_id": ctx["game_id"],
                "game": ctx["game"],
                "unit": unit,
                "round": period,
                "position": position,
                "final": final,
                "seat": seat,
                "score": float(score),
                "place": placing,
            },
        )
