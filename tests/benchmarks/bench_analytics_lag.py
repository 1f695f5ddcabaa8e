"""The embedded server's analytics lag under a steady stream of commands, and what it costs them.

``alexandria serve`` (SQLite event store) runs in a process of its own; a load generator in
another process sends commands over HTTP at a steady rate (``--rate``, 100 commands/s by default,
random legal moves of real Peloponnes games, a new game whenever one ends) for ``--seconds``.
Twice, on a new server each time: first with the background projection off
(``ALEXANDRIA_ANALYTICS_BACKGROUND=false``), then on. With it on, every half second this process
reads how far the analytics snapshot (what a notebook reads) is behind the event store's last
notification, in notifications and in seconds (since the store had reached the snapshot's
position). It reports the commands' median and 99th-percentile latency in both runs, the lag's
maximum, 99th percentile and median, and the rate the load generator reached (a loaded machine
may not reach the rate asked for).

Run: ``python -m tests.benchmarks.bench_analytics_lag [--rate 100] [--seconds 30] [--clients 10]``.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import statistics
import tempfile
import threading
import time
from pathlib import Path

import duckdb
import httpx

from domain.kernel.chance import Chance
from infra.analytics import default_snapshot_path
from infra.bootstrap import build_service
from infra.settings import Settings
from tests.support.http import auth
from tests.support.server import start_server, stop


def snapshot_position(path: str) -> int:
    try:
        with duckdb.connect(path, read_only=True) as reading:
            return int(reading.sql("SELECT position FROM _analytics_position").fetchall()[0][0])
    except (duckdb.IOException, duckdb.CatalogException):
        return 0


def client(url: str, rate: float, until: float, latencies: list[float], number: int) -> None:
    """One client: Peloponnes games played with random legal moves, at ``rate`` commands/s."""
    rng = Chance(f"lag-{number}".encode())
    with httpx.Client(base_url=url, timeout=60) as http:
        while time.monotonic() < until:
            created = http.post("/games", json={"game": "peloponnes", "players": 3}).json()
            tokens, game, version = [s["token"] for s in created["seats"]], created["game_id"], created["version"]
            next_at = time.monotonic()
            while time.monotonic() < until:
                view = http.get(f"/games/{game}", params={"min_version": version}).json()
                if view["status"] == "ended":
                    break
                seat = int(rng.choice("seat", sorted(view["awaited"])))
                listed = http.get(f"/games/{game}/legal-moves", headers=auth(tokens[seat])).json()
                move = rng.choice("move", listed["moves"])
                sleep = next_at - time.monotonic()
                if sleep > 0:
                    time.sleep(sleep)
                started = time.perf_counter()
                answer = http.post(
                    f"/games/{game}/commands",
                    json={**move, "expected_version": listed["version"]},
                    headers=auth(tokens[seat]),
                )
                if answer.status_code == 200:
                    latencies.append(time.perf_counter() - started)
                    version = answer.json()["version"]
                next_at += 1 / rate


def load(url: str, rate: float, seconds: float, clients: int, out: str) -> None:
    """The load generator (a process of its own): ``clients`` threads at ``rate`` commands/s in
    all; the accepted commands' latencies (seconds) into the file ``out``, as JSON."""
    latencies: list[float] = []
    until = time.monotonic() + seconds
    threads = [
        threading.Thread(target=client, args=(url, rate / clients, until, latencies, n), daemon=True)
        for n in range(clients)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=seconds + 60)
    Path(out).write_text(json.dumps(latencies))


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


def run(directory: Path, arguments: argparse.Namespace, background: bool) -> tuple[list[float], list[float], list[int]]:
    """One server, one load: the commands' latencies, and (background on) the snapshot's lag every
    half second in seconds and in notifications."""
    directory.mkdir()
    events = directory / "events.sqlite"
    store = build_service(Settings(database_url=f"sqlite:///{events}"))
    env = {"ALEXANDRIA_ANALYTICS_BACKGROUND": "true" if background else "false"}
    server, url = start_server(events, directory / "server.log", env)
    snapshot = default_snapshot_path(str(directory / "analytics.duckdb"))
    out = directory / "latencies.json"
    generator = multiprocessing.get_context("spawn").Process(
        target=load, args=(url, arguments.rate, arguments.seconds, arguments.clients, str(out))
    )
    reached: dict[int, float] = {}  # notification -> when the store had it
    behind: list[int] = []
    seconds_behind: list[float] = []
    try:
        generator.start()
        until = time.monotonic() + arguments.seconds
        while time.monotonic() < until:
            if background:
                now = time.monotonic()
                latest = store.recorder.max_notification_id() or 0
                reached.setdefault(latest, now)
                seen = snapshot_position(snapshot)
                behind.append(latest - seen)
                since = [at for position, at in reached.items() if position > seen]
                seconds_behind.append(now - min(since) if since else 0.0)
            time.sleep(0.5)
        generator.join(timeout=120)
    finally:
        if generator.is_alive():
            generator.terminate()
        stop(server)
        store.close()
    latencies = json.loads(out.read_text()) if out.exists() else []
    return latencies, seconds_behind, behind


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rate", type=float, default=100.0, help="commands per second, in all")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--clients", type=int, default=10)
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as name:
        for background in (False, True):
            latencies, lag, behind = run(Path(name) / ("on" if background else "off"), arguments, background)
            rate = len(latencies) / arguments.seconds
            print(f"analytics in the background {'on' if background else 'off'}: {len(latencies)} commands in ", end="")
            print(f"{arguments.seconds:.0f} s, {rate:.1f} commands/s (asked: {arguments.rate:.0f})")
            if latencies:
                print(
                    f"  command latency median {statistics.median(latencies) * 1000:.1f} ms, "
                    f"99th percentile {percentile(latencies, 0.99) * 1000:.1f} ms"
                )
            if background:
                half = lag[len(lag) // 2 :]  # the second half: past the start (the projection waits 2 s)
                print(
                    f"  snapshot behind the store (second half): at most {max(half):.1f} s "
                    f"({max(behind[len(behind) // 2 :])} notifications), 99th percentile "
                    f"{percentile(half, 0.99):.1f} s, median {statistics.median(half):.1f} s"
                )


if __name__ == "__main__":
    main()
