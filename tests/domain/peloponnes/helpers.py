"""Building Peloponnes states for the tests."""

from __future__ import annotations

from typing import Any

from domain.kernel import Chance, Event, engine
from domain.kernel.bots import RandomBot
from domain.peloponnes import GAME
from domain.peloponnes.state import State


def partly_played(players: int, commands: int, seed: bytes = b"s", options: dict[str, Any] | None = None) -> State:
    """A game after ``commands`` random-bot commands (or its end, if sooner)."""
    chance = Chance(seed)
    bot = RandomBot(seed + b"-bot")
    state, _ = engine.start(GAME, players, GAME.normalize_options(players, dict(options or {})), chance)
    for _ in range(commands):
        if GAME.is_over(state):
            break
        seat = bot.choose_seat(list(GAME.awaited(state)))
        state, _events = engine.execute(GAME, state, seat, bot.choose(GAME, state, seat), chance)
    return state


def types(events: list[Event]) -> list[str]:
    return [e.type for e in events]
