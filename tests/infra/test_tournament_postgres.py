"""A tournament on PostgreSQL: its own tables beside the games', results followed from the games'
notification log by two services at once, recorded once each; the bundle verifies; the games'
read models see only games."""

from __future__ import annotations

import json

import pytest

from domain.catalog import GAMES
from domain.tournament.verification import verify_bundle
from infra.bootstrap import build_service
from infra.readside.reader import embedded_read_side
from infra.settings import Settings
from infra.tournaments.run import run_tournament
from infra.tournaments.service import TournamentService

pytestmark = pytest.mark.services


def test_a_tournament_on_postgres_verifies_and_its_results_are_recorded_once(database_url: str) -> None:
    games = build_service(Settings(database_url=database_url))
    other_games = build_service(Settings(database_url=database_url))  # a second API worker
    tournaments, other = TournamentService(games), TournamentService(other_games)
    try:
        played = run_tournament(tournaments, "peloponnes", 4, {"rounds": 2, "table_size": 2}, master_seed=b"pg")
        assert other.follow_results() == 0  # the first worker recorded every result already
        state = other.state(played.tournament_id)
        assert len(state.results) == 4 and state.ended is not None
        report = verify_bundle(json.loads(json.dumps(other.bundle(played.tournament_id))), GAMES.get)
        assert report.ok, report.problems
        # The games' notification log holds game records only: the lobby lists the tournament's games.
        reads = embedded_read_side(games)
        assert reads.projector is not None
        reads.projector.catch_up()
        page, _ = reads.games(limit=500)
        reads.close()
        lobby = {entry["game_id"] for entry in page}
        assert lobby == {t.game_id for t in state.tables()}
        logged = games.recorder.select_notifications(start=1, limit=100_000)
        assert {str(n.originator_id) for n in logged} == {t.game_id for t in state.tables()}
    finally:
        tournaments.close()
        other.close()
        games.close()
        other_games.close()
