"""Full random Empire Builder games on the pure functions:
``python -m tests.benchmarks.bench_empire_builder [players] [seconds]``."""

from __future__ import annotations

import sys
import time

from domain.empire_builder import GAME
from domain.kernel.bots import play_random_game

TARGET_GAMES_PER_SECOND = 100  # issue 4: full 4-player games on one core, no store


def run(players: int = 4, seconds: float = 3.0) -> tuple[float, float]:
    games = events = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        played = play_random_game(GAME, players, {}, seed=f"bench-{games}".encode(), bot_seed=b"bench-bot")
        games += 1
        events += len(played.events)
    elapsed = time.perf_counter() - start
    return games / elapsed, events / elapsed


def main() -> None:
    players = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 3.0
    games_per_second, events_per_second = run(players, seconds)
    print(f"empire_builder, {players} players: {games_per_second:.0f} games/s, {events_per_second:.0f} events/s")
    if players == 4 and games_per_second < TARGET_GAMES_PER_SECOND:
        print(f"below the target of {TARGET_GAMES_PER_SECOND} games/s")


if __name__ == "__main__":
    main()
