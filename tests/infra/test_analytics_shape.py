"""The analytics tables keep their shape: a rebuild equals, row for row and type for type, what the
projection made of the same records before it was made fast (``analytics_shape.json.gz``).

The fixture holds its own records (games played by random bots on the pure engines, a game with
seat names, games left running, interleaved as live play does) and the tables the projection made
of them, so that a change of the games' rules does not touch it. Written by
``python -m tests.infra.test_analytics_shape --write`` (only when a change of the tables is meant).
"""

from __future__ import annotations

import gzip
import json
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import duckdb
import pytest

from domain.catalog import GAMES
from domain.kernel.bots import RandomBot
from domain.kernel.log import Record
from domain.kernel.match import Match
from infra.analytics.database import CONTEXT_TABLE, AnalyticsDatabase
from infra.analytics.runner import AnalyticsProjector, ListSource, StoredRecord
from projections.analytics import TABLES

FIXTURE = Path(__file__).with_name("analytics_shape.json.gz")
# (game, players, names of the seats or None, commands to play: None = to the end)
PLAYED: list[tuple[str, int, list[str] | None, int | None]] = [
    ("peloponnes", 3, None, None),
    ("empire_builder", 3, ["Ada", "Bo", "Cy"], None),
    ("alexandros", 3, None, None),
    ("catan_alexander", 3, None, None),
    ("catan_alexander", 4, None, 150),
    ("empire_builder", 4, None, 60),
    ("alexandros", 2, None, 40),
    ("peloponnes", 4, None, 50),
]
START = datetime(2026, 10, 30, 23, 0, tzinfo=UTC)


def play(number: int, game: str, players: int, names: list[str] | None, commands: int | None) -> list[Record]:
    seed = f"shape-{number}".encode()
    match, records = Match.create(GAMES.get(game), players, None, seed, open_seats=names is not None)
    for name in names or []:
        records += match.take_seat(name)[1]
    bot = RandomBot(f"shape-bot-{number}".encode())
    played = 0
    while not match.is_over and (commands is None or played < commands):
        seat, command = bot.next_move(match.game, match.state)
        records += match.execute(seat, command)
        played += 1
    return records


def interleaved(games: list[list[Record]], block: int = 9) -> list[StoredRecord]:
    """The games' records in one log, round robin in blocks, with times that cross a month."""
    queues = [list(enumerate(records)) for records in games]
    out: list[StoredRecord] = []
    while any(queues):
        for number, queue in enumerate(queues):
            for index, record in queue[:block]:
                at = START + timedelta(minutes=7 * number, seconds=11 * index)
                out.append(StoredRecord(f"00000000-0000-4000-8000-{number:012d}", record, at, len(out) + 1))
            del queue[:block]
    return out


def contents(connection: duckdb.DuckDBPyConnection) -> dict[str, Any]:
    """Every table's column types and rows (canonical JSON, sorted), and the running games' contexts."""
    connection.execute("SET TimeZone = 'UTC'")
    out: dict[str, Any] = {}
    for table in (*TABLES, CONTEXT_TABLE):
        types = [[str(name), str(kind)] for name, kind, *_ in connection.execute(f"DESCRIBE {table}").fetchall()]
        found = connection.execute(f"SELECT * FROM {table}").fetchall()
        if table == CONTEXT_TABLE:  # the bookkeeping as data: its keys' order is no part of it
            found = [(game_id, json.loads(context)) for game_id, context in found]
        rows = sorted(json.dumps([_plain(v) for v in row], sort_keys=True, ensure_ascii=False) for row in found)
        out[table] = {"types": types, "rows": rows}
    return out


def _plain(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.astimezone(UTC).isoformat()
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in sorted(value.items())}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def project(records: list[StoredRecord], path: Path, batch_size: int) -> dict[str, Any]:
    database = AnalyticsDatabase(str(path))
    try:
        AnalyticsProjector(ListSource(records), database, batch_size).catch_up()
        with database.connect() as connection:
            return contents(connection)
    finally:
        database.close()


def load() -> tuple[list[StoredRecord], dict[str, Any]]:
    raw = json.loads(gzip.decompress(FIXTURE.read_bytes()))
    records = [
        StoredRecord(r["game_id"], Record.from_dict(r["record"]), datetime.fromisoformat(r["recorded_at"]), r["id"])
        for r in raw["records"]
    ]
    return records, raw["tables"]


@pytest.mark.parametrize("batch_size", [97, 20000])
def test_a_rebuild_equals_the_tables_made_before(tmp_path: Path, batch_size: int) -> None:
    records, expected = load()
    found = project(records, tmp_path / "analytics.duckdb", batch_size)
    assert found.keys() == expected.keys()
    for table, shape in expected.items():
        assert found[table]["types"] == shape["types"], table
        assert found[table]["rows"] == shape["rows"], table
    assert len(expected["records"]["rows"]) == len(records)
    assert sum(bool(shape["rows"]) for shape in expected.values()) >= len(expected) - 2  # most tables have rows


def write(path: Path = FIXTURE) -> None:
    import tempfile

    records = interleaved([play(n, *spec) for n, spec in enumerate(PLAYED)])
    with tempfile.TemporaryDirectory() as name:
        tables = project(records, Path(name) / "analytics.duckdb", 97)
    raw = {
        "records": [
            {
                "game_id": r.game_id,
                "id": r.notification_id,
                "recorded_at": r.recorded_at.isoformat(),
                "record": r.record.to_dict(),
            }
            for r in records
        ],
        "tables": tables,
    }
    path.write_bytes(gzip.compress(json.dumps(raw, separators=(",", ":")).encode(), mtime=0))
    print(f"{path}: {len(records)} records, {sum(len(t['rows']) for t in tables.values())} rows")


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python -m tests.infra.test_analytics_shape --write")
    write()
