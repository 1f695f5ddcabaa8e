"""Clocks: computed from the stamped record, a seat out of time is handled by the tournament's
rule as events, and the game still verifies (timeouts included)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from domain.catalog import GAMES
from domain.kernel.bots import RandomBot
from domain.kernel.errors import NOT_YOUR_TURN, RuleViolation
from domain.tournament import rules
from domain.tournament.clock import GameClock, timeout_problems
from domain.tournament.log import Table
from domain.tournament.verification import verify_bundle
from infra.games.service import Conflict, StaleVersion
from infra.tournaments.service import TournamentService
from tests.tournament.conftest import FakeClock
from tests.tournament.forge import reseal_from

SLOW_PLAYER = 0  # thinks 700 ms a move against a budget of 2 s (+10 ms a move): soon out of time
OTHERS_THINK_MS = 20


def clocked_tournament(tournaments: TournamentService, rule: str, **bot: Any) -> tuple[str, str, list[str]]:
    settings = {
        "rounds": 1,
        "table_size": 3,
        "time_control": {"base_seconds": 2, "increment_seconds": 0.01, "on_timeout": rule, **bot},
    }
    created = tournaments.create("peloponnes", settings, master_seed=f"clock-{rule}".encode(), salted=False)
    tid = created.tournament_id
    tokens = [tournaments.register(tid, created.organiser_token, f"p{i}").token for i in range(3)]
    tournaments.seat_next_round(tid, created.organiser_token)
    return tid, created.organiser_token, tokens


def play_with_a_slow_player(tournaments: TournamentService, clock: FakeClock, tid: str, tokens: list[str]) -> Table:
    """Bots play the one table; the slow player's bot takes its time before every move."""
    state = tournaments.state(tid)
    table = state.tables()[0]
    bot = RandomBot(b"clock-bots")
    games = tournaments.games
    while True:
        with games.reading(table.game_id) as aggregate:
            match = aggregate.match
            if match.is_over:
                return table
            awaited = set(match.game.awaited(match.state))
            seat, command = bot.next_move(match.game, match.state)
            version = aggregate.match.version
        player = table.players[seat]
        # The slow player thinks long only when nobody else is awaited (no other clock runs then).
        alone = awaited == {table.players.index(SLOW_PLAYER)}
        clock.advance(700 if player == SLOW_PLAYER and alone else OTHERS_THINK_MS)
        payload: dict[str, Any] = {"type": command.type, **command.to_dict()}
        try:
            tournaments.play(tid, table.game_id, tokens[player], payload, expected_version=version)
        except (StaleVersion, Conflict):
            continue  # the clock rule moved for the seat first
        except RuleViolation as refusal:
            assert refusal.code == NOT_YOUR_TURN
            continue


def verified(tournaments: TournamentService, tid: str, organiser: str) -> dict[str, Any]:
    tournaments.end(tid, organiser)
    bundle = json.loads(json.dumps(tournaments.bundle(tid)))
    report = verify_bundle(bundle, GAMES.get)
    assert report.ok, report.problems
    return bundle


def test_a_seat_out_of_time_gets_a_random_move_and_the_game_still_verifies(
    tournaments: TournamentService, clock: FakeClock
) -> None:
    tid, organiser, tokens = clocked_tournament(tournaments, "random_move")
    table = play_with_a_slow_player(tournaments, clock, tid, tokens)
    state = tournaments.state(tid)
    assert state.timeouts, "the slow player never ran out of time"
    assert {t["player"] for t in state.timeouts} == {SLOW_PLAYER}
    assert all(t["rule"] == "random_move" for t in state.timeouts)
    records = tournaments.games.records(table.game_id)
    commands = [r for r in records if r.type == "CommandAccepted"]
    assert all(isinstance(r.data["at"], int) for r in commands)  # every command carries the server's time
    stamps = [r.data["at"] for r in commands]
    assert stamps == sorted(stamps)
    slow_seat = table.players.index(SLOW_PLAYER)
    first = state.timeouts[0]
    after = next(r for r in records if r.position == first["version"] + 1)
    assert after.data["seat"] == slow_seat and after.data["at"] >= first["expired_at"]
    # Under the random-move rule the player plays on: some later moves are the player's own.
    assert len(state.timeouts) < sum(1 for r in commands if r.data["seat"] == slow_seat)
    verified(tournaments, tid, organiser)


