"""The tournament verifier is strictly stronger than the game verifier: each defect found from
outside (issue 21) fails here, naming the game (or the tournament's log) and the position."""

from __future__ import annotations

import itertools
import json
from typing import Any

import pytest

from domain.catalog import GAMES
from domain.kernel.bots import RandomBot
from domain.kernel.log import Record, for_viewer
from domain.tournament.log import RECORD_FIELDS, Table, TournamentLog, seal
from domain.tournament.rules import current_standings
from domain.tournament.verification import TournamentReport, verify_bundle
from infra.tournaments.run import play_table
from infra.tournaments.service import TournamentService
from tests.tournament.bundles import (
    Bundle,
    bundle_of,
    clocked_bundle,
    copy_of,
    forge_result,
    reexecuted_with_stamps,
    replayed_result,
    reseal_game,
    reseal_log,
    table_games,
)
from tests.tournament.conftest import FakeClock
from tests.tournament.test_clocks import clocked_tournament, play_with_a_slow_player


def verify(bundle: Bundle, **published: str) -> TournamentReport:
    return verify_bundle(json.loads(json.dumps(bundle)), GAMES.get, **published)


def assert_names(report: TournamentReport, where: str, position: int, *words: str) -> None:
    """The bundle fails, and a problem names ``where`` (a game id or the tournament's log) at ``position``."""
    assert not report.ok
    assert any(where in p and f"position {position}:" in p and all(w in p for w in words) for p in report.problems), (
        where,
        position,
        report.problems,
    )


def last_command(records: list[dict[str, Any]], command: str) -> int:
    return max(
        i for i, r in enumerate(records) if r["type"] == "CommandAccepted" and r["data"]["command"]["type"] == command
    )


def test_the_session_bundles_verify() -> None:
    for game in GAMES.ids():
        report = verify(bundle_of(game))
        assert report.ok, report.problems


# -- the verifier certified what the game verifier rejects --------------------------------------------


def test_a_later_place_bid_rewritten_with_the_fingerprint_unchanged_is_not_verified() -> None:
    """The private record's data is not under the hash: only re-execution sees the rewrite."""
    bundle = bundle_of("peloponnes")
    published = bundle["fingerprint"]
    victim = table_games(bundle)[1]
    records = bundle["games"][victim]
    index = last_command(records, "place_bid")
    records[index]["data"]["seat"] = 7
    assert bundle["fingerprint"] == published and records[-1]["hash"] == bundle["games"][victim][-1]["hash"]
    report = verify(bundle, fingerprint=published)
    assert_names(report, victim, index + 1, "does not verify")
    assert report.bad_games[0] == victim


def test_an_empire_builder_sealed_allocation_rewritten_is_not_verified() -> None:
    bundle = bundle_of("empire_builder")
    victim = table_games(bundle)[0]
    records = bundle["games"][victim]
    index = last_command(records, "allocate_resources")
    records[index]["data"]["note"] = "its digest no longer matches"
    assert_names(verify(bundle, fingerprint=bundle["fingerprint"]), victim, index + 1, "does not verify")


def test_a_resealed_game_ended_where_the_loser_wins_with_99_is_not_verified() -> None:
    """Chains resealed and the tournament's result made to agree with the forged end: the result
    comes from re-execution, which ends otherwise."""
    bundle = bundle_of("peloponnes")
    victim = table_games(bundle)[0]
    records = bundle["games"][victim]
    ended = records[-1]["data"]
    loser = max(ended["results"], key=lambda r: r["rank"])
    for row in ended["results"]:
        row["rank"] = 1 if row is loser else 2
    loser["final"] = loser["prestige"] = 99
    ended["winners"] = [loser["seat"]]
    reseal_game(records, len(records) - 1)
    forge_result(bundle, victim, replayed_result(victim, records))
    report = verify(bundle)
    assert_names(report, victim, len(records), "re-execution gives GameEnded")


def test_a_forged_end_is_not_verified_even_where_re_execution_stops_before_it() -> None:
    """Today's verifier took a result from the recorded events once re-execution had stopped
    short of them (here at a command whose hidden seat was rewritten): the end was never checked.
    A game of the last round, so that no later seating depends on the forged result."""
    bundle = bundle_of("peloponnes")
    victim = table_games(bundle)[-1]
    records = bundle["games"][victim]
    ended = records[-1]["data"]
    loser = max(ended["results"], key=lambda r: r["rank"])
    for row in ended["results"]:
        row["rank"] = 1 if row is loser else 2
    loser["final"] = loser["prestige"] = 99
    ended["winners"] = [loser["seat"]]
    reseal_game(records, len(records) - 1)
    index = max(i for i, r in enumerate(records) if r["type"] == "CommandAccepted")
    records[index]["data"]["seat"] = 9
    forge_result(bundle, victim, replayed_result(victim, records))
    assert_names(verify(bundle), victim, index + 1, "seat 9 is not a seat of this game")


