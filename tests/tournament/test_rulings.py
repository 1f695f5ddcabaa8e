"""Manual seatings and forbidden pairs: the organiser's rulings, recorded with a reason, checked
by the rules (bad ones refused, nothing recorded), honoured by later automatic pairings and
verified from the bundle; a bundle whose manual seating was altered fails."""

from __future__ import annotations

import copy
import gzip
import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.http.app import create_app
from domain.catalog import GAMES
from domain.kernel.bots import RandomBot
from domain.kernel.errors import RuleViolation
from domain.tournament import rules
from domain.tournament.config import BAD_TOURNAMENT, PAIRING_V1, PAIRING_V2, PAIRING_V4, normalize_config
from domain.tournament.log import Table
from domain.tournament.verification import THE_LOG, verify_bundle
from infra.games.service import GameService
from infra.tournaments.run import play_table
from infra.tournaments.service import TournamentService
from tests.tournament.forge import reseal_from

RECORDED_BEFORE_PAIRING_2 = Path(__file__).parent / "data" / "pairing1_bundle.json.gz"
MANUAL = [[5, 0], [3, 1], [4, 2]]


def organised(tournaments: TournamentService, players: int = 6, **settings: Any) -> tuple[str, str, list[str]]:
    created = tournaments.create(
        "peloponnes", {"rounds": 2, "table_size": 2, **settings}, master_seed=b"rulings", salted=False
    )
    tid, organiser = created.tournament_id, created.organiser_token
    tokens = [tournaments.register(tid, organiser, f"p{i}").token for i in range(players)]
    return tid, organiser, tokens


def play_round(tournaments: TournamentService, tid: str, seated: dict[str, Any], tokens: list[str]) -> None:
    for entry in seated["tables"]:
        table = Table(seated["round"], entry["table"], entry["game_id"], entry["players"])
        play_table(tournaments, tid, table, tokens, RandomBot(f"rulings:{table.round}:{table.table}".encode()))


@pytest.fixture
def ruled(tournaments: TournamentService) -> dict[str, Any]:
    """Round 1 seated by hand, then players 5 and 2 forbidden, round 2 seated by the rules."""
    tid, organiser, tokens = organised(tournaments)
    seated = tournaments.seat_next_round(tid, organiser, manual={"tables": MANUAL, "reason": "club tables"})
    assert [t["players"] for t in seated["tables"]] == MANUAL and seated["reason"] == "club tables"
    play_round(tournaments, tid, seated, tokens)
    ruling = tournaments.adjudicate(tid, organiser, {"kind": "forbid_pair", "players": [5, 2], "reason": "siblings"})
    assert ruling["adjudication"]["players"] == [2, 5]
    second = tournaments.seat_next_round(tid, organiser)
    assert "reason" not in second
    play_round(tournaments, tid, second, tokens)
    tournaments.end(tid, organiser)
    return json.loads(json.dumps(tournaments.bundle(tid)))


def seated_rounds(bundle: dict[str, Any]) -> list[dict[str, Any]]:
    return [r["data"] for r in bundle["tournament"] if r["type"] == "RoundSeated"]


def test_a_manual_seating_and_a_forbidden_pair_verify_from_the_bundle_and_are_honoured(ruled: dict[str, Any]) -> None:
    report = verify_bundle(ruled, GAMES.get)
    assert report.ok, report.problems
    first, second = seated_rounds(ruled)
    assert first["reason"] == "club tables" and [t["players"] for t in first["tables"]] == MANUAL
    rulings = [r["data"] for r in ruled["tournament"] if r["type"] == "Adjudicated"]
    assert rulings[0]["kind"] == "forbid_pair" and rulings[0]["reason"] == "siblings"
    for table in second["tables"]:
        assert not {2, 5} <= set(table["players"]), second["tables"]
        # No repeat of round 1's tables either: a repeat-free seating exists.
        assert sorted(table["players"]) not in [sorted(t) for t in MANUAL]


def forged(bundle: dict[str, Any], change: Any) -> dict[str, Any]:
    altered = copy.deepcopy(bundle)
    log = altered["tournament"]
    index = next(i for i, r in enumerate(log) if r["type"] == "RoundSeated")
    change(log[index]["data"])
    reseal_from(log, index)
    altered["fingerprint"] = log[-1]["hash"]
    return altered


def problems_at_the_first_seating(bundle: dict[str, Any], report: Any) -> list[str]:
    position = next(i for i, r in enumerate(bundle["tournament"], start=1) if r["type"] == "RoundSeated")
    return [f.message for f in report.findings if f.where == THE_LOG and f.position == position]


