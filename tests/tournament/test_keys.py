"""Keyed players in a tournament: a player's registered key keys their seat in every game of
theirs; the tournament route takes only their signed commands; the organiser's and the clock's
moves are recorded as theirs, never as the seat's; the bundle verifies and a forged move fails."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.client.seat_key import SeatKey
from domain.catalog import GAMES
from domain.kernel import engine
from domain.kernel.bots import RandomBot
from domain.kernel.chance import Chance
from domain.kernel.errors import NOT_YOUR_TURN, RuleViolation
from domain.kernel.log import COMMAND_ACCEPTED, for_viewer
from domain.kernel.match import SEAT_KEYED, Match
from domain.kernel.messages import parse_command
from domain.kernel.verification import verify_records
from domain.tournament.rules import result_from_scoreboard
from domain.tournament.verification import verify_bundle
from infra.games.service import Conflict, GameService, StaleVersion
from infra.tournaments.service import TournamentService
from tests.support.http import auth
from tests.tournament.bundles import forge_result


def keyed_tournament(
    client: TestClient, keyed: list[bool], **settings: Any
) -> tuple[str, str, list[str], list[SeatKey | None], dict[str, Any]]:
    """A one-round Peloponnes tournament at tables of 2, its players registered (self and by hand)
    with a key where ``keyed`` says; round 1 seated."""
    created = client.post(
        "/tournaments", json={"game": "peloponnes", "settings": {"table_size": 2, "rounds": 1, **settings}}
    ).json()
    tid, organiser, code = created["tournament_id"], created["organiser_token"], created["registration_code"]
    keys = [SeatKey.generate() if k else None for k in keyed]
    tokens = []
    for i, key in enumerate(keys):
        body: dict[str, Any] = {"name": f"P{i}"}
        if key is not None:
            body["public_key"] = key.public_key
        if i % 2:
            answer = client.post(f"/tournaments/{tid}/players", json=body, headers=auth(organiser))
        else:
            answer = client.post(f"/tournaments/{tid}/join", json={**body, "code": code})
        assert answer.status_code == 201, answer.text
        tokens.append(answer.json()["token"])
    seated = client.post(f"/tournaments/{tid}/rounds", headers=auth(organiser))
    assert seated.status_code == 201, seated.text
    return tid, organiser, tokens, keys, seated.json()


def seat_of(client: TestClient, tid: str, token: str) -> tuple[str, int]:
    table = client.get(f"/tournaments/{tid}/me", headers=auth(token)).json()["table"]
    return table["game_id"], table["seat"]


def the_table(
    client: TestClient, tid: str, tokens: list[str], keys: list[SeatKey | None]
) -> tuple[str, list[int], list[str], list[SeatKey | None]]:
    """The one table of round 1: its game id, its players by seat, their tokens and keys by seat."""
    game_id, _ = seat_of(client, tid, tokens[0])
    by_seat = sorted(range(len(tokens)), key=lambda p: seat_of(client, tid, tokens[p])[1])
    return game_id, by_seat, [tokens[p] for p in by_seat], [keys[p] for p in by_seat]


def play_signed(
    client: TestClient,
    tid: str,
    game_id: str,
    tokens_by_seat: list[str],
    keys_by_seat: list[SeatKey | None],
    moves: int,
) -> int:
    """Up to ``moves`` commands of the game through the tournament route, each seat's signed with
    its player's key (the random bot's choice of the listed moves); the moves sent."""
    pick = random.Random(f"{game_id}:{moves}")
    sent = 0
    while sent < moves:
        view = client.get(f"/tournaments/{tid}/games/{game_id}", headers=auth(tokens_by_seat[0])).json()
        if view["status"] == "ended":
            break
        listed = [
            client.get(f"/tournaments/{tid}/games/{game_id}/legal-moves", headers=auth(t)).json()
            for t in tokens_by_seat
        ]
        seat = next(s for s, answer in enumerate(listed) if answer["moves"])
        move = pick.choice(listed[seat]["moves"])
        key, version = keys_by_seat[seat], listed[seat]["version"]
        body = (
            key.signed_body(game_id, seat, version, f"m{version}", move)
            if key
            else {**move, "expected_version": version}
        )
        answer = client.post(
            f"/tournaments/{tid}/games/{game_id}/commands", json=body, headers=auth(tokens_by_seat[seat])
        )
        assert answer.status_code == 200, answer.text
        sent += 1
    return sent


def refusal(answer: Any) -> str:
    assert answer.status_code == 401, answer.text
    return str(answer.json()["error"]["code"])


def test_the_tournament_route_refuses_unsigned_wrong_replayed_and_other_seat_signatures(client: TestClient) -> None:
    tid, _, tokens, keys, _ = keyed_tournament(client, [True, True])
    game_id, _, tokens_by_seat, keys_by_seat = the_table(client, tid, tokens, keys)
    records = client.get(f"/games/{game_id}/events").json()
    assert [r["data"]["public_key"] for r in records if r["type"] == SEAT_KEYED] == [k.public_key for k in keys_by_seat]  # type: ignore[union-attr]
    listed = [
        client.get(f"/tournaments/{tid}/games/{game_id}/legal-moves", headers=auth(t)).json() for t in tokens_by_seat
    ]
    mover = next(s for s, answer in enumerate(listed) if answer["moves"])
    move, version = listed[mover]["moves"][0], listed[mover]["version"]
    mine, theirs = keys_by_seat[mover], keys_by_seat[1 - mover]
    assert mine is not None and theirs is not None
    route = f"/tournaments/{tid}/games/{game_id}/commands"
    bodies = {
        "unsigned": {**move, "expected_version": version, "command_id": "c1"},
        "wrong key": SeatKey.generate().signed_body(game_id, mover, version, "c1", move),
        "other seat's key": theirs.signed_body(game_id, mover, version, "c1", move),
        "signed as the other seat": mine.signed_body(game_id, 1 - mover, version, "c1", move),
        "no expected_version": {
            k: v for k, v in mine.signed_body(game_id, mover, version, "c1", move).items() if k != "expected_version"
        },
        "another game": mine.signed_body("00000000-0000-4000-8000-000000000000", mover, version, "c1", move),
    }
    for name, body in bodies.items():
        assert refusal(client.post(route, json=body, headers=auth(tokens_by_seat[mover]))) == "BAD_SIGNATURE", name
    assert client.get(f"/games/{game_id}/events").json() == records  # nothing recorded
    good = mine.signed_body(game_id, mover, version, "c1", move)
    assert client.post(route, json=good, headers=auth(tokens_by_seat[mover])).status_code == 200
    # Replayed: the same signature again under a new command id, once the game has moved on.
    play_signed(client, tid, game_id, tokens_by_seat, keys_by_seat, 1)
    later = client.get(f"/tournaments/{tid}/games/{game_id}/legal-moves", headers=auth(tokens_by_seat[mover]))
    replay = {**good, "command_id": "c2", "expected_version": later.json()["version"]}
    assert refusal(client.post(route, json=replay, headers=auth(tokens_by_seat[mover]))) == "BAD_SIGNATURE"


def test_a_tournament_that_requires_keys_takes_no_player_without_one(client: TestClient) -> None:
    created = client.post(
        "/tournaments", json={"game": "peloponnes", "settings": {"table_size": 2, "keys_required": True}}
    ).json()
    tid, code = created["tournament_id"], created["registration_code"]
    bare = client.post(f"/tournaments/{tid}/join", json={"name": "Ann", "code": code})
    assert bare.status_code == 400 and bare.json()["error"]["code"] == "KEY_REQUIRED", bare.text
    key = SeatKey.generate()
    assert (
        client.post(
            f"/tournaments/{tid}/join", json={"name": "Ann", "code": code, "public_key": key.public_key}
        ).status_code
        == 201
    )
    again = client.post(f"/tournaments/{tid}/join", json={"name": "Bo", "code": code, "public_key": key.public_key})
    assert again.status_code == 400 and again.json()["error"]["code"] == "BAD_KEY"
    assert [p["public_key"] for p in client.get(f"/tournaments/{tid}").json()["players"]] == [key.public_key]


def test_a_keyed_tournament_verifies_from_its_bundle_and_lists_the_organisers_acts(client: TestClient) -> None:
    tid, organiser, tokens, keys, _ = keyed_tournament(client, [True, True], keys_required=True)
    game_id, by_seat, tokens_by_seat, keys_by_seat = the_table(client, tid, tokens, keys)
    assert play_signed(client, tid, game_id, tokens_by_seat, keys_by_seat, 6) == 6
    ruling = {"kind": "forfeit", "game_id": game_id, "player": by_seat[1], "reason": "left the hall"}
    assert client.post(f"/tournaments/{tid}/adjudications", json=ruling, headers=auth(organiser)).status_code == 201
    # Seat 1's moves are now the organiser's ruling, played by the bot; seat 0 plays on, signed.
    for _ in range(2000):
        view = client.get(f"/tournaments/{tid}/games/{game_id}", headers=auth(tokens_by_seat[0])).json()
        if view["status"] == "ended":
            break
        client.post(f"/tournaments/{tid}/clocks")
        listed = client.get(f"/tournaments/{tid}/games/{game_id}/legal-moves", headers=auth(tokens_by_seat[0]))
        if listed.json()["moves"]:
            play_signed(client, tid, game_id, tokens_by_seat[:1], keys_by_seat[:1], 1)
    assert client.post(f"/tournaments/{tid}/end", headers=auth(organiser)).status_code == 200
    report = client.get(f"/games/{game_id}/verify").json()
    assert report["verified"] and report["keyed_seats"] == [0, 1], report
    acts = report["acts"]
    assert acts and {a["seat"] for a in acts} == {1} and {a["by"] for a in acts} == {"organiser"}
    records = client.get(f"/games/{game_id}/events").json()
    commands = [r for r in records if r["type"] == COMMAND_ACCEPTED]
    assert all(("signature" in r["data"]) != ("by" in r["data"]) for r in commands)  # signed, or not the seat's
    bundle = client.get(f"/tournaments/{tid}/bundle").json()
    checked = verify_bundle(bundle, GAMES.get)
    assert checked.ok, checked.problems


class ForgersMatch(Match):
    """The operator's server: it records what it likes for any seat, checking no signature."""

    def check_signed(self, seat: Any, command: Any, command_id: Any, contribution: Any, signature: Any, _: Any) -> Any:
        return signature


