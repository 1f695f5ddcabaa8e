"""Full random Peloponnes games on the pure functions:
``python -m tests.benchmarks.bench_peloponnes [players] [seconds]`` (1 player: solo level 3)."""

from domain.peloponnes import GAME
from tests.benchmarks.random_games import main

if __name__ == "__main__":
    # issue 3: at least 200 full random 3-player games per second on one core
    main(GAME, 3, 200, lambda players: {"solo_level": 3} if players == 1 else {})
