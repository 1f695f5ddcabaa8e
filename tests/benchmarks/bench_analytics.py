"""Analytics benchmarks (one core):

1. projection: records per CPU second (one core, whatever else the machine runs) into DuckDB,
   from the pure engines' records of 200 interleaved games (no event store in the way);
2. the same from a SQLite event store (the notification log read and decoded too), beside the
   API's four read models (in memory) over the same store, interleaved, as a ratio;
3. exporting 1,000 games to Parquet (partitioned by game and month), beside CSV;
4. the report over 10,000 simulated games (2,500 of each game, 3 players).

The 10,000 games are played by random bots on the pure engines (``Match`` without the store:
the service would take far longer and add nothing to what is measured) and projected in
chunks; their recorded times are spread over three months so that the export partitions.

0. the projection beside DuckDB's own ``read_json`` of the same records as JSON lines and
   ``json.loads`` + pyarrow, in one run, each on one core;

Run: ``python -m tests.benchmarks.bench_analytics [GAMES_FOR_THE_REPORT]`` (10,000 by default;
several minutes, most of it playing and projecting the games before the report is timed), or
``python -m tests.benchmarks.bench_analytics --baselines [GAMES]`` for 0. alone.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from domain.catalog import GAMES
from domain.kernel.bots import RandomBot
from domain.kernel.chance import Chance
from domain.kernel.log import Record, canonical
from domain.kernel.match import Match
from infra.analytics.report import compute_report, write_report
from infra.analytics.store import (
    AnalyticsDatabase,
    AnalyticsProjector,
    ListSource,
    RecordSource,
    StoredRecord,
    export_tables,
)
from infra.bootstrap import build_service
from infra.games.simulation import play_with_bot
from infra.readside.projector import Projector
from infra.readside.readmodels import MemoryStore
from infra.settings import Settings

MIX = [("peloponnes", 3), ("empire_builder", 3), ("alexandros", 3), ("catan_alexander", 3)]
START = datetime(2026, 9, 1, tzinfo=UTC)


def played_games(count: int, first: int = 0) -> Iterator[list[StoredRecord]]:
    """``count`` games (the mix in turn), each its records with made-up ids and times."""
    for number in range(first, first + count):
        game, players = MIX[number % len(MIX)]
        match, records = Match.create(GAMES.get(game), players, None, f"bench-{number}".encode())
        bot = RandomBot(f"bench-bot-{number}".encode())
        while not match.is_over:
            seat, command = bot.next_move(match.game, match.state)
            records += match.execute(seat, command)
        game_id = f"00000000-0000-4000-8000-{number:012d}"
        at = START + timedelta(minutes=13 * number)  # 10,000 games span three months
        yield [StoredRecord(game_id, r, at + timedelta(milliseconds=i), 0) for i, r in enumerate(records)]


def numbered(games: list[list[StoredRecord]], first_id: int = 1) -> list[StoredRecord]:
    """The games' records as one notification log, interleaved as live play does: round robin
    over the games in blocks of 20 records, so most games span many batches."""
    queues = [list(records) for records in games]
    log: list[StoredRecord] = []
    while any(queues):
        for queue in queues:
            log.extend(queue[:20])
            del queue[:20]
    return [StoredRecord(r.game_id, r.record, r.recorded_at, first_id + i) for i, r in enumerate(log)]


@dataclass(frozen=True)
class Rate:
    records: int
    wall: float  # seconds
    cpu: float  # seconds of this process's CPU time: what one core spent, whatever the machine's load

    def per_cpu_second(self) -> float:
        return self.records / self.cpu

    def per_second(self) -> float:
        return self.records / self.wall


def timed(work: Callable[[], int]) -> Rate:
    wall, cpu = time.perf_counter(), time.process_time()
    records = work()
    return Rate(records, time.perf_counter() - wall, time.process_time() - cpu)


def analytics_rebuild(source: RecordSource, path: Path) -> Rate:
    projector = AnalyticsProjector(source, AnalyticsDatabase(str(path)))
    return timed(projector.rebuild)


def projection(directory: Path) -> None:
    records = numbered(list(played_games(200)))
    rates = [analytics_rebuild(ListSource(records), directory / f"projection-{i}.duckdb") for i in range(3)]
    best = max(rates, key=Rate.per_cpu_second)
    print(f"projection of {len(records):,} records of 200 interleaved games (the engines' records, a DuckDB file):")
    print(f"  {best.per_cpu_second():,.0f} records per CPU second ({best.per_second():,.0f} records/s wall clock)")
    print(f"  {'meets' if best.per_cpu_second() >= 10_000 else 'below'} the target of 10,000 records/s on one core")


def export_lines(records: list[StoredRecord]) -> str:
    """The records as the analytics export's JSON lines (game id, type, seat, time, data)."""
    out = []
    for r in records:
        seat = r.record.data.get("seat")
        head = {
            "game_id": r.game_id,
            "game": "",
            "position": r.record.position,
            "type": r.record.type,
            "seat": seat if type(seat) is int else None,
            "private": r.record.is_private,
            "recorded_at": r.recorded_at.isoformat(),
        }
        out.append(canonical({**head, "data": r.record.data}) + "\n")
    return "".join(out)


