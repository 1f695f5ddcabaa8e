"""Tournaments through the services: bots play whole tournaments, bundles verify, and a bundle
with a game altered, dropped or swapped fails naming it; results come from the game log once."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from domain.catalog import GAMES
from domain.kernel.errors import RuleViolation
from domain.tournament import rules
from domain.tournament.verification import verify_bundle
from infra.games.service import Forbidden, GameService, Unauthorized
from infra.tournaments.run import run_tournament
from infra.tournaments.service import TournamentNotFound, TournamentService
from tests.tournament.forge import reseal_from

# A 16-player Swiss tournament of each game; the longer games play fewer rounds (Catan at tables of 3).
EVERY_GAME = [("peloponnes", 4, 4), ("empire_builder", 2, 4), ("alexandros", 2, 4), ("catan_alexander", 1, 3)]


@pytest.mark.slow
@pytest.mark.parametrize(("game", "rounds", "table_size"), EVERY_GAME)
def test_a_sixteen_player_swiss_tournament_of_each_game_verifies_from_its_bundle(
    tournaments: TournamentService, game: str, rounds: int, table_size: int
) -> None:
    settings = {"rounds": rounds, "table_size": table_size}
    played = run_tournament(tournaments, game, 16, settings, master_seed=f"{game}-master".encode())
    bundle = json.loads(json.dumps(tournaments.bundle(played.tournament_id)))  # as a file holds it
    report = verify_bundle(bundle, GAMES.get)
    assert report.ok, report.problems
    tables = 16 // table_size
    assert report.games_checked == tables * rounds
    assert report.fingerprint == tournaments.load(played.tournament_id).log.last_hash
    state = tournaments.state(played.tournament_id)
    assert state.ended is not None and len(state.results) == tables * rounds
    assert sum(row["games"] + row["byes"] for row in state.ended["standings"]) == 16 * rounds


@pytest.fixture
def small_bundle(tournaments: TournamentService) -> dict[str, Any]:
    played = run_tournament(tournaments, "peloponnes", 4, {"rounds": 1, "table_size": 2}, master_seed=b"small")
    bundle = json.loads(json.dumps(tournaments.bundle(played.tournament_id)))
    assert verify_bundle(bundle, GAMES.get).ok
    return bundle


def table_games(bundle: dict[str, Any]) -> list[str]:
    return [t["game_id"] for r in bundle["tournament"] if r["type"] == "RoundSeated" for t in r["data"]["tables"]]


def test_a_bundle_with_a_game_altered_fails_naming_it(small_bundle: dict[str, Any]) -> None:
    victim = table_games(small_bundle)[1]
    altered = copy.deepcopy(small_bundle)
    record = next(r for r in altered["games"][victim] if r["type"] == "CommandAccepted" and r["viewers"] is not None)
    record["public"]["seat"] = 1 - record["public"]["seat"]
    report = verify_bundle(altered, GAMES.get)
    assert not report.ok and report.bad_games == [victim]
    assert any(victim in p and "does not verify" in p for p in report.problems)


def test_a_bundle_with_a_game_dropped_fails_naming_it(small_bundle: dict[str, Any]) -> None:
    victim = table_games(small_bundle)[0]
    dropped = copy.deepcopy(small_bundle)
    del dropped["games"][victim]
    report = verify_bundle(dropped, GAMES.get)
    assert not report.ok and report.bad_games == [victim]
    assert any(victim in p and "missing" in p for p in report.problems)


def test_a_bundle_with_games_swapped_fails_naming_both(small_bundle: dict[str, Any]) -> None:
    first, second = table_games(small_bundle)[:2]
    swapped = copy.deepcopy(small_bundle)
    swapped["games"][first], swapped["games"][second] = swapped["games"][second], swapped["games"][first]
    report = verify_bundle(swapped, GAMES.get)
    assert not report.ok and sorted(report.bad_games) == sorted([first, second])
    # The tournament's log committed to each table's game seed when it seated the round.
    assert any(first in p and "position 1: its seed commitment is not" in p for p in report.problems)


def test_a_bundle_with_the_tournament_log_altered_fails(small_bundle: dict[str, Any]) -> None:
    altered = copy.deepcopy(small_bundle)
    result = next(r for r in altered["tournament"] if r["type"] == "ResultRecorded")
    result["data"]["placings"] = list(reversed(result["data"]["placings"]))
    report = verify_bundle(altered, GAMES.get)
    assert not report.ok and not report.chain_ok


def test_a_bundle_resealed_with_a_false_result_fails_naming_the_game(
    small_bundle: dict[str, Any],
) -> None:
    """Even a tournament log re-sealed end to end (a forger's best) cannot hide a result that is
    not its game's: the verifier replays the game."""
    forged = copy.deepcopy(small_bundle)
    records = forged["tournament"]
    index = next(i for i, r in enumerate(records) if r["type"] == "ResultRecorded")
    victim = records[index]["data"]["game_id"]
    records[index]["data"]["placings"] = list(reversed(records[index]["data"]["placings"]))
    reseal_from(records, index)
    report = verify_bundle(forged, GAMES.get)
    assert not report.ok and victim in report.bad_games
    assert any(
        f"position {index + 1}: the result of game {victim} is not the one its re-executed" in p
        for p in report.problems
    )


def test_results_are_recorded_once_whoever_follows_the_game_log(file_games: GameService) -> None:
    tournaments = TournamentService(file_games)
    played = run_tournament(
        tournaments, "peloponnes", 6, {"rounds": 1, "table_size": 3}, master_seed=b"once", end=False
    )
    assert tournaments.follow_results() == 0  # nothing new
    second = TournamentService(file_games)  # another process on the same store
    try:
        assert second.follow_results() == 0
        assert len(second.state(played.tournament_id).results) == 2
        second.rounds._results.followed = 0  # even reading the whole log again records nothing twice
        assert second.follow_results() == 0
    finally:
        second.close()
    state = tournaments.state(played.tournament_id)
    assert len(state.results) == 2
    versions = [r.type for r in tournaments.records(played.tournament_id)]
    assert versions.count("ResultRecorded") == 2
    tournaments.close()


def test_only_the_organiser_organises(tournaments: TournamentService) -> None:
    created = tournaments.create("peloponnes", {"rounds": 1, "table_size": 2})
    tid = created.tournament_id
    with pytest.raises(Unauthorized):
        tournaments.register(tid, None, "Ada")
    with pytest.raises(Forbidden):
        tournaments.register(tid, "not-the-token", "Ada")
    player = tournaments.register(tid, created.organiser_token, "Ada")
    with pytest.raises(Forbidden):
        tournaments.seat_next_round(tid, player.token)
    with pytest.raises(RuleViolation) as few:
        tournaments.seat_next_round(tid, created.organiser_token)
    assert few.value.code == rules.NOT_ENOUGH_PLAYERS
    with pytest.raises(TournamentNotFound):
        tournaments.state("no-such-tournament")
    assert tournaments.load(tid).log.version == 2  # the refusals recorded nothing


def test_a_round_waits_for_its_games_and_players_play_only_their_own_seat(tournaments: TournamentService) -> None:
    created = tournaments.create("peloponnes", {"rounds": 2, "table_size": 2}, master_seed=b"wait")
    tid, organiser = created.tournament_id, created.organiser_token
    tokens = [tournaments.register(tid, organiser, name).token for name in ("Ada", "Bo", "Cy", "Di")]
    seated = tournaments.seat_next_round(tid, organiser)
    with pytest.raises(RuleViolation) as running:
        tournaments.seat_next_round(tid, organiser)
    assert running.value.code == rules.ROUND_NOT_FINISHED
    table = seated["tables"][0]
    outsider = next(p for p in range(4) if p not in table["players"])
    with pytest.raises(Forbidden):
        tournaments.play(tid, table["game_id"], tokens[outsider], {"type": "pass"})
    with pytest.raises(Unauthorized):
        tournaments.play(tid, table["game_id"], "forged", {"type": "pass"})


def test_replacing_a_player_issues_a_new_token_and_the_old_one_stops_working(tournaments: TournamentService) -> None:
    created = tournaments.create("peloponnes", {"rounds": 1, "table_size": 2}, master_seed=b"replace")
    tid, organiser = created.tournament_id, created.organiser_token
    old = tournaments.register(tid, organiser, "Ada").token
    tournaments.register(tid, organiser, "Bo")
    answer = tournaments.adjudicate(tid, organiser, {"kind": "replace", "player": 0, "name": "Eve", "reason": "ill"})
    aggregate = tournaments.load(tid)
    with pytest.raises(Unauthorized):
        tournaments.player_for_token(aggregate, old)
    assert tournaments.player_for_token(aggregate, answer["player_token"]) == 0
    assert aggregate.log.state.names == ["Eve", "Bo"]


def test_a_game_voided_while_running_lets_the_event_go_on_and_the_bundle_still_verifies(
    tournaments: TournamentService,
) -> None:
    from domain.kernel.bots import RandomBot
    from domain.tournament.log import Table
    from infra.tournaments.run import play_table

    created = tournaments.create("peloponnes", {"rounds": 2, "table_size": 2}, master_seed=b"void", salted=False)
    tid, organiser = created.tournament_id, created.organiser_token
    tokens = [tournaments.register(tid, organiser, name).token for name in ("Ada", "Bo", "Cy", "Di")]
    first = tournaments.seat_next_round(tid, organiser)
    played, abandoned = first["tables"]
    play_table(tournaments, tid, Table(1, 1, played["game_id"], played["players"]), tokens, RandomBot(b"b"))
    ruling = {"kind": "void", "game_id": abandoned["game_id"], "reason": "the table's players left"}
    tournaments.adjudicate(tid, organiser, ruling)
    second = tournaments.seat_next_round(tid, organiser)  # the void completes round 1
    for table in second["tables"]:
        play_table(
            tournaments, tid, Table(2, table["table"], table["game_id"], table["players"]), tokens, RandomBot(b"c")
        )
    tournaments.end(tid, organiser)
    report = verify_bundle(json.loads(json.dumps(tournaments.bundle(tid))), GAMES.get)
    assert report.ok, report.problems
    ended = tournaments.state(tid).ended
    assert ended is not None
    rows = {row["player"]: row for row in ended["standings"]}
    for player in abandoned["players"]:
        assert rows[player]["games"] == 1  # the void game counts for nobody
