"""``alexandria analytics``: project, query, export (Parquet by game and month, CSV), report."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import duckdb
import pyarrow.dataset as ds
import pytest
from click.testing import CliRunner, Result

from api.cli.main import main
from infra.games.service import CreatedGame, GameService
from tests.support.analytics import database_url, simulated_store


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, GameService, list[CreatedGame]]]:
    directory = tmp_path_factory.mktemp("analytics-cli")
    service, ended, running = simulated_store(directory, games_each=1)
    yield directory, service, ended + running
    service.close()


def run(directory: Path, *args: str) -> Result:
    return CliRunner().invoke(main, ["analytics", *args], env={"ALEXANDRIA_DATABASE_URL": database_url(directory)})


def test_query_prints_rows_as_a_table_or_as_json(store: tuple[Path, GameService, list[CreatedGame]]) -> None:
    directory, service, games = store
    result = run(directory, "query", "SELECT game_id, version FROM games ORDER BY game_id", "--json")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)
    versions = ({"game_id": g.game_id, "version": service.load(g.game_id).match.version} for g in games)
    assert rows == sorted(versions, key=lambda r: r["game_id"])
    table = run(directory, "query", "SELECT game, count(*) AS n FROM games GROUP BY game ORDER BY game")
    assert table.exit_code == 0
    assert "catan_alexander" in table.output and "4 rows" in table.output
    limited = run(directory, "query", "SELECT * FROM records", "--limit", "2", "--json")
    assert len(json.loads(limited.stdout)) == 2


@pytest.mark.parametrize(
    ("sql", "says"),
    [
        ("SELECT * FROM no_such_table", "no_such_table"),
        ("DELETE FROM games", "read-only"),
        ("SELEC 1", "syntax error"),
    ],
)
def test_a_bad_query_is_one_clear_line_and_changes_nothing(
    store: tuple[Path, GameService, list[CreatedGame]], sql: str, says: str
) -> None:
    directory, _, games = store
    result = run(directory, "query", sql)
    assert result.exit_code == 1
    assert says in result.output and "Traceback" not in result.output
    assert json.loads(run(directory, "query", "SELECT count(*) AS n FROM games", "--json").output) == [
        {"n": len(games)}
    ]


def test_export_parquet_by_game_and_month_and_csv(
    store: tuple[Path, GameService, list[CreatedGame]], tmp_path: Path
) -> None:
    directory, service, games = store
    result = run(directory, "export", str(tmp_path / "parquet"))
    assert result.exit_code == 0, result.output
    records = ds.dataset(tmp_path / "parquet" / "records", format="parquet", partitioning="hive").to_table()
    assert records.num_rows == sum(service.load(g.game_id).match.version for g in games)
    assert records.column("game_id").null_count == 0 and records.column("recorded_at").null_count == 0
    month = sorted({p.name for p in (tmp_path / "parquet" / "records").glob("game=*/month=*")})
    assert month and all(name.startswith("month=20") for name in month)
    assert sorted(p.name for p in (tmp_path / "parquet" / "records").iterdir()) == [
        "game=alexandros",
        "game=catan_alexander",
        "game=empire_builder",
        "game=peloponnes",
    ]
    dice = duckdb.execute(
        f"SELECT count(*) FROM read_parquet('{tmp_path}/parquet/catan_dice_rolls/*/*/*.parquet', hive_partitioning=1)"
    ).fetchone()
    rolls = sum(r.type == "DiceRolled" for g in games for r in service.records(g.game_id))
    assert dice == (rolls,)
    assert run(directory, "export", str(tmp_path / "csv"), "--format", "csv").exit_code == 0
    header = (tmp_path / "csv" / "records.csv").read_text().splitlines()[0]
    assert header.startswith("game_id,game,position,type,seat,private,recorded_at,data")


def test_report_writes_markdown_with_charts_and_refuses_an_unknown_game(
    store: tuple[Path, GameService, list[CreatedGame]], tmp_path: Path
) -> None:
    directory, _, _ = store
    result = run(directory, "report", "--out", str(tmp_path / "report"), "--game", "catan_alexander")
    assert result.exit_code == 0, result.output
    text = (tmp_path / "report" / "report.md").read_text()
    assert "## Dice fairness" in text and "![catan_alexander: dice totals" in text
    assert (tmp_path / "report" / "dice_catan_alexander.png").read_bytes()[:4] == b"\x89PNG"
    refused = run(directory, "report", "--game", "chess", "--out", str(tmp_path / "x"))
    assert refused.exit_code == 2 and "chess" in refused.output and not (tmp_path / "x").exists()


def test_project_catches_up_and_rebuilds(store: tuple[Path, GameService, list[CreatedGame]]) -> None:
    directory, service, _ = store
    assert run(directory, "project", "--once").exit_code == 0
    rebuilt = run(directory, "project", "--rebuild")
    assert rebuilt.exit_code == 0, rebuilt.output
    assert f"at notification {service.recorder.max_notification_id()}" in rebuilt.output


def test_the_read_model_worker_names_the_analytics_worker(store: tuple[Path, GameService, list[CreatedGame]]) -> None:
    directory, _, _ = store
    env = {"ALEXANDRIA_DATABASE_URL": database_url(directory)}
    refused = CliRunner().invoke(main, ["project", "--rebuild", "analytics"], env=env)
    assert refused.exit_code == 2 and "alexandria analytics project --rebuild" in refused.output
    assert "alexandria analytics project" in CliRunner().invoke(main, ["project", "--help"]).output
