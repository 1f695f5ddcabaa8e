"""A tournament's records are stamped with the server's time, and the stamps never go back, even
when the server's clock does (the verifier refuses a log whose stamps go back)."""

from __future__ import annotations

from domain.kernel.bots import RandomBot
from domain.tournament.log import Table
from infra.tournaments.run import play_table
from infra.tournaments.service import TournamentService
from tests.tournament.conftest import FakeClock


def test_a_clock_set_back_never_makes_a_stamp_go_back(tournaments: TournamentService, clock: FakeClock) -> None:
    created = tournaments.create("peloponnes", {"rounds": 1, "table_size": 2}, b"stamps", salted=False)
    tid, organiser = created.tournament_id, created.organiser_token
    start = clock.ms
    tokens = []
    for name in ("Ada", "Bo", "Cy", "Di"):
        clock.advance(-60_000)  # the server's clock was set back (NTP, a restart on another host)
        tokens.append(tournaments.register(tid, organiser, name).token)
    clock.advance(-60_000)
    seated = tournaments.seat_next_round(tid, organiser)
    first, second = seated["tables"]
    clock.advance(-60_000)
    tournaments.adjudicate(tid, organiser, {"kind": "void", "game_id": second["game_id"], "reason": "left"})
    clock.advance(-60_000)
    play_table(tournaments, tid, Table(1, 1, first["game_id"], first["players"]), tokens, RandomBot(b"s"))
    clock.advance(-60_000)
    tournaments.end(tid, organiser)
    stamps = [r.data["at"] for r in tournaments.records(tid)]
    assert len(stamps) == 9  # created, 4 players, seated, void, result, ended
    assert stamps == [start] * len(stamps)  # each at the latest stamp so far, never before it
