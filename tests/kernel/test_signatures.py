"""Seat keys and signed commands in the kernel: a keyed seat's commands are refused unless signed by
its key over exactly the payload docs/signed-commands.md gives, and the offline verifier finds a
command that was changed, inserted or stripped of its signature for a keyed seat, even when a
forger holding the seed re-executed and resealed everything else."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.catalog import GAMES
from domain.kernel.bots import RandomBot
from domain.kernel.chance import Chance
from domain.kernel.errors import RuleViolation
from domain.kernel.log import COMMAND_ACCEPTED, Record, for_viewer
from domain.kernel.match import SEAT_KEYED, SEAT_TAKEN, Match
from domain.kernel.messages import Command
from domain.kernel.seats import Seat
from domain.kernel.signatures import (
    BAD_KEY,
    BAD_SIGNATURE,
    KEY_ALREADY_SET,
    KEY_REQUIRED,
    encode,
    parse_public_key,
    signed_payload,
)
from domain.kernel.verification import verify_records
from tests.support.forgery import reseal

GAME_ID = "0b5c3a52-3c4e-4c59-9b7e-6c1f1d3f0a11"
OTHER_GAME_ID = "5f0e8a0c-1d2b-4e6f-8a9b-0c1d2e3f4a5b"


def public_key_of(private: Ed25519PrivateKey) -> str:
    return encode(private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw))


def command_of(command: Command) -> dict[str, Any]:
    return {"type": command.type, **command.to_dict()}


def sign(
    private: Ed25519PrivateKey,
    seat: Seat,
    version: int,
    command_id: str,
    command: Command,
    contribution: str | None = None,
    game_id: str = GAME_ID,
) -> str:
    return encode(private.sign(signed_payload(game_id, seat, version, command_id, command_of(command), contribution)))


class Table:
    """A sealed_guess game whose seats joined with the given keys (None: a seat without one)."""

    def __init__(self, keys: Sequence[Ed25519PrivateKey | None], seed: bytes = b"signed") -> None:
        self.keys = list(keys)
        self.match, self.records = Match.create(GAMES.get("sealed_guess"), len(keys), {}, seed, open_seats=True)
        for seat, private in enumerate(keys):
            public = public_key_of(private) if private is not None else None
            self.records += self.match.take_seat(f"P{seat}", seat, public, GAME_ID if public else None)[1]
        self.sent = 0

    def play(self, seat: Seat, command: Command, contribution: str | None = None) -> list[Record]:
        """Send ``command`` for ``seat``, signed when the seat is keyed, as an honest client does."""
        self.sent += 1
        command_id = f"c{self.sent}"
        private = self.keys[seat]
        signature = sign(private, seat, self.match.version, command_id, command, contribution) if private else None
        records = self.match.execute(seat, command, command_id, contribution, signature=signature)
        self.records += records
        return records

    def play_to_end(self, bot_seed: bytes = b"bot") -> list[dict[str, Any]]:
        bot = RandomBot(bot_seed)
        while not self.match.is_over:
            self.play(*bot.next_move(self.match.game, self.match.state))
        return exported(self.records)


def exported(records: list[Record]) -> list[dict[str, Any]]:
    return [for_viewer(r, None, reveal_all=True) for r in records]


def refused(call: Any) -> RuleViolation:
    with pytest.raises(RuleViolation) as refusal:
        call()
    return refusal.value


def guess(value: int) -> Command:
    return GAMES.get("sealed_guess").command_types["commit_guess"].from_dict({"guess": value})


def respelled(signature: str) -> str:
    """The same 64 bytes with a stray low bit in the last character (which decoders ignore)."""
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    return signature[:-1] + alphabet[alphabet.index(signature[-1]) | 1]


def keyed_pair() -> Table:
    return Table([Ed25519PrivateKey.generate(), Ed25519PrivateKey.generate()])


# -- the service's rule, in the kernel -----------------------------------------------------------------


def test_a_keyed_seat_records_its_key_and_its_signatures_publicly() -> None:
    table = keyed_pair()
    taken = [r for r in table.records if r.type == SEAT_TAKEN]
    assert [r.data["public_key"] for r in taken] == [public_key_of(k) for k in table.keys if k]
    assert all(r.data["game_id"] == GAME_ID and r.viewers is None for r in taken)
    (accepted, *_) = table.play(0, guess(3))
    assert accepted.data["signature"] and accepted.public is not None
    assert accepted.public["signature"] == accepted.data["signature"]  # anyone may check it


@pytest.mark.parametrize(
    "signature_of",
    [
        pytest.param(lambda t, v: None, id="missing"),
        pytest.param(lambda t, v: sign(Ed25519PrivateKey.generate(), 0, v, "c1", guess(3)), id="wrong key"),
        pytest.param(lambda t, v: sign(t.keys[1], 1, v, "c1", guess(3)), id="other seat's signature"),
        pytest.param(lambda t, v: sign(t.keys[0], 0, v, "c1", guess(4)), id="tampered command"),
        pytest.param(lambda t, v: sign(t.keys[0], 0, v, "c2", guess(3)), id="other command id"),
        pytest.param(lambda t, v: sign(t.keys[0], 0, v - 1, "c1", guess(3)), id="other version"),
        pytest.param(lambda t, v: sign(t.keys[0], 0, v, "c1", guess(3), game_id=OTHER_GAME_ID), id="other game"),
        pytest.param(lambda t, v: sign(t.keys[0], 0, v, "c1", guess(3), "ab" * 16), id="contribution added"),
        pytest.param(lambda t, v: encode(bytes(64)), id="zeros"),
        pytest.param(lambda t, v: "not base64url!", id="malformed"),
        pytest.param(lambda t, v: sign(t.keys[0], 0, v, "c1", guess(3)) + "A", id="too long"),
        pytest.param(lambda t, v: respelled(sign(t.keys[0], 0, v, "c1", guess(3))), id="the right one respelled"),
    ],
)
def test_a_keyed_seats_command_without_its_own_signature_is_refused_and_changes_nothing(signature_of: Any) -> None:
    table = keyed_pair()
    version, last_hash, counters = table.match.version, table.match.last_hash, dict(table.match.chance.counters)
    signature = signature_of(table, version)
    refusal = refused(lambda: table.match.execute(0, guess(3), "c1", signature=signature))
    assert refusal.code == BAD_SIGNATURE
    assert (table.match.version, table.match.last_hash) == (version, last_hash)
    assert table.match.chance.counters == counters and table.match.state.guesses == {}
    table.play(0, guess(3))  # the honest signature still passes afterwards


def test_a_signature_cannot_be_replayed_at_a_later_version() -> None:
    table = keyed_pair()
    mine = table.keys[0]
    assert mine is not None
    signature = sign(mine, 0, table.match.version, "c1", guess(3))
    table.match.execute(0, guess(3), "c1", signature=signature)
    table.play(1, guess(2))  # the round ends; seat 0 is awaited again
    again = refused(lambda: table.match.execute(0, guess(3), "c1-again", signature=signature))
    assert again.code == BAD_SIGNATURE


def test_a_keyed_seat_needs_a_command_id() -> None:
    table = keyed_pair()
    refusal = refused(lambda: table.match.execute(0, guess(3), None, signature=encode(bytes(64))))
    assert refusal.code == BAD_SIGNATURE and "command_id" in refusal.message


def test_a_signed_command_must_be_sent_as_its_record_holds_it() -> None:
    """A client that leaves out a field the command has by default signed other bytes than the record
    will hold: refused before anything is recorded. Sent whole, the same move is admitted."""
    private = Ed25519PrivateKey.generate()
    game = GAMES.get("alexandros")
    match, _ = Match.create(game, 2, {}, b"whole", open_seats=True)
    for seat in range(2):
        match.take_seat(f"P{seat}", seat, public_key_of(private), GAME_ID)
    (seat,) = game.awaited(match.state)
    whole = command_of(game.legal_moves(match.state, seat, Chance(b"moves"))[0])
    short = {field: value for field, value in whole.items() if value is not None}
    assert short != whole, "the move has fields it takes by default"

    def signed(payload: dict[str, Any]) -> str:
        return encode(private.sign(signed_payload(GAME_ID, seat, match.version, "c1", payload, None)))

    version = match.version
    refusal = refused(lambda: match.admit_signed(seat, short, "c1", None, signed(short), version))
    assert refusal.code == BAD_SIGNATURE and "as it is recorded" in refusal.message
    signature = signed(whole)
    command = match.admit_signed(seat, whole, "c1", None, signature, version)
    assert match.execute(seat, command, "c1", signature=signature)[0].data["signature"] == signature


def test_the_signature_admitted_with_one_command_is_checked_again_for_any_other() -> None:
    """``execute`` does not check again the signature ``admit_signed`` checked, but only for that very
    command, command id and signature at that version: anything else is checked in full."""
    table = keyed_pair()
    private = table.keys[0]
    assert private is not None
    good = sign(private, 0, table.match.version, "c1", guess(3))
    admitted = table.match.admit_signed(0, command_of(guess(3)), "c1", None, good, table.match.version)
    for command, command_id in [(guess(4), "c1"), (admitted, "c2")]:
        refusal = refused(lambda: table.match.execute(0, command, command_id, signature=good))  # noqa: B023
        assert refusal.code == BAD_SIGNATURE
    assert table.match.execute(0, admitted, "c1", signature=good)


def test_a_seat_without_a_key_plays_as_before_and_may_not_sign() -> None:
    table = Table([Ed25519PrivateKey.generate(), None])
    taken = [r for r in table.records if r.type == SEAT_TAKEN]
    assert set(taken[1].data) == {"seat", "name"}  # an unkeyed seat's join is recorded as it always was
    (accepted, *_) = table.match.execute(1, guess(2), None)
    assert "signature" not in accepted.data
    stray = refused(lambda: table.match.execute(0, guess(2), "x", signature=None))
    assert stray.code == BAD_SIGNATURE
    unkeyed = Table([None, None])
    refusal = refused(lambda: unkeyed.match.execute(0, guess(2), "c1", signature=encode(bytes(64))))
    assert refusal.code == BAD_SIGNATURE and "no key" in refusal.message


@pytest.mark.parametrize(
    "key",
    [
        "",
        "A" * 42,
        "A" * 44,
        encode(bytes(32)) + "=",  # padding is not the wire format
        "A" * 42 + "B",  # 32 zero bytes spelled with a stray low bit: not their one spelling
        encode(bytes(31)),
        "+" * 43,  # base64, not base64url
        encode(bytes(33))[:43] + "/",
        12,
        encode(bytes(32)),  # a point of order 4: every "signature" of such a key is worthless
        encode(bytes([1]) + bytes(31)),  # the neutral point
        encode(bytes([2]) + bytes(31)),  # no point of the curve
    ],
)
def test_a_join_with_a_key_that_is_not_one_is_refused(key: Any) -> None:
    match, _ = Match.create(GAMES.get("sealed_guess"), 2, {}, b"k", open_seats=True)
    assert refused(lambda: match.take_seat("Ann", 0, key, GAME_ID)).code == BAD_KEY
    assert match.names == {} and match.keys == {}


# -- the verifier ------------------------------------------------------------------------------------


def test_a_keyed_game_verifies_end_to_end_and_the_report_names_its_keyed_seats() -> None:
    records = Table([Ed25519PrivateKey.generate(), None, Ed25519PrivateKey.generate()]).play_to_end()
    report = verify_records(records, GAMES.get)
    assert report.verified, report.problems
    assert report.keyed_seats == [0, 2]
    assert "seat(s) 0, 2 carries a valid signature" in report.statement
    unkeyed = verify_records(Table([None, None]).play_to_end(), GAMES.get)
    assert unkeyed.verified and unkeyed.keyed_seats == []
    assert "no seat is keyed" in unkeyed.statement


class ForgersMatch(Match):
    """The operator's server, which records whatever it likes for any seat: no signature is checked."""

    def check_signed(self, seat: Seat, command: Any, command_id: Any, contribution: Any, signature: Any, _: Any) -> Any:
        return signature


