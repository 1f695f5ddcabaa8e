"""``game_seats``: who sat at each seat of each game (the name it was taken with, the tournament
player), and how they finished, checked against the game and tournament stores."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from domain.kernel.bots import RandomBot
from domain.tournament.log import Table
from infra.analytics.store import Analytics, AnalyticsSettings
from infra.bootstrap import build_service
from infra.games.service import CreatedGame, GameService
from infra.games.simulation import play_with_bot
from infra.settings import Settings
from infra.tournaments.run import play_table
from infra.tournaments.service import TournamentService


@pytest.fixture
def service(tmp_path: Path) -> Iterator[GameService]:
    service = build_service(Settings(database_url=f"sqlite:///{tmp_path}/events.sqlite"))
    yield service
    service.close()


def test_seats_join_games_to_their_players_and_tournaments(service: GameService) -> None:
    tournaments = TournamentService(service)
    try:
        created = tournaments.create("peloponnes", {"rounds": 1, "table_size": 2}, b"seats", salted=False)
        tid, organiser = created.tournament_id, created.organiser_token
        names = ["Ann", "Bo", "Cy", "Di"]
        tokens = [tournaments.register(tid, organiser, name).token for name in names]
        seated = tournaments.seat_next_round(tid, organiser)
        tables = [Table(1, t["table"], t["game_id"], t["players"]) for t in seated["tables"]]
        analytics = Analytics.for_service(service, AnalyticsSettings(batch_size=50))
        analytics.refresh()  # the tables are running: seats without results
        with analytics.reading() as connection:
            running = connection.execute(
                "SELECT game_id, seat, tournament_player, name, status, score FROM game_seats ORDER BY ALL"
            ).fetchall()
        expected_players = sorted(
            (t.game_id, seat, player, names[player], "running", None)
            for t in tables
            for seat, player in enumerate(t.players)
        )
        assert running == expected_players
        for table in tables:
            play_table(tournaments, tid, table, tokens, RandomBot(f"seats:{table.game_id}".encode()))
        joined = service.create_game("peloponnes", 2, None, b"joined", open_seats=True)
        eve = service.join(joined.game_id, "Eve", 1)
        fay = service.join(joined.game_id, "Fay", 0)
        seated_game = CreatedGame(joined.game_id, service.load(joined.game_id).match.version, [fay.token, eve.token])
        play_with_bot(service, seated_game, RandomBot(b"joined-bot"))
        analytics.refresh()

        expected: list[tuple[object, ...]] = []
        for table in tables:
            match = service.load(table.game_id).match
            board = match.game.scoreboard(match.state)
            for seat, player in enumerate(table.players):
                won = seat in board.winners
                expected.append(
                    (table.game_id, seat, names[player], tid, player, board.scores[seat], board.placings[seat], won)
                )
        match = service.load(joined.game_id).match
        board = match.game.scoreboard(match.state)
        for seat, name in enumerate(["Fay", "Eve"]):
            expected.append(
                (
                    joined.game_id,
                    seat,
                    name,
                    None,
                    None,
                    board.scores[seat],
                    board.placings[seat],
                    seat in board.winners,
                )
            )
        query = (
            "SELECT game_id, seat, name, tournament, tournament_player, score, place, won FROM game_seats "
            "WHERE status = 'ended' ORDER BY ALL"
        )
        with analytics.reading() as connection:
            found = connection.execute(query).fetchall()
            incremental = connection.execute("SELECT * FROM game_seats ORDER BY ALL").fetchall()
        assert found == sorted(expected)
        assert any(row[-1] for row in found)  # somebody won
        analytics.projector.rebuild()  # the tournament store knows every table from the start
        with analytics.reading() as connection:
            assert connection.execute("SELECT * FROM game_seats ORDER BY ALL").fetchall() == incremental
        analytics.close()
    finally:
        tournaments.close()
