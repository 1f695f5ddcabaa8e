"""The analytics read model: rows checked against the event store, only public data while a game
runs, and a position stored with the data (resume, rebuild, a failed commit changes nothing)."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pytest

from domain.kernel.bots import RandomBot
from domain.kernel.log import for_viewer
from domain.tournament.log import Table
from infra.analytics import runner as analytics_module
from infra.analytics.runner import AnalyticsBatch, AnalyticsPosition
from infra.analytics.store import Analytics, AnalyticsDatabase, AnalyticsProjector, AnalyticsSettings, RecordSource
from infra.bootstrap import build_service
from infra.games.service import CreatedGame, GameService
from infra.games.simulation import play_with_bot
from infra.settings import Settings
from infra.tournaments.run import play_table
from infra.tournaments.service import TournamentService
from projections.analytics import TABLES

GAMES = [("peloponnes", 3), ("empire_builder", 3), ("alexandros", 3), ("catan_alexander", 3)]


@pytest.fixture
def service(tmp_path: Path) -> Iterator[GameService]:
    service = build_service(Settings(database_url=f"sqlite:///{tmp_path}/events.sqlite"))
    yield service
    service.close()


def analytics_of(service: GameService, batch_size: int = 2000) -> Analytics:
    return Analytics.for_service(service, AnalyticsSettings(batch_size=batch_size))


def play_interleaved(service: GameService, games: list[CreatedGame], step: int = 7) -> None:
    """Moves of several games mixed in the log, so that a game spans many batches."""
    bots = {g.game_id: RandomBot(f"bot-{i}".encode()) for i, g in enumerate(games)}
    running = list(games)
    while running:
        for created in list(running):
            if not play_with_bot(service, created, bots[created.game_id], commands=step):
                running.remove(created)


def tables(connection: duckdb.DuckDBPyConnection) -> dict[str, list[tuple[Any, ...]]]:
    return {table: connection.execute(f"SELECT * FROM {table} ORDER BY ALL").fetchall() for table in TABLES}


def test_rows_are_the_event_stores_records_as_a_spectator_sees_them(service: GameService) -> None:
    ended = [service.create_game(g, n, None, f"rows-{g}".encode()) for g, n in GAMES]
    for i, created in enumerate(ended):
        play_with_bot(service, created, RandomBot(f"bot-{i}".encode()))
    running = service.create_game("catan_alexander", 4, None, b"rows-running")
    play_with_bot(service, running, RandomBot(b"bot-running"), commands=40)
    analytics = analytics_of(service, batch_size=300)  # games span batches: the end re-reads them
    analytics.refresh()
    with analytics.reading() as connection:
        for created in [*ended, running]:
            over = created is not running
            stored = service.timed_records(created.game_id)
            expected = [(r.position, r.type, at, for_viewer(r, None, reveal_all=over)["data"]) for r, at in stored]
            found = connection.execute(
                "SELECT position, type, recorded_at, data FROM records WHERE game_id = ? ORDER BY position",
                [created.game_id],
            ).fetchall()
            assert [(p, t, at, json.loads(d)) for p, t, at, d in found] == expected
            game = connection.execute(
                "SELECT status, version, scores, placings, winners, fingerprint, created_at, ended_at "
                "FROM games WHERE game_id = ?",
                [created.game_id],
            ).fetchone()
            assert game is not None
            match = service.load(created.game_id).match
            assert game[:2] == ("ended" if over else "running", match.version)
            if over:
                board = match.game.scoreboard(match.state)
                assert game[2:6] == ([float(s) for s in board.scores], board.placings, board.winners, match.last_hash)
                assert (game[6], game[7]) == (stored[0][1], stored[-1][1])
            else:
                assert game[2:6] == (None, None, None, None)  # a running game's chain tip is a commitment


def test_fact_tables_agree_with_the_records(service: GameService) -> None:
    games = [service.create_game(g, n, None, f"facts-{g}".encode()) for g, n in GAMES]
    play_interleaved(service, games)
    analytics = analytics_of(service, batch_size=250)
    analytics.refresh()
    records: dict[str, list[Any]] = {}
    for created in games:
        records.setdefault(service.load(created.game_id).match.game.id, []).extend(service.records(created.game_id))
    with analytics.reading() as connection:

        def query(sql: str) -> list[tuple[Any, ...]]:
            return connection.execute(sql).fetchall()

        rolls = [
            (r.data["seat"], r.data["die1"], r.data["die2"], r.data["total"])
            for r in records["catan_alexander"]
            if r.type == "DiceRolled"
        ]
        assert rolls and query("SELECT seat, die1, die2, total FROM catan_dice_rolls ORDER BY position") == rolls
        closed = [(r.data["winner"], r.data["amount"]) for r in records["catan_alexander"] if r.type == "AuctionClosed"]
        assert query("SELECT winner, amount FROM catan_auctions ORDER BY closed_position") == closed
        bids = [(r.data["seat"], r.data["amount"]) for r in records["catan_alexander"] if r.type == "BidPlaced"]
        assert query("SELECT seat, amount FROM catan_bids WHERE action = 'bid' ORDER BY position") == bids
        produced = sum(
            n
            for r in records["catan_alexander"]
            if r.type == "ResourcesProduced"
            for goods in r.data["gains"].values()
            for n in goods.values()
        )
        assert query("SELECT sum(amount) FROM catan_production")[0][0] == produced
        pelo_bids = [
            (r.data["seat"], r.data["tile_id"], r.data["amount"])
            for r in records["peloponnes"]
            if r.type == "BidPlaced"
        ]
        assert (
            query("SELECT seat, tile_id, amount FROM peloponnes_bids WHERE action = 'bid' ORDER BY position")
            == pelo_bids
        )
        awards = [
            (a["seat"], a["tile_id"], a["amount"])
            for r in records["peloponnes"]
            if r.type == "BiddingEnded"
            for a in r.data["awards"]
        ]
        assert sorted(query("SELECT seat, tile_id, amount FROM peloponnes_auction_results")) == sorted(awards)
        allocations = [
            (a["seat"], a["armies"], a["temples"], a["cities"])
            for r in records["empire_builder"]
            if r.type == "AllocationsRevealed"
            for a in r.data["allocations"]
        ]
        assert sorted(
            query("SELECT seat, armies, temples, cities FROM empire_builder_allocations WHERE kind = 'allocation'")
        ) == sorted(allocations)
        built = [r for r in records["empire_builder"] if r.type in ("TempleBuilt", "CityFounded")]
        assert query("SELECT count(*), sum(vp) FROM empire_builder_contests WHERE outcome = 'built'") == [
            (len(built), sum(r.data["vp"] for r in built) if built else None)
        ]
        walls = [(r.data["seat"], r.data["color"]) for r in records["alexandros"] if r.type == "WallBuilt"]
        assert walls and query("SELECT seat, color FROM alexandros_walls ORDER BY position") == walls
        taxes = sum(sum(r.data["points"]) for r in records["alexandros"] if r.type == "TaxesLevied")
        assert query("SELECT coalesce(sum(points), 0) FROM alexandros_taxes")[0][0] == taxes
        provinces = sum(r.type == "ProvinceOccupied" for r in records["alexandros"])
        assert query("SELECT count(*) FROM alexandros_provinces")[0][0] == provinces
        # The final row of the scores is the game's scoreboard; rounds follow the game's own counter.
        for created in games:
            match = service.load(created.game_id).match
            final = query(
                f"SELECT score, place FROM scores WHERE game_id = '{created.game_id}' AND final ORDER BY seat"
            )
            board = match.game.scoreboard(match.state)
            assert final == [(float(s), p) for s, p in zip(board.scores, board.placings, strict=True)]
        peloponnes = next(g for g in games if service.load(g.game_id).match.game.id == "peloponnes")
        rounds = [r.data["round"] for r in service.records(peloponnes.game_id) if r.type == "RoundStarted"]
        found = query(f"SELECT DISTINCT round FROM scores WHERE game_id = '{peloponnes.game_id}' ORDER BY round")
        assert [r for (r,) in found] == rounds


COMMITMENT = re.compile(r"[0-9a-f]{64}")


SEED_COMMITMENT = re.compile(r'"seed_commitment":"[0-9a-f]{64}"')


def normalised(connection: duckdb.DuckDBPyConnection, game_id: str) -> dict[str, list[tuple[Any, ...]]]:
    """A game's rows with its id, the times and the commitment to its seed left out: two games
    differ in those anyway (the seed holds the server's fresh salt, as in the viewer filter's test)."""
    out = {}
    for table, columns in TABLES.items():
        kept = [f'"{name}"' for name, kind in columns if name != "game_id" and not kind.startswith("TIMESTAMP")]
        rows = connection.execute(
            f"SELECT {', '.join(kept)} FROM {table} WHERE game_id = ? ORDER BY ALL", [game_id]
        ).fetchall()
        out[table] = [
            tuple(SEED_COMMITMENT.sub('"seed_commitment":"COMMITMENT"', v) if isinstance(v, str) else v for v in row)
            for row in rows
        ]
    return out


def test_a_running_games_tables_do_not_change_when_only_hidden_data_does(service: GameService) -> None:
    pairs = []
    for hidden in (3, 5):
        created = service.create_game("sealed_guess", 3, None, b"same-seed")
        service.execute(created.game_id, created.tokens[0], {"type": "commit_guess", "guess": hidden})
        pairs.append(created)
    sealed = []
    for split in ({"turn_order": 1, "armies": 8}, {"turn_order": 2, "armies": 7}):
        created = service.create_game("empire_builder", 3, None, b"same-seed")
        command = {"type": "allocate_resources", "temples": 3, "cities": 3, **split}
        service.execute(created.game_id, created.tokens[0], command)
        sealed.append(created)
    analytics = analytics_of(service)
    analytics.refresh()
    with analytics.reading() as connection:
        for first, second in (pairs, sealed):
            one, other = normalised(connection, first.game_id), normalised(connection, second.game_id)
            assert one["records"] and one == other
            # No hash, digest or seed: the one 64-digit value was the published commitment to the seed.
            assert not COMMITMENT.search(json.dumps(one, default=str))
    # Once the games end, the record shows everything: the hidden guesses differ.
    for created in pairs:
        play_with_bot(service, created, RandomBot(b"same-bot"))
    analytics.refresh()
    with analytics.reading() as connection:
        one, other = (normalised(connection, g.game_id) for g in pairs)
        assert one["records"] != other["records"]
        guesses = connection.execute(
            "SELECT data->>'guess' FROM records WHERE game_id = ? AND type = 'GuessCommitted' ORDER BY position",
            [pairs[0].game_id],
        ).fetchall()
        assert guesses[0] == ("3",)


def test_no_hidden_value_is_stored_before_the_end(service: GameService) -> None:
    created = service.create_game("catan_alexander", 3, None, b"hidden")
    play_with_bot(service, created, RandomBot(b"hidden-bot"), commands=60)
    analytics = analytics_of(service)
    analytics.refresh()
    hidden_fields = {"StacksShuffled": "supply", "StartingHandDealt": "cards", "SupplyCardDrawn": "card"}

    def stored() -> dict[str, list[dict[str, Any]]]:
        with analytics.reading() as connection:
            found = connection.execute(
                "SELECT type, data FROM records WHERE game_id = ? AND private", [created.game_id]
            ).fetchall()
        out: dict[str, list[dict[str, Any]]] = {}
        for kind, data in found:
            out.setdefault(kind, []).append(json.loads(data))
        return out

    before = stored()
    for kind, field in hidden_fields.items():
        assert before[kind] and all(field not in data for data in before[kind]), kind
    play_with_bot(service, created, RandomBot(b"hidden-bot"))
    analytics.refresh()
    after = stored()
    for kind, field in hidden_fields.items():
        assert all(field in data for data in after[kind]), kind


def test_a_restart_resumes_where_the_last_commit_left_and_equals_a_rebuild(service: GameService) -> None:
    games = [service.create_game(g, n, None, f"resume-{g}".encode()) for g, n in GAMES[:2]]
    play_interleaved(service, games)
    batch = (service.recorder.max_notification_id() or 0) // 4  # stored events: a command's records each
    first = analytics_of(service, batch_size=batch)
    for _ in range(3):
        assert first.projector.step() >= batch
    resumed = analytics_of(service, batch_size=batch)  # a new process: only the database is shared
    assert resumed.database.position() == 3 * batch
    resumed.refresh()
    with resumed.reading() as connection:
        incremental = tables(connection)
    resumed.projector.rebuild()
    with resumed.reading() as connection:
        assert tables(connection) == incremental
    assert resumed.database.position() == service.recorder.max_notification_id()


def test_a_batch_that_fails_to_commit_changes_nothing(service: GameService, monkeypatch: pytest.MonkeyPatch) -> None:
    created = service.create_game("peloponnes", 3, None, b"fails")
    play_with_bot(service, created, RandomBot(b"fails-bot"))
    analytics = analytics_of(service, batch_size=10)
    analytics.projector.step()
    with analytics.database.connect() as connection:  # no catching up (``reading`` would)
        before = tables(connection)
    calls = {"n": 0}
    real_insert = analytics_module.insert_columns

    def failing_insert(connection: duckdb.DuckDBPyConnection, table: str, columns: Any) -> None:
        calls["n"] += 1
        if calls["n"] == 2:  # the first table's rows are in; the second's fail
            raise OSError("disk full")
        real_insert(connection, table, columns)

    monkeypatch.setattr(analytics_module, "insert_columns", failing_insert)
    with pytest.raises(OSError):
        analytics.projector.step()
    monkeypatch.setattr(analytics_module, "insert_columns", real_insert)
    assert analytics.database.position() == 10
    with analytics.database.connect() as connection:
        assert tables(connection) == before
    analytics.refresh()
    with analytics.reading() as connection:
        assert connection.execute("SELECT status FROM games").fetchall() == [("ended",)]


def test_a_batch_begun_from_a_stale_position_is_dropped(service: GameService, tmp_path: Path) -> None:
    created = service.create_game("peloponnes", 3, None, b"race")
    play_with_bot(service, created, RandomBot(b"race-bot"), commands=10)
    database = AnalyticsDatabase(str(tmp_path / "race.duckdb"))
    one, two = (AnalyticsProjector(RecordSource(service), database, batch_size=10) for _ in range(2))
    with database.connect() as connection:
        start = AnalyticsPosition(connection).cursor()
        batch = one.source.after(start.position, one.batch_size)
        changes = AnalyticsBatch(one.source, connection).apply(start, batch)
    assert two.step() == len(batch)  # another runner commits the same batch first
    with database.connect() as connection:
        before = tables(connection)
        assert not AnalyticsPosition(connection).commit(start, batch[-1].notification_id, changes)
        assert tables(connection) == before
    assert database.position() == 10


def test_in_the_background_the_projector_follows_the_log_until_stopped(service: GameService) -> None:
    analytics = analytics_of(service)
    analytics.projector.start()
    try:
        created = service.create_game("peloponnes", 3, None, b"background")
        play_with_bot(service, created, RandomBot(b"background-bot"))
        analytics.projector.wake()
        target = service.recorder.max_notification_id()
        deadline = time.monotonic() + 60  # a safety net for a stuck thread, not a measure of speed
        while analytics.database.position() < target:
            assert analytics.projector.running and time.monotonic() < deadline
            time.sleep(0.05)
    finally:
        analytics.projector.stop()
    assert not analytics.projector.running
    with analytics.database.connect() as connection:
        assert connection.execute("SELECT status FROM games").fetchall() == [("ended",)]


def test_a_tournament_game_names_its_tournament_live_and_after_a_rebuild(service: GameService) -> None:
    tournaments = TournamentService(service)
    try:
        analytics = analytics_of(service, batch_size=40)  # a table's records span batches
        other = service.create_game("peloponnes", 2, None, b"not-a-table")
        created = tournaments.create("peloponnes", {"rounds": 2, "table_size": 2}, b"analytics", salted=False)
        tid, organiser = created.tournament_id, created.organiser_token
        tokens = [tournaments.register(tid, organiser, f"p{i}").token for i in range(4)]
        for number in (1, 2):
            seated = tournaments.seat_next_round(tid, organiser)
            tables_now = [Table(number, t["table"], t["game_id"], t["players"]) for t in seated["tables"]]
            analytics.refresh()  # the round's games are running
            with analytics.reading() as connection:
                running = dict(connection.execute("SELECT game_id, tournament FROM games").fetchall())
            assert {running[t.game_id] for t in tables_now} == {tid}
            for table in tables_now:
                play_table(tournaments, tid, table, tokens, RandomBot(f"analytics:{table.game_id}".encode()))
                analytics.refresh()
        play_with_bot(service, other, RandomBot(b"other"))
        analytics.refresh()
        games = {t.game_id for t in tournaments.state(tid).tables()}
        with analytics.reading() as connection:
            found = dict(connection.execute("SELECT game_id, tournament FROM games WHERE status = 'ended'").fetchall())
            incremental = tables(connection)
        assert len(games) == 4
        assert found == {**{g: tid for g in games}, other.game_id: None}
        analytics.projector.rebuild()  # the same from the start: the tournament store already knows every table
        with analytics.reading() as connection:
            assert tables(connection) == incremental
    finally:
        tournaments.close()


class LateIndex(RecordSource):
    """The tournament store as the projection may find it between a table's game being created and
    its round being recorded: no tournament knows the game yet."""

    def __init__(self, service: GameService, late: set[str]) -> None:
        super().__init__(service)
        self.late = late

    def tournament_of(self, game_id: str) -> str | None:
        return None if game_id in self.late else super().tournament_of(game_id)


def test_a_table_projected_before_its_round_was_recorded_is_named_with_its_next_records(
    service: GameService, tmp_path: Path
) -> None:
    tournaments = TournamentService(service)
    try:
        created = tournaments.create("peloponnes", {"rounds": 1, "table_size": 2}, b"late", salted=False)
        tid, organiser = created.tournament_id, created.organiser_token
        tokens = [tournaments.register(tid, organiser, f"p{i}").token for i in range(2)]
        seated = tournaments.seat_next_round(tid, organiser)
        table = Table(1, 1, seated["tables"][0]["game_id"], seated["tables"][0]["players"])
        source = LateIndex(service, {table.game_id})
        projector = AnalyticsProjector(source, AnalyticsDatabase(str(tmp_path / "late.duckdb")))
        projector.catch_up()
        with projector.database.connect() as connection:
            query = "SELECT tournament FROM games WHERE game_id = ?"
            assert connection.execute(query, [table.game_id]).fetchall() == [(None,)]
        source.late.clear()  # the round is recorded now
        play_table(tournaments, tid, table, tokens, RandomBot(b"late"))
        projector.catch_up()
        with projector.database.connect() as connection:
            assert connection.execute(query, [table.game_id]).fetchall() == [(tid,)]
        projector.close()
    finally:
        tournaments.close()


def test_duckdbs_memory_and_threads_are_bounded_by_the_settings(
    service: GameService, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ALEXANDRIA_ANALYTICS_MEMORY_LIMIT", "300MB")
    monkeypatch.setenv("ALEXANDRIA_ANALYTICS_THREADS", "2")
    created = service.create_game("peloponnes", 3, None, b"bounded")
    play_with_bot(service, created, RandomBot(b"bounded-bot"), commands=5)
    analytics = Analytics.for_service(service)
    setting = "SELECT current_setting('memory_limit'), current_setting('threads')"
    try:
        with analytics.reading() as connection:  # the writer's connection
            assert connection.execute(setting).fetchall() == [("286.1 MiB", 2)]
        with analytics.database.connect(read_only=True) as connection:  # the snapshot, as other processes read it
            assert connection.execute(setting).fetchall() == [("286.1 MiB", 2)]
    finally:
        analytics.close()
    monkeypatch.delenv("ALEXANDRIA_ANALYTICS_MEMORY_LIMIT")
    monkeypatch.delenv("ALEXANDRIA_ANALYTICS_THREADS")
    default = Analytics.for_service(service, AnalyticsSettings(path=str(tmp_path / "other.duckdb")))
    try:
        with default.database.connect() as connection:
            assert connection.execute(setting).fetchall() == [("244.1 MiB", 1)]  # 256MB, one thread
    finally:
        default.close()
    monkeypatch.setenv("ALEXANDRIA_ANALYTICS_MEMORY_LIMIT", "plenty")
    with pytest.raises(ValueError, match=r"memory_limit(.|\n)*no amount of memory DuckDB reads"):
        AnalyticsSettings()