def test_a_timeout_that_is_not_on_the_clock_fails_verification(
    tournaments: TournamentService, clock: FakeClock
) -> None:
    tid, organiser, tokens = clocked_tournament(tournaments, "random_move")
    table = play_with_a_slow_player(tournaments, clock, tid, tokens)
    bundle = verified(tournaments, tid, organiser)
    records = bundle["tournament"]
    index = next(i for i, r in enumerate(records) if r["type"] == "TimedOut")
    records[index]["data"]["expired_at"] -= 1000  # claims the clock ran out a second earlier
    reseal_from(records, index)
    report = verify_bundle(bundle, GAMES.get)
    assert not report.ok and report.bad_games == [table.game_id]
    assert any("is not on its clock" in p for p in report.problems)


def test_a_seat_out_of_time_forfeits_under_the_forfeit_rule(tournaments: TournamentService, clock: FakeClock) -> None:
    tid, organiser, tokens = clocked_tournament(tournaments, "forfeit")
    table = play_with_a_slow_player(tournaments, clock, tid, tokens)
    state = tournaments.state(tid)
    assert [t["player"] for t in state.timeouts] == [SLOW_PLAYER]  # once: the bot has the seat from then on
    outcome = next(o for o in state.outcomes() if o.game_id == table.game_id)
    assert outcome.placings[table.players.index(SLOW_PLAYER)] == 3
    with pytest.raises(Conflict):
        tournaments.play(tid, table.game_id, tokens[SLOW_PLAYER], {"type": "pass"})
    bundle = verified(tournaments, tid, organiser)
    final = {row["player"]: row for row in bundle["tournament"][-1]["data"]["standings"]}
    assert final[SLOW_PLAYER]["points"] == rules.current_standings(state)[-1]["points"]


def test_clocks_show_in_the_game_view_and_run_only_for_the_awaited_seats(
    tournaments: TournamentService, clock: FakeClock
) -> None:
    tid, _, _ = clocked_tournament(tournaments, "random_move")
    table = tournaments.state(tid).tables()[0]
    clock.advance(500)
    view = tournaments.clock_view(table.game_id)
    assert view is not None and view["base_ms"] == 2000
    running = [s for s in view["seats"] if s["running"]]
    waiting = [s for s in view["seats"] if not s["running"]]
    assert running and all(s["remaining_ms"] == 1500 for s in running)
    assert all(s["remaining_ms"] == 2000 for s in waiting)
    assert tournaments.clock_view("not-a-tournament-game") is None


def test_a_clock_worker_records_a_timeout_nobody_asked_about(tournaments: TournamentService, clock: FakeClock) -> None:
    tid, _, _ = clocked_tournament(tournaments, "random_move")
    assert tournaments.enforce_clocks(tid) == 0
    clock.advance(2001)
    assert tournaments.enforce_clocks(tid) >= 1
    assert tournaments.state(tid).timeouts


def catan_at_an_open_offer(tournaments: TournamentService, clock: FakeClock) -> tuple[str, Table, list[str], int]:
    """A clocked Catan table played by bots until the active player may trade and holds goods;
    the active player then offers a trade to every other seat (who are then awaited)."""
    settings = {"rounds": 1, "table_size": 3, "time_control": {"base_seconds": 600, "increment_seconds": 1}}
    created = tournaments.create("catan_alexander", settings, master_seed=b"catan-clock", salted=False)
    tid = created.tournament_id
    tokens = [tournaments.register(tid, created.organiser_token, f"p{i}").token for i in range(3)]
    tournaments.seat_next_round(tid, created.organiser_token)
    table = tournaments.state(tid).tables()[0]
    bot = RandomBot(b"catan-clock-bots")
    for _ in range(2_000):
        with tournaments.games.reading(table.game_id) as aggregate:
            state = aggregate.match.state
            game = aggregate.match.game
            version = aggregate.match.version
            active = state.active
            trading = state.phase == "TRADE_BUILD" and not state.offers
            held = [i for i, n in enumerate(state.hands[active]) if n > 0] if trading else []
            if held and len(held) < 5:
                wanted = next(i for i in range(5) if i not in held)
                names = ("brick", "grain", "lumber", "ore", "wool")
                offer = {"type": "offer_trade", "give": {names[held[0]]: 1}, "receive": {names[wanted]: 1}}
                break
            seat, command = bot.next_move(game, state)
        clock.advance(10)
        payload: dict[str, Any] = {"type": command.type, **command.to_dict()}
        tournaments.play(tid, table.game_id, tokens[table.players[seat]], payload, expected_version=version)
    else:
        raise AssertionError("the bots never reached a trade")
    tournaments.play(tid, table.game_id, tokens[table.players[active]], offer)
    return tid, table, tokens, active