def forged(
    records: list[dict[str, Any]], position: int, command: dict[str, Any], controls: dict[str, Any] | None = None
) -> list[dict[str, Any]]:
    """The record re-executed by a forger holding the seed: the command at ``position`` replaced by
    ``command`` (and its command id and signature by those in ``controls``, if given), everything
    else as recorded; every hash and digest holds."""
    created = records[0]["data"]
    seed = bytes.fromhex(records[-1]["data"]["seed"])
    match, out = ForgersMatch.create(GAMES.get(created["game"]), created["players"], created["options"], seed, True)
    game = match.game
    for raw in records[1:]:
        if raw["type"] == SEAT_TAKEN:
            data = raw["data"]
            out += match.take_seat(data["name"], data["seat"], data.get("public_key"), data.get("game_id"))[1]
        elif raw["type"] == COMMAND_ACCEPTED and not match.is_over:
            data = raw["data"]
            sent = command if raw["position"] == position else data["command"]
            if raw["position"] == position and controls is not None:
                data = {**data, "command_id": controls["command_id"], "signature": controls["signature"]}
            parsed = game.command_types[sent["type"]].from_dict({k: v for k, v in sent.items() if k != "type"})
            contribution, signature = data.get("contribution"), data.get("signature")
            out += match.execute(data["seat"], parsed, data["command_id"], contribution, None, signature)
    return exported(out)