def forged_game(records: list[dict[str, Any]], position: int) -> tuple[list[dict[str, Any]], Match]:
    """A tournament game re-executed by a forger holding its seed: the command at ``position``
    replaced by another legal move (its signature kept), the game then played on by the bot to an
    end; every hash and digest holds."""
    created = records[0]["data"]
    seed = bytes.fromhex(records[-1]["data"]["seed"])
    game = GAMES.get(created["game"])
    match, out = ForgersMatch.create(game, created["players"], created["options"], seed, False, True)
    bot = RandomBot(b"forger")
    for raw in records[1:]:
        data = raw["data"]
        if raw["type"] == SEAT_KEYED:
            out += match.register_key(data["seat"], data["public_key"], data["game_id"])
        elif raw["type"] == COMMAND_ACCEPTED and raw["position"] < position:
            command = parse_command(game.command_types, data["command"])
            out += match.execute(
                data["seat"], command, data["command_id"], None, None, data.get("signature"), data.get("by")
            )
        elif raw["type"] == COMMAND_ACCEPTED and raw["position"] == position:
            listed = engine.legal_moves(game, match.state, data["seat"], Chance(b"forger"))
            other = next(m for m in listed if {"type": m.type, **m.to_dict()} != data["command"])
            out += match.execute(data["seat"], other, data["command_id"], None, None, data["signature"])
            break
    while not match.is_over:
        seat, command = bot.next_move(game, match.state)
        out += match.execute(seat, command, None, None, None, None, "server")
    return [for_viewer(r, None, reveal_all=True) for r in out], match


