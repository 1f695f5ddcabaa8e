"""Signed commands over HTTP: a seat that joined with a ``public_key`` has every command refused
(401 BAD_SIGNATURE, nothing recorded) unless it carries the seat's signature over the wire format
of docs/signed-commands.md; seats without a key play as before; the export of a keyed game verifies
offline, and says which seats were keyed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from fastapi.testclient import TestClient

from api.cli.main import main
from domain.kernel.log import canonical
from domain.kernel.signatures import encode
from tests.support.http import auth

ROUTE = "/games/{}/commands/sealed_guess"


def b64url(raw: bytes) -> str:
    """The wire format, written out here as a client would (not the server's helper)."""
    import base64

    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def public_key_of(private: Ed25519PrivateKey) -> str:
    return b64url(private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw))


def signed_body(
    private: Ed25519PrivateKey,
    game_id: str,
    seat: int,
    version: int,
    command_id: str,
    command: dict[str, Any],
    contribution: str | None = None,
) -> dict[str, Any]:
    """A client's signed command body, built from the documented wire format alone."""
    payload: dict[str, Any] = {
        "game_id": game_id,
        "seat": seat,
        "expected_version": version,
        "command_id": command_id,
        "command": command,
    }
    if contribution is not None:
        payload["contribution"] = contribution
    message = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    body = {
        **command,
        "expected_version": version,
        "command_id": command_id,
        "signature": b64url(private.sign(message)),
    }
    if contribution is not None:
        body["contribution"] = contribution
    return body


def keyed_game(client: TestClient, keyed: list[bool]) -> tuple[str, list[str], list[Ed25519PrivateKey | None], int]:
    created = client.post("/games", json={"game": "sealed_guess", "players": len(keyed), "open_seats": True})
    assert created.status_code == 201, created.text
    game = created.json()["game_id"]
    keys = [Ed25519PrivateKey.generate() if k else None for k in keyed]
    tokens, version = [], 0
    for seat, private in enumerate(keys):
        body: dict[str, Any] = {"name": f"P{seat}", "seat": seat}
        if private is not None:
            body["public_key"] = public_key_of(private)
        joined = client.post(f"/games/{game}/join", json=body)
        assert joined.status_code == 201, joined.text
        tokens.append(joined.json()["token"])
        version = joined.json()["version"]
    return game, tokens, keys, version


def events(client: TestClient, game: str) -> list[dict[str, Any]]:
    return client.get(f"/games/{game}/events").json()


GUESS = {"type": "commit_guess", "guess": 3}


def refusal_of(answer: Any) -> str:
    assert answer.status_code == 401, answer.text
    return str(answer.json()["error"]["code"])


def test_a_keyed_seats_join_records_its_key_publicly(client: TestClient) -> None:
    game, _, keys, _ = keyed_game(client, [True, False])
    taken = [r for r in events(client, game) if r["type"] == "SeatTaken"]
    assert taken[0]["data"] == {"seat": 0, "name": "P0", "public_key": public_key_of(keys[0]), "game_id": game}  # type: ignore[arg-type]
    assert taken[1]["data"] == {"seat": 1, "name": "P1"}


def test_a_join_with_a_malformed_key_is_refused_and_takes_no_seat(client: TestClient) -> None:
    created = client.post("/games", json={"game": "sealed_guess", "players": 2, "open_seats": True}).json()
    for key in ["A" * 42 + "B", "A" * 43 + "=", "short", encode(bytes(32)).replace("A", "+")]:
        answer = client.post(f"/games/{created['game_id']}/join", json={"name": "Ann", "public_key": key})
        assert answer.status_code == 400, (key, answer.text)
        assert answer.json()["error"]["code"] in {"BAD_KEY", "BAD_INPUT"}
    assert [r["type"] for r in events(client, created["game_id"])] == ["GameCreated"]


