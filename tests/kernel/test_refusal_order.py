"""One refusal order for every game (README "Refusal order"): GAME_OVER, UNKNOWN_COMMAND,
WRONG_PHASE, NOT_YOUR_TURN (the rules files' NOT_AWAITED), BAD_INPUT (their INVALID_FIELD),
then the game's own checks. A command that breaks several of them gets the first."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from domain.catalog import GAMES
from domain.kernel.bots import RandomBot
from domain.kernel.errors import RuleViolation
from domain.kernel.match import Match
from tests.support.properties import play_recorded_game

PLAYERS = {"peloponnes": 3, "empire_builder": 3, "alexandros": 3, "catan_alexander": 3}


def refusal(match: Match, seat: int, payload: dict[str, Any]) -> str:
    """The code a command from client JSON is refused with, on the path the service takes."""
    before = copy.deepcopy(match.state)
    with pytest.raises(RuleViolation) as caught:
        match.execute(seat, match.admit(seat, payload))
    assert match.state == before
    return caught.value.code


def taken_now(match: Match) -> dict[int, set[str]]:
    game, state = match.game, match.state
    seats: dict[int, set[str]] = {}
    for mapping in (game.awaited(state), game.optional(state)):
        for seat, kinds in mapping.items():
            seats.setdefault(seat, set()).update(kinds)
    return seats


def first_decision(game_id: str) -> Match:
    """A match at a state where one seat is awaited and another is not (the bots play on until then)."""
    game = GAMES.get(game_id)
    match, _ = Match.create(game, PLAYERS[game_id], None, b"order")
    bot = RandomBot(b"order-bot")
    while len(taken_now(match)) == PLAYERS[game_id] or not taken_now(match):
        seat = bot.choose_seat(list(game.awaited(match.state)))
        match.execute(seat, bot.choose(game, match.state, seat))
    return match


@pytest.mark.parametrize("game_id", sorted(PLAYERS))
def test_wrong_phase_comes_before_not_awaited_and_both_before_malformed_fields(game_id: str) -> None:
    match = first_decision(game_id)
    taken = taken_now(match)
    idle = next(s for s in range(PLAYERS[game_id]) if s not in taken)
    acting = next(iter(taken))
    everything_taken = set().union(*taken.values())
    not_taken = next(t for t in sorted(match.game.command_types) if t not in everything_taken)
    some_taken = sorted(taken[acting])[0]
    malformed = {"no_such_field": 1}
    assert refusal(match, idle, {"type": not_taken, **malformed}) == "WRONG_PHASE"
    assert refusal(match, acting, {"type": not_taken, **malformed}) == "WRONG_PHASE"
    assert refusal(match, idle, {"type": some_taken, **malformed}) == "NOT_YOUR_TURN"
    assert refusal(match, acting, {"type": some_taken, **malformed}) == "BAD_INPUT"
    assert refusal(match, idle, {"type": "no_such_command"}) == "UNKNOWN_COMMAND"
    assert refusal(match, idle, {"type": ["a"]}) == "UNKNOWN_COMMAND"
    assert refusal(match, idle, {"type": {"a": 1}}) == "UNKNOWN_COMMAND"


@pytest.mark.parametrize("game_id", sorted(PLAYERS))
def test_game_over_comes_first(game_id: str) -> None:
    match, _ = play_recorded_game(GAMES.get(game_id), PLAYERS[game_id], seed=b"order-end")
    for command_type in match.game.command_types:
        assert refusal(match, 0, {"type": command_type, "no_such_field": [1]}) == "GAME_OVER"
    assert refusal(match, 0, {"type": "no_such_command"}) == "GAME_OVER"


def test_a_negative_count_is_malformed_after_the_turn_checks_and_before_the_games_own() -> None:
    """Empire Builder's allocation: every seat is awaited; a seat that has allocated is not."""
    match = Match.create(GAMES.get("empire_builder"), 3, None, b"counts")[0]
    negative = {"type": "allocate_resources", "turn_order": -1, "armies": 6, "temples": 5, "cities": 5}
    assert refusal(match, 0, negative) == "BAD_INPUT"  # before SUM_NOT_15 (which it passes anyway)
    assert refusal(match, 0, {**negative, "armies": 99}) == "BAD_INPUT"
    match.execute(0, match.admit(0, {**negative, "turn_order": 0, "armies": 5}))
    assert refusal(match, 0, negative) == "NOT_YOUR_TURN", "already committed in this step"
    assert refusal(match, 0, {**negative, "armies": "six"}) == "NOT_YOUR_TURN"
    assert refusal(match, 0, {"type": "move_armies", "groups": "x"}) == "WRONG_PHASE"
