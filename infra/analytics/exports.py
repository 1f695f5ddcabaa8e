"""The analytics exports: the tables as Parquet or CSV files, monthly dumps, and the pages of
ended games and their records that the API serves."""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Literal

import duckdb

from infra.analytics.database import SCHEMA_VERSION, sql_text
from infra.readside.paging import encode_cursor
from projections.analytics import (
    GAMES_TABLE,
    RECORDS_TABLE,
    TABLES,
)

# -- exports ------------------------------------------------------------------------------------

ExportFormat = Literal["parquet", "csv"]


def _columns(table: str, alias: str = "t", skip: tuple[str, ...] = ()) -> str:
    """The table's columns for an export: JSON as text (Parquet readers other than DuckDB would
    see JSON columns as bytes)."""
    return ", ".join(
        f'{alias}."{name}"::VARCHAR AS "{name}"' if kind == "JSON" else f'{alias}."{name}"'
        for name, kind in TABLES[table]
        if name not in skip
    )


def _ended_since(since: datetime | None) -> str:
    """Games (aliased ``g``) an export takes: all, or with ``since`` those ended at or after it."""
    return "TRUE" if since is None else "g.status = 'ended' AND g.ended_at >= $since"


def _partitioned(table: str, where: str = "TRUE") -> str:
    """The table with its game and month (of the game's creation) for partitioning, the rows of
    the games (``g``) that ``where`` takes."""
    if table == GAMES_TABLE:
        return (
            f"SELECT {_columns(table, 'g')}, strftime(g.created_at, '%Y-%m') AS month FROM {GAMES_TABLE} g "
            f"WHERE {where}"
        )
    return (
        f"SELECT {_columns(table, skip=('game',))}, g.game, strftime(g.created_at, '%Y-%m') AS month "
        f"FROM {table} t JOIN {GAMES_TABLE} g USING (game_id) WHERE {where}"
    )


def _selected(table: str, where: str = "TRUE") -> str:
    """The table's rows of the games (``g``) that ``where`` takes."""
    if table == GAMES_TABLE:
        return f"SELECT {_columns(table, 'g')} FROM {GAMES_TABLE} g WHERE {where}"
    return f"SELECT {_columns(table)} FROM {table} t JOIN {GAMES_TABLE} g USING (game_id) WHERE {where}"


def export_tables(
    connection: duckdb.DuckDBPyConnection, out: Path, file_format: ExportFormat, since: datetime | None = None
) -> dict[str, int]:
    """Every table into ``out``: Parquet as ``TABLE/game=G/month=YYYY-MM/*.parquet`` (hive
    partitions, which DuckDB, pandas/pyarrow and Spark read as columns), CSV as ``TABLE.csv``.
    With ``since``, only the rows of games that ended at or after it (an incremental export).
    Returns the rows written per table."""
    out.mkdir(parents=True, exist_ok=True)
    written: dict[str, int] = {}
    parameters = {"since": since} if since is not None else {}
    where = _ended_since(since)
    for table in TABLES:
        count = connection.execute(f"SELECT count(*) FROM ({_selected(table, where)})", parameters).fetchone()
        written[table] = int(count[0]) if count else 0
        target = out / table
        if file_format == "parquet":
            if written[table] == 0:
                continue  # PARTITION_BY writes nothing for no rows; an empty folder would mislead
            connection.execute(
                f"COPY ({_partitioned(table, where)}) TO '{sql_text(str(target))}' "
                "(FORMAT parquet, PARTITION_BY (game, month), OVERWRITE_OR_IGNORE)",
                parameters,
            )
        else:
            connection.execute(
                f"COPY ({_selected(table, where)} ORDER BY ALL) TO '{sql_text(str(target))}.csv' (FORMAT csv, HEADER)",
                parameters,
            )
    return written


DUMP_INDEX = "index.json"


