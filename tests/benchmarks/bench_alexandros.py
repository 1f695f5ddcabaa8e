"""Full random Alexandros games on the pure functions: ``python -m tests.benchmarks.bench_alexandros [players]``."""

from __future__ import annotations

import sys
import time

from domain.alexandros import GAME
from domain.kernel.bots import play_random_game

TARGET_GAMES_PER_SECOND = 20  # issue 5: 4-player games on one core


def run(players: int = 4, seconds: float = 3.0) -> tuple[float, float, float]:
    """Games/s, events/s and the slowest game in seconds."""
    games = events = 0
    slowest = 0.0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        began = time.perf_counter()
        played = play_random_game(GAME, players, seed=f"bench-{games}".encode(), bot_seed=b"bench-bot")
        slowest = max(slowest, time.perf_counter() - began)
        games += 1
        events += len(played.events)
    elapsed = time.perf_counter() - start
    return games / elapsed, events / elapsed, slowest


def main() -> None:
    players = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    games_per_second, events_per_second, slowest = run(players)
    print(
        f"alexandros, {players} players: {games_per_second:.1f} games/s, {events_per_second:.0f} events/s, "
        f"slowest game {slowest * 1000:.0f} ms"
    )
    if players == 4 and games_per_second < TARGET_GAMES_PER_SECOND:
        print(f"below the target of {TARGET_GAMES_PER_SECOND} games/s")


if __name__ == "__main__":
    main()
