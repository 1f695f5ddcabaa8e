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
  version (0 when the read model was updated before the client had the response).

Needs PostgreSQL and Redis on 127.0.0.1 (as the integration tests):
``python -m tests.benchmarks.bench_http_scaleout [peloponnes|sealed_guess] [games] [workers ...]``
(default: peloponnes, 12 games, 1 and 2 workers); ``--no-synchronous-commit`` runs with the
benchmark database's ``synchronous_commit`` off, to show what the commit's WAL flush costs.
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import httpx
import psycopg
import redis

from tests.infra import services
from tests.infra.cluster import Accepted, Cluster, create_game, play_games

fresh_database = contextmanager(services.fresh_database)
fresh_prefix = contextmanager(services.fresh_prefix)
postgres_server = contextmanager(services.postgres_server)
redis_server = contextmanager(services.redis_server)


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


class AnnouncementClock:
    """When the board read model announced each version of each game."""

    def __init__(self, url: str, prefix: str) -> None:
        self.pubsub = redis.Redis.from_url(url).pubsub(ignore_subscribe_messages=True)
        self.pubsub.psubscribe(f"{prefix}:live:*")
        self.seen: dict[str, list[tuple[int, float]]] = {}
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._listen)
        self.thread.start()

    def _listen(self) -> None:
        while not self.stop.is_set():
            message = self.pubsub.get_message(timeout=0.1)
            if message is None:
                continue
            now = time.perf_counter()
            body = json.loads(message["data"])
            if body["projection"] == "boards":
                game_id = message["channel"].decode().rsplit(":", 1)[1]
                self.seen.setdefault(game_id, []).append((body["version"], now))

    def close(self) -> None:
        self.stop.set()
        self.thread.join()
        self.pubsub.close()

    def lag(self, game_id: str, version: int, accepted_at: float) -> float | None:
        for announced, at in self.seen.get(game_id, []):
            if announced >= version:
                return max(0.0, at - accepted_at)
        return None


def run(
    workload: str, games: int, workers: int, database_server: str, redis_url: str, synchronous_commit: bool = True
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
            cluster.start_projector()
            players = 3 if workload == "peloponnes" else 2
            created = [create_game(apis[i % workers], f"bench-{i}", players, workload) for i in range(games)]
            # The clock starts once the projection worker is up and has every game (a game the read
            # models do not know yet is read from the event store: reads alone do not tell).
            for api in apis:
                while httpx.get(f"{api}/readyz", timeout=30).status_code != 200:
                    time.sleep(0.1)
            accepted = Accepted()
            started = time.perf_counter()
            play_games(apis, created, accepted, racing=workload == "sealed_guess")
            elapsed = time.perf_counter() - started
            time.sleep(1.0)  # the last announcements
            assert not accepted.errors, accepted.errors
            lags = [clock.lag(game, version, at) for game, version, at in accepted.accepted_at]
            measured = [lag for lag in lags if lag is not None]
            return {
                "commands": len(accepted.latencies),
                "commands_per_second": len(accepted.latencies) / elapsed,
                "p50_ms": 1000 * statistics.median(accepted.latencies),
                "p99_ms": 1000 * percentile(accepted.latencies, 0.99),
                "conflicts": accepted.conflicts,
                "lag_p50_ms": 1000 * statistics.median(measured),
                "lag_p99_ms": 1000 * percentile(measured, 0.99),
                "lag_missing": len(lags) - len(measured),
            }
        finally:
            clock.close()
            cluster.stop()


def main() -> None:
    arguments = [a for a in sys.argv[1:] if a != "--no-synchronous-commit"]
    synchronous_commit = len(arguments) == len(sys.argv) - 1
    workload = arguments[0] if arguments else "peloponnes"
    games = int(arguments[1]) if len(arguments) > 1 else 12
    worker_counts = [int(a) for a in arguments[2:]] or [1, 2]
    with postgres_server() as database_server, redis_server() as redis_url:
        for workers in worker_counts:
            r = run(workload, games, workers, database_server, redis_url, synchronous_commit)
            print(
                f"{workload}{'' if synchronous_commit else ' (synchronous_commit off)'}, "
                f"{workers} API worker(s), {games} games: {r['commands']:.0f} commands, "
                f"{r['commands_per_second']:.0f} commands/s, "
                f"latency p50 {r['p50_ms']:.1f} ms p99 {r['p99_ms']:.1f} ms, "
                f"{r['conflicts']:.0f} stale-version refusals; projection lag p50 {r['lag_p50_ms']:.1f} ms "
                f"p99 {r['lag_p99_ms']:.1f} ms ({r['lag_missing']:.0f} unmatched)"
            )


if __name__ == "__main__":
    main()