def dump_months(connection: duckdb.DuckDBPyConnection, out: Path, now: datetime) -> dict[str, Any]:
    """Monthly dumps, as the lichess database publishes its games: for every month before the one
    of ``now`` in which games ended, ``out/YYYY-MM/TABLE.parquet`` with the rows of the games that
    ended that month, and ``out/index.json`` listing every month's files (rows, bytes, SHA-256).
    A month already dumped with the same games is left as it is (an ended game never changes).
    Returns the index."""
    out.mkdir(parents=True, exist_ok=True)
    index_path = out / DUMP_INDEX
    index: dict[str, Any] = json.loads(index_path.read_text()) if index_path.exists() else {"months": {}}
    this_month = now.strftime("%Y-%m")
    months = connection.execute(
        f"SELECT strftime(ended_at, '%Y-%m') AS month, count(*) FROM {GAMES_TABLE} "
        "WHERE status = 'ended' GROUP BY ALL ORDER BY ALL"
    ).fetchall()
    for month, games in months:
        if month >= this_month:
            continue  # not over yet: dumped once it is
        if index["months"].get(month, {}).get("games") == games:
            continue
        folder = out / month
        folder.mkdir(exist_ok=True)
        files = {}
        for table in TABLES:
            select = _selected(table, "g.status = 'ended' AND strftime(g.ended_at, '%Y-%m') = $month")
            target = folder / f"{table}.parquet"
            connection.execute(
                f"COPY ({select} ORDER BY ALL) TO '{sql_text(str(target))}' (FORMAT parquet)", {"month": month}
            )
            rows = connection.execute(f"SELECT count(*) FROM ({select})", {"month": month}).fetchall()[0][0]
            files[table] = {
                "file": f"{month}/{table}.parquet",
                "rows": int(rows),
                "bytes": target.stat().st_size,
                "sha256": hashlib.sha256(target.read_bytes()).hexdigest(),
            }
        index["months"][month] = {"games": int(games), "files": files}
    index["months"] = dict(sorted(index["months"].items()))
    index["schema"] = SCHEMA_VERSION
    partial = index_path.with_name(f".{DUMP_INDEX}.partial")
    partial.write_text(json.dumps(index, indent=2) + "\n")
    os.replace(partial, index_path)
    return index


@dataclass(frozen=True, slots=True)
class GamePage:
    games: list[tuple[str, datetime]]  # (game id, ended at), in export order
    next_cursor: str | None


def ended_games_page(
    connection: duckdb.DuckDBPyConnection,
    game: str | None,
    since: datetime | None,
    until: datetime | None,
    after: tuple[datetime, str] | None,
    limit: int,
) -> GamePage:
    """Ended games in the order they ended (then by id), from after ``after``."""
    where = ["status = 'ended'"]
    parameters: list[Any] = []
    if game is not None:
        where.append("game = ?")
        parameters.append(game)
    if since is not None:
        where.append("ended_at >= ?")
        parameters.append(since)
    if until is not None:
        where.append("ended_at < ?")
        parameters.append(until)
    if after is not None:
        where.append("(ended_at, game_id) > (?, ?)")
        parameters.extend(after)
    found = connection.execute(
        f"SELECT game_id, ended_at FROM {GAMES_TABLE} WHERE {' AND '.join(where)} "
        f"ORDER BY ended_at, game_id LIMIT {int(limit) + 1}",
        parameters,
    ).fetchall()
    games = [(str(g), at) for g, at in found[:limit]]
    more = len(found) > limit
    return GamePage(games, encode_cursor(games[-1][1], games[-1][0]) if more and games else None)


def record_lines(connection: duckdb.DuckDBPyConnection, game_ids: list[str], chunk: int = 50) -> Iterator[str]:
    """The records of ``game_ids`` (in that order) as JSON lines with game id and recorded time."""
    for start in range(0, len(game_ids), chunk):
        ids = game_ids[start : start + chunk]
        order = {g: i for i, g in enumerate(ids)}
        found = connection.execute(
            f"SELECT game_id, game, position, type, seat, private, recorded_at, data FROM {RECORDS_TABLE} "
            "WHERE list_contains(?, game_id)",
            [ids],
        ).fetchall()
        found.sort(key=lambda row: (order[row[0]], row[2]))
        for game_id, game, position, kind, seat, private, at, data in found:
            head = json.dumps(
                {
                    "game_id": game_id,
                    "game": game,
                    "position": position,
                    "type": kind,
                    "seat": seat,
                    "private": private,
                    "recorded_at": at.isoformat(),
                },
                separators=(",", ":"),
            )
            yield f'{head[:-1]},"data":{data}}}\n'
