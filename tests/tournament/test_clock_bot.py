"""The clock's bot: the move a seat out of time gets is the bot's the tournament's clock names
(``greedy`` unless it names another), the timeout names that bot, and the verifier plays the
bot again from the bundle to check every such move."""

from __future__ import annotations

import json
from typing import Any

import pytest

from domain.catalog import GAMES
from domain.kernel.bots import make_bot
from domain.kernel.chance import Chance
from domain.kernel.errors import RuleViolation
from domain.kernel.log import COMMAND_ACCEPTED, Record, recorded_command
from domain.kernel.match import Match
from domain.tournament.clock import clock_bot
from domain.tournament.config import BAD_TOURNAMENT, normalize_config
from domain.tournament.log import Table
from domain.tournament.seeds import clock_bot_seed
from domain.tournament.verification import verify_bundle
from infra.tournaments.service import TournamentService
from tests.tournament.conftest import FakeClock
from tests.tournament.forge import reseal_from
from tests.tournament.test_clocks import clocked_tournament, play_with_a_slow_player, verified


def rule_moves(tournaments: TournamentService, table: Table) -> list[tuple[int, Record]]:
    """The clock rule's moves of the table's game: (the version it was played at, its record)."""
    records = tournaments.games.records(table.game_id)
    return [(r.position - 1, r) for r in records if r.type == COMMAND_ACCEPTED and r.data.get("by") == "server"]


def bots_move(tournaments: TournamentService, table: Table, tid: str, master: bytes, bot: Any, version: int) -> Any:
    """What ``bot(seed)`` plays for the game as its records leave it at ``version``."""
    records = tournaments.games.records(table.game_id)
    definition = GAMES.get("peloponnes")
    shadow = Match(definition, len(table.players), tournaments.state(tid).settings.options, Chance(b"shadow"))
    for record in records[:version]:
        shadow.apply_record(record)
    seat = next(r for r in records if r.position == version + 1).data["seat"]
    command = bot(clock_bot_seed(master, tid, table.game_id, version)).choose(definition, shadow.state, seat)
    return recorded_command(command)


def test_a_timeout_is_played_by_greedy_unless_the_clock_names_another_bot_and_verifies_from_the_bundle(
    tournaments: TournamentService, clock: FakeClock
) -> None:
    tid, organiser, tokens = clocked_tournament(tournaments, "random_move")
    control = tournaments.state(tid).settings.time_control
    assert control is not None and control.bot == "greedy" and control.to_dict()["bot"] == "greedy"
    table = play_with_a_slow_player(tournaments, clock, tid, tokens)
    timeouts = tournaments.state(tid).timeouts
    assert timeouts and all(t["bot"] == "greedy" for t in timeouts)
    master = b"clock-random_move"
    moves = rule_moves(tournaments, table)
    assert len(moves) == len(timeouts)
    greedy = [bots_move(tournaments, table, tid, master, lambda s: make_bot("greedy", s), v) for v, _ in moves]
    randoms = [bots_move(tournaments, table, tid, master, lambda s: make_bot("random", s), v) for v, _ in moves]
    assert [r.data["command"] for _, r in moves] == greedy
    assert greedy != randoms  # the test tells the two bots apart
    bundle = verified(tournaments, tid, organiser)

    # A bundle that claims the random bot was the clock's: every timeout and the settings agree,
    # but the rule's moves are not the random bot's, and the verifier plays it again to see that.
    records = bundle["tournament"]
    del records[0]["data"]["config"]["time_control"]["bot"]
    for record in records:
        if record["type"] == "TimedOut":
            del record["data"]["bot"]
    reseal_from(records, 0)
    report = verify_bundle(bundle, GAMES.get)
    assert not report.ok and report.bad_games == [table.game_id]
    assert any("but the random bot (its stream for this game" in p for p in report.problems), report.problems


def test_a_search_bot_on_the_clock_plays_on_a_budget_of_playouts_and_verifies(
    tournaments: TournamentService, clock: FakeClock
) -> None:
    tid, organiser, tokens = clocked_tournament(tournaments, "forfeit", bot="search", bot_playouts=8)
    control = tournaments.state(tid).settings.time_control
    assert control is not None and control.to_dict()["bot_playouts"] == 8
    table = play_with_a_slow_player(tournaments, clock, tid, tokens)
    assert [t["bot"] for t in tournaments.state(tid).timeouts] == ["search"]
    moves = rule_moves(tournaments, table)
    assert moves  # the forfeited seat is the search bot's to the end
    search = [
        bots_move(tournaments, table, tid, b"clock-forfeit", lambda s: clock_bot(control, s), v) for v, _ in moves
    ]
    assert [r.data["command"] for _, r in moves] == search
    verified(tournaments, tid, organiser)


def test_a_clock_with_the_random_bot_is_recorded_as_before_the_bot_was_a_setting(
    tournaments: TournamentService, clock: FakeClock
) -> None:
    tid, organiser, tokens = clocked_tournament(tournaments, "random_move", bot="random")
    state = tournaments.state(tid)
    assert state.settings.time_control is not None and "bot" not in state.settings.time_control.to_dict()
    play_with_a_slow_player(tournaments, clock, tid, tokens)
    timeouts = tournaments.state(tid).timeouts
    assert timeouts and all("bot" not in t for t in timeouts)
    verified(tournaments, tid, organiser)


@pytest.mark.parametrize(
    ("clock_settings", "says"),
    [
        ({"bot": "alphabeta"}, "time_control.bot must be one of random, greedy, search"),
        ({"bot": "greedy", "bot_playouts": 10}, "bot_playouts is the search bot's budget"),
        ({"bot_playouts": 10}, "bot_playouts is the search bot's budget"),
        ({"bot": "search", "bot_playouts": 0}, "time_control.bot_playouts must be a whole number from 1 to 2000"),
        ({"bot": "search", "bot_playouts": 1.5}, "time_control.bot_playouts must be a whole number"),
        ({"bot": "search", "bot_seconds": 1}, "unknown time_control settings: bot_seconds"),
    ],
)
def test_a_clock_bot_that_cannot_be_replayed_is_refused(clock_settings: dict[str, Any], says: str) -> None:
    settings = {"time_control": {"base_seconds": 60, **clock_settings}}
    with pytest.raises(RuleViolation) as refused:
        normalize_config(GAMES.get("peloponnes"), json.loads(json.dumps(settings)))
    assert refused.value.code == BAD_TOURNAMENT and says in str(refused.value)