def test_answering_a_catan_offer_runs_no_clock_and_the_offerers_does(
    tournaments: TournamentService, clock: FakeClock
) -> None:
    tid, table, _, active = catan_at_an_open_offer(tournaments, clock)
    with tournaments.games.reading(table.game_id) as aggregate:
        match = aggregate.match
        addressees = set(match.game.awaited(match.state)) - {active}
    assert addressees  # the game waits for their answers
    before = tournaments.clock_view(table.game_id)
    assert before is not None
    clock.advance(60_000)
    view = tournaments.clock_view(table.game_id)
    assert view is not None
    seats = {s["seat"]: s for s in view["seats"]}
    assert seats[active]["running"] and not any(seats[s]["running"] for s in addressees)
    for seat in addressees:  # an answer's wait costs the addressee nothing
        assert seats[seat]["remaining_ms"] == before["seats"][seat]["remaining_ms"]
    assert seats[active]["remaining_ms"] == before["seats"][active]["remaining_ms"] - 60_000
    # Nobody answers and the active player waits: only the offerer's clock can run out, and the
    # game goes on by the rule's move for that seat (it never stalls on the answers).
    clock.advance(seats[active]["remaining_ms"] + 1)
    assert tournaments.enforce_clock(tid, table.game_id) >= 1
    state = tournaments.state(tid)
    assert [t["seat"] for t in state.timeouts][:1] == [active]
    assert all(t["seat"] not in addressees or t["version"] > state.timeouts[0]["version"] for t in state.timeouts)


def test_an_answer_to_an_offer_adds_no_increment(tournaments: TournamentService, clock: FakeClock) -> None:
    tid, table, tokens, active = catan_at_an_open_offer(tournaments, clock)
    with tournaments.games.reading(table.game_id) as aggregate:
        offer_id = max(aggregate.match.state.offers)
        addressee = min(set(aggregate.match.game.awaited(aggregate.match.state)) - {active})
    before = tournaments.clock_view(table.game_id)
    assert before is not None
    clock.advance(100)
    answer = {"type": "respond_trade", "offer_id": offer_id, "accept": False}
    tournaments.play(tid, table.game_id, tokens[table.players[addressee]], answer)
    after = tournaments.clock_view(table.game_id)
    assert after is not None
    assert after["seats"][addressee]["remaining_ms"] == before["seats"][addressee]["remaining_ms"]


