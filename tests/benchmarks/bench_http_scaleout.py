"""Scale-out benchmark over HTTP: PostgreSQL event store, Redis read models, one and then two
API worker processes and one projection worker, on this machine.

Two workloads, each bot reading its view with ``min_version`` before each command, as a client
that reads its own writes, and sending every request to a random worker:

- ``peloponnes``: 3-player Peloponnes games, one client per game playing the awaited seat from
  its legal moves (turn-based load: commands on one game do not race);
- ``sealed_guess``: the kernel's fixture game, a client per seat, both seats guessing at once, so
  commands on one game race across workers (most refusals are lost races).

Reported:

- commands per second (accepted commands over the wall time), p50/p99 command latency;
- projection lag: from a command's response to the board read model's announcement of that
  version (0 when the read model was updated before the client had the response), p50, p95,
  p99 and max over every accepted command. The announcements are timed by a process of their
  own (the same monotonic clock as the bots'), so that the bots' threads do not delay them.
- the load average (1 minute) before and after the run: the machine is shared.

Needs PostgreSQL and Redis on 127.0.0.1 (as the integration tests):
``python -m tests.benchmarks.bench_http_scaleout [peloponnes|sealed_guess] [games] [workers ...]``
(default: peloponnes, 12 games, 1 and 2 workers). ``games`` is the number of games played at
once; options:

- ``--commands N`` (peloponnes; default 2000): the clients play game after game until N
  commands were accepted, for enough samples of the lag's tail;
- ``--rate R`` (peloponnes; default 100): at most R commands per second in all (the clients
  wait for their turn before each command; 0: as fast as they go). The rate reached is
  reported: below R, the machine could not drive more;
- ``--projector-source DIR``: run the projection worker from another checkout (a baseline, e.g.
  ``git archive COMMIT | tar -x -C DIR``), to compare in the same session;
- ``--repeat K``: K rounds (alternating with the baseline when one is given);
- ``--no-synchronous-commit``: the benchmark database's ``synchronous_commit`` off, to show
  what the commit's WAL flush costs.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import contextmanager
from itertools import count
from pathlib import Path
from typing import Any

import httpx
import psycopg
import redis

from tests.infra import services
from tests.infra.cluster import Accepted, Cluster, create_game, play_games, play_with_legal_moves

fresh_database = contextmanager(services.fresh_database)
fresh_prefix = contextmanager(services.fresh_prefix)
postgres_server = contextmanager(services.postgres_server)
redis_server = contextmanager(services.redis_server)


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def listen_for_announcements(url: str, prefix: str, ready: Any, stop: Any, results: Any) -> None:
    """In a process of its own: when the board read model announced each version of each game."""
    pubsub = redis.Redis.from_url(url).pubsub(ignore_subscribe_messages=True)
    pubsub.psubscribe(f"{prefix}:live:*")
    while pubsub.get_message(timeout=1.0) is None and not pubsub.subscribed:
        pass
    ready.set()
    seen: dict[str, list[tuple[int, float]]] = {}
    while not stop.is_set():
        message = pubsub.get_message(timeout=0.1)
        if message is None:
            continue
        now = time.perf_counter()  # CLOCK_MONOTONIC: the same clock in every process
        body = json.loads(message["data"])
        if body["projection"] == "boards":
            game_id = message["channel"].decode().rsplit(":", 1)[1]
            seen.setdefault(game_id, []).append((body["version"], now))
    pubsub.close()
    results.send(seen)


class AnnouncementClock:
    """When the board read model announced each version of each game (timed in a process of its own)."""

    def __init__(self, url: str, prefix: str) -> None:
        context = multiprocessing.get_context("spawn")
        self.ready, self.stop = context.Event(), context.Event()
        self.results, sending = context.Pipe(duplex=False)
        self.process = context.Process(
            target=listen_for_announcements, args=(url, prefix, self.ready, self.stop, sending), daemon=True
        )
        self.process.start()
        if not self.ready.wait(60):
            raise RuntimeError("the announcement clock did not subscribe")
        self.seen: dict[str, list[tuple[int, float]]] = {}

    def close(self) -> None:
        if self.process.is_alive():
            self.stop.set()
            if self.results.poll(60):
                self.seen = self.results.recv()
            self.process.join(10)

    def lag(self, game_id: str, version: int, accepted_at: float) -> float | None:
        for announced, at in self.seen.get(game_id, []):
            if announced >= version:
                return max(0.0, at - accepted_at)
        return None


class Pacer:
    """At most ``rate`` commands per second from all clients together (0: no limit)."""

    def __init__(self, rate: float) -> None:
        self.interval = 1.0 / rate if rate > 0 else 0.0
        self.next = time.perf_counter()
        self.lock = threading.Lock()

    def __call__(self) -> None:
        if not self.interval:
            return
        with self.lock:
            now = time.perf_counter()
            slot = max(now, self.next)
            self.next = slot + self.interval
        time.sleep(slot - now)


def play_until(apis: list[str], clients: int, commands: int, accepted: Accepted, pacer: Pacer) -> None:
    """``clients`` Peloponnes games at once, each client starting another game when its game
    ends, until ``commands`` commands were accepted."""
    numbers = count()

    def client(number: int) -> None:
        rng = random.Random(f"client-{number}")
        try:
            while len(accepted.latencies) < commands:
                game = next(numbers)
                created = create_game(apis[game % len(apis)], f"bench-{game}", 3, "peloponnes")
                play_with_legal_moves(apis, created, accepted, rng, pacer)
        except BaseException as problem:
            accepted.errors.append(problem)

    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def start_projector(cluster: Cluster, source: Path | None) -> None:
    if source is None:
        cluster.start_projector()
        return
    log = (cluster.log_dir / "projector.log").open("ab")
    command = [sys.executable, "-m", "tests.infra.launch", "project"]
    env = {**cluster.env, "PYTHONPATH": str(source)}
    cluster.processes.append(subprocess.Popen(command, cwd=source, env=env, stdout=log, stderr=log))


def run(
    workload: str,
    games: int,
    workers: int,
    database_server: str,
    redis_url: str,
    synchronous_commit: bool = True,
    commands: int = 2000,
    rate: float = 100.0,
    projector_source: Path | None = None,
) -> dict[str, float]:
    with fresh_database(database_server) as database_url, fresh_prefix(redis_url) as prefix:
        if not synchronous_commit:
            # Each insert holds the event table's lock through its commit's WAL flush: without
            # waiting for the flush, the ceiling rises (a crash may lose the last few commits).
            with psycopg.connect(database_url, autocommit=True) as connection:
                connection.execute(f'ALTER DATABASE "{database_url.rsplit("/", 1)[1]}" SET synchronous_commit = off')
        cluster = Cluster(database_url, redis_url, prefix, Path(tempfile.mkdtemp(prefix="alexandria-bench-")))
        clock = AnnouncementClock(redis_url, prefix)
        try:
            apis = [cluster.start_api() for _ in range(workers)]
            start_projector(cluster, projector_source)
            # The clock starts once the projection worker is up and has every game created so far
            # (a game the read models do not know yet is read from the event store: reads alone
            # do not tell); peloponnes creates its games as it goes, after one to wait for.
            sealed = workload == "sealed_guess"
            if sealed:
                created = [create_game(apis[i % workers], f"bench-{i}", 2, workload) for i in range(games)]
            else:
                create_game(apis[0], "warm-up", 3, workload)
            for api in apis:
                while httpx.get(f"{api}/readyz", timeout=30).status_code != 200:
                    time.sleep(0.1)
            accepted = Accepted()
            load_before = os.getloadavg()[0]
            started = time.perf_counter()
            if sealed:
                play_games(apis, created, accepted, racing=True)
            else:
                play_until(apis, games, commands, accepted, Pacer(rate))
            elapsed = time.perf_counter() - started
            load_after = os.getloadavg()[0]
            time.sleep(1.0)  # the last announcements
            assert not accepted.errors, accepted.errors
        finally:
            clock.close()
            cluster.stop()
        lags = [clock.lag(game, version, at) for game, version, at in accepted.accepted_at]
        measured = [lag for lag in lags if lag is not None]
        return {
            "commands": len(accepted.latencies),
            "commands_per_second": len(accepted.latencies) / elapsed,
            "p50_ms": 1000 * statistics.median(accepted.latencies),
            "p99_ms": 1000 * percentile(accepted.latencies, 0.99),
            "conflicts": accepted.conflicts,
            "lag_p50_ms": 1000 * statistics.median(measured),
            "lag_p95_ms": 1000 * percentile(measured, 0.95),
            "lag_p99_ms": 1000 * percentile(measured, 0.99),
            "lag_max_ms": 1000 * max(measured),
            "lag_missing": len(lags) - len(measured),
            "load_before": load_before,
            "load_after": load_after,
        }


def option(arguments: list[str], name: str, default: str | None) -> str | None:
    if name not in arguments:
        return default
    at = arguments.index(name)
    value = arguments[at + 1]
    del arguments[at : at + 2]
    return value


def main() -> None:
    arguments = sys.argv[1:]
    synchronous_commit = "--no-synchronous-commit" not in arguments
    arguments = [a for a in arguments if a != "--no-synchronous-commit"]
    commands = int(option(arguments, "--commands", "2000") or 2000)
    rate = float(option(arguments, "--rate", "100") or 100)
    repeat = int(option(arguments, "--repeat", "1") or 1)
    source = option(arguments, "--projector-source", None)
    workload = arguments[0] if arguments else "peloponnes"
    games = int(arguments[1]) if len(arguments) > 1 else 12
    worker_counts = [int(a) for a in arguments[2:]] or [1, 2]
    projectors: list[Path | None] = [None] if source is None else [Path(source).resolve(), None]
    with postgres_server() as database_server, redis_server() as redis_url:
        for _ in range(repeat):
            for workers in worker_counts:
                for projector_source in projectors:
                    r = run(
                        workload, games, workers, database_server, redis_url, synchronous_commit,
                        commands, rate, projector_source,
                    )  # fmt: skip
                    which = "" if source is None else f" [projector: {projector_source or 'this checkout'}]"
                    print(
                        f"{workload}{'' if synchronous_commit else ' (synchronous_commit off)'}{which}, "
                        f"{workers} API worker(s), {games} games at once: {r['commands']:.0f} commands, "
                        f"{r['commands_per_second']:.0f} commands/s, "
                        f"latency p50 {r['p50_ms']:.1f} ms p99 {r['p99_ms']:.1f} ms, "
                        f"{r['conflicts']:.0f} stale-version refusals; projection lag p50 {r['lag_p50_ms']:.1f} ms "
                        f"p95 {r['lag_p95_ms']:.1f} ms p99 {r['lag_p99_ms']:.1f} ms max {r['lag_max_ms']:.1f} ms "
                        f"({r['lag_missing']:.0f} unmatched); load average {r['load_before']:.1f} -> "
                        f"{r['load_after']:.1f}",
                        flush=True,
                    )


if __name__ == "__main__":
    main()
