"""The ``alexandria`` command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from api.cli.main import main
from infra.bootstrap import build_service
from infra.settings import Settings


@pytest.fixture
def runner(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    monkeypatch.setenv("ALEXANDRIA_DATABASE_URL", f"sqlite:///{tmp_path}/cli.sqlite")
    monkeypatch.setenv("COLUMNS", "200")  # tables as wide as they like, whatever the terminal
    return CliRunner()


def simulated(runner: CliRunner, out: Path, games: int = 2, seed: str = "s") -> list[Path]:
    args = ["simulate", "--game", "peloponnes", "--players", "2", "--games", str(games), "--seed", seed]
    result = runner.invoke(main, [*args, "--out", str(out)])
    assert result.exit_code == 0, result.output
    return sorted(out.glob("*.jsonl"))


def refused_in_one_line(result: Result, *expected: str) -> None:
    assert result.exit_code != 0
    assert isinstance(result.exception, SystemExit), result.exception  # not a traceback
    assert "Traceback" not in result.output
    (line,) = [line for line in result.stderr.splitlines() if line.startswith("Error:")]
    assert all(text in line for text in expected), line


def test_version_and_short_help(runner: CliRunner) -> None:
    version = runner.invoke(main, ["--version"])
    assert version.exit_code == 0 and version.stdout.startswith("alexandria, version ")
    for args in (["-h"], ["simulate", "-h"], ["verify", "-h"]):
        shown = runner.invoke(main, args)
        assert shown.exit_code == 0 and "Usage: alexandria" in shown.stdout, args


def test_new_prints_the_seats_as_the_http_api_does(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(main, ["new", "peloponnes", "--players", "3", "--json"])
    assert result.exit_code == 0, result.output
    created = json.loads(result.stdout)
    assert set(created) == {"game_id", "version", "seats", "open_seats", "bots"} and created["version"] > 1
    assert [seat["seat"] for seat in created["seats"]] == [0, 1, 2]
    service = build_service(Settings(database_url=f"sqlite:///{tmp_path}/cli.sqlite"))
    with service.reading(created["game_id"]) as aggregate:
        assert [service.seat_for_token(aggregate, s["token"]) for s in created["seats"]] == [0, 1, 2]
    service.close()
    table = runner.invoke(main, ["new", "alexandros", "--players", "2"])
    assert table.exit_code == 0, table.output
    assert "alexandros game" in table.stdout and "token" in table.stdout
    rows = [[cell.strip() for cell in line.split("│")[1:-1]] for line in table.stdout.splitlines() if "│" in line]
    assert [row[0] for row in rows] == ["0", "1"] and all(len(row[1]) == 32 for row in rows)


def test_new_refuses_a_bad_player_count_with_the_rule_code(runner: CliRunner) -> None:
    refused_in_one_line(runner.invoke(main, ["new", "peloponnes", "--players", "9"]), "BAD_PLAYER_COUNT")


def test_simulate_refuses_bad_arguments_in_one_line_without_a_traceback(runner: CliRunner) -> None:
    base = ["simulate", "--game", "peloponnes"]
    refused_in_one_line(runner.invoke(main, [*base, "--players", "9"]), "BAD_PLAYER_COUNT", "not 9")
    refused_in_one_line(runner.invoke(main, [*base, "--players", "3", "--option", "colour=red"]), "BAD_OPTIONS")
    refused_in_one_line(runner.invoke(main, [*base, "--players", "3", "--option", "colour"]), "KEY=VALUE")
    refused_in_one_line(runner.invoke(main, [*base, "--players", "3", "--games", "0"]), "--games")


def test_simulate_ends_with_a_results_table_and_can_write_it_as_json(runner: CliRunner, tmp_path: Path) -> None:
    files = simulated(runner, tmp_path / "records", games=3)
    records = [[json.loads(line) for line in file.read_text().splitlines()] for file in files]
    args = ["simulate", "--game", "peloponnes", "--players", "2", "--games", "3", "--seed", "s", "--json"]
    result = runner.invoke(main, args)
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["games"] == 3 and summary["players"] == 2
    assert summary["records"] == sum(len(r) for r in records)
    commands = [sum(rec["type"] == "CommandAccepted" for rec in game) for game in records]
    assert summary["mean_commands"] == pytest.approx(sum(commands) / 3)
    ended = [game[-1]["data"] for game in records]
    for seat in summary["seats"]:
        final_scores = [scores_of(end)[seat["seat"]] for end in ended]
        assert seat["score_mean"] == pytest.approx(sum(final_scores) / 3)
        assert seat["wins"] == sum(seat["seat"] in end["winners"] for end in ended)
    assert summary["records_per_second"] > 0
    table = runner.invoke(main, args[:-1])
    assert table.exit_code == 0, table.output
    for heading in ("seat", "wins", "win rate", "mean score", "sd", "mean game length", "records/s"):
        assert heading in table.stdout


def scores_of(ended: dict) -> list[float]:
    """The final scores a Peloponnes GameEnded record carries, by seat."""
    return [float(r["final"]) for r in sorted(ended["results"], key=lambda r: r["seat"])]


def test_simulated_records_verify_file_by_file_with_a_summary(runner: CliRunner, tmp_path: Path) -> None:
    good = simulated(runner, tmp_path / "records")
    tampered = tmp_path / "tampered.jsonl"
    lines = good[0].read_text().splitlines()
    record = json.loads(lines[3])
    record["prev"] = "0" * 64
    tampered.write_text("\n".join([*lines[:3], json.dumps(record), *lines[4:]]) + "\n")
    broken = tmp_path / "broken.jsonl"
    broken.write_text("{not json\n")
    result = runner.invoke(main, ["verify", *map(str, good), str(tampered), str(broken)])
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert len(lines) == 5, result.stdout
    assert all(line.startswith("ok ") and "chain ok; seed ok" in line for line in lines[:2])
    assert lines[2].startswith("FAIL") and "chain BROKEN" in lines[2] and "position 4" in lines[2]
    assert lines[3].startswith("FAIL") and "cannot read" in lines[3]
    assert lines[4] == "4 files: 2 passed, 2 failed"
    as_json = json.loads(runner.invoke(main, ["verify", *map(str, good), str(tampered), "--json"]).stdout)
    assert as_json["summary"] == {"files": 3, "passed": 2, "failed": 1, "incomplete": 0}
    assert [r["seed_ok"] for r in as_json["files"]] == [True, True, None]
    assert as_json["files"][2]["first_bad_position"] == 4
    all_good = runner.invoke(main, ["verify", *map(str, good)])
    assert all_good.exit_code == 0 and all_good.stdout.splitlines()[-1] == "2 files: 2 passed, 0 failed"


def test_replay_rebuilds_any_version(runner: CliRunner, tmp_path: Path) -> None:
    (file,) = simulated(runner, tmp_path / "records", games=1)
    early = json.loads(runner.invoke(main, ["replay", str(file), "--to", "5", "--json"]).stdout)
    assert early["version"] == 5 and early["status"] == "running"
    late = json.loads(runner.invoke(main, ["replay", str(file), "--json"]).stdout)
    assert late["status"] == "ended"
    shown = runner.invoke(main, ["replay", str(file), "--to", "5", "--seat", "1"])
    assert shown.exit_code == 0 and "at version 5" in shown.stdout and "seat 1" in shown.stdout
    refused_in_one_line(runner.invoke(main, ["replay", str(file), "--to", "0"]), "--to must be between")


def test_replay_validates_the_seat(runner: CliRunner, tmp_path: Path) -> None:
    (file,) = simulated(runner, tmp_path / "records", games=1)
    for seat in ("2", "-1"):
        refused = runner.invoke(main, ["replay", str(file), "--seat", seat])
        refused_in_one_line(refused, "--seat must be between 0 and 1")


def test_verify_reports_an_unreadable_file_clearly(runner: CliRunner, tmp_path: Path) -> None:
    broken = tmp_path / "broken.jsonl"
    broken.write_text("{not json\n")
    result = runner.invoke(main, ["verify", str(broken)])
    assert result.exit_code != 0 and "cannot read" in result.output


@pytest.mark.parametrize(
    ("variable", "value", "expected"),
    [
        ("ALEXANDRIA_CREATION_RATE_LIMIT", "lots", "ALEXANDRIA_CREATION_RATE_LIMIT must be like '60/minute'"),
        ("ALEXANDRIA_PORT", "eighty", "ALEXANDRIA_PORT: Input should be a valid integer"),
        ("ALEXANDRIA_DATABASE_URL", "mysql://db", "ALEXANDRIA_DATABASE_URL must be"),
    ],
)
def test_serve_refuses_a_bad_setting_in_one_line(
    runner: CliRunner, monkeypatch: pytest.MonkeyPatch, variable: str, value: str, expected: str
) -> None:
    monkeypatch.setenv(variable, value)
    refused_in_one_line(runner.invoke(main, ["serve"]), expected)
