"""Instructions per step of seeded random games, counted by valgrind's cachegrind: a figure that
a loaded machine does not move, for comparing two versions of the engine.

``python -m tests.benchmarks.bench_instructions [game] [games] [--board base] [--source DIR ...]``

Plays ``games`` seeded 4-player games (the same seeds as ``bench_catan_alexander``) of the
checkout and of every ``--source`` checkout (e.g. a ``git worktree`` of an older commit), each
under ``valgrind --tool=cachegrind --cache-sim=no`` once with the games and once without, and
prints the difference per step (one command with its automatic steps): the start-up and the
imports cancel out. Needs valgrind (Debian: ``apt-get install -y valgrind``).
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
CACHEGRIND = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null"]

PLAY = """
import sys
from domain.catalog import GAMES
from domain.kernel.bots import play_random_game
game, count, board = GAMES.get(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
options = {"board": board} if board else {}
play_random_game(game, 4, options, seed=b"warm", bot_seed=b"bench-bot")
steps = sum(
    len(play_random_game(game, 4, options, seed=f"bench-{i}".encode(), bot_seed=b"bench-bot").commands)
    for i in range(count)
)
print("steps", steps)
"""


def counted(source: Path, game: str, games: int, board: str) -> tuple[int, int]:
    """(instructions, steps) of one run under cachegrind."""
    run = subprocess.run(
        [*CACHEGRIND, sys.executable, "-c", PLAY, game, str(games), board],
        cwd=source,
        # no bytecode written: every run compiles alike, so the start-up cancels out
        env={"PYTHONPATH": str(source), "PATH": "/usr/bin:/bin", "PYTHONHASHSEED": "0", "PYTHONDONTWRITEBYTECODE": "1"},
        capture_output=True,
        text=True,
        check=True,
    )
    refs = re.search(r"I\s+refs:\s+([\d,]+)", run.stderr)
    steps = re.search(r"steps (\d+)", run.stdout)
    if refs is None or steps is None:
        raise RuntimeError(f"cachegrind gave no count: {run.stderr[-500:]}")
    return int(refs.group(1).replace(",", "")), int(steps.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", nargs="?", default="catan_alexander")
    parser.add_argument("games", nargs="?", type=int, default=10)
    parser.add_argument("--board", default="base", help='a Catan board ("base"), or "" for the game\'s default')
    parser.add_argument("--source", type=Path, action="append", default=[], help="another checkout to count")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed (Debian: apt-get install -y valgrind)")
    board = args.board if args.game == "catan_alexander" else ""
    for source in (REPO, *args.source):
        start_up, _ = counted(source, args.game, 0, board)
        total, steps = counted(source, args.game, args.games, board)
        print(f"{source}: {(total - start_up) / steps:,.0f} instructions per step ({steps} steps, {args.games} games)")


if __name__ == "__main__":
    main()
