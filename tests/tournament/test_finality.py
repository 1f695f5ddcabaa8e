"""Finality: a voided game takes no command after its void, nothing is accepted or appended after
``TournamentEnded``, the void record closes the game at its version and hash, and the end reveals
the seed of every game that never ended."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.http.app import create_app
from domain.catalog import GAMES
from domain.kernel.bots import RandomBot
from domain.kernel.errors import RuleViolation
from domain.tournament import rules
from domain.tournament.log import Table
from domain.tournament.verification import verify_bundle
from infra.games.service import GameService
from infra.tournaments.run import play_table
from infra.tournaments.service import TournamentService


def a_move(games: GameService, game_id: str, bot: RandomBot) -> tuple[int, dict[str, Any]]:
    with games.reading(game_id) as game:
        seat, command = bot.next_move(game.match.game, game.match.state)
    return seat, {"type": command.type, **command.to_dict()}


@pytest.fixture
def voided(tournaments: TournamentService) -> dict[str, Any]:
    """A one-round event of four: table 1 played out, table 2 voided after two moves."""
    created = tournaments.create("peloponnes", {"rounds": 1, "table_size": 2}, b"final", salted=False)
    tid, organiser = created.tournament_id, created.organiser_token
    tokens = [tournaments.register(tid, organiser, name).token for name in ("Ada", "Bo", "Cy", "Di")]
    played, abandoned = tournaments.seat_next_round(tid, organiser)["tables"]
    play_table(tournaments, tid, Table(1, 1, played["game_id"], played["players"]), tokens, RandomBot(b"p"))
    bot = RandomBot(b"v")
    for _ in range(2):
        seat, payload = a_move(tournaments.games, abandoned["game_id"], bot)
        tournaments.play(tid, abandoned["game_id"], tokens[abandoned["players"][seat]], payload)
    ruling = tournaments.adjudicate(
        tid, organiser, {"kind": "void", "game_id": abandoned["game_id"], "reason": "the players left"}
    )
    return {"tid": tid, "organiser": organiser, "tokens": tokens, "table": abandoned, "ruling": ruling, "bot": bot}


def test_the_void_record_closes_the_game_at_its_version_and_hash(
    tournaments: TournamentService, voided: dict[str, Any]
) -> None:
    game_id = voided["table"]["game_id"]
    records = tournaments.games.records(game_id)
    adjudication = voided["ruling"]["adjudication"]
    assert adjudication["game_version"] == len(records) == records[-1].position
    assert adjudication["game_fingerprint"] == records[-1].hash


def test_a_voided_game_refuses_every_command_and_records_nothing(
    tournaments: TournamentService, voided: dict[str, Any]
) -> None:
    game_id = voided["table"]["game_id"]
    before = len(tournaments.games.records(game_id))
    seat, payload = a_move(tournaments.games, game_id, voided["bot"])
    token = voided["tokens"][voided["table"]["players"][seat]]
    with pytest.raises(RuleViolation) as refusal:
        tournaments.play(voided["tid"], game_id, token, payload)
    assert refusal.value.code == rules.GAME_VOIDED
    assert tournaments.enforce_clocks(voided["tid"]) == 0
    assert len(tournaments.games.records(game_id)) == before


def test_after_the_end_nothing_is_accepted_or_appended(tournaments: TournamentService, voided: dict[str, Any]) -> None:
    tid, game_id = voided["tid"], voided["table"]["game_id"]
    ended = tournaments.end(tid, voided["organiser"])
    fingerprint = tournaments.load(tid).log.last_hash
    seat, payload = a_move(tournaments.games, game_id, voided["bot"])
    with pytest.raises(RuleViolation) as refusal:
        tournaments.play(tid, game_id, voided["tokens"][voided["table"]["players"][seat]], payload)
    assert refusal.value.code == rules.TOURNAMENT_OVER
    # Even a game ended behind the tournament's back (its seat tokens used directly) adds no result.
    seat_tokens = tournaments.load(tid).seat_tokens[game_id]
    while not tournaments.games.load(game_id).match.is_over:
        seat, payload = a_move(tournaments.games, game_id, voided["bot"])
        tournaments.games.execute(game_id, seat_tokens[seat], payload)
    tournaments.follow_results()
    records = tournaments.records(tid)
    assert records[-1].type == "TournamentEnded" and records[-1].hash == fingerprint
    assert game_id not in tournaments.state(tid).results
    assert ended["standings"] == tournaments.state(tid).ended["standings"]  # type: ignore[index]


def test_the_end_reveals_the_seed_of_every_game_that_never_ended(
    tournaments: TournamentService, voided: dict[str, Any]
) -> None:
    tid, game_id = voided["tid"], voided["table"]["game_id"]
    ended = tournaments.end(tid, voided["organiser"])
    assert list(ended["unfinished_seeds"]) == [game_id]
    seed = bytes.fromhex(ended["unfinished_seeds"][game_id])
    created = tournaments.games.records(game_id, through=1)[0]
    assert hashlib.sha256(seed).hexdigest() == created.data["seed_commitment"]
    bundle = json.loads(json.dumps(tournaments.bundle(tid)))
    commands = [r for r in bundle["games"][game_id] if r["type"] == "CommandAccepted"]
    assert commands and all("command_id" in r["data"] for r in commands)  # revealed, not the public form
    report = verify_bundle(bundle, GAMES.get)
    assert report.ok, report.problems


def test_a_command_to_a_voided_game_over_http_is_409(
    games: GameService, tournaments: TournamentService, voided: dict[str, Any]
) -> None:
    client = TestClient(create_app(games, tournaments=tournaments))
    tid, game_id = voided["tid"], voided["table"]["game_id"]
    seat, payload = a_move(games, game_id, voided["bot"])
    token = voided["tokens"][voided["table"]["players"][seat]]
    response = client.post(
        f"/tournaments/{tid}/games/{game_id}/commands", json=payload, headers={"Authorization": f"Bearer {token}"}
    )
    assert response.status_code == 409 and response.json()["error"]["code"] == rules.GAME_VOIDED


def test_a_voided_game_that_ends_behind_the_tournaments_back_adds_no_result(
    tournaments: TournamentService, voided: dict[str, Any]
) -> None:
    tid, game_id = voided["tid"], voided["table"]["game_id"]
    before = tournaments.records(tid)
    seat_tokens = tournaments.load(tid).seat_tokens[game_id]
    while not tournaments.games.load(game_id).match.is_over:
        seat, payload = a_move(tournaments.games, game_id, voided["bot"])
        tournaments.games.execute(game_id, seat_tokens[seat], payload)
    tournaments.follow_results()
    assert game_id not in tournaments.state(tid).results
    assert [r.hash for r in tournaments.records(tid)] == [r.hash for r in before]
