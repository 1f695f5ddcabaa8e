"""Alexandros' analytics (``domain.kernel.facts``): every wall, every province occupied, every tax
levy, and its moves."""

from __future__ import annotations

from domain.kernel.facts import AnalyticsFacts, Context, Fact, FactRows, FactTable, Handler, Move, round_of_turns
from domain.kernel.log import canonical

WALLS = "alexandros_walls"
PROVINCES = "alexandros_provinces"
TAXES = "alexandros_taxes"

TABLES = {
    WALLS: FactTable(
        (
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
        "Alexandros: every wall",
        {
            "color": "the wall's colour",
            "side": "the two points, JSON text",
            "black_left": ("black walls left in the supply", "walls"),
            "red_left": ("red walls left in the supply", "walls"),
        },
    ),
    PROVINCES: FactTable(
        (
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
        "Alexandros: every province occupied",
        {
            "spaces": ("the province's size", "spaces"),
            "governors": ("governors placed", "governors"),
            "cards_paid": ("cards paid", "cards"),
            "takeover_from": "the seat taken over from, if any",
            "evicted": ("governors evicted", "governors"),
        },
    ),
    TAXES: FactTable(
        (
            ("game_id", "VARCHAR"),
            ("position", "INTEGER"),
            ("turn", "INTEGER"),
            ("levier", "INTEGER"),
            ("card", "VARCHAR"),
            ("seat", "INTEGER"),
            ("points", "INTEGER"),
            ("score_after", "INTEGER"),
        ),
        "Alexandros: every tax levy, one row per seat",
        {
            "levier": "the seat that levied",
            "card": "the card played",
            "seat": "the seat scored",
            "points": ("what the seat scored by this levy", "points"),
            "score_after": ("the seat's score after it", "points"),
        },
    ),
}


def wall_built(ctx: Context, fact: Fact, out: FactRows) -> None:
    data = fact.data
    out.add(
        WALLS,
        {
            "game_id": fact.game_id,
            "position": fact.position,
            "recorded_at": fact.at,
            "turn": ctx.get("turn"),
            "seat": data["seat"],
            "color": data["color"],
            "side": canonical(data["side"]),
            "black_left": data["black_left"],
            "red_left": data["red_left"],
        },
    )


def province_occupied(ctx: Context, fact: Fact, out: FactRows) -> None:
    data = fact.data
    takeover = data["takeover"] or {}
    evicted = takeover.get("evicted")
    out.add(
        PROVINCES,
        {
            "game_id": fact.game_id,
            "position": fact.position,
            "turn": ctx.get("turn"),
            "seat": data["seat"],
            "spaces": len(data["province"]),
            "governors": len(data["governors"]),
            "cards_paid": len(data["cards_paid"]),
            "takeover_from": takeover.get("from_seat"),
            "evicted": len(evicted) if isinstance(evicted, list) else evicted,
        },
    )


def taxes_levied(ctx: Context, fact: Fact, out: FactRows) -> None:
    data = fact.data
    for seat, (points, score) in enumerate(zip(data["points"], data["scores"], strict=True)):
        out.add(
            TAXES,
            {
                "game_id": fact.game_id,
                "position": fact.position,
                "turn": ctx.get("turn"),
                "levier": data["seat"],
                "card": data["card"],
                "seat": seat,
                "points": points,
                "score_after": score,
            },
        )


HANDLERS: dict[str, Handler] = {
    "WallBuilt": wall_built,
    "ProvinceOccupied": province_occupied,
    "TaxesLevied": taxes_levied,
}

MOVES = {
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
}

FACTS = AnalyticsFacts(
    tables=TABLES, handlers=HANDLERS, moves=MOVES, score_unit="round", rounds={"TurnStarted": round_of_turns}
)
