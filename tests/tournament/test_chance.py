"""Chance nobody can grind: the players' revealed secrets enter every seating and every table's
seed, so an organiser who re-creates tournaments until round 1 suits it cannot see round 1
before the players have revealed; a withheld reveal is a public record that withdraws the entry;
a wrong secret is refused; the verifier recomputes everything from the bundle."""

from __future__ import annotations

import copy
import hashlib
import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from domain.catalog import GAMES
from domain.kernel.bots import RandomBot
from domain.kernel.errors import RuleViolation
from domain.tournament import rules
from domain.tournament.log import REVEAL_WITHHELD, ROUND_SEATED, WITHDRAWN, Table, TournamentState
from domain.tournament.verification import verify_bundle
from infra.tournaments.run import play_table
from infra.tournaments.service import TournamentService
from tests.support.http import auth
from tests.tournament.forge import reseal_from

NAMES = ("Ann", "Bob", "Cy", "Di")
SETTINGS = {"rounds": 1, "table_size": 2}


def secret_of(name: str) -> bytes:
    return hashlib.sha256(f"the secret of {name}".encode()).digest()


def commitment_of(name: str) -> str:
    return hashlib.sha256(secret_of(name)).hexdigest()


def ann_awaited_first_beside_bob(tables: list[list[int]]) -> bool:
    """The seating an organiser wants: Ann (0) and Bob (1) at one table, Ann in seat 0."""
    return [0, 1] in tables


def from_the_master_seed_alone(state: TournamentState, master_seed: bytes) -> list[list[int]]:
    """What the organiser (it knows the master seed: the service holds it) computes before the
    players' secrets are in: round 1 as the rules would seat it if nobody had contributed."""
    alone = copy.deepcopy(state)
    alone.commitments.clear()
    return rules.plan_round(alone, master_seed).tables


def grind(tournaments: TournamentService, commit: bool) -> tuple[str, str, list[str], list[list[int]]]:
    """The grinding script: create the tournament again until round 1, as predicted, suits it."""
    for attempt in range(200):
        master_seed = f"grind-{attempt}".encode()
        created = tournaments.create("peloponnes", SETTINGS, master_seed, salted=False)
        tid, organiser = created.tournament_id, created.organiser_token
        tokens = [
            tournaments.register(tid, organiser, name, commitment_of(name) if commit else None).token for name in NAMES
        ]
        predicted = from_the_master_seed_alone(tournaments.load(tid).log.state, master_seed)
        if ann_awaited_first_beside_bob(predicted):
            return tid, organiser, tokens, predicted
    raise AssertionError("no master seed of 200 gives the wanted seating")


def seated_tables(seated: dict[str, Any]) -> list[list[int]]:
    return [t["players"] for t in seated["tables"]]


def test_without_contributions_the_grinding_script_gets_the_seating_it_wants(tournaments: TournamentService) -> None:
    tid, organiser, _, predicted = grind(tournaments, commit=False)
    assert seated_tables(tournaments.seat_next_round(tid, organiser)) == predicted


def test_with_the_players_secrets_the_grinding_script_cannot_predict_round_one(tournaments: TournamentService) -> None:
    tid, organiser, tokens, predicted = grind(tournaments, commit=True)
    tournaments.close_registration(tid, organiser)
    for name, token in zip(NAMES, tokens, strict=True):
        tournaments.reveal(tid, token, secret_of(name).hex())
    seated = seated_tables(tournaments.seat_next_round(tid, organiser))
    # The same master seed seats Ann beside Bob when nobody contributes (the test above); with the
    # reveals mixed in the seating is another, and not one the organiser could compute beforehand.
    assert seated != predicted
    state = tournaments.load(tid).log.state
    assert sorted(state.reveals) == [0, 1, 2, 3] and not state.withdrawn