def test_a_forged_move_for_a_keyed_seat_fails_the_bundle_with_its_position_even_resealed(client: TestClient) -> None:
    tid, organiser, tokens, keys, _ = keyed_tournament(client, [True, True])
    game_id, _, tokens_by_seat, keys_by_seat = the_table(client, tid, tokens, keys)
    play_signed(client, tid, game_id, tokens_by_seat, keys_by_seat, 10_000)
    assert client.post(f"/tournaments/{tid}/end", headers=auth(organiser)).status_code == 200
    bundle = client.get(f"/tournaments/{tid}/bundle").json()
    assert verify_bundle(bundle, GAMES.get).ok
    target = next(r for r in bundle["games"][game_id] if r["type"] == COMMAND_ACCEPTED and r["data"]["seat"] == 1)
    forged, match = forged_game(bundle["games"][game_id], target["position"])
    bundle["games"][game_id] = forged
    forge_result(bundle, game_id, result_from_scoreboard(match.game.scoreboard(match.state)))
    report = verify_bundle(bundle, GAMES.get)
    assert not report.ok and report.chain_ok
    (finding,) = [f for f in report.findings if f.game_id == game_id][:1]
    assert finding.position == target["position"] and "BAD_SIGNATURE" in finding.message, report.problems


@pytest.mark.parametrize("keyed", [True, False], ids=["keyed player", "unkeyed player"])
def test_a_replacement_in_a_running_game_signs_with_their_own_key_and_the_old_key_no_longer_does(
    client: TestClient, keyed: bool
) -> None:
    tid, organiser, tokens, keys, _ = keyed_tournament(client, [keyed, True])
    game_id, by_seat, tokens_by_seat, keys_by_seat = the_table(client, tid, tokens, keys)
    assert play_signed(client, tid, game_id, tokens_by_seat, keys_by_seat, 4) == 4
    seat = by_seat.index(0)  # player 0's seat
    old, new = keys[0], SeatKey.generate()
    ruling = {"kind": "replace", "player": 0, "name": "Eve", "reason": "fell ill", "public_key": new.public_key}
    answer = client.post(f"/tournaments/{tid}/adjudications", json=ruling, headers=auth(organiser))
    assert answer.status_code == 201, answer.text
    tokens_by_seat[seat], keys_by_seat[seat] = answer.json()["player_token"], new
    records = client.get(f"/games/{game_id}/events").json()
    (rekey,) = [r for r in records if r["type"] == SEAT_KEYED and "by" in r["data"]]
    assert rekey["data"] == {"seat": seat, "public_key": new.public_key, "game_id": game_id, "by": "organiser"}
    # Wait for the replacement's turn, then: the old key (or no signature) is refused, the new one taken.
    play_until = client.get(f"/tournaments/{tid}/games/{game_id}/legal-moves", headers=auth(tokens_by_seat[seat]))
    while not play_until.json()["moves"]:
        play_signed(client, tid, game_id, tokens_by_seat, keys_by_seat, 1)
        play_until = client.get(f"/tournaments/{tid}/games/{game_id}/legal-moves", headers=auth(tokens_by_seat[seat]))
    move, version = play_until.json()["moves"][0], play_until.json()["version"]
    route = f"/tournaments/{tid}/games/{game_id}/commands"
    before = client.get(f"/games/{game_id}/events").json()
    stale = old.signed_body(game_id, seat, version, "r1", move) if old else {**move, "expected_version": version}
    assert refusal(client.post(route, json=stale, headers=auth(tokens_by_seat[seat]))) == "BAD_SIGNATURE"
    assert client.get(f"/games/{game_id}/events").json() == before
    signed = new.signed_body(game_id, seat, version, "r1", move)
    assert client.post(route, json=signed, headers=auth(tokens_by_seat[seat])).status_code == 200
    play_signed(client, tid, game_id, tokens_by_seat, keys_by_seat, 10_000)
    assert client.post(f"/tournaments/{tid}/end", headers=auth(organiser)).status_code == 200
    report = client.get(f"/games/{game_id}/verify").json()
    assert report["verified"] and report["keyed_seats"] == [0, 1], report
    assert {"position": rekey["position"], "seat": seat, "by": "organiser", "public_key": new.public_key} in report[
        "acts"
    ]
    assert "replacement" in report["statement"]
    assert ("had no key" in report["statement"]) == (not keyed)  # the seat's unsigned commands are not passed off
    checked = verify_bundle(client.get(f"/tournaments/{tid}/bundle").json(), GAMES.get)
    assert checked.ok, checked.problems


