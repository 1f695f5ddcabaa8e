"""The ``alexandria`` command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from api.cli import main


@pytest.fixture
def runner(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    monkeypatch.setenv("ALEXANDRIA_DATABASE_URL", f"sqlite:///{tmp_path}/cli.sqlite")
    return CliRunner()


def test_new_creates_a_game_and_prints_its_tokens(runner: CliRunner) -> None:
    result = runner.invoke(main, ["new", "peloponnes", "--players", "3"])
    assert result.exit_code == 0, result.output
    created = json.loads(result.output)
    assert len(created["tokens"]) == 3 and created["version"] > 1


def test_new_refuses_a_bad_player_count_with_the_rule_code(runner: CliRunner) -> None:
    result = runner.invoke(main, ["new", "peloponnes", "--players", "9"])
    assert result.exit_code != 0
    assert "BAD_PLAYER_COUNT" in result.output


def test_simulate_plays_full_games_and_writes_records_that_verify(runner: CliRunner, tmp_path: Path) -> None:
    out = tmp_path / "records"
    result = runner.invoke(
        main, ["simulate", "--game", "peloponnes", "--players", "2", "--games", "2", "--seed", "s", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    files = sorted(out.glob("*.jsonl"))
    assert len(files) == 2
    for file in files:
        verified = runner.invoke(main, ["verify", str(file)])
        assert verified.exit_code == 0, verified.output
        assert json.loads(verified.output)["seed_ok"] is True


def test_replay_rebuilds_any_version(runner: CliRunner, tmp_path: Path) -> None:
    out = tmp_path / "records"
    runner.invoke(main, ["simulate", "--game", "peloponnes", "--players", "2", "--games", "1", "--out", str(out)])
    (file,) = out.glob("*.jsonl")
    early = json.loads(runner.invoke(main, ["replay", str(file), "--to", "5"]).output)
    assert early["version"] == 5 and early["status"] == "running"
    late = json.loads(runner.invoke(main, ["replay", str(file)]).output)
    assert late["status"] == "ended"
    refused = runner.invoke(main, ["replay", str(file), "--to", "0"])
    assert refused.exit_code != 0 and "--to must be between" in refused.output


def test_verify_reports_an_unreadable_file_clearly(runner: CliRunner, tmp_path: Path) -> None:
    broken = tmp_path / "broken.jsonl"
    broken.write_text("{not json\n")
    result = runner.invoke(main, ["verify", str(broken)])
    assert result.exit_code != 0 and "cannot read" in result.output
