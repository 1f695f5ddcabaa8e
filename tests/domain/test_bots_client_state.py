"""A seat's client rebuilds, from its own log as the API gives it, a state the bots can decide on:
the same view as the server's state, and the same samples (so the same decisions)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from domain.catalog import GAMES
from domain.kernel.bots import GreedyBot, RandomBot, SeatLog, play_random_game, seat_state
from domain.kernel.chance import Chance
from domain.kernel.log import for_viewer
from domain.kernel.match import Match


@pytest.mark.parametrize(
    ("game_id", "players", "options"),
    [
        ("peloponnes", 3, {}),
        ("empire_builder", 3, {}),
        ("alexandros", 3, {}),
        ("catan_alexander", 3, {}),
        ("catan_alexander", 4, {}),
        ("catan_alexander", 3, {"board": "base"}),
    ],
)
def test_the_state_rebuilt_from_a_seats_log_is_as_good_as_the_servers(
    game_id: str, players: int, options: dict[str, Any]
) -> None:
    game = GAMES.get(game_id)
    match, records = Match.create(game, players, options, b"client-state")
    bot = RandomBot(b"walker")
    # Each seat's client follows its log as it grows, each record once (as the HTTP bot client
    # does; that a log followed in parts equals it followed whole is the next test's).
    followers = [SeatLog(game, viewer) for viewer in range(players)]
    checked = 0
    while not match.is_over:
        seat, command = bot.next_move(game, match.state)
        records += match.execute(seat, command)
        if len(records) % 7 or match.is_over:  # after the end every view shows everything
            continue
        for viewer, follower in enumerate(followers):
            rebuilt = follower.follow(
                [for_viewer(r, viewer, reveal_all=False) for r in records[follower.position :]]
            ).state
            assert game.view(rebuilt, viewer) == game.view(match.state, viewer)
            assert game.sample_state(rebuilt, viewer, Chance(b"s")) == game.sample_state(
                match.state, viewer, Chance(b"s")
            )
            if viewer in game.awaited(match.state):
                mine = GreedyBot(b"g").choose(game, rebuilt, viewer)
                assert mine == GreedyBot(b"g").choose(game, match.state, viewer)
            checked += 1
    assert checked > 10


def test_the_seat_log_follows_a_log_in_parts_as_it_follows_it_whole() -> None:
    """A client reads each record once: followed in parts, the state is the one of the whole log."""
    game = GAMES.get("catan_alexander")
    played = play_random_game(game, 3, seed=b"in-parts")
    match, records = Match.create(game, 3, {}, b"in-parts")
    for seat, command in played.commands[:200]:
        records += match.execute(seat, command)
    log = [for_viewer(r, 1, reveal_all=False) for r in records]
    follower = SeatLog(game, 1)
    for start in range(0, len(log), 37):
        follower.follow(log[start : start + 37])
    assert follower.position == len(log)
    assert game.view(follower.state, 1) == game.view(seat_state(game, log, 1), 1) == game.view(match.state, 1)


def test_a_hidden_event_without_stand_ins_is_refused() -> None:
    """A game with hidden events and no stand-ins cannot be followed by a client, and says so."""
    game = dataclasses.replace(GAMES.get("catan_alexander"), observe=None)
    _, records = Match.create(game, 3, {}, b"no-stand-ins")
    log = [for_viewer(r, 0, reveal_all=False) for r in records]
    with pytest.raises(ValueError, match="no stand-ins"):
        seat_state(game, log, 0)


def test_a_steal_of_nothing_is_followed_by_the_seat_that_saw_neither_hand() -> None:
    """The robber's steal from an empty hand: a third seat's log shows it without its card."""
    game = GAMES.get("catan_alexander")
    for number in range(40):
        played = play_random_game(game, 3, seed=b"empty-hand-%d" % number)
        match, records = Match.create(game, 3, {}, b"empty-hand-%d" % number)
        for seat, command in played.commands:
            records += match.execute(seat, command)
        steals = [r for r in records if r.type == "CardStolen" and not r.data["stolen"]]
        if not steals:
            continue
        bystander = next(s for s in range(3) if s not in (steals[0].data["thief"], steals[0].data["victim"]))
        log = [for_viewer(r, bystander, reveal_all=False) for r in records[: records.index(steals[0]) + 1]]
        assert log[-1]["type"] == "CardStolen" and "card" not in log[-1]["data"], "the bystander sees no card"
        assert game.view(seat_state(game, log, bystander), bystander) is not None
        return
    pytest.fail("no random game stole from an empty hand: choose other seeds")
