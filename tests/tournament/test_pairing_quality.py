"""The pairing rules' targets on a fixed set of seeded events (the figures over 100 events of each
shape are the pairing benchmark's, ``tests/benchmarks/bench_pairings.py``): no repeat meeting a
repeat-free seating of the round or a round of lookahead avoids, seats within one of perfect and
perfect where a perfect assignment of the same tables exists (rule 4, the default, at mixed table
sizes too), no seat three games running at 2-player tables, mixed tables instead of byes, and
rules 1, 2 and 3 still seating the tournaments recorded with them as they did."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest

from domain.tournament import rules
from domain.tournament.config import PAIRING_V2, PAIRING_V3, PAIRING_V4
from domain.tournament.pairing_v2 import table_sizes
from tests.tournament.pairing_quality import perfect_seats_exist, play
from tests.tournament.simulated import simulate

SEEDS = [f"quality-{i}" for i in range(6)]


@pytest.mark.parametrize("seed", SEEDS)
def test_sixteen_players_at_tables_of_four_meet_nobody_twice_where_a_round_of_lookahead_avoids_it(seed: str) -> None:
    quality = play(16, 4, 4, seed).quality
    assert (quality.avoidable, quality.lookahead_avoidable) == (0, 0)
    assert quality.off_by_more == 0


@pytest.mark.parametrize("seed", ["bench-46", "bench-57"])
def test_rule_3_avoids_the_repeats_rule_2_seats_where_a_round_of_lookahead_avoids_them(seed: str) -> None:
    """Rule 2 seated round 3 with seats that left round 4 no repeat-free seating (its lookahead
    checked round 4 ignoring the seats round 3 needs); rule 3 looks two rounds ahead from round 2."""
    assert play(16, 4, 4, seed, pairing=PAIRING_V2).quality.lookahead_avoidable == 4
    quality = play(16, 4, 4, seed, pairing=PAIRING_V3).quality
    assert quality.repeats == 0 and quality.off_by_more == 0


@pytest.mark.parametrize("seed", SEEDS)
def test_sixteen_players_over_four_rounds_get_every_seat_once_where_a_perfect_assignment_exists(seed: str) -> None:
    """Swiss at tables of 4 over 4 rounds: rule 3 plans each round's seats for the rounds after,
    so every player has every seat once; rule 2 leaves some players with a seat twice although the
    same tables had a perfect assignment."""
    old = play(16, 4, 4, seed, pairing=PAIRING_V2).quality
    assert old.perfect_exists and old.imperfect_avoidable > 0
    quality = play(16, 4, 4, seed).quality
    assert quality.perfect_exists
    assert quality.imperfect == quality.imperfect_avoidable == 0
    assert quality.repeats == 0


def test_a_perfect_seat_assignment_is_found_for_tables_seated_unevenly() -> None:
    """The measure's search: three players meeting at three tables of 3, seated so that player 0
    has seat 0 twice, still have a perfect assignment (a Latin square); a player who played two
    games at tables of 3 is not held to one."""
    tables = [[0, 1, 2], [0, 2, 1], [1, 0, 2]]
    assert perfect_seats_exist(tables, {0: 1, 1: 1, 2: 1})
    assert perfect_seats_exist([[0, 1, 2], [0, 1, 2]], {})


def test_rule_2_seats_as_it_did() -> None:
    """The tournaments recorded with rule 2 verify by re-seating: its seatings of four shapes are
    pinned (a digest of every round's tables, in seat order, as rule 2 seated them when rule 3
    was added)."""
    shapes: list[tuple[int, int, int, str, dict[str, Any]]] = [
        (16, 4, 4, "swiss", {}),
        (18, 4, 4, "swiss", {"min_table": 3}),
        (16, 5, 2, "swiss", {}),
        (16, 4, 4, "balanced", {}),
    ]
    seatings = [
        seated(players, rounds_, size, format_, "pinned", PAIRING_V2, extra)
        for players, rounds_, size, format_, extra in shapes
    ]
    digest = hashlib.sha256(json.dumps(seatings).encode()).hexdigest()
    assert digest == "cabc78aff6cbe5237f55fb0f03756b43373ec30c932157ad2ca6b9cc51e36ea6"


def seated(
    players: int, rounds_: int, size: int, format_: str, seed: str, pairing: int, extra: dict[str, Any]
) -> list[list[list[int]]]:
    """Every round's tables, in seat order, of a simulated event."""
    log = simulate(players, rounds_, size, format_, seed, pairing=pairing, **extra)
    return [[t.players for t in tables] for tables in log.state.rounds]


MIXED = {"min_table": 3}
MIXED_SEEDS = ["bench-0", "bench-2"]  # events where rule 3 leaves players at tables of 4 with a seat twice


def test_rule_3_seats_as_it_did() -> None:
    """The tournaments recorded with rule 3 verify by re-seating: its seatings at mixed table
    sizes, where rule 4 seats otherwise, are pinned (as rule 3 seated them when rule 4 was added)."""
    seatings = [seated(18, 4, 4, "swiss", seed, PAIRING_V3, MIXED) for seed in MIXED_SEEDS]
    digest = hashlib.sha256(json.dumps(seatings).encode()).hexdigest()
    assert digest == "6de31bf78047b2a9dbb3e266ab42624b451830b04958c13326581d5184b98306"


@pytest.mark.parametrize("seed", MIXED_SEEDS)
def test_rule_4_gives_every_player_at_tables_of_four_every_seat_once_at_mixed_tables(seed: str) -> None:
    """18 players at tables of 4 and 3 over 4 rounds: rule 3 leaves a player who sat at tables of
    4 only with a seat twice although the same tables had a perfect assignment; rule 4 holds to
    perfect balance only the players who sat at one table size, so it gives them all every seat."""
    old = play(18, 4, 4, seed, pairing=PAIRING_V3, **MIXED).quality
    assert old.perfect_exists and old.imperfect_avoidable > 0
    quality = play(18, 4, 4, seed, pairing=PAIRING_V4, **MIXED).quality
    assert quality.perfect_exists and quality.imperfect == 0
    assert quality.repeats == 0 and quality.off_by_more == 0 and quality.byes == 0


def test_rule_4_seats_as_rule_3_where_every_table_is_of_one_size() -> None:
    shapes: list[tuple[int, int, int, str]] = [(16, 4, 4, "swiss"), (16, 5, 2, "swiss"), (16, 4, 4, "balanced")]
    for players, rounds_, size, format_ in shapes:
        new = seated(players, rounds_, size, format_, "pinned", PAIRING_V4, {})
        assert new == seated(players, rounds_, size, format_, "pinned", PAIRING_V3, {}), (players, size, format_)


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
