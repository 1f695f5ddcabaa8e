from __future__ import annotations

import hmac
import json

import pytest

from domain.kernel import RuleViolation
from domain.kernel.bots import play_random_game
from domain.kernel.chance import Chance, hmac_sha256, seed_commitment
from domain.kernel.log import for_viewer
from domain.kernel.match import Match
from domain.kernel.verification import verify_records
from tests.kernel import fixture_game
from tests.kernel.fixture_game import GAME, CommitGuess
from tests.support.properties import (
    check_record_verifies,
    check_replay_rebuilds,
    play_recorded_game,
)


def test_chance_is_reproducible_and_per_purpose() -> None:
    a, b = Chance(b"s"), Chance(b"s")
    assert [a.die("dice") for _ in range(20)] == [b.die("dice") for _ in range(20)]
    assert a.counters == {"dice": 20}
    c = Chance(b"s")
    c.die("other")
    assert c.die("dice") == Chance(b"s").die("dice"), "a draw for one purpose never moves another stream"
    assert sorted(Chance(b"s").shuffle("deck", range(10))) == list(range(10))


def test_game_created_commits_to_the_seed_and_game_ended_reveals_it() -> None:
    _match, records = play_recorded_game(GAME, 3, seed=b"abc")
    assert records[0].data["seed_commitment"] == seed_commitment(b"abc")
    assert bytes.fromhex(records[-1].data["seed"]) == b"abc"


def test_private_record_is_redacted_for_others_and_whole_for_its_seat() -> None:
    match, _records = Match.create(GAME, 2, {}, b"seed")
    batch = match.execute(0, CommitGuess(4), command_id="c1")
    committed = batch[1]
    assert committed.type == "GuessCommitted"
    assert for_viewer(committed, 0, reveal_all=False)["data"] == {"seat": 0, "guess": 4}
    assert for_viewer(committed, 1, reveal_all=False)["data"] == {"seat": 0}
    assert for_viewer(committed, None, reveal_all=False)["data"] == {"seat": 0}
    accepted = for_viewer(batch[0], 1, reveal_all=False)
    assert accepted["data"] == {"seat": 0, "command": {"type": "commit_guess"}}, "a sealed command stays sealed"


def test_wrong_turn_and_bad_values_are_refused_and_change_nothing() -> None:
    match, _ = Match.create(GAME, 2, {}, b"seed")
    match.execute(0, CommitGuess(4))
    version = match.version
    with pytest.raises(RuleViolation) as refused:
        match.execute(0, CommitGuess(3))
    assert refused.value.code == "NOT_YOUR_TURN"
    with pytest.raises(RuleViolation) as refused:
        match.execute(1, CommitGuess(9))
    assert refused.value.code == "GUESS_RANGE"
    assert match.version == version


def test_replay_of_the_log_rebuilds_the_state() -> None:
    match, records = play_recorded_game(GAME, 3, seed=b"r")
    check_replay_rebuilds(GAME, match, records)


def test_a_finished_record_verifies_including_reexecution() -> None:
    _, records = play_recorded_game(GAME, 2, seed=b"v")
    check_record_verifies(GAME, records)


@pytest.mark.parametrize("field", ["data", "public", "prev"])
def test_tampering_names_the_first_bad_position(field: str) -> None:
    _, records = play_recorded_game(GAME, 2, seed=b"t")
    exported = [for_viewer(r, None, reveal_all=True) for r in records]
    target = next(r for r in exported if r["type"] == "GuessCommitted" and r["position"] > 3)
    if field == "data":
        target["public"] = {"seat": 1 - target["data"]["seat"]}
    elif field == "public":
        target["digest"] = "0" * 64
    else:
        target["prev"] = "f" * 64
    report = verify_records(exported, lambda _id: GAME)
    assert not report.chain_ok
    assert report.first_bad_position == target["position"]


def test_altered_hidden_data_fails_the_seed_check() -> None:
    _, records = play_recorded_game(GAME, 2, seed=b"h")
    exported = json.loads(json.dumps([for_viewer(r, None, reveal_all=True) for r in records]))
    target = next(r for r in exported if r["type"] == "GuessCommitted")
    target["data"]["guess"] = target["data"]["guess"] % 6 + 1
    report = verify_records(exported, lambda _id: GAME)
    assert report.chain_ok and report.seed_ok is False


