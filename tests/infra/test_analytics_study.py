"""Studies: ``alexandria simulate --database-url`` plays into a store the analytics tables read,
with the study's options and bots recorded; ``--out`` lists each game with its id and times."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

from click.testing import CliRunner

from api.cli.main import main
from infra.analytics.store import Analytics
from infra.bootstrap import build_service
from infra.settings import Settings


def test_a_study_plays_into_a_store_with_its_options_and_bots(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/study.sqlite"
    args = ["simulate", "--game", "catan_alexander", "--players", "3", "--games", "2", "--seed", "study"]
    options = ["--option", "board=base", "--option", "layout=random"]
    result = CliRunner().invoke(main, [*args, *options, "--database-url", url, "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    service = build_service(Settings(database_url=url))
    try:
        with Analytics.for_service(service).reading() as connection:
            games = connection.execute("SELECT game_id, status, options, created_at, ended_at FROM games").fetchall()
            seats = connection.execute("SELECT game_id, seat, name FROM game_seats ORDER BY ALL").fetchall()
        assert [(status, json.loads(chosen)) for _, status, chosen, _, _ in games] == [
            ("ended", {"board": "base", "layout": "random"})
        ] * 2
        assert seats == sorted((game_id, seat, f"random {seat}") for game_id, *_ in games for seat in range(3))
        index = [json.loads(line) for line in (tmp_path / "out" / "games.ndjson").read_text().splitlines()]
        times = {game_id: (created, ended) for game_id, _, _, created, ended in games}
        assert sorted(line["game_id"] for line in index) == sorted(times)
        for line in index:
            created, ended = times[line["game_id"]]
            assert datetime.fromisoformat(line["created_at"]) == created
            assert datetime.fromisoformat(line["ended_at"]) == ended
            assert line["options"] == {"board": "base", "layout": "random"} and line["seed"].startswith("study-")
            assert (tmp_path / "out" / line["file"]).exists() and line["game_id"] in line["file"]
            assert line["records"] == len(service.records(line["game_id"]))
        verified = CliRunner().invoke(main, ["verify", *(str(tmp_path / "out" / line["file"]) for line in index)])
        assert verified.exit_code == 0, verified.output  # the record files are still what verify reads
    finally:
        service.close()