def test_the_same_reveals_seat_the_same_rounds_and_another_reveal_other_rounds(tournaments: TournamentService) -> None:
    created = tournaments.create("peloponnes", {"rounds": 1, "table_size": 2}, b"fixed", salted=False)
    tid, organiser = created.tournament_id, created.organiser_token
    tokens = [tournaments.register(tid, organiser, n, commitment_of(n)).token for n in NAMES]
    tournaments.close_registration(tid, organiser)
    for name, token in zip(NAMES, tokens, strict=True):
        tournaments.reveal(tid, token, secret_of(name).hex())
    state = copy.deepcopy(tournaments.load(tid).log.state)
    seated = seated_tables(tournaments.seat_next_round(tid, organiser))
    assert rules.plan_round(state, b"fixed").tables == seated  # what the verifier recomputes
    # Had one player revealed another secret (committed to another), round 1 would be another.
    other = copy.deepcopy(state)
    other.reveals[3] = secret_of("someone else").hex()
    assert rules.plan_round(other, b"fixed").tables != seated


def test_a_withheld_reveal_is_a_public_record_and_withdraws_the_entry(tournaments: TournamentService) -> None:
    created = tournaments.create("peloponnes", SETTINGS, b"withheld", salted=False)
    tid, organiser = created.tournament_id, created.organiser_token
    names = (*NAMES, "Eve")
    tokens = [tournaments.register(tid, organiser, n, commitment_of(n)).token for n in names]
    tournaments.close_registration(tid, organiser)
    for name, token in zip(names[:4], tokens[:4], strict=True):
        tournaments.reveal(tid, token, secret_of(name).hex())
    # Eve (4) computes the seating with every other secret revealed and keeps hers.
    seated = tournaments.seat_next_round(tid, organiser)
    records = tournaments.records(tid)
    withheld = [r for r in records if r.type == REVEAL_WITHHELD]
    assert [r.data["player"] for r in withheld] == [4] and withheld[0].data["consequence"] == WITHDRAWN
    assert records.index(withheld[0]) == len(records) - 2 and records[-1].type == ROUND_SEATED  # before the seating
    seated_players = sorted(p for t in seated["tables"] for p in t["players"])
    assert seated_players == [0, 1, 2, 3] and seated["byes"] == []  # withdrawn: no table, no bye
    state = tournaments.load(tid).log.state
    assert state.withdrawn == [4] and 4 not in state.reveals
    with pytest.raises(RuleViolation) as late:
        tournaments.reveal(tid, tokens[4], secret_of("Eve").hex())
    assert late.value.code == rules.REVEALS_CLOSED
    for entry in seated["tables"]:
        table = Table(1, entry["table"], entry["game_id"], entry["players"])
        play_table(tournaments, tid, table, tokens, RandomBot(b"w"))
    tournaments.end(tid, organiser)
    bundle = json.loads(json.dumps(tournaments.bundle(tid)))
    report = verify_bundle(bundle, GAMES.get)
    assert report.ok, report.problems  # the seatings and table seeds recompute from the reveals
    # A forger who drops the withheld record (and reseals) is caught: Eve had a reveal due.
    forged = copy.deepcopy(bundle)
    index = next(i for i, r in enumerate(forged["tournament"]) if r["type"] == REVEAL_WITHHELD)
    del forged["tournament"][index]
    for position, record in enumerate(forged["tournament"][index:], start=index + 1):
        record["position"] = position
    reseal_from(forged["tournament"], index)
    forged["fingerprint"] = forged["tournament"][-1]["hash"]
    assert not verify_bundle(forged, GAMES.get).ok  # round 1 was seated while Eve's reveal was due


def test_a_bundle_with_a_reveal_altered_fails(tournaments: TournamentService) -> None:
    created = tournaments.create("peloponnes", SETTINGS, b"altered", salted=False)
    tid, organiser = created.tournament_id, created.organiser_token
    tokens = [tournaments.register(tid, organiser, n, commitment_of(n)).token for n in NAMES]
    tournaments.close_registration(tid, organiser)
    for name, token in zip(NAMES, tokens, strict=True):
        tournaments.reveal(tid, token, secret_of(name).hex())
    for entry in tournaments.seat_next_round(tid, organiser)["tables"]:
        play_table(
            tournaments, tid, Table(1, entry["table"], entry["game_id"], entry["players"]), tokens, RandomBot(b"a")
        )
    tournaments.end(tid, organiser)
    bundle = json.loads(json.dumps(tournaments.bundle(tid)))
    assert verify_bundle(bundle, GAMES.get).ok
    forged = copy.deepcopy(bundle)
    index = next(i for i, r in enumerate(forged["tournament"]) if r["type"] == "SecretRevealed")
    forged["tournament"][index]["data"]["secret"] = secret_of("a forger").hex()
    reseal_from(forged["tournament"], index)
    forged["fingerprint"] = forged["tournament"][-1]["hash"]
    assert not verify_bundle(forged, GAMES.get).ok  # the secret does not open Ann's commitment


