"""Empire Builder's analytics (``domain.kernel.facts``): every allocation once revealed, every
contest and its outcome, and its moves. Its rounds are campaigns."""

from __future__ import annotations

from functools import partial
from typing import Any

from domain.kernel.facts import AnalyticsFacts, Context, Data, Fact, FactRows, FactTable, Handler, Move
from domain.kernel.log import canonical

ALLOCATIONS = "empire_builder_allocations"
CONTESTS = "empire_builder_contests"

TABLES = {
    ALLOCATIONS: FactTable(
        (
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
        "Empire Builder: every allocation once revealed (the sealed commitments are not facts until then)",
        {
            "position": "the reveal's",
            "campaign": "the campaign",
            "round": "the round within the campaign (reallocations)",
            "kind": "`allocation` (with `turn_order` and `armies`) or `reallocation`",
            "turn_order": ("resources put on turn order", "cubes"),
            "armies": ("armies", "cubes"),
            "temples": ("resources for temples", "cubes"),
            "cities": ("resources for cities", "cubes"),
        },
    ),
    CONTESTS: FactTable(
        (
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
        "Empire Builder: every contest and its outcome (province majorities, temples and cities, awards)",
        {
            "campaign": "the campaign",
            "round": "the round within the campaign",
            "province": "the province (for an award: the award and region)",
            "kind": "`province`, `temple`, `city` or `award`",
            "contenders": ("seats with a stake", "seats"),
            "stakes": "armies or cubes bid or counts, by seat, JSON text",
            "seat": "the winner (NULL: nobody)",
            "outcome": "`scored`, `no_majority`, `built`, or why an attempt failed: `cannot_pay`, `outbid`, `tie`",
            "paid": ("what the winner paid", "cubes"),
            "vp": ("victory points scored", "points"),
        },
    ),
}


def revealed(kind: str, entries: str, ctx: Context, fact: Fact, out: FactRows) -> None:
    """The allocations (or reallocations) of every seat, once revealed: one row each."""
    data = fact.data
    for entry in data[entries]:
        out.add(
            ALLOCATIONS,
            {
                "game_id": fact.game_id,
                "position": fact.position,
                "campaign": data["campaign"],
                "round": data.get("round"),
                "kind": kind,
                "seat": entry["seat"],
                "turn_order": entry.get("turn_order"),
                "armies": entry.get("armies"),
                "temples": entry["temples"],
                "cities": entry["cities"],
            },
        )


def _contest(
    ctx: Context, fact: Fact, out: FactRows, stakes: dict[str, int] | None, kind: str, outcome: str, where: str
) -> None:
    """One row of ``empire_builder_contests``: what was contested where, with whose stakes, and how it ended."""
    data = fact.data
    out.add(
        CONTESTS,
        {
            "game_id": fact.game_id,
            "position": fact.position,
            "campaign": data.get("campaign", ctx.get("round")),
            "round": data.get("round"),
            "province": where,
            "kind": kind,
            "contenders": sum(1 for v in stakes.values() if v) if stakes is not None else None,
            "stakes": canonical(stakes) if stakes is not None else None,
            "seat": data["seat"],
            "outcome": outcome,
            "paid": data.get("paid"),
            "vp": data.get("vp"),
        },
    )


def _scored_or_not(data: Data) -> str:
    return "scored" if data["seat"] is not None else "no_majority"


def province_scored(ctx: Context, fact: Fact, out: FactRows) -> None:
    data = fact.data
    _contest(ctx, fact, out, data["armies"], "province", _scored_or_not(data), data["province"])


def award_scored(ctx: Context, fact: Fact, out: FactRows) -> None:
    data = fact.data
    where = data["award"] if data["region"] is None else f"{data['award']}:{data['region']}"
    _contest(ctx, fact, out, data["counts"], "award", _scored_or_not(data), where)


def build_attempt_failed(ctx: Context, fact: Fact, out: FactRows) -> None:
    data = fact.data
    _contest(ctx, fact, out, None, data["kind"], data["reason"], data["province"])


def built(kind: str, ctx: Context, fact: Fact, out: FactRows) -> None:
    """A temple built or a city founded: the winning bids."""
    _contest(ctx, fact, out, fact.data["bids"], kind, "built", fact.data["province"])


HANDLERS: dict[str, Handler] = {
    "AllocationsRevealed": partial(revealed, "allocation", "allocations"),
    "ReallocationsRevealed": partial(revealed, "reallocation", "boxes"),
    "ProvinceScored": province_scored,
    "AwardScored": award_scored,
    "BuildAttemptFailed": build_attempt_failed,
    "TempleBuilt": partial(built, "temple"),
    "CityFounded": partial(built, "city"),
}


def _moved_to(data: Data) -> Any:
    return (data.get("path") or [None])[-1]


MOVES = {
    "AllocationCommitted": Move("allocate", amount="armies"),
    "TurnPositionChosen": Move("turn_position", amount="position"),
    "ReallocationCommitted": Move("reallocate"),
    "ArmyMoved": Move(
        "army",
        item="from",
        place=_moved_to,
        amount="count",
        gave=lambda d: {"movement": d["cost"]} if d.get("cost") else None,
    ),
    "MovementPaid": Move("pay_movement", gave=lambda d: {"temples": d["temples"], "cities": d["cities"]}),
    "MovementPassed": Move("pass_movement"),
    "BuildAttempted": Move("build", item="kind", place="province"),
    "BuildingPassed": Move("pass_building"),
}

FACTS = AnalyticsFacts(
    tables=TABLES,
    handlers=HANDLERS,
    moves=MOVES,
    score_unit="campaign",
    rounds={"CampaignStarted": lambda _players, data: int(data["campaign"])},
)