def first_command_of(records: list[dict[str, Any]], seat: Seat) -> dict[str, Any]:
    return next(r for r in records if r["type"] == COMMAND_ACCEPTED and r["data"]["seat"] == seat)


def test_a_command_changed_for_a_keyed_seat_fails_verification_even_resealed_by_the_seed_holder() -> None:
    records = Table([Ed25519PrivateKey.generate(), Ed25519PrivateKey.generate()]).play_to_end()
    target = first_command_of(records, 1)
    other = 1 + target["data"]["command"]["guess"] % 6
    forgery = forged(records, target["position"], {"type": "commit_guess", "guess": other})
    assert forgery != records and forgery[-1]["type"] == "GameEnded"
    report = verify_records(forgery, GAMES.get)
    assert not report.verified and report.chain_ok
    assert report.first_bad_position == target["position"]
    assert BAD_SIGNATURE in report.problems[0]


def test_the_same_forgery_passes_for_a_seat_without_a_key() -> None:
    """What a key adds: without one, the seed holder's rewritten game is a perfect record."""
    records = Table([None, None]).play_to_end()
    target = first_command_of(records, 1)
    other = 1 + target["data"]["command"]["guess"] % 6
    report = verify_records(forged(records, target["position"], {"type": "commit_guess", "guess": other}), GAMES.get)
    assert report.verified, report.problems