def projection_beside_baselines(directory: Path, games: int = 200) -> None:
    """The projection beside two baselines over the same records, in one run, each on one core
    (DuckDB with one thread): DuckDB's own ``read_json`` of the export's JSON lines building
    ``records``, ``games`` and the dice table; and ``json.loads`` + pyarrow building ``records``."""
    import json

    import duckdb
    import pyarrow as pa

    records = numbered(list(played_games(games)))
    lines = directory / "records.jsonl"
    lines.write_text(export_lines(records))

    def ours() -> int:
        projector = AnalyticsProjector(ListSource(records), AnalyticsDatabase(str(directory / "ours.duckdb")))
        with projector.database.connect() as connection:
            connection.execute("SET threads = 1")
        applied = projector.rebuild()
        projector.database.close()
        return applied

    def duckdb_read_json() -> int:
        connection = duckdb.connect(str(directory / "read_json.duckdb"))
        connection.execute("SET threads = 1")
        connection.execute(
            "CREATE OR REPLACE TABLE records AS SELECT * FROM read_json(?, format = 'newline_delimited', "
            "columns = {game_id: 'VARCHAR', game: 'VARCHAR', position: 'INTEGER', type: 'VARCHAR', seat: 'INTEGER', "
            "private: 'BOOLEAN', recorded_at: 'TIMESTAMPTZ', data: 'JSON'})",
            [str(lines)],
        )
        connection.execute(
            "CREATE OR REPLACE TABLE games AS SELECT game_id, max(position) AS version, "
            "count(*) FILTER (type = 'CommandAccepted') AS commands, min(recorded_at) AS created_at, "
            "max(recorded_at) AS last_activity FROM records GROUP BY game_id"
        )
        connection.execute(
            "CREATE OR REPLACE TABLE dice AS SELECT game_id, position, recorded_at, seat, "
            "(data->>'die1')::INT AS die1, (data->>'die2')::INT AS die2, (data->>'total')::INT AS total "
            "FROM records WHERE type = 'DiceRolled'"
        )
        count = connection.execute("SELECT count(*) FROM records").fetchall()[0][0]
        connection.close()
        return int(count)

    def json_loads_pyarrow() -> int:
        names = ("game_id", "game", "position", "type", "seat", "private", "recorded_at", "data")
        columns: dict[str, list[object]] = {name: [] for name in names}
        with lines.open(encoding="utf-8") as text:
            for line in text:
                row = json.loads(line)
                for name in names[:-1]:
                    columns[name].append(row[name])
                columns["data"].append(json.dumps(row["data"], separators=(",", ":")))
        table = pa.table(columns)
        connection = duckdb.connect(str(directory / "pyarrow.duckdb"))
        connection.execute("SET threads = 1")
        connection.register("frame", table)
        connection.execute("CREATE OR REPLACE TABLE records AS SELECT * FROM frame")
        connection.close()
        return table.num_rows

    def replay() -> int:
        """What no projection of the scores by round can skip: each game's own replay of its
        records (``Match.apply_record``: the game's ``evolve``), part of the projection's time."""
        games: dict[str, list[Record]] = {}
        for item in records:
            games.setdefault(item.game_id, []).append(item.record)
        for game_records in games.values():
            created = game_records[0].data
            match = Match(GAMES.get(created["game"]), created["players"], created["options"], Chance(b"replay"))
            for record in game_records:
                match.apply_record(record)
        return len(records)

    names = ("the projection", "DuckDB read_json", "json.loads + pyarrow", "replay alone (within)")
    rates: dict[str, list[Rate]] = {name: [] for name in names}
    for _ in range(3):  # interleaved, so that all of them see the same machine
        for name, work in zip(rates, (ours, duckdb_read_json, json_loads_pyarrow, replay), strict=True):
            rates[name].append(timed(work))
    print(f"{len(records):,} records of {games} interleaved games, each on one core (records per CPU second):")
    for name, runs in rates.items():
        best = max(runs, key=Rate.per_cpu_second)
        print(f"  {name:<22} {best.per_cpu_second():>10,.0f}  ({best.per_second():,.0f} records/s wall clock)")
    ours_cpu = min(r.cpu for r in rates["the projection"])
    replay_cpu = min(r.cpu for r in rates["replay alone (within)"])
    print(f"  the replay is {replay_cpu / ours_cpu:.0%} of the projection's CPU time")
    fastest = max(rate.per_cpu_second() for rate in rates["the projection"])
    print(f"  the projection {'meets' if fastest >= 100_000 else 'misses'} the target of 100,000 records/s on one core")


