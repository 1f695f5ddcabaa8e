"""Alexandros ``legal_moves`` against the listing as it was before issue 12 (a frozen copy in
``alexandros_moves_baseline.py``), on the same states, interleaved in one run:
``python -m tests.benchmarks.bench_alexandros_moves [games] [rounds]``.

Also full random games with each listing, in CPU time (the games differ, since the listings do)."""

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
    """CPU seconds of this thread (wall time counts the other processes of a loaded machine)."""
    rng = Chance(b"bench-moves")
    start = time.thread_time()
    for state, seat in states:
        listing(state, seat, rng)
    return time.thread_time() - start


def time_games(game: Any, games: int) -> float:
    """CPU seconds of this thread per full random 4-player game, on fixed seeds."""
    start = time.thread_time()
    for g in range(games):
        play_random_game(game, 4, seed=f"bench-{g}".encode(), bot_seed=b"bench-bot")
    return (time.thread_time() - start) / games


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
    ratios = sorted(o / n for o, n in zip(old, new, strict=True))
    print(f"legal_moves on {len(states)} decision states of {games} games, median of {rounds} rounds (CPU time):")
    print(f"  before: {per_old:.1f} us per listing; now: {per_new:.1f} us; {per_old / per_new:.2f}x faster")
    print(f"  ratio per round: median {statistics.median(ratios):.2f}x, {ratios[0]:.2f}x to {ratios[-1]:.2f}x")
    before_game = dataclasses.replace(GAME, legal_moves=baseline.legal_moves)
    per_game: dict[str, list[float]] = {"before": [], "now": []}
    for _ in range(3):
        per_game["before"].append(time_games(before_game, games))
        per_game["now"].append(time_games(GAME, games))
    b, n = statistics.median(per_game["before"]), statistics.median(per_game["now"])
    print(f"full random 4-player games (CPU time, median of 3 rounds of {games} games; the games differ):")
    print(f"  before {b * 1e3:.1f} ms per game, now {n * 1e3:.1f} ms ({b / n:.2f}x)")


if __name__ == "__main__":
    main()
