"""Standings on the pure rules: points per place with ties sharing, byes, tie-breaks,
adjudications as compensating records, ratings; and the configuration's checks."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from domain.catalog import GAMES
from domain.kernel.errors import RuleViolation
from domain.tournament import rules
from domain.tournament.config import BAD_TOURNAMENT, normalize_config
from domain.tournament.log import (
    ADJUDICATED,
    PLAYER_REGISTERED,
    RESULT_RECORDED,
    ROUND_SEATED,
    TOURNAMENT_CREATED,
    TournamentLog,
)
from domain.tournament.pairing import Seating
from domain.tournament.standings import place_points, rerank_forfeits
from tests.tournament.simulated import placings_of


def test_tied_players_share_the_points_of_the_places_they_cover() -> None:
    assert place_points([1, 2, 2, 4], [6, 5, 3, 1]) == [6, 4, 4, 1]
    assert place_points([1, 1, 1, 4], [6, 5, 3, 1]) == [round(14 / 3, 6)] * 3 + [1]
    assert place_points([2, 1], [1, 0]) == [0, 1]


def test_a_forfeit_puts_the_player_last_and_moves_the_others_up() -> None:
    assert rerank_forfeits([1, 2, 3, 4], {0}) == [4, 1, 2, 3]
    assert rerank_forfeits([1, 2, 2, 4], {1, 3}) == [1, 3, 2, 3]


def standings_by_name(log: TournamentLog) -> dict[str, dict[str, Any]]:
    return {row["name"]: row for row in rules.current_standings(log.state)}


def play_fixed_round(log: TournamentLog, scores: list[list[int]], number: int) -> None:
    """Seat a round (by the rules) and record the given scores per table."""
    seating: Seating = rules.plan_round(log.state, b"master:fixed")
    ids = [f"g{number}-{i}" for i in range(len(seating.tables))]
    log.append(ROUND_SEATED, rules.round_seated(log.state, seating, ids, number))
    for (i, game_id), table_scores in zip(enumerate(ids, start=1), scores, strict=True):
        placings = placings_of(table_scores)
        log.append(
            RESULT_RECORDED,
            {
                "game_id": game_id,
                "round": number,
                "table": i,
                "scores": table_scores,
                "placings": placings,
                "winners": [s for s, p in enumerate(placings) if p == 1],
                "fingerprint": "f",
                "at": number,
            },
        )


def fresh(players: int, rounds: int, table_size: int, **settings: Any) -> TournamentLog:
    log = TournamentLog()
    config = {"rounds": rounds, "table_size": table_size, **settings}
    log.append(TOURNAMENT_CREATED, rules.created(GAMES.get("peloponnes"), "t", config, b"master:fixed", 0))
    for i in range(players):
        log.append(PLAYER_REGISTERED, rules.register(log.state, f"p{i}", 0))
    return log


def test_points_byes_and_tie_breaks_order_the_standings() -> None:
    log = fresh(5, 2, 2, points_per_place=[3, 0], bye_points=1, tie_breaks=["head_to_head", "score_sum"])
    play_fixed_round(log, [[5, 2], [4, 4]], 1)
    play_fixed_round(log, [[1, 7], [3, 3]], 2)
    rows = rules.current_standings(log.state)
    assert sum(row["byes"] for row in rows) == 2
    by_player = {row["player"]: row for row in rows}
    for row in rows:
        # Every point comes from a place (ties share 3 + 0) or a bye.
        assert row["games"] + row["byes"] == 2
    totals = [row["points"] for row in rows]
    assert totals == sorted(totals, reverse=True)
    assert sum(totals) == pytest.approx(4 * 3 + 2 * 1)  # four games worth 3 each, two byes worth 1
    # Places are shared only when points and every tie-break are equal.
    for a, b in itertools.pairwise(rows):
        same = all(a[k] == b[k] for k in ("points", "head_to_head", "score_sum"))
        assert (a["place"] == b["place"]) == same
    assert set(by_player) == set(range(5))


def test_head_to_head_breaks_a_tie_between_players_who_met() -> None:
    log = fresh(4, 1, 4, points_per_place=[2, 1, 1, 0], tie_breaks=["head_to_head"])
    play_fixed_round(log, [[9, 5, 3, 0]], 1)
    table = log.state.rounds[0][0].players
    rows = rules.current_standings(log.state)
    second, third = table[1], table[2]  # equal on points (1 each); the second placed ahead
    order = [row["player"] for row in rows]
    assert order.index(second) < order.index(third)
    assert rows[order.index(second)]["head_to_head"] == 1


def test_adjudications_compensate_without_editing_the_results() -> None:
    log = fresh(4, 1, 2, points_per_place=[1, 0])
    play_fixed_round(log, [[5, 2], [4, 1]], 1)
    first, second = log.state.rounds[0]
    before = standings_by_name(log)
    winner = log.state.names[first.players[0]]
    assert before[winner]["points"] == 1

    log.append(ADJUDICATED, rules.adjudicated(log.state, {"kind": "void", "game_id": first.game_id, "reason": "r"}, 9))
    assert standings_by_name(log)[winner]["points"] == 0 and standings_by_name(log)[winner]["games"] == 0
    assert first.game_id in log.state.results  # the result is still there, only no longer counted

    request = {"kind": "correct", "game_id": second.game_id, "placings": [2, 1], "scores": [1, 4], "reason": "r"}
    log.append(ADJUDICATED, rules.adjudicated(log.state, request, 9))
    assert standings_by_name(log)[log.state.names[second.players[1]]]["points"] == 1

    forfeit = {"kind": "forfeit", "game_id": second.game_id, "player": second.players[1], "reason": "r"}
    log.append(ADJUDICATED, rules.adjudicated(log.state, forfeit, 9))
    assert standings_by_name(log)[log.state.names[second.players[1]]]["points"] == 0
    assert standings_by_name(log)[log.state.names[second.players[0]]]["points"] == 1

    replace = {"kind": "replace", "player": 0, "name": "Roxane", "reason": "p0 left"}
    log.append(ADJUDICATED, rules.adjudicated(log.state, replace, 9))
    assert log.state.names[0] == "Roxane"


@pytest.mark.parametrize(
    ("request_", "code"),
    [
        ({"kind": "void", "game_id": "nope", "reason": "r"}, rules.NOT_A_TABLE),
        ({"kind": "void", "reason": "r"}, rules.NOT_A_TABLE),
        ({"kind": "explode", "reason": "r"}, rules.BAD_ADJUDICATION),
        ({"kind": "void", "game_id": "g1-0"}, rules.BAD_ADJUDICATION),
        ({"kind": "correct", "game_id": "g1-0", "placings": [1, 3], "reason": "r"}, rules.BAD_ADJUDICATION),
        ({"kind": "forfeit", "game_id": "g1-0", "player": 99, "reason": "r"}, rules.BAD_ADJUDICATION),
        ({"kind": "replace", "player": 0, "name": "p1", "reason": "r"}, rules.NAME_TAKEN),
    ],
)
def test_bad_adjudications_are_refused(request_: dict[str, Any], code: str) -> None:
    log = fresh(4, 1, 2)
    play_fixed_round(log, [[5, 2], [4, 1]], 1)
    with pytest.raises(RuleViolation) as refusal:
        rules.adjudicated(log.state, request_, 0)
    assert refusal.value.code == code


def test_ratings_rise_for_winners_and_fall_for_losers() -> None:
    log = fresh(4, 1, 4)
    play_fixed_round(log, [[9, 5, 3, 0]], 1)
    table = log.state.rounds[0][0].players
    view = rules.standings_view(log.state)
    rating = {row["player"]: row["rating"]["mu"] for row in view["standings"]}
    assert rating[table[0]] > 25 > rating[table[3]]


def test_registration_refuses_duplicates_and_closes_with_the_first_round() -> None:
    log = fresh(4, 1, 2)
    with pytest.raises(RuleViolation) as taken:
        rules.register(log.state, "P0", 0)
    assert taken.value.code == rules.NAME_TAKEN
    with pytest.raises(RuleViolation) as blank:
        rules.register(log.state, "  ", 0)
    assert blank.value.code == rules.BAD_NAME
    play_fixed_round(log, [[5, 2], [4, 1]], 1)
    with pytest.raises(RuleViolation) as closed:
        rules.register(log.state, "late", 0)
    assert closed.value.code == rules.REGISTRATION_CLOSED
    with pytest.raises(RuleViolation) as done:
        rules.plan_round(log.state, b"master:fixed")
    assert done.value.code == rules.NO_ROUNDS_LEFT


@pytest.mark.parametrize(
    ("game", "settings"),
    [
        ("peloponnes", {"table_size": 6}),
        ("alexandros", {"table_size": 5}),
        ("peloponnes", {"table_size": 3, "points_per_place": [3, 1]}),
        ("peloponnes", {"table_size": 2, "points_per_place": [0, 1]}),
        ("peloponnes", {"rounds": 0}),
        ("peloponnes", {"format": "knockout"}),
        ("peloponnes", {"tie_breaks": ["coin_toss"]}),
        ("peloponnes", {"colour": "red"}),
        ("peloponnes", {"time_control": {"base_seconds": -1}}),
        ("peloponnes", {"time_control": {"base_seconds": 60, "on_timeout": "shrug"}}),
        ("peloponnes", {"options": "fast"}),
    ],
)
def test_bad_settings_are_refused_with_a_clear_reason(game: str, settings: dict[str, Any]) -> None:
    with pytest.raises(RuleViolation) as refusal:
        normalize_config(GAMES.get(game), settings)
    assert refusal.value.code in (BAD_TOURNAMENT, "BAD_OPTIONS")
    assert refusal.value.message


def test_defaults_fill_in() -> None:
    config = normalize_config(GAMES.get("alexandros"), {})
    assert (config.format, config.rounds, config.table_size) == ("swiss", 4, 4)
    assert config.points_per_place == [6, 5, 3, 1] and config.time_control is None
    assert config.bye_points == 3.75  # what a place is worth on average
