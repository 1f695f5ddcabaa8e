"""Properties of Alexandros only (the ones every game has are in ``tests/domain/test_conformance.py``):
a random game is quick, and bots that occupy and levy reach take-overs and the points end."""

from __future__ import annotations

import time

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.alexandros import GAME
from domain.alexandros.commands import LevyTaxes, OccupyProvince
from domain.kernel import Chance, engine
from domain.kernel.bots import play_random_game
from tests.domain.alexandros.conformance import END_REASONS, check_invariants
from tests.support.properties import check_legal_moves_accepted

seeds = st.binary(min_size=1, max_size=8)
player_counts = st.sampled_from([2, 3, 4])


def test_a_whole_random_game_is_well_under_a_second() -> None:
    began = time.perf_counter()
    played = play_random_game(GAME, 4, seed=b"timing")
    assert played.state.step == "over"
    assert time.perf_counter() - began < 1.0


@settings(max_examples=8, deadline=None)
@given(seed=seeds, players=player_counts)
def test_greedy_games_reach_takeovers_and_the_points_end(seed: bytes, players: int) -> None:
    """Random bots rarely levy; bots that occupy and levy whenever they can reach take-overs and
    100 points, which the uniform bots seldom do."""
    chance, rng = Chance(seed), Chance(seed + b"-greedy")
    state, _ = engine.start(GAME, players, GAME.normalize_options(players, {}), chance)
    steps = 0
    while not GAME.is_over(state):
        (seat,) = GAME.awaited(state)
        moves = GAME.legal_moves(state, seat, rng)
        eager = [m for m in moves if isinstance(m, (OccupyProvince, LevyTaxes))]
        if steps % 11 == 0:
            check_legal_moves_accepted(GAME, state, seat, chance)
        state, _ = engine.execute(GAME, state, seat, rng.choice("pick", eager or moves), chance)
        check_invariants(state)
        steps += 1
    assert state.end in END_REASONS
    if state.end == "points":
        assert max(state.scores) >= 100
