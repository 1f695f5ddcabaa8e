"""Move-level tables and the turn and round of every record, recomputed here straight from the
event store's records (not from the projection's code)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from domain.kernel.bots import RandomBot
from domain.kernel.log import Record
from infra.analytics.store import Analytics
from infra.bootstrap import build_service
from infra.games.service import CreatedGame, GameService
from infra.games.simulation import play_with_bot
from infra.settings import Settings

PLAYED = [
    ("catan_alexander", 3, {"board": "alexander"}),
    ("catan_alexander", 4, {"board": "base"}),
    ("alexandros", 3, None),
    ("peloponnes", 3, None),
    ("empire_builder", 3, None),
]


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[GameService, list[CreatedGame], CreatedGame]]:
    directory = tmp_path_factory.mktemp("analytics-moves")
    service = build_service(Settings(database_url=f"sqlite:///{directory}/events.sqlite"))
    ended = []
    for number, (game, players, options) in enumerate(PLAYED):
        created = service.create_game(game, players, options, f"moves-{number}".encode())
        play_with_bot(service, created, RandomBot(f"moves-bot-{number}".encode()))
        ended.append(created)
    running = service.create_game("catan_alexander", 3, None, b"moves-running")
    play_with_bot(service, running, RandomBot(b"moves-running-bot"), commands=400)
    yield service, ended, running
    service.close()


def rows(service: GameService, sql: str, *parameters: Any) -> list[tuple[Any, ...]]:
    with Analytics.for_service(service).reading() as connection:
        return connection.execute(sql, list(parameters)).fetchall()


def clock(game: str, players: int, records: list[Record]) -> list[tuple[int | None, int | None]]:
    """(turn, round) of each record: Catan and Alexandros number their turns, and a round is
    every seat's turn once; Peloponnes counts rounds, Empire Builder campaigns (and its turns
    are counted)."""
    turn: int | None = None
    round_: int | None = None
    out = []
    for record in records:
        if record.type == "TurnStarted":
            turn = record.data["turn"] if "turn" in record.data else (turn or 0) + 1
            if game in ("catan_alexander", "alexandros"):
                round_ = (turn - 1) // players + 1
        elif game == "peloponnes" and record.type == "RoundStarted":
            round_ = record.data["round"]
        elif game == "empire_builder" and record.type == "CampaignStarted":
            round_ = record.data["campaign"]
        out.append((turn, round_))
    return out


def test_every_record_has_its_turn_and_round(store: tuple[GameService, list[CreatedGame], CreatedGame]) -> None:
    service, ended, running = store
    for created in [*ended, running]:
        records = service.records(created.game_id)
        game, players = records[0].data["game"], records[0].data["players"]
        found = rows(service, "SELECT turn, round FROM records WHERE game_id = ? ORDER BY position", created.game_id)
        assert found == clock(game, players, records), game
    assert any(turn for turn, _ in found) and any(round_ for _, round_ in found)


def expected_catan(records: list[Record], players: int) -> dict[str, list[tuple[Any, ...]]]:
    times = clock("catan_alexander", players, records)
    costs = {"road": {"brick": 1, "lumber": 1}, "settlement": {"brick": 1, "grain": 1, "lumber": 1, "wool": 1}}
    out: dict[str, list[tuple[Any, ...]]] = {"builds": [], "trades": [], "cards": [], "robber": []}
    for record, (turn, round_) in zip(records, times, strict=True):
        d = record.data
        if record.type in ("RoadBuilt", "SettlementBuilt"):
            kind = "road" if record.type == "RoadBuilt" else "settlement"
            where = " ".join(d["edge"]) if kind == "road" else d["vertex"]
            out["builds"].append(
                (record.position, turn, round_, d["seat"], kind, where, None if d["free"] else costs[kind])
            )
        elif record.type == "CityBuilt":
            city = {"grain": 2, "ore": 3}
            out["builds"].append((record.position, turn, round_, d["seat"], "city", d["vertex"], city))
        elif record.type == "TradeCompleted":
            gave = {k: v for k, v in d["maker_gave"].items() if v}
            got = {k: v for k, v in d["partner_gave"].items() if v}
            out["trades"].append((record.position, d["maker"], d["partner"], gave, got))
        elif record.type == "BankTraded":
            gave = {k: v for k, v in d["gave"].items() if v}
            out["trades"].append(
                (record.position, d["seat"], None, gave, {k: v for k, v in d["received"].items() if v})
            )
        elif record.type == "DevelopmentCardBought":
            out["cards"].append((record.position, d["seat"], "development_card", None))  # the card stays hidden
        elif record.type.endswith("Played") and record.type != "DiceRolled":
            name = {"KnightPlayed": "knight", "RoadBuildingPlayed": "road_building"}.get(record.type)
            name = name or {"YearOfPlentyPlayed": "year_of_plenty", "MonopolyPlayed": "monopoly"}[record.type]
            out["cards"].append((record.position, d["seat"], "play_card", name))
        elif record.type == "RobberMoved":
            out["robber"].append((record.position, turn, d["seat"], f"{d['hex'][0]},{d['hex'][1]}", d["cause"]))
    return out


def test_catan_builds_trades_cards_and_robber_moves(store: tuple[GameService, list[CreatedGame], CreatedGame]) -> None:
    service, ended, running = store
    for created in [g for (game, _, _), g in zip(PLAYED, ended, strict=True) if game == "catan_alexander"] + [running]:
        records = service.records(created.game_id)
        expected = expected_catan(records, records[0].data["players"])
        game_id = created.game_id
        builds = rows(
            service,
            "SELECT position, turn, round, seat, move, place, gave FROM catan_alexander_moves "
            "WHERE game_id = ? AND move IN ('road', 'settlement', 'city') ORDER BY position",
            game_id,
        )
        assert builds == expected["builds"] and builds
        trades = rows(
            service,
            "SELECT position, seat, other_seat, gave, received FROM catan_alexander_moves "
            "WHERE game_id = ? AND move IN ('trade', 'bank_trade') ORDER BY position",
            game_id,
        )
        assert trades == expected["trades"]
        cards = rows(
            service,
            "SELECT position, seat, move, item FROM catan_alexander_moves "
            "WHERE game_id = ? AND move IN ('development_card', 'play_card') ORDER BY position",
            game_id,
        )
        assert cards == expected["cards"]
        robber = rows(
            service,
            "SELECT position, turn, seat, place, item FROM catan_alexander_moves "
            "WHERE game_id = ? AND move = 'robber' ORDER BY position",
            game_id,
        )
        assert robber == expected["robber"]
    # Something of each was played over the games (else the checks above prove little).
    assert rows(service, "SELECT count(DISTINCT move) FROM catan_alexander_moves")[0][0] >= 10


def test_the_other_games_moves(store: tuple[GameService, list[CreatedGame], CreatedGame]) -> None:
    service, ended, _ = store
    by_game = {game: g for (game, _, _), g in zip(PLAYED, ended, strict=True)}
    records = service.records(by_game["alexandros"].game_id)
    times = clock("alexandros", 3, records)
    walls = [
        (r.position, turn, r.data["seat"], r.data["color"], " ".join(f"{p[0]},{p[1]}" for p in r.data["side"]))
        for r, (turn, _) in zip(records, times, strict=True)
        if r.type == "WallBuilt"
    ]
    moved = [
        (r.position, r.data["seat"], r.data["card"], f"{r.data['to'][0]},{r.data['to'][1]}", r.data["distance"])
        for r in records
        if r.type == "AlexanderMoved"
    ]
    game_id = by_game["alexandros"].game_id
    sql = (
        "SELECT position, turn, seat, item, place FROM alexandros_moves WHERE game_id = ? AND move = 'wall' ORDER BY 1"
    )
    assert rows(service, sql, game_id) == walls and walls
    sql = "SELECT position, seat, item, place, amount FROM alexandros_moves WHERE game_id = ? AND move = 'alexander'"
    assert rows(service, sql + " ORDER BY 1", game_id) == moved and moved

    records = service.records(by_game["peloponnes"].game_id)
    times = clock("peloponnes", 3, records)
    built = [
        (r.position, round_, r.data["seat"], r.data["tile_id"], r.data["mode"])
        for r, (_, round_) in zip(records, times, strict=True)
        if r.type == "BuildingPlaced"
    ]
    sql = "SELECT position, round, seat, place, item FROM peloponnes_moves WHERE game_id = ? AND move = 'building'"
    assert rows(service, sql + " ORDER BY 1", by_game["peloponnes"].game_id) == built and built

    records = service.records(by_game["empire_builder"].game_id)
    armies = [
        (r.position, r.data["seat"], r.data["from"], r.data["path"][-1], r.data["count"])
        for r in records
        if r.type == "ArmyMoved"
    ]
    sql = "SELECT position, seat, item, place, amount FROM empire_builder_moves WHERE game_id = ? AND move = 'army'"
    assert rows(service, sql + " ORDER BY 1", by_game["empire_builder"].game_id) == armies and armies
    # A sealed allocation is a move whose numbers are not shown (a spectator saw no more).
    hidden = rows(service, "SELECT count(*), count(amount) FROM empire_builder_moves WHERE move = 'allocate'")
    assert hidden[0][0] > 0 and hidden[0][1] == 0


def test_the_moves_are_typed_columns(store: tuple[GameService, list[CreatedGame], CreatedGame]) -> None:
    service = store[0]
    found = dict(
        rows(
            service,
            "SELECT column_name, data_type FROM information_schema.columns WHERE table_name = 'catan_alexander_moves'",
        )
    )
    assert found["gave"] == "MAP(VARCHAR, INTEGER)" and found["turn"] == "INTEGER" and found["place"] == "VARCHAR"
    assert "JSON" not in found.values()
    # A key of the map reads as its integer, a good it does not name as NULL (the games' dice differ
    # from run to run: any row that gave brick will do, a city need not have been built).
    paid = rows(
        service,
        "SELECT gave['brick'], gave['no such good'] FROM catan_alexander_moves WHERE gave['brick'] IS NOT NULL LIMIT 1",
    )
    assert len(paid) == 1 and type(paid[0][0]) is int and paid[0][0] > 0 and paid[0][1] is None
