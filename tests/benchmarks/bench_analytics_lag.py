"""The embedded server's analytics lag under a steady stream of commands.

``alexandria serve`` (SQLite event store) runs in a process of its own; clients send commands
over HTTP at a steady rate (``--rate``, 100 commands/s by default, random legal moves of
Peloponnes games, a new game whenever one ends) for ``--seconds``; every half second the
benchmark reads how far the analytics snapshot (what a notebook reads) is behind the event
store's last notification, in notifications and in seconds (since the store had reached the
snapshot's position). It also reports the commands' median and 99th-percentile latency, and
the rate the clients reached (a loaded machine may not reach the rate asked for).

Run: ``python -m tests.benchmarks.bench_analytics_lag [--rate 100] [--seconds 30]``.
"""

from __future__ import annotations

import argparse
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


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rate", type=float, default=100.0, help="commands per second, in all")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--clients", type=int, default=10)
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as name:
        directory = Path(name)
        events = directory / "events.sqlite"
        store = build_service(Settings(database_url=f"sqlite:///{events}"))
        server, url = start_server(events, directory / "server.log")
        snapshot = default_snapshot_path(str(directory / "analytics.duckdb"))
        latencies: list[float] = []
        until = time.monotonic() + arguments.seconds
        threads = [
            threading.Thread(
                target=client, args=(url, arguments.rate / arguments.clients, until, latencies, n), daemon=True
            )
            for n in range(arguments.clients)
        ]
        for thread in threads:
            thread.start()
        reached: dict[int, float] = {}  # notification -> when the store had it
        behind, seconds_behind = [], []
        try:
            while time.monotonic() < until:
                now = time.monotonic()
                latest = store.recorder.max_notification_id() or 0
                reached.setdefault(latest, now)
                seen = snapshot_position(snapshot)
                behind.append(latest - seen)
                since = [at for position, at in reached.items() if position > seen]
                seconds_behind.append(now - min(since) if since else 0.0)
                time.sleep(0.5)
            for thread in threads:
                thread.join(timeout=60)
        finally:
            stop(server)
            store.close()
    half = len(behind) // 2  # the second half: past the start (the background projection waits 2 s)
    print(
        f"{len(latencies)} commands in {arguments.seconds:.0f} s: {len(latencies) / arguments.seconds:.1f} commands/s"
    )
    if latencies:
        ordered = sorted(latencies)
        print(
            f"  command latency median {statistics.median(ordered) * 1000:.1f} ms, "
            f"99th percentile {ordered[int(len(ordered) * 0.99)] * 1000:.1f} ms"
        )
    print(
        f"  snapshot behind the store (second half): at most {max(behind[half:])} notifications, "
        f"{max(seconds_behind[half:]):.1f} s; median {statistics.median(seconds_behind[half:]):.1f} s"
    )


if __name__ == "__main__":
    main()