def test_a_stripped_altered_or_moved_signature_fails_verification_at_its_position() -> None:
    keys = [Ed25519PrivateKey.generate(), Ed25519PrivateKey.generate()]
    records = Table(keys).play_to_end()
    target = first_command_of(records, 0)
    p = target["position"]
    index = p - 1

    def with_data(change: Any) -> list[dict[str, Any]]:
        copied = copy.deepcopy(records)
        change(copied[index]["data"])
        # The signature is public: the public form (which the chain hashes) shows the same one.
        copied[index]["public"].pop("signature", None)
        if "signature" in copied[index]["data"]:
            copied[index]["public"]["signature"] = copied[index]["data"]["signature"]
        return reseal(copied)

    second = next(r for r in records if r["type"] == COMMAND_ACCEPTED and r["data"]["seat"] == 0 and r is not target)
    cases = {
        "stripped": lambda d: d.pop("signature"),
        "bit flipped": lambda d: d.update(signature=encode(bytes([1]) + bytes(63))),
        "another command's": lambda d: d.update(signature=second["data"]["signature"]),
        "command changed": lambda d: d["command"].update(guess=1 + d["command"]["guess"] % 6),
        "command id changed": lambda d: d.update(command_id=d["command_id"] + "x"),
    }
    for name, change in cases.items():
        report = verify_records(with_data(change), GAMES.get)
        assert not report.verified and report.first_bad_position == p, (name, report.problems)
        assert BAD_SIGNATURE in report.problems[0], name
    # A key swapped in the record makes the seat's first command fail (the key is no longer the signer's).
    swapped = copy.deepcopy(records)
    taken = next(r for r in swapped if r["type"] == SEAT_TAKEN and r["data"]["seat"] == 0)
    taken["data"]["public_key"] = public_key_of(Ed25519PrivateKey.generate())
    report = verify_records(reseal(swapped), GAMES.get)
    assert not report.verified and report.first_bad_position == p


def test_a_signed_command_replayed_at_another_version_fails_verification() -> None:
    """A forger who puts one of the seat's genuine signed commands (command, id and signature) in
    place of another, and re-executes the rest with the seed, is still found: each signature was
    made at the version its command was sent at."""
    records = Table([Ed25519PrivateKey.generate(), Ed25519PrivateKey.generate()]).play_to_end()
    target, later = [r for r in records if r["type"] == COMMAND_ACCEPTED and r["data"]["seat"] == 1][:2]
    forgery = forged(records, target["position"], later["data"]["command"], later["data"])
    report = verify_records(forgery, GAMES.get)
    assert not report.verified and report.chain_ok
    assert report.first_bad_position == target["position"] and BAD_SIGNATURE in report.problems[0]


