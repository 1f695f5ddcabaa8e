"""Alexandros ``legal_moves`` against the listing as it was before issue 12 (a frozen copy in
``alexandros_moves_baseline.py``), on the same states, interleaved in one run:
``python -m tests.benchmarks.bench_alexandros_moves [games] [rounds]``.

Also full random games with each listing (the games differ, since the listings do)."""

from __future__ import annotations

import dataclasses
import statistics
import sys
import time
from typing import Any

from domain.alexandros import GAME
from domain.alexandros.moves import legal_moves
from domain.kernel.bots import play_random_game
from domain.kernel.chance import Chance
from tests.benchmarks import alexandros_moves_baseline as baseline
from tests.benchmarks.random_games import measure


def decision_states(games: int) -> list[tuple[Any, int]]:
    """Every (state, awaited seat) of ``games`` random 4-player games, as copies."""
    import copy

    found: list[tuple[Any, int]] = []
    for g in range(games):
        played = play_random_game(GAME, 4, seed=f"moves-{g}".encode(), bot_seed=b"moves-bot")
        state = GAME.initial_state(4, {})
        for event in played.events:
            state = GAME.evolve(state, event)
            for seat in GAME.awaited(state):
                found.append((copy.deepcopy(state), seat))
    return found


def time_listing(listing: Any, states: list[tuple[Any, int]]) -> float:
    rng = Chance(b"bench-moves")
    start = time.perf_counter()
    for state, seat in states:
        listing(state, seat, rng)
    return time.perf_counter() - start


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 7
    states = decision_states(games)
    old: list[float] = []
    new: list[float] = []
    for _ in range(rounds):
        old.append(time_listing(baseline.legal_moves, states))
        new.append(time_listing(legal_moves, states))
    per_old = statistics.median(old) / len(states) * 1e6
    per_new = statistics.median(new) / len(states) * 1e6
    print(f"legal_moves on {len(states)} decision states of {games} games, median of {rounds} interleaved rounds:")
    print(f"  before: {per_old:.1f} us per listing; now: {per_new:.1f} us; {per_old / per_new:.2f}x faster")
    before_game = dataclasses.replace(GAME, legal_moves=baseline.legal_moves)
    rates: dict[str, list[float]] = {"before": [], "now": []}
    for _ in range(3):
        rates["before"].append(measure(before_game, 4, seconds=2.0).games_per_second)
        rates["now"].append(measure(GAME, 4, seconds=2.0).games_per_second)
    b, n = statistics.median(rates["before"]), statistics.median(rates["now"])
    print(f"full random 4-player games: before {b:.1f} games/s, now {n:.1f} games/s ({n / b:.2f}x)")


if __name__ == "__main__":
    main()
