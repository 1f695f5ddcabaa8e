"""``alexandria tournament run`` and ``alexandria tournament verify``."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from pytest import MonkeyPatch

from api.cli.main import main
from infra.bootstrap import build_service
from infra.settings import Settings
from infra.tournaments.service import TournamentService


def test_run_plays_a_tournament_and_verify_checks_its_bundle(tmp_path: Path) -> None:
    bundle = tmp_path / "bundle.json"
    runner = CliRunner()
    ran = runner.invoke(
        main,
        [
            "tournament",
            "run",
            "--game",
            "peloponnes",
            "--players",
            "6",
            "--rounds",
            "2",
            "--table-size",
            "3",
            "--out",
            str(bundle),
        ],
    )
    assert ran.exit_code == 0, ran.output
    assert "final standings" in ran.output and "bot-01" in ran.output
    fingerprint = json.loads(bundle.read_text())["fingerprint"]

    verified = runner.invoke(main, ["tournament", "verify", str(bundle)])
    assert verified.exit_code == 0, verified.output
    assert "verified" in verified.output and fingerprint in verified.output

    data = json.loads(bundle.read_text())
    victim = next(iter(data["games"]))
    del data["games"][victim]
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(data))
    failed = runner.invoke(main, ["tournament", "verify", "--json", str(broken)])
    assert failed.exit_code == 1
    report = json.loads(failed.output)
    assert report["ok"] is False and report["bad_games"] == [victim]


def test_verify_explains_an_unreadable_bundle(tmp_path: Path) -> None:
    path = tmp_path / "junk.json"
    path.write_text("{not json")
    result = CliRunner().invoke(main, ["tournament", "verify", str(path)])
    assert result.exit_code == 1 and "cannot read" in result.output
    path.write_text("{}")
    result = CliRunner().invoke(main, ["tournament", "verify", str(path)])
    assert result.exit_code == 1 and "format" in result.output


def test_the_clock_worker_applies_the_rule_in_the_configured_store(tmp_path: Path, monkeypatch: MonkeyPatch) -> None:
    url = f"sqlite:///{tmp_path}/events.sqlite"
    monkeypatch.setenv("ALEXANDRIA_DATABASE_URL", url)
    games = build_service(Settings(database_url=url))
    tournaments = TournamentService(games)
    # A millisecond a seat: out of time before anyone could move.
    control = {"base_seconds": 0.001, "increment_seconds": 0, "on_timeout": "random_move"}
    created = tournaments.create("peloponnes", {"rounds": 1, "table_size": 2, "time_control": control})
    for name in ("Ada", "Bo"):
        tournaments.register(created.tournament_id, created.organiser_token, name)
    tournaments.seat_next_round(created.tournament_id, created.organiser_token)
    result = CliRunner().invoke(main, ["tournament", "clocks", "--once", created.tournament_id])
    assert result.exit_code == 0, result.output
    assert "the clock rule played" in result.output
    assert tournaments.state(created.tournament_id).timeouts
    unknown = CliRunner().invoke(main, ["tournament", "clocks", "--once", "not-a-tournament"])
    assert unknown.exit_code == 1 and "UNKNOWN_TOURNAMENT_ID" in unknown.output
    tournaments.close()
    games.close()