def test_a_join_without_a_key_in_a_game_that_requires_keys_fails_verification() -> None:
    match, records = Match.create(GAMES.get("sealed_guess"), 2, {}, b"required", open_seats=True, keys_required=True)
    assert refused(lambda: match.take_seat("Ann", 0)).code == KEY_REQUIRED and match.names == {}
    keys = [Ed25519PrivateKey.generate(), Ed25519PrivateKey.generate()]
    table = Table(keys)
    table.match, table.records = match, records
    for seat, private in enumerate(keys):
        table.records += match.take_seat(f"P{seat}", seat, public_key_of(private), GAME_ID)[1]
    honest = table.play_to_end()
    assert verify_records(honest, GAMES.get).verified
    # The operator takes seat 1 without its key (and plays its moves unsigned), everything resealed.
    stripped = copy.deepcopy(honest)
    taken = next(r for r in stripped if r["type"] == SEAT_TAKEN and r["data"]["seat"] == 1)
    del taken["data"]["public_key"], taken["data"]["game_id"]
    for record in stripped:
        if record["type"] == COMMAND_ACCEPTED and record["data"]["seat"] == 1:
            del record["data"]["signature"], record["public"]["signature"]
    report = verify_records(reseal(stripped), GAMES.get)
    assert not report.verified and report.first_bad_position == taken["position"]
    assert KEY_REQUIRED in report.problems[0]


def test_a_key_registered_later_must_come_before_the_seats_first_command_also_in_the_record() -> None:
    keys = [Ed25519PrivateKey.generate(), None]
    match, records = Match.create(GAMES.get("sealed_guess"), 2, {}, b"later")
    table = Table([None, None])
    table.match, table.records = match, records
    table.records += match.register_key(0, public_key_of(keys[0]), GAME_ID)  # type: ignore[arg-type]
    table.keys = keys
    table.play(1, guess(2))
    assert refused(lambda: match.register_key(1, public_key_of(Ed25519PrivateKey.generate()), GAME_ID)).code == (
        KEY_ALREADY_SET
    )
    assert refused(lambda: match.register_key(0, public_key_of(Ed25519PrivateKey.generate()), GAME_ID)).code == (
        KEY_ALREADY_SET
    )
    honest = table.play_to_end()
    report = verify_records(honest, GAMES.get)
    assert report.verified and report.keyed_seats == [0]
    late = refused(lambda: match.register_key(1, public_key_of(Ed25519PrivateKey.generate()), GAME_ID))
    assert late.code == "GAME_OVER" and match.version == len(honest)
    # The key's record dropped (everything renumbered and resealed): the seat's signatures stand alone.
    dropped = reseal([r for r in honest if r["type"] != SEAT_KEYED])
    first = next(r for r in dropped if r["type"] == COMMAND_ACCEPTED and r["data"]["seat"] == 0)
    report = verify_records(dropped, GAMES.get)
    assert not report.verified and report.first_bad_position == first["position"]


# -- properties ----------------------------------------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(
    seed=st.binary(min_size=1, max_size=8),
    bot=st.binary(min_size=1, max_size=8),
    keyed=st.lists(st.booleans(), min_size=2, max_size=3),
)
def test_any_keyed_game_verifies_and_any_changed_signature_is_found(seed: bytes, bot: bytes, keyed: list[bool]) -> None:
    records = Table([Ed25519PrivateKey.generate() if k else None for k in keyed], seed).play_to_end(bot)
    report = verify_records(records, GAMES.get)
    assert report.verified and report.keyed_seats == [s for s, k in enumerate(keyed) if k]
    signed = [r for r in records if "signature" in r["data"]]
    assert len(signed) == sum(1 for r in records if r["type"] == COMMAND_ACCEPTED and keyed[r["data"]["seat"]])
    for record in signed[:3]:
        copied = copy.deepcopy(records)
        raw = bytearray(64)
        raw[record["position"] % 64] = 1
        for form in ("data", "public"):
            copied[record["position"] - 1][form]["signature"] = encode(bytes(raw))
        assert verify_records(reseal(copied), GAMES.get).first_bad_position == record["position"]


@given(key=st.binary(min_size=32, max_size=32).filter(lambda b: b != bytes(32)))
def test_public_keys_round_trip_through_the_wire_format(key: bytes) -> None:
    public = public_key_of(Ed25519PrivateKey.from_private_bytes(key))
    assert parse_public_key(public) == public and len(public) == 43 and "=" not in public
