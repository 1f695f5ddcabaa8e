"""A seat's client rebuilds, from its own log as the API gives it, a state the bots can decide on:
the same view as the server's state, and the same samples (so the same decisions)."""

from __future__ import annotations

import pytest

from domain.catalog import GAMES
from domain.kernel.bots import GreedyBot, RandomBot, seat_state
from domain.kernel.chance import Chance
from domain.kernel.log import for_viewer
from domain.kernel.match import Match


@pytest.mark.parametrize(("game_id", "players"), [("peloponnes", 3), ("empire_builder", 3), ("alexandros", 3)])
def test_the_state_rebuilt_from_a_seats_log_is_as_good_as_the_servers(game_id: str, players: int) -> None:
    game = GAMES.get(game_id)
    match, records = Match.create(game, players, {}, b"client-state")
    bot = RandomBot(b"walker")
    checked = 0
    while not match.is_over:
        seat, command = bot.next_move(game, match.state)
        records += match.execute(seat, command)
        if len(records) % 7 or match.is_over:  # after the end every view shows everything
            continue
        for viewer in range(players):
            log = [for_viewer(r, viewer, reveal_all=False) for r in records]
            rebuilt = seat_state(game, log, viewer)
            assert game.view(rebuilt, viewer) == game.view(match.state, viewer)
            assert game.sample_state(rebuilt, viewer, Chance(b"s")) == game.sample_state(
                match.state, viewer, Chance(b"s")
            )
            if viewer in game.awaited(match.state):
                mine = GreedyBot(b"g").choose(game, rebuilt, viewer)
                assert mine == GreedyBot(b"g").choose(game, match.state, viewer)
            checked += 1
    assert checked > 10


def test_a_hidden_event_without_stand_ins_is_refused() -> None:
    """Catan's client has no stand-ins yet: its log cannot be followed, and says so."""
    game = GAMES.get("catan_alexander")
    _, records = Match.create(game, 3, {}, b"no-stand-ins")
    log = [for_viewer(r, 0, reveal_all=False) for r in records]
    with pytest.raises(ValueError, match="no stand-ins"):
        seat_state(game, log, 0)
