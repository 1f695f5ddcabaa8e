"""Full random Peloponnes games on the pure functions: ``python -m tests.benchmarks.bench_peloponnes [players]``."""

from __future__ import annotations

import sys
import time

from domain.kernel.bots import play_random_game
from domain.peloponnes import GAME

TARGET_GAMES_PER_SECOND = 200  # issue 3: 3-player games on one core


def run(players: int = 3, seconds: float = 3.0) -> tuple[float, float]:
    options = {"solo_level": 3} if players == 1 else {}
    games = events = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        played = play_random_game(GAME, players, options, seed=f"bench-{games}".encode(), bot_seed=b"bench-bot")
        games += 1
        events += len(played.events)
    elapsed = time.perf_counter() - start
    return games / elapsed, events / elapsed


def main() -> None:
    players = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    games_per_second, events_per_second = run(players)
    print(f"peloponnes, {players} players: {games_per_second:.0f} games/s, {events_per_second:.0f} events/s")
    if players == 3 and games_per_second < TARGET_GAMES_PER_SECOND:
        print(f"below the target of {TARGET_GAMES_PER_SECOND} games/s")


if __name__ == "__main__":
    main()