def test_a_seat_handed_to_a_key_no_replacement_registered_fails_the_bundle(
    client: TestClient, games: GameService
) -> None:
    tid, organiser, tokens, keys, _ = keyed_tournament(client, [True, True])
    game_id, _, tokens_by_seat, keys_by_seat = the_table(client, tid, tokens, keys)
    play_signed(client, tid, game_id, tokens_by_seat, keys_by_seat, 2)
    # The operator hands seat 0 to a key of its own, "by the organiser", without any ruling.
    forger = SeatKey.generate()
    games.rekey_seat(game_id, 0, forger.public_key)
    keys_by_seat[0] = forger
    play_signed(client, tid, game_id, tokens_by_seat, keys_by_seat, 10_000)
    assert client.post(f"/tournaments/{tid}/end", headers=auth(organiser)).status_code == 200
    report = verify_bundle(client.get(f"/tournaments/{tid}/bundle").json(), GAMES.get)
    assert not report.ok
    assert any(f.game_id == game_id and "no replacement" in f.message for f in report.findings), report.problems


def the_act_passed_off_as_the_seats(records: list[dict[str, Any]], position: int) -> list[dict[str, Any]]:
    """The game re-executed by a forger holding its seed, the server's act at ``position`` recorded
    as the seat's own move instead (no ``by``, and no signature: there is none to give); every hash
    and digest holds."""
    created = records[0]["data"]
    game = GAMES.get(created["game"])
    seed = bytes.fromhex(records[-1]["data"]["seed"])
    match, out = ForgersMatch.create(game, created["players"], created["options"], seed, False, False)
    for raw in records[1:]:
        data = raw["data"]
        if raw["type"] == SEAT_KEYED:
            out += match.register_key(data["seat"], data["public_key"], data["game_id"], data.get("by"))
        elif raw["type"] == COMMAND_ACCEPTED:
            by = None if raw["position"] == position else data.get("by")
            command = parse_command(game.command_types, data["command"])
            out += match.execute(
                data["seat"],
                command,
                data["command_id"],
                data.get("contribution"),
                data.get("at"),
                data.get("signature"),
                by,
            )
    return [for_viewer(r, None, reveal_all=True) for r in out]


