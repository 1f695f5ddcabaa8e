"""The clock keeper: the clock rule applied with no request at all, looking at a game only when
one of its clocks can run out, one keeper per store at a time (by lease), and its thread."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from domain.catalog import GAMES
from domain.tournament.clock import timeout_problems
from domain.tournament.verification import verify_bundle
from infra.games.service import GameService
from infra.readside.readmodels import MemoryStore, SqliteStore
from infra.tournaments.clock_keeper import CLOCK_LEASE, ClockKeeper, ClocksKeptElsewhere
from infra.tournaments.service import TournamentService
from tests.tournament.conftest import FakeClock, recorded_clock

BASE_MS = 30_000
INCREMENT_MS = 1_000


def clocked_event(tournaments: TournamentService, players: int, rule: str = "random_move") -> tuple[str, str]:
    control = {"base_seconds": BASE_MS / 1000, "increment_seconds": INCREMENT_MS / 1000, "on_timeout": rule}
    settings = {"rounds": 1, "table_size": 4, "time_control": control}
    created = tournaments.create("peloponnes", settings, master_seed=b"keeper", salted=False)
    tid = created.tournament_id
    for i in range(players):
        tournaments.register(tid, created.organiser_token, f"p{i:02}")
    tournaments.seat_next_round(tid, created.organiser_token)
    return tid, created.organiser_token


def run_to_the_end(keeper: ClockKeeper, clock: FakeClock, tournaments: TournamentService, tid: str) -> int:
    """Nobody plays: the fake clock jumps to each next look the keeper names, and it passes."""
    passes = 0
    while True:
        state = tournaments.state(tid)
        if all(t.game_id in state.results for t in state.tables()):
            return passes
        moment = keeper.next_look()
        assert moment is not None, "the keeper watches no game, yet games still run"
        clock.ms = max(clock.ms, moment)
        keeper.step()
        passes += 1
        assert passes < 50_000


@pytest.mark.parametrize("rule", ["random_move", "forfeit"])
def test_a_clocked_16_player_event_nobody_plays_times_out_and_verifies(
    tournaments: TournamentService, clock: FakeClock, rule: str
) -> None:
    tid, organiser = clocked_event(tournaments, 16, rule)
    keeper = ClockKeeper(tournaments, MemoryStore())
    assert keeper.step() == 0  # nobody has run out yet
    assert len(keeper.watched) == 4
    started = tournaments.state(tid).round_times[0]
    assert keeper.next_look() == started + BASE_MS  # the first clocks run out then, not before
    run_to_the_end(keeper, clock, tournaments, tid)
    assert keeper.watched == {}  # every game ended: none is watched any more
    state = tournaments.state(tid)
    assert len(state.results) == 4
    timed_out = {t["player"] for t in state.timeouts}
    assert timed_out == set(range(16))  # every idle seat ran out, with no request of anybody
    for table in state.tables():
        records = tournaments.games.records(table.game_id)
        assert all(isinstance(r.data["at"], int) for r in records if r.type == "CommandAccepted")
        timeouts = [t for t in state.timeouts if t["game_id"] == table.game_id]
        assert timeout_problems(recorded_clock(tournaments.games, state, table.game_id), timeouts) == []
        commands = [r for r in records if r.type == "CommandAccepted"]
        if rule == "forfeit":  # each seat once: the bot has it from then on
            assert sorted(t["seat"] for t in timeouts) == [0, 1, 2, 3]
        else:  # every command of the game is the rule's move for a seat out of time
            assert len(timeouts) == len(commands)
    tournaments.end(tid, organiser)
    bundle = json.loads(json.dumps(tournaments.bundle(tid)))
    report = verify_bundle(bundle, GAMES.get)
    assert report.ok, report.problems
    assert report.games_checked == 4


def test_the_keeper_looks_at_a_game_only_when_a_clock_can_run_out(
    tournaments: TournamentService, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    tid, _ = clocked_event(tournaments, 4)
    keeper = ClockKeeper(tournaments, MemoryStore())
    looks: list[str] = []
    enforce = tournaments.enforce_clock

    def counted(tournament_id: str, game_id: str, now: int | None = None) -> int:
        looks.append(game_id)
        return enforce(tournament_id, game_id, now)

    monkeypatch.setattr(tournaments, "enforce_clock", counted)
    keeper.step()
    assert len(looks) == 1  # the first look, when the round was seated
    for _ in range(20):  # passes before the first clock can run out look at nothing
        clock.advance(BASE_MS // 25)
        assert keeper.step() == 0
    assert len(looks) == 1
    clock.advance(BASE_MS)
    assert keeper.step() >= 1
    assert len(looks) == 2 and tournaments.state(tid).timeouts


def test_one_keeper_keeps_the_clocks_of_a_store_at_a_time(tournaments: TournamentService, clock: FakeClock) -> None:
    tid, _ = clocked_event(tournaments, 4)
    store = MemoryStore()
    first = ClockKeeper(tournaments, store)
    second = ClockKeeper(tournaments, store, role="clock-worker")
    first.take_lease()
    with pytest.raises(ClocksKeptElsewhere):
        second.take_lease()
    clock.advance(BASE_MS + 1)
    assert second.step() == 0 and not tournaments.state(tid).timeouts  # no lease: it does nothing
    assert first.step() >= 1
    first.release_lease()
    assert store.acquire_lease(CLOCK_LEASE, second.owner, 5.0)


@pytest.fixture
def file_tournaments(file_games: GameService, clock: FakeClock) -> Iterator[TournamentService]:
    service = TournamentService(file_games, now=clock)
    yield service
    service.close()


def test_the_keepers_thread_rules_on_a_seat_out_of_time_by_itself(
    file_tournaments: TournamentService, clock: FakeClock, tmp_path: Path
) -> None:
    tid, _ = clocked_event(file_tournaments, 4)
    keeper = ClockKeeper(file_tournaments, SqliteStore(tmp_path / "readmodels.sqlite"), interval=0.05)
    keeper.start()
    try:
        assert keeper.passed.wait(60)
        assert not file_tournaments.state(tid).timeouts
        clock.advance(BASE_MS + 1)
        for _ in range(200):  # each pass sets the event: wait for passes, never for a time
            keeper.passed.clear()
            keeper.wake()
            assert keeper.passed.wait(60)
            if file_tournaments.state(tid).timeouts:
                break
        assert file_tournaments.state(tid).timeouts
    finally:
        keeper.stop()
    assert not keeper.running