def test_commitments_and_reveals_over_http_refuse_what_is_wrong_and_record_nothing(client: TestClient) -> None:
    created = client.post("/tournaments", json={"game": "peloponnes", "settings": SETTINGS}).json()
    tid, organiser = created["tournament_id"], created["organiser_token"]

    def version() -> int:
        return int(client.get(f"/tournaments/{tid}").json()["version"])

    bad = client.post(f"/tournaments/{tid}/players", json={"name": "Ann", "commitment": "00"}, headers=auth(organiser))
    assert bad.status_code == 400 and bad.json()["error"]["code"] == rules.BAD_COMMITMENT
    tokens = []
    for name in NAMES:
        answer = client.post(
            f"/tournaments/{tid}/players",
            json={"name": name, "commitment": commitment_of(name)},
            headers=auth(organiser),
        )
        assert answer.status_code == 201
        tokens.append(answer.json()["token"])
    early = client.post(f"/tournaments/{tid}/reveal", json={"secret": secret_of("Ann").hex()}, headers=auth(tokens[0]))
    assert early.status_code == 409 and early.json()["error"]["code"] == rules.REGISTRATION_OPEN
    unrevealed = client.post(f"/tournaments/{tid}/rounds", headers=auth(organiser))
    assert unrevealed.status_code == 409 and unrevealed.json()["error"]["code"] == rules.REGISTRATION_OPEN
    assert client.post(f"/tournaments/{tid}/close-registration", headers=auth(organiser)).status_code == 200
    late = client.post(f"/tournaments/{tid}/players", json={"name": "Eve"}, headers=auth(organiser))
    assert late.status_code == 422 and late.json()["error"]["code"] == rules.REGISTRATION_CLOSED
    before = version()
    for wrong in (secret_of("Bob").hex(), "zz" * 32, "ab"):
        refused = client.post(f"/tournaments/{tid}/reveal", json={"secret": wrong}, headers=auth(tokens[0]))
        assert refused.status_code == 400 and refused.json()["error"]["code"] == rules.WRONG_SECRET
    assert client.post(f"/tournaments/{tid}/reveal", json={"secret": "x"}).status_code == 401
    assert version() == before  # nothing recorded
    right = client.post(f"/tournaments/{tid}/reveal", json={"secret": secret_of("Ann").hex()}, headers=auth(tokens[0]))
    assert right.status_code == 200 and right.json()["player"] == 0
    twice = client.post(f"/tournaments/{tid}/reveal", json={"secret": secret_of("Ann").hex()}, headers=auth(tokens[0]))
    assert twice.status_code == 409 and twice.json()["error"]["code"] == rules.NOTHING_TO_REVEAL
    players = client.get(f"/tournaments/{tid}").json()["players"]
    assert players[0]["commitment"] == commitment_of("Ann") and players[0]["secret"] == secret_of("Ann").hex()
    # Ann alone revealed: withholding the three others would leave no table, so nothing is recorded.
    before = version()
    alone = client.post(f"/tournaments/{tid}/rounds", headers=auth(organiser))
    assert alone.status_code == 422 and alone.json()["error"]["code"] == rules.NOT_ENOUGH_PLAYERS
    assert version() == before
    revealed = client.post(
        f"/tournaments/{tid}/reveal", json={"secret": secret_of("Di").hex()}, headers=auth(tokens[3])
    )
    assert revealed.status_code == 200
    seated = client.post(f"/tournaments/{tid}/rounds", headers=auth(organiser))
    assert seated.status_code == 201
    assert [t["players"] for t in seated.json()["tables"]] in ([[0, 3]], [[3, 0]])  # Bob and Cy withheld
    players = client.get(f"/tournaments/{tid}").json()["players"]
    assert [p["withdrawn"] for p in players] == [False, True, True, False]