def test_a_keyed_seats_timeout_move_is_the_servers_act_and_passed_off_as_the_seats_it_fails(
    tournaments: TournamentService, clock: Any
) -> None:
    settings = {"rounds": 1, "table_size": 2, "time_control": {"base_seconds": 2, "increment_seconds": 0.01}}
    created = tournaments.create("peloponnes", settings, master_seed=b"keyed-clock", salted=False)
    tid, organiser = created.tournament_id, created.organiser_token
    keys = [SeatKey.generate(), SeatKey.generate()]
    tokens = [tournaments.register(tid, organiser, f"p{i}", public_key=k.public_key).token for i, k in enumerate(keys)]
    tournaments.seat_next_round(tid, organiser)
    table = tournaments.state(tid).tables()[0]
    bot, slow = RandomBot(b"keyed-clock"), table.players.index(0)
    for _ in range(2000):  # the players' bots; player 0 thinks 700 ms a move against 2 s: soon out of time
        with tournaments.games.reading(table.game_id) as aggregate:
            if aggregate.match.is_over:
                break
            seat, command = bot.next_move(aggregate.match.game, aggregate.match.state)
            version = aggregate.match.version
        clock.advance(700 if seat == slow else 20)
        move = {"type": command.type, **command.to_dict()}
        player = table.players[seat]
        body = keys[player].signed_body(table.game_id, seat, version, f"m{version}", move)
        try:
            tournaments.play(
                tid, table.game_id, tokens[player], move, version, body["command_id"], signature=body["signature"]
            )
        except (StaleVersion, Conflict):
            continue  # the clock rule moved for the seat first
        except RuleViolation as refusal:
            assert refusal.code == NOT_YOUR_TURN
    assert tournaments.state(tid).timeouts, "the slow player never ran out of time"
    tournaments.end(tid, organiser)
    bundle = json.loads(json.dumps(tournaments.bundle(tid)))
    checked = verify_bundle(bundle, GAMES.get)
    assert checked.ok, checked.problems
    records = bundle["games"][table.game_id]
    report = verify_records(records, GAMES.get)
    assert report.verified and report.keyed_seats == [0, 1], report.problems
    timeouts = [r for r in records if r["type"] == COMMAND_ACCEPTED and r["data"].get("by") == "server"]
    assert timeouts and all(r["data"]["seat"] == slow and "signature" not in r["data"] for r in timeouts)
    assert report.acts == [{"position": r["position"], "seat": slow, "by": "server"} for r in timeouts]
    # The operator records the first timeout move as the seat's own, unsigned, and reseals the rest.
    target = timeouts[0]["position"]
    forged = the_act_passed_off_as_the_seats(records, target)
    report = verify_records(forged, GAMES.get)
    assert not report.verified and report.chain_ok
    assert report.first_bad_position == target and "BAD_SIGNATURE" in report.problems[0], report.problems
