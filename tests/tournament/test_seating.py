"""Seating on the pure rules: seat positions balanced across rounds, repeat opponents avoided,
byes shared out, Swiss grouping by standing, and every seating fixed by the master seed."""

from __future__ import annotations

from collections import Counter

import pytest

from domain.tournament import rules
from domain.tournament.pairing import meetings
from tests.tournament.simulated import simulate

SEEDS = [f"seed-{i}" for i in range(12)]


def repeat_meetings(log: object) -> int:
    tables = [t.players for t in log.state.tables()]  # type: ignore[attr-defined]
    return sum(count - 1 for count in meetings(tables).values() if count > 1)


@pytest.mark.parametrize("format_", ["swiss", "balanced"])
@pytest.mark.parametrize("seed", SEEDS)
def test_seat_positions_are_within_one_of_perfectly_balanced_over_four_rounds_of_four(format_: str, seed: str) -> None:
    log = simulate(16, 4, 4, format_, seed)
    for player, counts in log.state.seat_counts().items():
        assert sum(counts.values()) == 4
        # Perfectly balanced: once in each of the four seats.
        assert all(abs(counts[seat] - 1) <= 1 for seat in range(4)), (player, counts)


def test_seat_balance_beats_keeping_the_order_the_tables_were_filled_in() -> None:
    """Without balancing, a table's first-filled player (the best in Swiss) would sit first every time."""
    log = simulate(16, 4, 4, "swiss", "first-seat")
    first_seats = Counter(t.players[0] for t in log.state.tables())
    assert max(first_seats.values()) <= 2


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize(
    ("format_", "players", "rounds", "table_size"),
    [("balanced", 16, 4, 4), ("balanced", 16, 5, 4), ("balanced", 9, 4, 3), ("swiss", 16, 4, 2), ("swiss", 16, 3, 4)],
)
def test_no_repeat_opponents_where_the_count_allows(
    seed: str, format_: str, players: int, rounds: int, table_size: int
) -> None:
    assert repeat_meetings(simulate(players, rounds, table_size, format_, seed)) == 0


@pytest.mark.parametrize("seed", SEEDS[:4])
def test_when_repeats_cannot_be_avoided_a_balanced_schedule_still_meets_everyone(seed: str) -> None:
    # 8 players at tables of 4 over 3 rounds: 36 meetings for 28 pairs, so at least 8 repeats
    # (the fewest possible, by trying every schedule); with 8, everyone meets all 7 others.
    log = simulate(8, 3, 4, "balanced", seed)
    assert repeat_meetings(log) == 8
    for player in range(8):
        met = {p for t in log.state.tables() if player in t.players for p in t.players} - {player}
        assert len(met) == 7


def test_byes_go_round_before_anyone_has_a_second_and_count_their_points() -> None:
    log = simulate(18, 4, 4, "swiss", "byes", bye_points=4)
    byes = log.state.all_byes()
    assert [len(b) for b in log.state.byes] == [2, 2, 2, 2]
    assert len(set(byes)) == 8  # eight different players sat out
    rows = {row["player"]: row for row in rules.current_standings(log.state)}
    for player in byes:
        assert rows[player]["byes"] == 1 and rows[player]["games"] == 3


def test_swiss_groups_the_leaders_on_the_first_table() -> None:
    log = simulate(16, 2, 4, "swiss", "leaders")
    before = simulate(16, 1, 4, "swiss", "leaders")  # the same first round and results
    rows = rules.current_standings(before.state)
    leaders = {row["player"] for row in rows if row["points"] == rows[0]["points"]}
    first_table = set(log.state.rounds[1][0].players)
    assert leaders & first_table
    top_four = [row["player"] for row in rows[:4]]
    assert len(first_table & set(top_four)) >= 2


def test_seating_is_fixed_by_the_master_seed() -> None:
    same = [simulate(12, 2, 3, "swiss", "fixed").state.rounds for _ in range(2)]
    assert [[t.players for t in r] for r in same[0]] == [[t.players for t in r] for r in same[1]]
    other = simulate(12, 2, 3, "swiss", "other").state.rounds
    assert [t.players for t in other[0]] != [t.players for t in same[0][0]]


def test_a_round_is_seated_only_when_the_last_is_finished() -> None:
    log = simulate(8, 2, 4, "swiss", "unfinished")
    log.state.results.pop(log.state.rounds[-1][0].game_id)
    log.state.rounds.pop()  # as if round 2 had not been seated; round 1 is complete
    log.state.results.pop(log.state.rounds[0][0].game_id)
    with pytest.raises(rules.RuleViolation) as refusal:
        rules.plan_round(log.state, b"master:unfinished")
    assert refusal.value.code == rules.ROUND_NOT_FINISHED