def test_unsigned_wrongly_signed_replayed_and_other_seat_signatures_are_refused(client: TestClient) -> None:
    game, tokens, keys, version = keyed_game(client, [True, True])
    other_game, _, _, other_version = keyed_game(client, [True, True])
    mine, theirs = keys[0], keys[1]
    assert mine is not None and theirs is not None
    before = events(client, game)
    bodies = {
        "unsigned": {**GUESS, "expected_version": version, "command_id": "c1"},
        "no expected_version": {
            k: v for k, v in signed_body(mine, game, 0, version, "c1", GUESS).items() if k != "expected_version"
        },
        "no command_id": {
            k: v for k, v in signed_body(mine, game, 0, version, "c1", GUESS).items() if k != "command_id"
        },
        "wrong key": signed_body(Ed25519PrivateKey.generate(), game, 0, version, "c1", GUESS),
        "other seat's key": signed_body(theirs, game, 0, version, "c1", GUESS),
        "signed as the other seat": signed_body(mine, game, 1, version, "c1", GUESS),
        "other game": signed_body(mine, other_game, 0, other_version, "c1", GUESS),
        "tampered": {**signed_body(mine, game, 0, version, "c1", GUESS), "guess": 4},
        "tampered id": {**signed_body(mine, game, 0, version, "c1", GUESS), "command_id": "c2"},
        "contribution added": {**signed_body(mine, game, 0, version, "c1", GUESS), "contribution": "ab" * 16},
    }
    for name, body in bodies.items():
        answer = client.post(ROUTE.format(game), json=body, headers=auth(tokens[0]))
        assert refusal_of(answer) == "BAD_SIGNATURE", name
    assert events(client, game) == before  # nothing recorded
    good = signed_body(mine, game, 0, version, "c1", GUESS)
    accepted = client.post(ROUTE.format(game), json=good, headers=auth(tokens[0]))
    assert accepted.status_code == 200, accepted.text
    (record,) = [r for r in accepted.json()["events"] if r["type"] == "CommandAccepted"]
    assert record["data"]["signature"] == good["signature"]
    assert record["public"]["signature"] == good["signature"]  # what every viewer sees
    # The same signed body sent to another game whose seat 0 has another key: refused there.
    _, other_tokens, _, _ = keyed_game(client, [True, True])
    assert refusal_of(client.post(ROUTE.format(other_game), json=good, headers=auth(other_tokens[0])))
    # A signature made at one version, sent again with a new command id at a later one: refused.
    version = accepted.json()["version"]
    later = client.post(
        ROUTE.format(game), json=signed_body(theirs, game, 1, version, "d1", GUESS), headers=auth(tokens[1])
    )
    assert later.status_code == 200, later.text
    stale = {**good, "command_id": "c9", "expected_version": later.json()["version"]}
    assert refusal_of(client.post(ROUTE.format(game), json=stale, headers=auth(tokens[0]))) == "BAD_SIGNATURE"


def test_a_signed_command_is_checked_before_the_games_rules(client: TestClient) -> None:
    game, tokens, _, _ = keyed_game(client, [True, False])
    answer = client.post(ROUTE.format(game), json={"type": "commit_guess", "guess": 9}, headers=auth(tokens[0]))
    assert refusal_of(answer) == "BAD_SIGNATURE"  # not the rule's GUESS_RANGE: an unsigned sender learns nothing


def test_seats_without_a_key_play_as_before_and_may_not_sign(client: TestClient) -> None:
    game, tokens, _, _ = keyed_game(client, [True, False])
    plain = client.post(ROUTE.format(game), json=GUESS, headers=auth(tokens[1]))
    assert plain.status_code == 200, plain.text
    stray = signed_body(Ed25519PrivateKey.generate(), game, 1, plain.json()["version"], "x", GUESS)
    assert refusal_of(client.post(ROUTE.format(game), json=stray, headers=auth(tokens[1]))) == "BAD_SIGNATURE"


def test_a_keyed_game_played_to_the_end_verifies_offline_and_names_its_keyed_seats(
    client: TestClient, tmp_path: Path
) -> None:
    game, tokens, keys, version = keyed_game(client, [True, False, True])
    sent = 0
    while True:
        view = client.get(f"/games/{game}", params={"min_version": version}).json()
        if view["status"] == "ended":
            break
        assert view["awaited"], {k: view[k] for k in ("status", "version", "awaited")}
        seat = int(sorted(view["awaited"])[0])
        listed = client.get(f"/games/{game}/legal-moves", headers=auth(tokens[seat])).json()
        move = listed["moves"][sent % len(listed["moves"])]
        sent += 1
        private = keys[seat]
        if private is not None:
            contribution = "cd" * 16 if sent == 1 else None
            body = signed_body(private, game, seat, listed["version"], f"m{sent}", move, contribution)
        else:
            body = {**move, "expected_version": listed["version"]}
        answer = client.post(ROUTE.format(game), json=body, headers=auth(tokens[seat]))
        assert answer.status_code == 200, answer.text
        version = answer.json()["version"]
    export = client.get(f"/games/{game}/export")
    assert export.status_code == 200
    file = tmp_path / "keyed.jsonl"
    file.write_text(export.text)
    result = CliRunner().invoke(main, ["verify", str(file), "--json"])
    (report,) = json.loads(result.stdout)["files"]
    assert result.exit_code == 0 and report["verified"], report
    assert report["keyed_seats"] == [0, 2] and "seat(s) 0, 2" in report["statement"]
    online = client.get(f"/games/{game}/verify").json()
    assert online["verified"] and online["keyed_seats"] == [0, 2]
    # The records hold what was signed, in the canonical form a verifier recomputes.
    first = next(r for r in export.text.splitlines() if '"CommandAccepted"' in r)
    assert canonical(json.loads(first)) == first


