"""The fast listing (issue 12) returns exactly what the listing before it returned: the same
commands in the same order, the same ``complete`` flag and the same draws, on every decision state
of random games (digests of what the code before the speed-up, commit 1ac42c0, listed). Where the
rules have not changed since the frozen benchmark baseline (the cards, targets and corners of a
move; the fixed actions; the governor choices of an occupation), it also agrees with that baseline."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator

import pytest

from domain.alexandros import GAME
from domain.alexandros.commands import MoveAlexander, OccupyProvince
from domain.alexandros.moves import legal_moves
from domain.alexandros.state import MOVE, State
from domain.kernel import Chance, Command
from domain.kernel.bots import play_random_game
from tests.benchmarks import alexandros_moves_baseline as baseline

GAMES = [(players, f"equivalence-{players}-{g}".encode()) for players in (2, 3, 4) for g in range(4)]


def decision_states(players: int, seed: bytes) -> Iterator[tuple[State, int]]:
    """Every state of a random game with each seat (awaited or not: the others get nothing)."""
    played = play_random_game(GAME, players, seed=seed, bot_seed=seed + b"-bot")
    state = GAME.initial_state(players, {})
    for event in played.events:
        state = GAME.evolve(state, event)
        if GAME.awaited(state):
            for seat in range(players):
                yield state, seat


# (players, seed) -> sha256 (first 32 hex digits) of every listing, its ``complete`` flag and the
# draws it made, over the game's decision states and seats, as listed before the speed-up.
LISTED_BEFORE = {
    (2, b"equivalence-2-0"): "7a33b0bb393433a3e81cca273330f958",
    (2, b"equivalence-2-1"): "e7723c0ce7d290e799003f74bfd84d11",
    (2, b"equivalence-2-2"): "736cb1c3c5c2aabb06e2f0c00c1cd8f8",
    (2, b"equivalence-2-3"): "30b65e621b7fcebe0c952fc32f305f58",
    (3, b"equivalence-3-0"): "e83d7f4ae1f68b05dc3aa1e13fc7ef73",
    (3, b"equivalence-3-1"): "7ba1427635eb4f750e31d49c0c198876",
    (3, b"equivalence-3-2"): "f498d667b5d8c7a34f58153a8a27d891",
    (3, b"equivalence-3-3"): "2be57645add06a3295d5266cd185ed80",
    (4, b"equivalence-4-0"): "e202fbb5c16249bf388d76f3a8e870ef",
    (4, b"equivalence-4-1"): "522dc8037560abc9d4ef3a00acc2a3e8",
    (4, b"equivalence-4-2"): "eaa02d74d04e0948051aa291d650425c",
    (4, b"equivalence-4-3"): "efaa599de5e1f1f0c7f58541af313147",
}


@pytest.mark.parametrize(("players", "seed"), GAMES)
def test_the_listing_is_the_one_before_the_speed_up(players: int, seed: bytes) -> None:
    rng = Chance(seed)  # one stream for the whole game: the draws are part of what must match
    digest, listings = hashlib.sha256(), 0
    for state, seat in decision_states(players, seed):
        listed = legal_moves(state, seat, rng)
        digest.update(repr((list(listed), listed.complete, sorted(rng.counters.items()))).encode())
        listings += bool(listed)
    assert listings > 50
    assert digest.hexdigest()[:32] == LISTED_BEFORE[(players, seed)]


def move_key(m: MoveAlexander) -> tuple[object, ...]:
    return (m.source, m.slot, m.card, m.joker_symbol, tuple(m.target), tuple(m.corner))


def agreed_part(moves: list[Command]) -> tuple[set[object], set[object]]:
    """What the rules have kept since the baseline: moves without their routes, occupations
    without their compensations, every other command whole."""
    moves_part = {move_key(m) for m in moves if isinstance(m, MoveAlexander)}
    others: set[object] = set()
    for m in moves:
        if isinstance(m, OccupyProvince):
            others.add(("occupy", tuple(tuple(g) for g in m.governors)))
        elif not isinstance(m, MoveAlexander):
            others.add(repr(m))
    return moves_part, others


@pytest.mark.parametrize(("players", "seed"), GAMES[::3])
def test_the_listing_agrees_with_the_frozen_baseline_where_the_rules_agree(players: int, seed: bytes) -> None:
    for state, seat in decision_states(players, seed):
        new = legal_moves(state, seat, Chance(b"new"))
        old = baseline.legal_moves(state, seat, Chance(b"old"))
        assert agreed_part(new) == agreed_part(old), (state, seat)
        if state.step == MOVE:  # corners with all their routes listed: the same routes
            old_paths = {(move_key(m), tuple(map(tuple, m.path))) for m in old}  # type: ignore[attr-defined]
            for m in new:
                if new.complete:
                    assert (move_key(m), tuple(map(tuple, m.path))) in old_paths  # type: ignore[attr-defined]