def a_rules_move_without_its_timeout(
    tournaments: TournamentService, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> tuple[str, str, Table]:
    """A seat runs out and the process stops between the rule's move and its TimedOut (then
    starts again: timeouts are recorded as before). Returns the tournament, its organiser and the table."""
    tid, organiser, _ = clocked_tournament(tournaments, "random_move")
    table = tournaments.state(tid).tables()[0]
    record_timeout = tournaments.clocks.record_timeout

    def stopped(*_: Any) -> None:
        raise RuntimeError("the process stopped here")

    monkeypatch.setattr(tournaments.clocks, "record_timeout", stopped)
    clock.advance(2001)
    with pytest.raises(RuntimeError):
        tournaments.enforce_clock(tid, table.game_id)
    monkeypatch.setattr(tournaments.clocks, "record_timeout", record_timeout)
    return tid, organiser, table


def test_a_rules_move_recorded_without_its_timeout_gets_it_on_the_next_look(
    tournaments: TournamentService, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The process stops between the rule's move and its TimedOut: the next look records it."""
    tid, _, table = a_rules_move_without_its_timeout(tournaments, clock, monkeypatch)
    assert not tournaments.state(tid).timeouts  # the move is in the game's record, its timeout is not
    tournaments.enforce_clock(tid, table.game_id)
    state = tournaments.state(tid)
    first_move = next(r for r in tournaments.games.records(table.game_id) if r.type == "CommandAccepted")
    assert state.timeouts and state.timeouts[0]["version"] == first_move.position - 1


def test_a_dropped_timeout_is_a_problem_of_the_record(tournaments: TournamentService, clock: FakeClock) -> None:
    tid, _, tokens = clocked_tournament(tournaments, "random_move")
    table = play_with_a_slow_player(tournaments, clock, tid, tokens)
    state = tournaments.state(tid)
    control = state.settings.time_control
    assert control is not None
    records = tournaments.games.records(table.game_id)
    clock_ = GameClock(GAMES.get("peloponnes"), 3, state.settings.options, control, state.round_times[0])
    clock_.feed(records)
    timeouts = [t for t in state.timeouts if t["game_id"] == table.game_id]
    assert timeout_problems(clock_, timeouts) == []
    dropped = timeouts[1:]
    problems = timeout_problems(clock_, dropped)
    assert len(problems) == 1 and "no timeout is recorded" in problems[0]
    moved = [{**timeouts[0], "version": timeouts[0]["version"] - 2}, *timeouts[1:]]
    assert any("is not on its clock" in p for p in timeout_problems(clock_, moved))


def test_the_service_records_no_timeout_its_verifier_would_reject(
    tournaments: TournamentService, clock: FakeClock
) -> None:
    """A timeout asked for where the record shows none due (a stale look, a lost race) is not
    recorded: the check is the verifier's own, against the store's record."""
    tid, _, _ = clocked_tournament(tournaments, "random_move")
    table = tournaments.state(tid).tables()[0]
    version = len(tournaments.games.records(table.game_id))
    clock.advance(2001)
    for seat in range(3):  # out of time now, but no rule's move follows any of them at this version
        tournaments.clocks.record_timeout(tid, table, seat, version)
        tournaments.clocks.record_timeout(tid, table, seat, version - 1)
    assert tournaments.state(tid).timeouts == []
    tournaments.enforce_clock(tid, table.game_id)
    state = tournaments.state(tid)
    assert state.timeouts and state.timeouts[0]["version"] == version


def test_a_timeout_left_unrecorded_before_a_forfeit_ruling_is_recorded_on_the_next_look(
    tournaments: TournamentService, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The rule's move is recorded, the process stops before its TimedOut, then the organiser
    forfeits the player: the ruling came after the move, so the timeout is still due (the
    verifier's check says so), and the next look records it."""
    tid, organiser, table = a_rules_move_without_its_timeout(tournaments, clock, monkeypatch)
    first_move = next(r for r in tournaments.games.records(table.game_id) if r.type == "CommandAccepted")
    player = table.players[first_move.data["seat"]]
    clock.advance(10)
    ruling = {"kind": "forfeit", "game_id": table.game_id, "player": player, "reason": "left the venue"}
    tournaments.adjudicate(tid, organiser, ruling)
    tournaments.enforce_clock(tid, table.game_id)
    state = tournaments.state(tid)
    assert [(t["player"], t["version"]) for t in state.timeouts][:1] == [(player, first_move.position - 1)]
    for _ in range(10_000):  # nobody plays on: the rule's moves end the game
        if table.game_id in tournaments.state(tid).results:
            break
        clock.advance(100)
        tournaments.enforce_clock(tid, table.game_id)
    verified(tournaments, tid, organiser)


def test_no_timeout_is_recorded_after_a_stamp_the_verifier_cannot_count_from(
    tournaments: TournamentService, clock: FakeClock
) -> None:
    """A command stamped before the round began (a writer whose clock is behind): the verifier's
    clock check stops there, so no timeout after it can be on its clock, and the service, asking
    the same check, records none (the rule's move is still played)."""
    tid, _, _ = clocked_tournament(tournaments, "random_move")
    state = tournaments.state(tid)
    table = state.tables()[0]
    aggregate = tournaments.load(tid)
    with tournaments.games.reading(table.game_id) as game:
        match, version = game.match, game.match.version
    seat, command = RandomBot(b"behind").next_move(match.game, match.state)
    token = aggregate.seat_tokens[table.game_id][seat]
    payload = {"type": command.type, **command.to_dict()}
    tournaments.games.execute(table.game_id, token, payload, version, at=state.round_times[0] - 1)
    clock.advance(5000)
    assert tournaments.enforce_clock(tid, table.game_id) >= 1
    assert tournaments.state(tid).timeouts == []
    records = tournaments.games.records(table.game_id)
    assert sum(1 for r in records if r.type == "CommandAccepted") > 1