def test_a_signed_command_must_be_sent_with_every_field_as_recorded(client: TestClient) -> None:
    """The record holds the parsed command: a field left to its default would make the signature
    one over something else than the record shows, so it is refused, naming the recorded form."""
    created = client.post("/games", json={"game": "alexandros", "players": 2, "open_seats": True}).json()
    game = created["game_id"]
    keys = [Ed25519PrivateKey.generate(), Ed25519PrivateKey.generate()]
    tokens = [
        client.post(f"/games/{game}/join", json={"name": f"P{s}", "public_key": public_key_of(k)}).json()["token"]
        for s, k in enumerate(keys)
    ]
    listings = [client.get(f"/games/{game}/legal-moves", headers=auth(t)).json() for t in tokens]
    seat = next(s for s, listed in enumerate(listings) if listed["moves"])  # the seat whose turn it is
    listed = listings[seat]
    move = next(m for m in listed["moves"] if m.get("card") is None)
    short = {k: v for k, v in move.items() if k != "card"}  # the parser fills in card: null
    before = events(client, game)
    body = signed_body(keys[seat], game, seat, listed["version"], "m1", short)
    answer = client.post(f"/games/{game}/commands/alexandros", json=body, headers=auth(tokens[seat]))
    assert refusal_of(answer) == "BAD_SIGNATURE" and '"card":null' in answer.json()["error"]["message"]
    assert events(client, game) == before
    full = signed_body(keys[seat], game, seat, listed["version"], "m1", move)
    answer = client.post(f"/games/{game}/commands/alexandros", json=full, headers=auth(tokens[seat]))
    assert answer.status_code == 200, answer.text


def test_the_documented_python_client_signs_what_the_server_accepts(client: TestClient) -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "signed-commands.md").read_text()
    example = doc.split("```python\n", 1)[1].split("```", 1)[0]
    namespace: dict[str, Any] = {}
    exec(compile(example, "docs/signed-commands.md", "exec"), namespace)
    key = Ed25519PrivateKey.generate()
    created = client.post("/games", json={"game": "sealed_guess", "players": 2, "open_seats": True}).json()
    game = created["game_id"]
    joined = client.post(f"/games/{game}/join", json={"name": "Ann", "public_key": namespace["public_key_of"](key)})
    client.post(f"/games/{game}/join", json={"name": "Bo"})
    seat, token = joined.json()["seat"], joined.json()["token"]
    version = client.get(f"/games/{game}/legal-moves", headers=auth(token)).json()["version"]
    body = namespace["signed_command"](key, game, seat, version, "first", GUESS, "ef" * 16)
    answer = client.post(ROUTE.format(game), json=body, headers=auth(token))
    assert answer.status_code == 200, answer.text


def test_a_reloaded_or_snapshotted_game_still_knows_its_keys(client: TestClient, settings: Any) -> None:
    from infra.bootstrap import build_service
    from infra.games.aggregate import MatchTranscoding

    game, tokens, keys, version = keyed_game(client, [True, False])
    fresh = build_service(settings)  # no cache: the game is rebuilt from its stored log
    try:
        match = fresh.load(game).match
        assert match.keys == {0: public_key_of(keys[0])} and match.game_id == game  # type: ignore[arg-type]
        snapshot = MatchTranscoding().decode(MatchTranscoding().encode(match))
        assert snapshot.keys == match.keys and snapshot.game_id == game
        unsigned = {**GUESS, "expected_version": version, "command_id": "c1"}
        try:
            fresh.execute(game, tokens[0], unsigned, version, "c1")
        except Exception as refusal:
            assert getattr(refusal, "code", None) == "BAD_SIGNATURE"
        else:
            raise AssertionError("an unsigned command of a keyed seat was accepted after a reload")
    finally:
        fresh.close()