def projection_from_the_event_store(directory: Path) -> None:
    service = build_service(Settings(database_url=f"sqlite:///{directory}/events.sqlite"))
    for number in range(40):
        game, players = MIX[number % len(MIX)]
        created = service.create_game(game, players, None, f"store-{number}".encode())
        play_with_bot(service, created, RandomBot(f"store-bot-{number}".encode()))
    total = service.recorder.max_notification_id() or 0
    ours, theirs = [], []
    for round_ in range(3):  # interleaved, so both see the same machine
        ours.append(analytics_rebuild(RecordSource(service), directory / f"store-{round_}.duckdb"))

        def read_models() -> int:
            Projector(service, MemoryStore()).catch_up()
            return total

        theirs.append(timed(read_models))
    a = statistics.median(r.per_cpu_second() for r in ours)
    b = statistics.median(r.per_cpu_second() for r in theirs)
    print(f"projection from the SQLite event store, {total:,} records of 40 games (read, decoded, projected):")
    print(f"  analytics {a:,.0f} records per CPU second; the four read models of the API (boards, scoreboards,")
    print(f"  lobby, frames; in memory) {b:,.0f}; analytics / read models = {a / b:.2f}")
    service.close()


def build(directory: Path, games: int, label: str) -> AnalyticsDatabase:
    database = AnalyticsDatabase(str(directory / f"{label}.duckdb"))
    first_id, chunk = 1, 200
    started = time.perf_counter()
    for first in range(0, games, chunk):
        records = numbered(list(played_games(min(chunk, games - first), first)), first_id)
        AnalyticsProjector(ListSource(records), database).catch_up(hold_seconds=60)
        first_id += len(records)
        print(f"  {first + chunk:>6} games played and projected ({time.perf_counter() - started:.0f} s)", end="\r")
    print()
    return database


def export(directory: Path) -> None:
    database = build(directory, 1000, "export")
    with database.connect() as connection:
        records = connection.execute("SELECT count(*) FROM records").fetchone()
        parquet, csv = [], []
        for round_ in range(3):
            started = time.perf_counter()
            export_tables(connection, directory / f"parquet-{round_}", "parquet")
            parquet.append(time.perf_counter() - started)
            started = time.perf_counter()
            export_tables(connection, directory / f"csv-{round_}", "csv")
            csv.append(time.perf_counter() - started)
    p, c = statistics.median(parquet), statistics.median(csv)
    print(f"export of 1,000 games ({records[0] if records else 0} records, every table):")
    print(f"  Parquet by game and month {p:.2f} s; CSV {c:.2f} s; ratio {p / c:.2f}")
    print(f"  {'meets' if p < 10 else 'misses'} the target of under 10 s")


def report(directory: Path, games: int) -> None:
    database = build(directory, games, "report")
    with database.connect() as connection:
        records = connection.execute("SELECT count(*) FROM records").fetchone()
        started = time.perf_counter()
        numbers = compute_report(connection)
        computed = time.perf_counter() - started
    write_report(numbers, directory / "report")
    total = time.perf_counter() - started
    print(f"report over {games:,} games ({records[0] if records else 0:,} records):")
    print(f"  numbers {computed:.2f} s, with the charts and the Markdown {total:.2f} s")
    print(f"  {'meets' if total < 30 else 'misses'} the target of under 30 s")


def main() -> None:
    if sys.argv[1:2] == ["--baselines"]:  # only the projection beside DuckDB read_json and json.loads + pyarrow
        with tempfile.TemporaryDirectory() as name:
            projection_beside_baselines(Path(name), int(sys.argv[2]) if len(sys.argv) > 2 else 200)
        return
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    with tempfile.TemporaryDirectory() as name:
        directory = Path(name)
        projection_beside_baselines(directory)
        projection(directory)
        projection_from_the_event_store(directory)
        export(directory)
        report(directory, games)


if __name__ == "__main__":
    main()
