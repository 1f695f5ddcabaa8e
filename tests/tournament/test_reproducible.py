"""``alexandria tournament run --seed S`` is reproducible: twice the same seatings, the same
records and the same fingerprint; another seed gives another tournament."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from api.cli.main import main
from infra.games.service import Conflict
from infra.tournaments.aggregate import unsalted_tournament_id
from infra.tournaments.service import TournamentService


def run(tmp_path: Path, seed: str, name: str) -> dict[str, Any]:
    out = tmp_path / f"{name}.json"
    arguments = ["tournament", "run", "--game", "peloponnes", "--players", "5", "--rounds", "2", "--table-size", "2"]
    ran = CliRunner().invoke(main, [*arguments, "--seed", seed, "--out", str(out)])
    assert ran.exit_code == 0, ran.output
    bundle: dict[str, Any] = json.loads(out.read_text())
    assert f"fingerprint {bundle['fingerprint']}" in ran.output
    return bundle


def seatings(bundle: dict[str, Any]) -> list[Any]:
    return [(r["data"]["tables"], r["data"]["byes"]) for r in bundle["tournament"] if r["type"] == "RoundSeated"]


def test_the_same_seed_runs_the_same_tournament_and_another_seed_another(tmp_path: Path) -> None:
    first, second = run(tmp_path, "repro", "first"), run(tmp_path, "repro", "second")
    assert seatings(first) == seatings(second)
    assert first["fingerprint"] == second["fingerprint"]
    assert first == second  # every record of the tournament and of every game, ids and stamps included
    other = run(tmp_path, "another", "other")
    assert other["fingerprint"] != first["fingerprint"]
    assert other["tournament_id"] != first["tournament_id"]


def test_one_store_holds_one_unsalted_run_per_seed(tournaments: TournamentService) -> None:
    first = tournaments.create("peloponnes", {"table_size": 2}, b"once", salted=False)
    assert first.tournament_id == str(unsalted_tournament_id(b"once"))
    with pytest.raises(Conflict):
        tournaments.create("peloponnes", {"table_size": 2}, b"once", salted=False)
    salted = tournaments.create("peloponnes", {"table_size": 2}, b"once")  # a salted one never collides
    assert salted.tournament_id != first.tournament_id
