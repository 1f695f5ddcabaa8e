"""The embedded server's analytics lag under a steady stream of commands, and what it costs them.

``alexandria serve`` (SQLite event store) runs pinned to one core (``taskset -c 0``); the load
generator (``load_generator.py``: pre-built requests on raw keep-alive sockets, no reads) runs
pinned to the other (``taskset -c 1``) and sends commands at a steady rate (``--rate``, 100
commands/s in all by default, over ``--lanes`` connections) for about ``--seconds``: real
Peloponnes games (3 seats) pre-played by the random bot on the pure kernel, created in the file
before the server starts (``bench_real_games``), so the client never reads to know its next
command. This process (on the client's core too) reads every half second how far the analytics
snapshot (what a notebook reads) is behind the event store's last notification, in
notifications and in seconds (since the store had the first notification the snapshot lacks).

Each round runs two servers, each on a new file: background projection off
(``ALEXANDRIA_ANALYTICS_BACKGROUND=false``) and on, interleaved (off then on in even rounds, on
then off in odd ones, so that neither always runs first on a machine whose load changes).
Reported per run: the rate reached, the commands' median and 99th-percentile latency, the
server's CPU per command (``/proc``, counted until it has settled, its background work done),
and with the projection on the lag's maximum, 99th percentile and median after the first 5 s;
at the end, over all rounds, on beside off: the median of the runs' median latencies and of
their CPU per command, and the worst lag.

Run: ``python -m tests.benchmarks.bench_analytics_lag [--rate 100] [--seconds 60] [--lanes 10]
[--rounds 1]``.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import duckdb

from infra.analytics.store import default_snapshot_path
from infra.bootstrap import build_service
from infra.settings import Settings
from tests.benchmarks.bench_embedded import cpu_seconds, percentile
from tests.benchmarks.bench_real_games import (
    CLIENT_CORE,
    REPO,
    PlayedGame,
    pinned_server,
    plan,
    prepare_alexandria,
    settle,
)

WARM_UP_SECONDS = 5.0  # lag samples before this are not counted: the keeper's first batches


def snapshot_position(path: str) -> int:
    try:
        with duckdb.connect(path, read_only=True) as reading:
            return int(reading.sql("SELECT position FROM _analytics_position").fetchall()[0][0])
    except (duckdb.IOException, duckdb.CatalogException):
        return 0


@dataclass
class Run:
    commands: int = 0
    seconds: float = 0.0
    latencies: list[float] = field(default_factory=list)
    cpu_ms: float = 0.0  # the server's CPU per command
    lag_seconds: list[float] = field(default_factory=list)
    lag_notifications: list[int] = field(default_factory=list)


def run(directory: Path, games: list[PlayedGame], arguments: argparse.Namespace, background: bool) -> Run:
    directory.mkdir()
    events = directory / "events.sqlite"
    lanes = prepare_alexandria(events, {arguments.lanes: games}, REPO, arguments.lanes)[arguments.lanes]
    store = build_service(Settings(database_url=f"sqlite:///{events}"))
    snapshot = default_snapshot_path(str(directory / "analytics.duckdb"))
    os.environ["ALEXANDRIA_ANALYTICS_BACKGROUND"] = "true" if background else "false"
    result = Run()
    try:
        with (
            pinned_server("alexandria", events, REPO) as (port, process),
            tempfile.NamedTemporaryFile() as file,
            tempfile.TemporaryFile("w+") as answers,  # not a pipe: its every latency fills one
        ):
            if background:  # the created games in the tables first
                deadline = time.monotonic() + 120
                while snapshot_position(snapshot) < (store.recorder.max_notification_id() or 0):
                    if time.monotonic() > deadline:
                        raise RuntimeError("the analytics snapshot did not catch up with the created games")
                    time.sleep(0.2)
                settle(process.pid)
            file.write(pickle.dumps(lanes))
            file.flush()
            cpu_before = cpu_seconds(process.pid)
            generator_command = [sys.executable, "-m", "tests.benchmarks.load_generator", str(port), file.name]
            generator = subprocess.Popen(
                ["taskset", "-c", CLIENT_CORE, *generator_command, str(arguments.rate)],
                cwd=REPO,
                stdout=answers,
                stderr=subprocess.PIPE,
                text=True,
            )
            started = time.monotonic()
            reached: dict[int, float] = {}  # notification -> when this process first saw the store have it
            while generator.poll() is None:
                time.sleep(0.5)
                if not background:
                    continue
                now = time.monotonic()
                latest = store.recorder.max_notification_id() or 0
                reached.setdefault(latest, now)
                seen = snapshot_position(snapshot)
                if now - started < WARM_UP_SECONDS:
                    continue
                since = [at for position, at in reached.items() if position > seen]
                result.lag_seconds.append(now - min(since) if since else 0.0)
                result.lag_notifications.append(latest - seen)
            _, err = generator.communicate()
            if generator.returncode != 0:
                raise RuntimeError(err[-2000:])
            answers.seek(0)
            out = answers.read()
            cpu_after = settle(process.pid)
            answer = json.loads(out)
            result.latencies = answer["latencies"]
            result.seconds = answer["seconds"]
            result.commands = len(result.latencies)
            result.cpu_ms = 1000 * (cpu_after - cpu_before) / max(1, result.commands)
    finally:
        store.close()
        os.environ.pop("ALEXANDRIA_ANALYTICS_BACKGROUND", None)
    return result


def report(background: bool, result: Run, rate: float) -> None:
    print(
        f"analytics in the background {'on' if background else 'off'}: {result.commands} commands in "
        f"{result.seconds:.1f} s, {result.commands / result.seconds:.1f} commands/s (asked: {rate:.0f}); "
        f"latency median {statistics.median(result.latencies) * 1000:.1f} ms, 99th percentile "
        f"{percentile(result.latencies, 0.99) * 1000:.1f} ms; server CPU {result.cpu_ms:.2f} ms a command"
    )
    if background and result.lag_seconds:
        lag = result.lag_seconds
        print(
            f"  snapshot behind the store (after {WARM_UP_SECONDS:.0f} s, {len(lag)} samples): "
            f"at most {max(lag):.1f} s "
            f"({max(result.lag_notifications)} notifications), 99th percentile {percentile(lag, 0.99):.1f} s, "
            f"median {statistics.median(lag):.1f} s"
        )


def main() -> None:
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr]  # each line as it comes
    parser = argparse.ArgumentParser()
    parser.add_argument("--rate", type=float, default=100.0, help="commands per second, in all")
    parser.add_argument("--seconds", type=float, default=60.0, help="about this long: rate x seconds commands")
    parser.add_argument("--lanes", type=int, default=10, help="connections, each its own games")
    parser.add_argument("--rounds", type=int, default=1)
    arguments = parser.parse_args()
    os.sched_setaffinity(0, {int(CLIENT_CORE)})  # this process samples on the client's core
    print(f"load average {os.getloadavg()[0]:.1f}")
    runs: dict[bool, list[Run]] = {False: [], True: []}
    for round_ in range(arguments.rounds):
        games = plan("peloponnes", 3, [arguments.lanes], int(arguments.rate * arguments.seconds))[arguments.lanes]
        with tempfile.TemporaryDirectory() as name:
            for background in (False, True) if round_ % 2 == 0 else (True, False):
                label = f"{round_}-{'on' if background else 'off'}"
                result = run(Path(name) / label, games, arguments, background)
                report(background, result, arguments.rate)
                runs[background].append(result)
    summary(runs)
    print(f"load average {os.getloadavg()[0]:.1f}")


def summary(runs: dict[bool, list[Run]]) -> None:
    """On beside off over every round: the medians of the runs' median latencies and CPU per command."""
    if not runs[False] or not runs[True]:
        return
    latency = {
        on: statistics.median(statistics.median(r.latencies) * 1000 for r in found) for on, found in runs.items()
    }
    cpu = {on: statistics.median(r.cpu_ms for r in found) for on, found in runs.items()}
    rate = {on: statistics.median(r.commands / r.seconds for r in found) for on, found in runs.items()}
    lag = max((max(r.lag_seconds) for r in runs[True] if r.lag_seconds), default=0.0)
    print(
        f"over {len(runs[True])} rounds, projection on / off: median latency {latency[True]:.1f} / "
        f"{latency[False]:.1f} ms; server CPU {cpu[True]:.2f} / {cpu[False]:.2f} ms a command "
        f"(+{cpu[True] - cpu[False]:.2f} ms); rate {rate[True]:.1f} / {rate[False]:.1f} commands/s; "
        f"lag at most {lag:.1f} s"
    )


if __name__ == "__main__":
    main()