def test_a_manual_seating_altered_in_the_bundle_fails(ruled: dict[str, Any]) -> None:
    published = ruled["fingerprint"]

    def twice(data: dict[str, Any]) -> None:
        data["tables"][0]["players"] = [5, 5]

    bad = forged(ruled, twice)
    report = verify_bundle(bad, GAMES.get)
    assert not report.ok
    assert any("placed more than once" in m for m in problems_at_the_first_seating(bad, report)), report.problems

    def no_reason(data: dict[str, Any]) -> None:
        del data["reason"]

    bad = forged(ruled, no_reason)
    report = verify_bundle(bad, GAMES.get)
    assert any("not seated as the rules" in m for m in problems_at_the_first_seating(bad, report)), report.problems

    def other_players(data: dict[str, Any]) -> None:  # still a valid seating: only the fingerprint tells
        data["tables"][0]["players"], data["tables"][1]["players"] = [3, 1], [5, 0]

    bad = forged(ruled, other_players)
    report = verify_bundle(bad, GAMES.get, fingerprint=published)
    assert not report.ok and any("not the published" in p for p in report.problems), report.problems


def test_a_bad_manual_seating_is_refused_and_nothing_is_recorded(tournaments: TournamentService) -> None:
    tid, organiser, _ = organised(tournaments, players=6, min_table=2, max_table=3)
    tournaments.withdraw(tid, organiser, 5, "went home")
    version = tournaments.load(tid).log.version
    cases = [
        ({"tables": [[0, 1], [2, 3]], "reason": "r"}, rules.BAD_SEATING, "neither seated nor given a bye"),
        ({"tables": [[0, 1], [2, 3], [4, 0]], "reason": "r"}, rules.BAD_SEATING, "more than once"),
        ({"tables": [[0, 1], [2, 3], [4, 5]], "reason": "r"}, rules.WITHDRAWN_PLAYER, "withdrawn"),
        ({"tables": [[0, 1, 2, 3], [4]], "reason": "r"}, rules.BAD_SEATING, "a table seats 2 to 3 players"),
        ({"tables": [[0, 1], [2, 3], [4, 9]], "reason": "r"}, rules.BAD_SEATING, "no registered player"),
        ({"tables": [[0, 1], [2, 3], [4]], "byes": [], "reason": " "}, rules.BAD_SEATING, "needs a reason"),
    ]
    for manual, code, words in cases:
        with pytest.raises(RuleViolation) as refusal:
            tournaments.seat_next_round(tid, organiser, manual=manual)
        assert refusal.value.code == code and words in refusal.value.message, (manual, refusal.value)
        assert tournaments.load(tid).log.version == version
    seated = tournaments.seat_next_round(tid, organiser, manual={"tables": [[0, 1, 2], [3, 4]], "reason": "ok"})
    assert [len(t["players"]) for t in seated["tables"]] == [3, 2]
    games = [tournaments.games.records(t["game_id"], through=1)[0].data["players"] for t in seated["tables"]]
    assert games == [3, 2]  # each table's game has its own number of seats


def test_forbidden_pairs_are_refused_when_bad_or_the_tournament_pairs_by_rule_1(tournaments: TournamentService) -> None:
    tid, organiser, _ = organised(tournaments)
    for request in (
        {"kind": "forbid_pair", "players": [1, 1], "reason": "r"},
        {"kind": "forbid_pair", "players": [1], "reason": "r"},
        {"kind": "forbid_pair", "players": [1, 9], "reason": "r"},
        {"kind": "forbid_pair", "players": [1, True], "reason": "r"},
    ):
        with pytest.raises(RuleViolation) as refusal:
            tournaments.adjudicate(tid, organiser, request)
        assert refusal.value.code == rules.BAD_ADJUDICATION
    tournaments.adjudicate(tid, organiser, {"kind": "forbid_pair", "players": [1, 2], "reason": "r"})
    with pytest.raises(RuleViolation, match="forbidden pair already"):
        tournaments.adjudicate(tid, organiser, {"kind": "forbid_pair", "players": [2, 1], "reason": "r"})
    old = tournaments.create("peloponnes", {"table_size": 2, "pairing": 1}, master_seed=b"old", salted=False)
    tournaments.register(old.tournament_id, old.organiser_token, "a")
    tournaments.register(old.tournament_id, old.organiser_token, "b")
    with pytest.raises(RuleViolation, match="pairing 2"):
        tournaments.adjudicate(
            old.tournament_id, old.organiser_token, {"kind": "forbid_pair", "players": [0, 1], "reason": "r"}
        )


