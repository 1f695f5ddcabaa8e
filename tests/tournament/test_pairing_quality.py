"""Pairing rule 2's targets on a fixed set of seeded events (the figures over 100 events of each
shape are the pairing benchmark's, ``tests/benchmarks/bench_pairings.py``): no repeat meeting a
repeat-free seating of the round or a round of lookahead avoids, seats within one of perfect
(perfect in a balanced schedule), no seat three games running at 2-player tables, mixed tables
instead of byes, and rule 1 still seating the tournaments that name no rule."""

from __future__ import annotations

import pytest

from domain.tournament import rules
from domain.tournament.pairing_v2 import table_sizes
from tests.tournament.pairing_quality import play

SEEDS = [f"quality-{i}" for i in range(6)]


@pytest.mark.parametrize("seed", SEEDS)
def test_sixteen_players_at_tables_of_four_meet_nobody_twice_where_a_round_of_lookahead_avoids_it(seed: str) -> None:
    quality = play(16, 4, 4, seed).quality
    assert (quality.avoidable, quality.lookahead_avoidable) == (0, 0)
    assert quality.off_by_more == 0


def test_rule_1_seats_the_avoidable_repeats_rule_2_avoids() -> None:
    """The same events by rule 1: its round-4 repeats are ones a round of lookahead avoids."""
    old = [play(16, 4, 4, seed, pairing=1).quality for seed in SEEDS]
    new = [play(16, 4, 4, seed).quality for seed in SEEDS]
    assert sum(q.lookahead_avoidable for q in old) > 0
    assert sum(q.repeats for q in new) < sum(q.repeats for q in old)


@pytest.mark.parametrize("seed", SEEDS[:2])
def test_sixty_four_players_over_six_rounds_seat_no_avoidable_repeat(seed: str) -> None:
    quality = play(64, 6, 4, seed).quality
    assert quality.avoidable == 0 and quality.lookahead_avoidable == 0
    assert quality.off_by_more == 0


@pytest.mark.parametrize("seed", SEEDS)
def test_at_two_player_tables_nobody_sits_in_one_seat_three_games_running(seed: str) -> None:
    quality = play(16, 5, 2, seed).quality
    assert quality.three_running == 0
    assert quality.off_by_more == 0  # colours never differ by more than two after five games
    assert quality.avoidable == 0


@pytest.mark.parametrize("seed", SEEDS[:3])
def test_a_balanced_schedule_gives_every_player_every_seat_once(seed: str) -> None:
    quality = play(16, 4, 4, seed, "balanced").quality
    assert quality.repeats == 0 and quality.imperfect == 0


@pytest.mark.parametrize("seed", SEEDS[:2])
def test_mixed_tables_instead_of_byes(seed: str) -> None:
    event = play(18, 4, 4, seed, min_table=3)
    assert event.quality.byes == 0
    for tables in event.log.state.rounds:
        assert sorted(len(t.players) for t in tables) == [3, 3, 4, 4, 4]
    assert event.quality.avoidable == 0 and event.quality.lookahead_avoidable == 0
    # Without a smaller table allowed, two sit out each round, as before.
    assert play(18, 4, 4, seed).quality.byes == 8


def test_table_sizes_take_the_fewest_byes_then_the_fewest_seats_off_the_table_size() -> None:
    assert table_sizes(18, 4, 3, 4) == ([4, 4, 4, 3, 3], 0)
    assert table_sizes(18, 4, 4, 5) == ([5, 5, 4, 4], 0)
    assert table_sizes(18, 4, 4, 4) == ([4, 4, 4, 4], 2)
    assert table_sizes(5, 2, 2, 3) == ([3, 2], 0)
    assert table_sizes(7, 4, 4, 4) == ([4], 3)


def test_a_smaller_table_scores_its_places_across_the_table_sizes_points() -> None:
    event = play(18, 1, 4, "points", min_table=3)
    config = event.log.state.settings
    assert config.points_for(4) == [6, 5, 3, 1]
    assert config.points_for(3) == [6, 4, 1]  # first and last keep theirs; the middle is between
    rows = rules.current_standings(event.log.state)
    assert sum(row["games"] for row in rows) == 18
