"""The key of every draw mixes the committed seed with each seat's contribution."""

from __future__ import annotations

import pytest

from domain.kernel import RuleViolation, engine
from domain.kernel.chance import Chance, creator_seed_of, salted_seed, seed_commitment
from domain.kernel.match import Match
from tests.kernel.fixture_game import GAME, CommitGuess

A, B = "aa" * 16, "bb" * 16


def draws(chance: Chance) -> list[int]:
    return [chance.below("x", 2**64) for _ in range(4)]


def test_a_contribution_changes_every_later_draw_and_nothing_before() -> None:
    plain, mixed = Chance(b"seed"), Chance(b"seed")
    assert draws(plain) == draws(mixed)
    mixed.contribute(0, A)
    assert draws(Chance(b"seed", plain.counters)) != draws(Chance(b"seed", plain.counters, [(0, A)]))
    assert mixed.seed_hex == plain.seed_hex and mixed.commitment == seed_commitment(b"seed")
    assert mixed.derive_key("k") == plain.derive_key("k"), "digests stay keyed by the committed seed"


def test_the_mix_depends_on_who_contributed_what_in_which_order() -> None:
    def key_draws(contributions: list[tuple[int, str]]) -> list[int]:
        return draws(Chance(b"seed", None, contributions))

    assert key_draws([(0, A), (1, B)]) == key_draws([(0, A), (1, B)])
    assert len({tuple(key_draws(c)) for c in ([(0, A), (1, B)], [(1, B), (0, A)], [(1, A), (0, B)], [(0, B)])}) == 4
    withdrawn = Chance(b"seed", None, [(0, A), (1, B)])
    withdrawn.withdraw_last()
    assert draws(withdrawn) == key_draws([(0, A)])


def test_a_seat_contributes_once_and_a_refused_command_spends_nothing() -> None:
    match, _ = Match.create(GAME, 2, {}, b"seed")
    with pytest.raises(RuleViolation) as refused:
        match.execute(0, CommitGuess(9), contribution=A)
    assert refused.value.code == "GUESS_RANGE" and match.chance.contributions == [] and match.version == 1
    records = match.execute(0, CommitGuess(3), contribution=A.upper())
    assert records[0].data["contribution"] == A and records[0].public == {
        "seat": 0,
        "command": {"type": "commit_guess"},
        "contribution": A,
    }
    with pytest.raises(RuleViolation) as twice:
        match.execute(1, CommitGuess(3), contribution="zz" * 16)
    assert twice.value.code == "BAD_INPUT"
    match.execute(1, CommitGuess(3), contribution=B)
    assert match.chance.contributions == [(0, A), (1, B)]
    with pytest.raises(RuleViolation) as again:
        match.execute(0, CommitGuess(3), contribution=B)
    assert again.value.code == "ALREADY_CONTRIBUTED"


def test_a_server_seed_keeps_the_creators_part_readable() -> None:
    seed = salted_seed(bytes(32), b"cup2026-1")
    assert creator_seed_of(seed.hex()) == b"cup2026-1"
    with pytest.raises(ValueError):
        salted_seed(b"short", b"x")


def test_the_turn_is_checked_once_per_command(monkeypatch: pytest.MonkeyPatch) -> None:
    """Admitted from client JSON and executed with a contribution: one ``check_turn``, not three."""
    checked: list[int] = []
    check_turn = engine.check_turn

    def counted(*args: object) -> None:
        checked.append(1)
        check_turn(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(engine, "check_turn", counted)
    match, _ = Match.create(GAME, 2, {}, b"seed")
    match.execute(0, match.admit(0, {"type": "commit_guess", "guess": 3}), contribution=A)
    assert len(checked) == 1
    match.execute(1, CommitGuess(3))  # not admitted first: executing checks it
    assert len(checked) == 2