def test_an_altered_setup_record_resealed_is_not_verified() -> None:
    bundle = bundle_of("peloponnes")
    victim = table_games(bundle)[1]
    records = bundle["games"][victim]
    assert records[1]["viewers"] is None  # StacksPrepared: public, under the hash
    records[1]["data"]["disaster_chits"] += 1
    reseal_game(records, 1)
    forge_result(bundle, victim, {})
    assert_names(verify(bundle), victim, 2, "creating the game with the revealed seed")


def test_a_command_id_of_the_wrong_type_is_not_verified() -> None:
    bundle = bundle_of("alexandros")
    victim = table_games(bundle)[2]
    records = bundle["games"][victim]
    index = last_command(records, "end_turn")
    records[index]["data"]["command_id"] = 5
    assert_names(verify(bundle), victim, index + 1, "command_id must be a string")


def test_the_result_is_read_from_the_re_executed_game_not_from_the_log() -> None:
    """A resealed log whose result disagrees with the game names the log's position and the game."""
    bundle = bundle_of("empire_builder")
    log = bundle["tournament"]
    index = next(i for i, r in enumerate(log) if r["type"] == "ResultRecorded")
    victim = log[index]["data"]["game_id"]
    forge_result(bundle, victim, {"scores": [99, 0]})
    report = verify(bundle)
    assert_names(report, "the tournament's log", index + 1, victim, "re-executed record")
    assert victim in report.bad_games


# -- strict ---------------------------------------------------------------------------------------------


def test_an_unknown_key_in_a_tournament_records_data_is_a_problem() -> None:
    bundle = bundle_of("alexandros")
    log = bundle["tournament"]
    index = next(i for i, r in enumerate(log) if r["type"] == "PlayerRegistered")
    log[index]["data"]["note"] = "nobody checks me"
    reseal_log(bundle, index)
    assert_names(verify(bundle), "the tournament's log", index + 1, "unknown key(s) note")


def test_every_record_type_has_its_key_table() -> None:
    bundle = bundle_of("alexandros")
    for record in bundle["tournament"]:
        fields = RECORD_FIELDS[record["type"]]
        assert fields.required <= set(record["data"]) <= fields.allowed


def test_an_unknown_key_at_a_records_top_level_is_a_problem() -> None:
    bundle = bundle_of("alexandros")
    bundle["tournament"][3]["signature"] = "x"
    assert_names(verify(bundle), "the tournament's log", 4, "unknown key(s) signature")


def test_an_unknown_key_at_the_bundles_top_level_is_a_problem() -> None:
    bundle = bundle_of("alexandros")
    bundle["comment"] = "trust me"
    report = verify(bundle)
    assert not report.ok and any("the bundle" in p and "unknown key(s) comment" in p for p in report.problems)


def test_a_tournament_stamp_that_goes_back_in_time_is_a_problem() -> None:
    bundle = bundle_of("alexandros")
    log = bundle["tournament"]
    index = next(i for i, r in enumerate(log) if r["type"] == "RoundSeated")
    log[index]["data"]["at"] = log[index - 1]["data"]["at"] - 1
    reseal_log(bundle, index)
    assert_names(verify(bundle), "the tournament's log", index + 1, "goes back in time")


@pytest.fixture
def clocked(tournaments: TournamentService, clock: FakeClock) -> tuple[Bundle, str]:
    """A clocked tournament whose slow player ran out of time (random-move rule), ended."""
    tid, organiser, tokens = clocked_tournament(tournaments, "random_move")
    table = play_with_a_slow_player(tournaments, clock, tid, tokens)
    tournaments.end(tid, organiser)
    bundle = json.loads(json.dumps(tournaments.bundle(tid)))
    report = verify(bundle)
    assert report.ok, report.problems
    assert any(r["type"] == "TimedOut" for r in bundle["tournament"])
    return bundle, table.game_id


def test_a_command_stamp_that_goes_back_in_time_in_a_clocked_game_is_a_problem(clocked: tuple[Bundle, str]) -> None:
    bundle, game_id = clocked
    records = bundle["games"][game_id]
    commands = [i for i, r in enumerate(records) if r["type"] == "CommandAccepted"]
    index = next(i for i, j in itertools.pairwise(commands) if records[j]["data"]["at"] > 0)
    later = commands[commands.index(index) + 1]
    records = bundle["games"][game_id] = reexecuted_with_stamps(records, {later + 1: records[index]["data"]["at"] - 1})
    forge_result(bundle, game_id, {})
    assert_names(verify(bundle), game_id, later + 1, "goes back in time")


