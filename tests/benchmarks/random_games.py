"""The one loop every engine benchmark measures: full random games on the pure functions."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from domain.kernel.bots import play_random_game
from domain.kernel.game import GameDefinition


@dataclass(frozen=True)
class RandomGameRate:
    games_per_second: float
    events_per_second: float
    slowest_game: float  # seconds


def measure(
    game: GameDefinition[Any], players: int, options: dict[str, Any] | None = None, seconds: float = 3.0
) -> RandomGameRate:
    games = events = 0
    slowest = 0.0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        began = time.perf_counter()
        played = play_random_game(game, players, options, seed=f"bench-{games}".encode(), bot_seed=b"bench-bot")
        slowest = max(slowest, time.perf_counter() - began)
        games += 1
        events += len(played.events)
    elapsed = time.perf_counter() - start
    return RandomGameRate(games / elapsed, events / elapsed, slowest)


def main(
    game: GameDefinition[Any],
    target_players: int,
    target_games_per_second: float,
    options_for: Callable[[int], dict[str, Any]] = lambda _players: {},
) -> None:
    """``python -m tests.benchmarks.bench_<game> [players] [seconds]``: print the rate and the target."""
    players = int(sys.argv[1]) if len(sys.argv) > 1 else target_players
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 3.0
    rate = measure(game, players, options_for(players), seconds)
    print(
        f"{game.id}, {players} players: {rate.games_per_second:.1f} games/s, "
        f"{rate.events_per_second:.0f} events/s, slowest game {rate.slowest_game * 1000:.0f} ms"
    )
    if players == target_players:
        verdict = "meets" if rate.games_per_second >= target_games_per_second else "below"
        print(f"  {verdict} the target of {target_games_per_second:g} games/s")