def test_a_game_that_requires_keys_refuses_a_join_without_one(client: TestClient) -> None:
    body = {"game": "sealed_guess", "players": 2, "open_seats": True, "keys_required": True}
    created = client.post("/games", json=body)
    assert created.status_code == 201, created.text
    game = created.json()["game_id"]
    (record,) = events(client, game)
    assert record["data"]["keys_required"] is True and record["data"]["open_seats"] is True
    bare = client.post(f"/games/{game}/join", json={"name": "Ann"})
    assert bare.status_code == 400 and bare.json()["error"]["code"] == "KEY_REQUIRED"
    assert len(events(client, game)) == 1  # no seat taken
    keyed = client.post(
        f"/games/{game}/join", json={"name": "Ann", "public_key": public_key_of(Ed25519PrivateKey.generate())}
    )
    assert keyed.status_code == 201, keyed.text
    # Without open seats the creator holds every token: each seat registers its key before it acts.
    closed = client.post("/games", json={**body, "open_seats": False}).json()
    game, tokens = closed["game_id"], [s["token"] for s in closed["seats"]]
    version = closed["version"]
    unkeyed = client.post(ROUTE.format(game), json={**GUESS, "expected_version": version}, headers=auth(tokens[0]))
    assert refusal_of(unkeyed) == "BAD_SIGNATURE" and "register" in unkeyed.json()["error"]["message"]
    key = Ed25519PrivateKey.generate()
    keyed_at = client.post(f"/games/{game}/key", json={"public_key": public_key_of(key)}, headers=auth(tokens[0]))
    version = keyed_at.json()["version"]
    signed = signed_body(key, game, 0, version, "c1", GUESS)
    assert client.post(ROUTE.format(game), json=signed, headers=auth(tokens[0])).status_code == 200


def test_a_seat_of_a_created_game_registers_its_key_once_before_its_first_command(
    client: TestClient, tmp_path: Path
) -> None:
    created = client.post("/games", json={"game": "sealed_guess", "players": 2, "seed": "later"}).json()
    game, tokens = created["game_id"], [s["token"] for s in created["seats"]]
    key = Ed25519PrivateKey.generate()
    assert client.post(f"/games/{game}/key", json={"public_key": public_key_of(key)}).status_code == 401
    answer = client.post(f"/games/{game}/key", json={"public_key": public_key_of(key)}, headers=auth(tokens[0]))
    assert answer.status_code == 201, answer.text
    assert answer.json()["seat"] == 0
    version = answer.json()["version"]
    keyed = events(client, game)[-1]
    assert keyed["type"] == "SeatKeyed" and keyed["data"] == {
        "seat": 0,
        "public_key": public_key_of(key),
        "game_id": game,
    }
    again = client.post(f"/games/{game}/key", json={"public_key": public_key_of(key)}, headers=auth(tokens[0]))
    assert again.status_code == 409 and again.json()["error"]["code"] == "KEY_ALREADY_SET"
    unsigned = {**GUESS, "expected_version": version, "command_id": "c1"}
    assert refusal_of(client.post(ROUTE.format(game), json=unsigned, headers=auth(tokens[0]))) == "BAD_SIGNATURE"
    signed = client.post(
        ROUTE.format(game), json=signed_body(key, game, 0, version, "c1", GUESS), headers=auth(tokens[0])
    )
    assert signed.status_code == 200, signed.text
    # Seat 1 plays unsigned first: a key would come too late to cover all of its commands.
    assert client.post(ROUTE.format(game), json=GUESS, headers=auth(tokens[1])).status_code == 200
    late = client.post(f"/games/{game}/key", json={"public_key": public_key_of(key)}, headers=auth(tokens[1]))
    assert late.status_code == 409 and late.json()["error"]["code"] == "KEY_ALREADY_SET"
    n = 1
    while True:
        listed = [client.get(f"/games/{game}/legal-moves", headers=auth(t)).json() for t in tokens]
        seat = next((s for s, answer in enumerate(listed) if answer["moves"]), None)
        if seat is None:
            break
        n += 1
        body = signed_body(key, game, 0, listed[0]["version"], f"c{n}", GUESS) if seat == 0 else GUESS
        assert client.post(ROUTE.format(game), json=body, headers=auth(tokens[seat])).status_code == 200
    report = client.get(f"/games/{game}/verify").json()
    assert report["verified"] and report["keyed_seats"] == [0], report