def test_a_dropped_timeout_is_a_problem(clocked: tuple[Bundle, str]) -> None:
    """The stamps show the seat ran out: a log without its TimedOut (resealed) fails at the command."""
    bundle, game_id = clocked
    log = bundle["tournament"]
    index = next(i for i, r in enumerate(log) if r["type"] == "TimedOut")
    version = log[index]["data"]["version"]
    del log[index]
    for position, record in enumerate(log, start=1):
        record["position"] = position
    reseal_log(bundle, index)
    assert_names(
        verify(bundle), game_id, version + 1, "run out of time", f"no timeout is recorded at version {version}"
    )


# -- published values ---------------------------------------------------------------------------------


def test_a_resealed_rewrite_of_the_log_is_caught_by_the_published_fingerprint() -> None:
    bundle = bundle_of("peloponnes")
    published = bundle["fingerprint"]
    commitment = bundle["tournament"][0]["data"]["master_seed_commitment"]
    assert verify(bundle, fingerprint=published, commitment=commitment).ok
    log = bundle["tournament"]
    log[1]["data"]["name"] = "bot-99"  # a name nobody else checks until the standings
    log[-1]["data"]["standings"] = [
        {**row, "name": "bot-99"} if row["name"] == "bot-01" else row for row in log[-1]["data"]["standings"]
    ]
    reseal_log(bundle, 1)
    assert verify(bundle).ok  # a consistent forgery: only what the organiser published shows it
    assert_names(verify(bundle, fingerprint=published), "the tournament's log", len(log), "not the published")
    assert_names(verify(bundle, commitment="0" * 64), "the tournament's log", 1, "not the published")


# -- final ----------------------------------------------------------------------------------------------


def test_a_result_recorded_after_the_end_is_a_problem() -> None:
    bundle = bundle_of("alexandros")
    log = bundle["tournament"]
    again = next(r for r in log if r["type"] == "ResultRecorded")
    late = seal(len(log) + 1, "ResultRecorded", again["data"], log[-1]["hash"])
    log.append(
        {"position": late.position, "type": late.type, "data": late.data, "viewers": None}
        | {
            "prev": late.prev,
            "hash": late.hash,
        }
    )
    assert_names(verify(bundle), "the tournament's log", len(log), "follows TournamentEnded")


def voided_tournament(tournaments: TournamentService) -> tuple[Bundle, str, str]:
    """Two rounds; one game of round 1 voided while it runs (after some moves), then ended."""
    created = tournaments.create("peloponnes", {"rounds": 2, "table_size": 2}, master_seed=b"void", salted=False)
    tid, organiser = created.tournament_id, created.organiser_token
    tokens = [tournaments.register(tid, organiser, name).token for name in ("Ada", "Bo", "Cy", "Di")]
    first = tournaments.seat_next_round(tid, organiser)
    played, abandoned = first["tables"]
    play_table(tournaments, tid, Table(1, 1, played["game_id"], played["players"]), tokens, RandomBot(b"b"))
    bot = RandomBot(b"a")
    for _ in range(6):  # a few moves, then the table's players leave
        with tournaments.games.reading(abandoned["game_id"]) as game:
            seat, command = bot.next_move(game.match.game, game.match.state)
        player = tokens[abandoned["players"][seat]]
        tournaments.play(tid, abandoned["game_id"], player, {"type": command.type, **command.to_dict()})
    tournaments.adjudicate(tid, organiser, {"kind": "void", "game_id": abandoned["game_id"], "reason": "left"})
    for table in tournaments.seat_next_round(tid, organiser)["tables"]:
        play_table(
            tournaments, tid, Table(2, table["table"], table["game_id"], table["players"]), tokens, RandomBot(b"c")
        )
    tournaments.end(tid, organiser)
    with tournaments.games.reading(abandoned["game_id"]) as game:
        seed = game.match.chance.seed_hex
    bundle = json.loads(json.dumps(tournaments.bundle(tid)))
    # Revealed, as a bundle holds an unfinished game once its seed is revealed.
    revealed = [for_viewer(r, None, reveal_all=True) for r in tournaments.games.records(abandoned["game_id"])]
    bundle["games"][abandoned["game_id"]] = json.loads(json.dumps(revealed))
    return bundle, abandoned["game_id"], seed