def test_altered_outcome_with_a_recomputed_chain_fails_reexecution() -> None:
    _match, records = play_recorded_game(GAME, 2, seed=b"x")
    # Forge a whole consistent chain with one die changed: only re-execution can catch it.
    forged = Match(GAME, 2, {}, Chance(b"x"))
    rebuilt = []
    from domain.kernel.log import make_record

    for r in records:
        data = dict(r.data)
        if r.type == "DieRolled" and not rebuilt_has_die(rebuilt):
            data["value"] = data["value"] % 6 + 1
        record = make_record(
            position=r.position,
            type_=r.type,
            data=data,
            prev=forged.last_hash,
            chance=forged.chance,
            viewers=frozenset(r.viewers) if r.viewers is not None else None,
            public=r.public,
            counters=r.chance,
        )
        forged.last_hash = record.hash
        rebuilt.append(record)
    report = verify_records([for_viewer(r, None, True) for r in rebuilt], lambda _id: GAME)
    assert report.chain_ok and report.seed_ok is False
    assert "re-execution" in " ".join(report.problems)


def rebuilt_has_die(records: list) -> bool:
    return any(r.type == "DieRolled" for r in records)


def test_random_bots_finish_the_fixture_game() -> None:
    played = play_random_game(GAME, 3, seed=b"p")
    assert fixture_game.GAME.is_over(played.state)
    assert played.events[-1].type == "GameEnded"


def test_an_event_with_hidden_fields_and_no_owner_is_secret_from_every_seat() -> None:
    from dataclasses import dataclass

    from domain.kernel import Event

    @dataclass(frozen=True, slots=True)
    class StackShuffled(Event):
        hidden = ("order",)
        stack: str
        order: list[str]

    event = StackShuffled("A", ["A3", "A1", "A2"])
    assert event.viewers() == frozenset()
    assert event.public_form() == {"stack": "A"}


def test_only_a_batch_that_drew_on_chance_records_the_counters() -> None:
    match, _ = Match.create(GAME, 2, {}, b"seed")
    quiet = match.execute(0, CommitGuess(4))
    rolled = match.execute(1, CommitGuess(2))
    assert all(r.chance is None for r in quiet)
    assert [r.chance for r in rolled if r.chance is not None] == [{"dice": 1}]
    assert rolled[-1].chance == {"dice": 1}


def test_a_seat_may_send_an_optional_command_without_being_awaited() -> None:
    from dataclasses import replace

    from domain.kernel import engine

    # Seat 1 may (optionally) commit while seat 0 is the one the game waits for.
    game = replace(
        GAME,
        awaited=lambda s: {0: ("commit_guess",)} if 0 not in s.guesses else {},
        optional=lambda s: {1: ("commit_guess",)} if 1 not in s.guesses else {},
    )
    state = game.initial_state(2, {"rounds": 1})
    state, events = engine.execute(game, state, 1, CommitGuess(2), Chance(b"o"))
    assert [e.type for e in events] == ["GuessCommitted"]
    with pytest.raises(RuleViolation) as refused:
        engine.execute(game, state, 1, CommitGuess(2), Chance(b"o"))
    assert refused.value.code == "NOT_YOUR_TURN"


def test_a_refused_command_does_not_move_the_chance_streams() -> None:
    from dataclasses import replace

    def decide_after_a_draw(state, seat, command, chance):  # type: ignore[no-untyped-def]
        chance.die("dice")  # a rule that draws, then refuses
        raise RuleViolation("LATE_REFUSAL", "refused after drawing")

    game = replace(GAME, decide=decide_after_a_draw)
    match, _ = Match.create(game, 2, {}, b"seed")
    with pytest.raises(RuleViolation):
        match.execute(0, CommitGuess(3))
    assert match.chance.counters == {}


@pytest.mark.parametrize("key", [b"s", b"k" * 32, b"x" * 64, b"y" * 65, bytes(range(200))])
def test_the_draws_hmac_is_hmac_sha256(key: bytes) -> None:
    for message in (b"", b"dice:12:0", b"m" * 100):
        assert hmac_sha256(key, message) == hmac.digest(key, message, "sha256")