def test_seating_by_hand_over_http(games: GameService, tournaments: TournamentService) -> None:
    client = TestClient(create_app(games, tournaments=tournaments))
    tid, organiser, _ = organised(tournaments, players=4)
    headers = {"Authorization": f"Bearer {organiser}"}
    for body, status, code in (
        ({"tables": [[0, 1], [2, 3]]}, 422, "BAD_SEATING"),  # no reason
        ({"reason": "no tables"}, 422, "BAD_SEATING"),
        ({"tables": [["0", 1], [2, 3]], "reason": "r"}, 400, "BAD_INPUT"),  # numbers, not strings
        ({"tables": [[0, 1], [2, 3]], "reason": "r", "seed": "x"}, 400, "BAD_INPUT"),
        ({"tables": [[0, 1, 2], [3]], "reason": "r"}, 422, "BAD_SEATING"),
    ):
        response = client.post(f"/tournaments/{tid}/rounds", json=body, headers=headers)
        assert (response.status_code, response.json()["error"]["code"]) == (status, code), (body, response.json())
    assert client.get(f"/tournaments/{tid}").json()["rounds"] == []
    response = client.post(
        f"/tournaments/{tid}/rounds", json={"tables": [[3, 0], [1, 2]], "reason": "a seeded final"}, headers=headers
    )
    assert response.status_code == 201
    view = client.get(f"/tournaments/{tid}").json()["rounds"][0]
    assert view["manual_seating_reason"] == "a seeded final"
    assert [t["players"] for t in view["tables"]] == [[3, 0], [1, 2]]


def test_a_tournament_recorded_before_the_pairing_rule_was_versioned_still_verifies() -> None:
    """A bundle recorded by the code before pairing rule 2 (5 players, 3 rounds at tables of 2:
    byes and repeat avoidance by rule 1): its settings name no pairing rule, and the verifier
    seats every round again by rule 1."""
    bundle = json.loads(gzip.decompress(RECORDED_BEFORE_PAIRING_2.read_bytes()))
    assert "pairing" not in bundle["tournament"][0]["data"]["config"]
    report = verify_bundle(bundle, GAMES.get)
    assert report.ok, report.problems
    # Seated by rule 2 instead, the same log would not verify: the version decides.
    log = bundle["tournament"]
    log[0]["data"]["config"].update(pairing=PAIRING_V2, min_table=2, max_table=2)
    reseal_from(log, 0)
    assert not verify_bundle(bundle, GAMES.get).ok


def test_the_settings_record_the_pairing_rule_and_refuse_impossible_table_sizes() -> None:
    game = GAMES.get("alexandros")
    assert normalize_config(game, {}).to_dict()["pairing"] == PAIRING_V4
    old = normalize_config(game, {"pairing": PAIRING_V1}).to_dict()
    assert "pairing" not in old and "min_table" not in old  # recorded as before versioning
    mixed = normalize_config(game, {"table_size": 4, "min_table": 3})
    assert mixed.table_sizes == (3, 4)
    for raw, words in (
        ({"table_size": 3, "min_table": 4}, "min_table (4) <= table_size (3)"),
        ({"table_size": 4, "max_table": 5}, "max_table must be a whole number from 2 to 4"),
        ({"min_table": 1}, "min_table must be a whole number from 2 to 4"),
        ({"pairing": 1, "min_table": 3}, "need pairing 2"),
        ({"pairing": 5}, "pairing must be one of 1, 2, 3, 4"),
    ):
        with pytest.raises(RuleViolation) as refusal:
            normalize_config(game, raw)
        assert refusal.value.code == BAD_TOURNAMENT and words in refusal.value.message, (raw, refusal.value.message)


def test_a_tournament_at_mixed_table_sizes_by_the_default_rule_verifies(tournaments: TournamentService) -> None:
    """Rule 4 (the default) seats 7 players at tables of 4 and 3, every round as the verifier
    seats it again from the record."""
    tid, organiser, tokens = organised(tournaments, players=7, table_size=4, min_table=3)
    assert tournaments.state(tid).settings.pairing == PAIRING_V4
    for _ in range(2):
        seated = tournaments.seat_next_round(tid, organiser)
        assert sorted(len(t["players"]) for t in seated["tables"]) == [3, 4] and seated["byes"] == []
        play_round(tournaments, tid, seated, tokens)
    tournaments.end(tid, organiser)
    report = verify_bundle(json.loads(json.dumps(tournaments.bundle(tid))), GAMES.get)
    assert report.ok, report.problems
