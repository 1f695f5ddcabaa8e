"""Our ``search`` bot in Catanatron's engine, 1-v-1 against Catanatron's players.

The adapter and the players around it are in ``tests/benchmarks/catanatron_adapter.py``. With the
optional extra ``bench`` (``pip install -e ".[bench]"``: ``catanatron==3.2.1``)::

    python -m tests.benchmarks.bench_catanatron [games per opponent] [playouts per decision] [seed]

plays ``WeightedRandomPlayer`` and ``VictoryPointPlayer``, the players that package ships. Catanatron's
stronger players, ``AlphaBetaPlayer`` and ``ValueFunctionPlayer``, are only in its repository, and
need its newer core: ``--catanatron-src DIR`` loads Catanatron (core and players) from a checkout of
that repository at ``DIR`` instead of the package, and ``--opponents`` names the players::

    python -m tests.benchmarks.bench_catanatron 100 400 3 --catanatron-src /tmp/catanatron-src \\
        --opponents AlphaBetaPlayer,ValueFunctionPlayer

No Catanatron code is in this tree, nor anything that fetches it: the checkout is the caller's.
``--first-game N`` numbers the games from N (to split a run over processes: each game's seating,
dice and search depend only on the seed and its number); SIGTERM ends a run with the figures of
the games it finished. It prints every game, running figures,
and at the end our win rate with a 95 % (Wilson) interval, the CPU time per decision on both sides,
and how the samples of hidden cards were dealt. Never part of the test run.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

OPPONENTS = {  # name: Catanatron's module
    "WeightedRandomPlayer": "catanatron.players.weighted_random",
    "VictoryPointPlayer": "catanatron.players.search",
    "AlphaBetaPlayer": "catanatron.players.minimax",
    "ValueFunctionPlayer": "catanatron.players.value",
}


def core_folder(checkout: Path) -> Path:
    """The folder of a Catanatron checkout that holds its ``catanatron`` package (``catanatron/``
    since the repository became one package with extensions, ``catanatron_core/`` before)."""
    for folder in (checkout / "catanatron", checkout / "catanatron_core", checkout):
        if (folder / "catanatron" / "__init__.py").is_file():
            return folder
    raise SystemExit(f"{checkout}: no catanatron package in it, nor in catanatron/ or catanatron_core/")


def load_catanatron(checkout: str | None) -> str:
    """Catanatron from the checkout (put first on the path) or the installed package; says which."""
    if "catanatron" in sys.modules:
        raise SystemExit("catanatron was imported before its source was chosen")
    if checkout is not None:
        folder = core_folder(Path(checkout).resolve())
        sys.path.insert(0, str(folder))
    import catanatron

    where = Path(catanatron.__file__ or "").resolve().parent
    if checkout is not None and folder not in where.parents:
        raise SystemExit(f"catanatron was loaded from {where}, not from {folder}")
    version = _version(where)
    return f"catanatron {version} from {where}"


def _version(package: Path) -> str:
    pyproject = package.parent.parent / "pyproject.toml"  # a checkout: <checkout>/catanatron/catanatron
    if pyproject.is_file():
        for line in pyproject.read_text().splitlines():
            if line.startswith("version"):
                return line.split("=", 1)[1].strip().strip('"') + " (checkout)"
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("catanatron")
    except PackageNotFoundError:
        return "(unknown version)"


def opponent(name: str) -> Callable[[Any], Any]:
    if name not in OPPONENTS:
        raise SystemExit(f"unknown opponent {name}: one of {', '.join(OPPONENTS)}")
    try:
        module = importlib.import_module(OPPONENTS[name])
    except ImportError as error:
        raise SystemExit(f"{name}: {error} (it is in Catanatron's repository: --catanatron-src DIR)") from None
    player: Callable[[Any], Any] = getattr(module, name)
    return player


class Stopped(Exception):
    """SIGTERM: the run ends where it stands, its figures those of the games played to the end."""


def _stop(_signal: int, _frame: object) -> None:
    raise Stopped


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.benchmarks.bench_catanatron", description=__doc__)
    parser.add_argument("games", nargs="?", type=int, default=20, help="games per opponent")
    parser.add_argument("playouts", nargs="?", type=int, default=100, help="search playouts per decision")
    parser.add_argument("seed", nargs="?", type=int, default=1)
    parser.add_argument("--first-game", type=int, default=0, help="the first game's number")
    parser.add_argument("--catanatron-src", metavar="DIR", help="a checkout of Catanatron's repository to load")
    parser.add_argument("--opponents", default="WeightedRandomPlayer,VictoryPointPlayer")
    args = parser.parse_args(argv)
    source = load_catanatron(args.catanatron_src)

    from tests.benchmarks.catanatron_adapter import DEALS, Match

    matches = [Match(name, opponent(name)) for name in args.opponents.split(",")]
    last = args.first_game + args.games
    started = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())
    print(
        f"search at {args.playouts} playouts per decision against {args.opponents}, games {args.first_game}-"
        f"{last - 1} each, 1-v-1, seed {args.seed}; {source}; started {started}, "
        f"load average {os.getloadavg()[0]:.1f}",
        flush=True,
    )
    signal.signal(signal.SIGTERM, _stop)
    try:
        for number in range(args.first_game, last):  # the opponents in turn, so that a run cut short has all
            for match in matches:
                won = match.play(number, args.playouts, args.seed)
                seat = "first" if number % 2 == 0 else "second"
                print(f"  game {number} against {match.name} ({seat}): {'won' if won else 'lost'}", flush=True)
            print(
                f"  so far (load {os.getloadavg()[0]:.1f}): " + " ".join(match.row() for match in matches), flush=True
            )
    except Stopped:
        print(f"  stopped (SIGTERM) in game {number}: the games played to the end count", flush=True)
    print(f"ended {time.strftime('%Y-%m-%d %H:%M:%S UTC', time.gmtime())}, load average {os.getloadavg()}")
    print(
        "| opponent | games | search's wins | win rate [95 %] | wins by seat | search CPU/decision "
        "| opponent CPU/decision | fallbacks |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for match in matches:
        print(match.row())
    print(f"samples of the hidden cards (a fallback: no deal of {DEALS} left the opponent short of a win):")
    for match in matches:
        print("  " + match.sampling_line())
    for match in matches:
        print("figures: " + json.dumps(match.figures()))


if __name__ == "__main__":
    main(sys.argv[1:])
