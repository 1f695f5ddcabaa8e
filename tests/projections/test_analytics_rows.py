"""The analytics rows of one game, made by the pure projection from a game played on the pure
engine, checked against the engine's own state as the game went."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from domain.catalog import GAMES
from domain.kernel.bots import RandomBot
from domain.kernel.chance import Chance
from domain.kernel.facts import AnalyticsFacts, FactTable
from domain.kernel.log import Record
from domain.kernel.match import Match
from projections.analytics import TABLES, Rows, ended_game, moves_table, period_started, running_game
from projections.analytics import schema as analytics_schema

AT = datetime(2026, 12, 1, tzinfo=UTC)


def played(game: str, players: int, seed: bytes) -> tuple[Match, list[Record]]:
    match, records = Match.create(GAMES.get(game), players, None, seed)
    bot = RandomBot(b"rows-bot")
    while not match.is_over:
        seat, command = bot.next_move(match.game, match.state)
        records += match.execute(seat, command)
    return match, records


def timed(records: list[Record]) -> list[tuple[Record, datetime]]:
    return [(r, AT + timedelta(seconds=i)) for i, r in enumerate(records)]


def test_catan_producing_hexes_are_the_engines_less_the_robbers() -> None:
    _, records = played("catan_alexander", 3, b"rows-catan")
    rows = Rows()
    ended_game(None, "g", [], timed(records), rows)
    replay = Match(GAMES.get("catan_alexander"), 3, records[0].data["options"], Chance(b"replay"))
    expected = []
    for record in records:
        if record.type == "DiceRolled":
            state = replay.state
            producing = [h for h, _product, _corners in state.producing_hexes[record.data["total"]]]
            expected.append((record.position, sum(h != state.robber for h in producing), state.robber))
        replay.apply_record(record)
    found = [(r["position"], r["producing_hexes"], r["robber_hex"]) for r in rows.tables["catan_dice_rolls"]]
    assert found == expected and any(robber for _, _, robber in found)
    blocked = [r for r in rows.tables["catan_producing_hexes"] if r["blocked"]]
    assert all(
        r["hex"] == next(d["robber_hex"] for d in rows.tables["catan_dice_rolls"] if d["position"] == r["position"])
        for r in blocked
    )


def test_the_same_game_in_one_batch_or_in_many_makes_the_same_rows() -> None:
    _, records = played("empire_builder", 3, b"rows-batches")
    whole = Rows()
    ended_game(None, "g", [], timed(records), whole)
    pieces = Rows()
    stamped = timed(records)
    cut = len(stamped) - 30  # the last 30 records, GameEnded among them, are the last batch
    context = None
    for start in range(0, cut, 50):
        context = running_game(context, "g", stamped[start : min(start + 50, cut)], pieces)
    ended_game(context, "g", stamped[:cut], stamped[cut:], pieces)

    def key(row: dict) -> str:  # type: ignore[type-arg]
        return repr(sorted(row.items()))

    for table in ("scores", "empire_builder_allocations", "empire_builder_contests"):
        assert sorted(map(key, pieces.tables[table])) == sorted(map(key, whole.tables[table])), table
    # Many batches leave the private records as a spectator saw them until the end rewrites them.
    final = {r["position"]: r for r in pieces.tables["records"]}  # the later row of a position wins
    assert sorted(map(key, final.values())) == sorted(map(key, whole.tables["records"]))
    assert pieces.tables["games"][-1] == whole.tables["games"][-1]


def test_rounds_follow_each_games_own_counter() -> None:
    made = Record.from_dict
    turn = {"prev": "0" * 64, "hash": "0" * 64, "viewers": None}
    assert (
        period_started(
            "catan_alexander", 3, made({**turn, "position": 9, "type": "TurnStarted", "data": {"turn": 4, "seat": 0}})
        )
        == 2
    )
    assert (
        period_started(
            "catan_alexander", 3, made({**turn, "position": 9, "type": "TurnStarted", "data": {"turn": 5, "seat": 1}})
        )
        is None
    )
    assert (
        period_started(
            "empire_builder", 3, made({**turn, "position": 9, "type": "CampaignStarted", "data": {"campaign": 3}})
        )
        == 3
    )
    assert (
        period_started("peloponnes", 3, made({**turn, "position": 9, "type": "RoundStarted", "data": {"round": 7}}))
        == 7
    )


@pytest.mark.parametrize("game", analytics_schema.CATALOG)
def test_each_games_facts_are_keyed_by_its_own_record_types(game: str) -> None:
    """A handler, move or round start keyed by a type the game does not record would never run."""
    definition = GAMES.get(game)
    facts, recorded = definition.facts, set(definition.event_types)
    assert facts.handlers and facts.moves and facts.rounds and facts.tables
    assert set(facts.handlers) <= recorded
    assert set(facts.moves) <= recorded
    assert set(facts.rounds) <= recorded
    assert {name: TABLES[name] for name in facts.tables} == {n: t.columns for n, t in facts.tables.items()}
    assert TABLES[moves_table(game)] == analytics_schema.MOVE_COLUMNS


def test_two_games_cannot_have_a_table_of_the_same_name(monkeypatch: pytest.MonkeyPatch) -> None:
    clash = AnalyticsFacts(tables={"games": FactTable((("game_id", "VARCHAR"),), "a clash")})
    monkeypatch.setattr(analytics_schema, "facts_of", lambda game: clash)
    with pytest.raises(ValueError, match="have the names of other tables"):
        analytics_schema._tables()
