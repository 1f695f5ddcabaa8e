"""Full random Alexandros games on the pure functions:
``python -m tests.benchmarks.bench_alexandros [players] [seconds]``."""

from domain.alexandros import GAME
from tests.benchmarks.random_games import main

if __name__ == "__main__":
    main(GAME, 4, 20)  # issue 5: at least 20 full random 4-player games per second on one core
