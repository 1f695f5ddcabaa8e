"""Dumps: an incremental export (``--since``) and monthly Parquet dumps per table with a published
index, checked against games whose recorded times span three months."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import duckdb
import polars as pl
import pyarrow.dataset as ds
import pytest
from click.testing import CliRunner

from api.cli.main import main
from domain.catalog import GAMES
from domain.kernel.bots import RandomBot
from domain.kernel.match import Match
from infra.analytics.store import (
    AnalyticsDatabase,
    AnalyticsProjector,
    ListSource,
    StoredRecord,
    dump_months,
    export_tables,
)

MIX = [("peloponnes", 3), ("alexandros", 3), ("catan_alexander", 3)]
START = datetime(2026, 9, 10, tzinfo=UTC)


def played(number: int) -> tuple[str, list[StoredRecord]]:
    """Game ``number`` of the mix, its records stored a second apart from day ``20 * number``."""
    game, players = MIX[number % len(MIX)]
    match, records = Match.create(GAMES.get(game), players, None, f"dump-{number}".encode())
    bot = RandomBot(f"dump-bot-{number}".encode())
    while not match.is_over:
        seat, command = bot.next_move(match.game, match.state)
        records += match.execute(seat, command)
    game_id = f"00000000-0000-4000-8000-{number:012d}"
    at = START + timedelta(days=20 * number)
    return game_id, [StoredRecord(game_id, r, at + timedelta(seconds=i), 0) for i, r in enumerate(records)]


@pytest.fixture(scope="module")
def tables(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[AnalyticsDatabase, dict[str, list[StoredRecord]]]]:
    games = dict(played(number) for number in range(4))  # ended in Sept, Sept/Oct, Oct, Nov
    log = [r for records in games.values() for r in records]
    numbered = [StoredRecord(r.game_id, r.record, r.recorded_at, i + 1) for i, r in enumerate(log)]
    database = AnalyticsDatabase(str(tmp_path_factory.mktemp("dumps") / "analytics.duckdb"))
    AnalyticsProjector(ListSource(numbered), database).catch_up()
    yield database, games
    database.close()


def ended_in(games: dict[str, list[StoredRecord]], month: str) -> list[str]:
    return [g for g, records in games.items() if records[-1].recorded_at.strftime("%Y-%m") == month]


def test_monthly_dumps_with_a_published_index(
    tables: tuple[AnalyticsDatabase, dict[str, list[StoredRecord]]], tmp_path: Path
) -> None:
    database, games = tables
    months = sorted({records[-1].recorded_at.strftime("%Y-%m") for records in games.values()})
    assert len(months) >= 3
    with database.read() as connection:
        index = dump_months(connection, tmp_path, now=datetime(2026, 11, 15, tzinfo=UTC))
    done = [m for m in months if m < "2026-11"]
    assert list(index["months"]) == done  # November is not over
    assert json.loads((tmp_path / "index.json").read_text()) == index
    for month in done:
        ids = ended_in(games, month)
        entry = index["months"][month]
        assert entry["games"] == len(ids)
        assert entry["files"]["records"]["rows"] == sum(len(games[g]) for g in ids)
        for table, listed in entry["files"].items():
            path = tmp_path / listed["file"]
            assert listed["sha256"] == hashlib.sha256(path.read_bytes()).hexdigest()
            assert listed["bytes"] == path.stat().st_size
            with duckdb.connect() as reading:  # its own: the module's default connection is shared by every test
                assert reading.sql(f"SELECT count(*) FROM '{path}'").fetchall() == [(listed["rows"],)], table
        frame = pl.read_parquet(tmp_path / entry["files"]["games"]["file"])
        assert sorted(frame["game_id"].to_list()) == sorted(ids)
        assert frame.schema["options"] == pl.String  # JSON as text, not bytes
    first = (tmp_path / index["months"][done[0]]["files"]["records"]["file"]).stat().st_mtime_ns
    with database.read() as connection:
        later = dump_months(connection, tmp_path, now=datetime(2026, 12, 1, tzinfo=UTC))
    assert list(later["months"]) == [m for m in months if m < "2026-12"]
    assert {m: later["months"][m] for m in done} == {m: index["months"][m] for m in done}
    assert (tmp_path / index["months"][done[0]]["files"]["records"]["file"]).stat().st_mtime_ns == first


def test_an_export_since_a_time_has_the_games_that_ended_since(
    tables: tuple[AnalyticsDatabase, dict[str, list[StoredRecord]]], tmp_path: Path
) -> None:
    database, games = tables
    since = datetime(2026, 10, 15, tzinfo=UTC)
    wanted = sorted(g for g, records in games.items() if records[-1].recorded_at >= since)
    assert 0 < len(wanted) < len(games)
    with database.read() as connection:
        written = export_tables(connection, tmp_path / "parquet", "parquet", since)
        export_tables(connection, tmp_path / "csv", "csv", since)
    found = ds.dataset(tmp_path / "parquet" / "games", format="parquet", partitioning="hive").to_table()
    assert sorted(found.column("game_id").to_pylist()) == wanted
    assert written["records"] == sum(len(games[g]) for g in wanted)
    with duckdb.connect() as reading:
        csv = reading.sql(f"SELECT DISTINCT game_id FROM '{tmp_path}/csv/records.csv' ORDER BY 1").fetchall()
    assert [g for (g,) in csv] == wanted


def test_the_cli_refuses_a_since_that_is_no_time(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        main,
        ["analytics", "export", str(tmp_path / "out"), "--since", "last tuesday"],
        env={"ALEXANDRIA_DATABASE_URL": f"sqlite:///{tmp_path}/events.sqlite"},
    )
    assert result.exit_code == 2 and "is not an ISO 8601 time" in result.output
    assert not (tmp_path / "out").exists()