def with_void_at(bundle: Bundle, game_id: str, version: int, fingerprint: str) -> None:
    """The void as it records where the game stops (the records the finality work adds)."""
    log = bundle["tournament"]
    index = next(i for i, r in enumerate(log) if r["type"] == "Adjudicated" and r["data"]["kind"] == "void")
    log[index]["data"].update(game_version=version, game_fingerprint=fingerprint)
    reseal_log(bundle, index)


def with_unfinished_seeds(bundle: Bundle, seeds: dict[str, str]) -> None:
    log = bundle["tournament"]
    log[-1]["data"]["unfinished_seeds"] = seeds
    reseal_log(bundle, len(log) - 1)


def test_a_voided_game_must_end_exactly_where_it_was_voided(tournaments: TournamentService) -> None:
    bundle, voided, _ = voided_tournament(tournaments)
    records = bundle["games"][voided]
    assert records[-1]["type"] != "GameEnded"
    assert verify(bundle).ok  # a void from before voids named their version: checked as far as it goes
    exact = copy_of(bundle)
    with_void_at(exact, voided, len(records), records[-1]["hash"])
    assert verify(exact).ok
    played_on = copy_of(bundle)  # the record goes on after the void
    with_void_at(played_on, voided, len(records) - 1, records[-2]["hash"])
    assert_names(verify(played_on), voided, len(records), "voided at version")


def test_an_unfinished_game_is_re_executed_with_the_seed_the_end_reveals(tournaments: TournamentService) -> None:
    bundle, voided, seed = voided_tournament(tournaments)
    revealed = copy_of(bundle)
    with_unfinished_seeds(revealed, {voided: seed})
    assert verify(revealed).ok
    wrong = copy_of(bundle)
    with_unfinished_seeds(wrong, {voided: "00" * (len(seed) // 2)})
    assert_names(verify(wrong), voided, 1, "does not match the commitment")
    missing = copy_of(bundle)
    with_unfinished_seeds(missing, {})
    assert_names(verify(missing), "the tournament's log", len(bundle["tournament"]), voided, "does not reveal the seed")
    # With the seed, the hidden data of the unfinished game is checked too: a rewritten private
    # record (the hash does not cover its data) fails.
    tampered = copy_of(revealed)
    records = tampered["games"][voided]
    index = max(i for i, r in enumerate(records) if r["viewers"] is not None)
    records[index]["data"] = {**records[index]["data"], "seat": 1 - records[index]["data"].get("seat", 0)}
    assert_names(verify(tampered), voided, index + 1, "does not verify")


def test_the_clock_rules_moves_are_the_clock_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    """The rule's move for a seat out of time is the clock's bot's (greedy here), with the stream
    derived from the master seed for that game and version: moves of any other bot (here: the
    verifier made to expect the random bot's) are named."""
    import domain.tournament.verification as verification

    bundle = clocked_bundle()
    assert verify(bundle).ok
    timeouts = [r["data"] for r in bundle["tournament"] if r["type"] == "TimedOut"]
    assert timeouts and all(t["bot"] == "greedy" for t in timeouts)
    monkeypatch.setattr(verification, "clock_bot", lambda control, seed: RandomBot(seed))
    report = verify(bundle)
    assert not report.ok and all("the clock rule's move" in p and "random bot" in p for p in report.problems)
    # The random bot may pick the same move now and then (a seat with one legal move), never always.
    named = [t for t in timeouts if any(f"position {t['version'] + 1}:" in p for p in report.problems)]
    assert named and all(t["game_id"] in report.bad_games for t in named)


def test_a_clocked_game_played_on_after_its_void_is_a_problem() -> None:
    """Without the version a void records, the stamps still show what was played after it."""
    bundle = clocked_bundle()
    log = bundle["tournament"]
    index = next(i for i, r in enumerate(log) if r["type"] == "TimedOut")
    game_id, at = log[index]["data"]["game_id"], log[index]["data"]["at"]
    void = {"kind": "void", "reason": "the table left", "at": at, "game_id": game_id}
    log.insert(index + 1, {**log[index], "type": "Adjudicated", "data": void})
    for position, record in enumerate(log, start=1):
        record["position"] = position
    state = TournamentLog.replay([Record.from_dict(r) for r in log[:-1]]).state
    log[-1]["data"]["standings"] = current_standings(state)
    reseal_log(bundle, index + 1)
    records = bundle["games"][game_id]
    late = next(r for r in records if r["type"] == "CommandAccepted" and r["data"]["at"] > at)
    assert_names(verify(bundle), game_id, late["position"], "after the void")
