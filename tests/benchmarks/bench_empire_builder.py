"""Full random Empire Builder games on the pure functions:
``python -m tests.benchmarks.bench_empire_builder [players] [seconds]``."""

from domain.empire_builder import GAME
from tests.benchmarks.random_games import main

if __name__ == "__main__":
    main(GAME, 4, 100)  # issue 4: at least 100 full random 4-player games per second on one core
