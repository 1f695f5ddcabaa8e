"""Platform benchmarks on the embedded default (SQLite):

1. commands per second through the application service, in process, with p50/p99 latency;
2. the same over HTTP against a real uvicorn server (one worker), from one client;
3. the time to load version v of a long game (with snapshots) against a full replay.

Run: ``python -m tests.benchmarks.bench_service`` (takes about a minute).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

from domain.catalog import GAMES
from domain.kernel.bots import RandomBot
from domain.kernel.chance import Chance
from domain.kernel.match import Match
from infra.bootstrap import build_service
from infra.games.service import GameService
from infra.games.simulation import play_with_bot
from infra.settings import Settings
from tests.kernel.fixture_game import GAME as SEALED_GUESS

GAMES.register(SEALED_GUESS)

GAME, PLAYERS = "peloponnes", 3


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def report(label: str, latencies: list[float], elapsed: float) -> None:
    print(
        f"{label}: {len(latencies) / elapsed:8.1f} commands/s   "
        f"p50 {percentile(latencies, 0.5) * 1000:6.2f} ms   p99 {percentile(latencies, 0.99) * 1000:6.2f} ms   "
        f"({len(latencies)} commands)"
    )


def in_process(service: GameService, games: int) -> None:
    latencies: list[float] = []
    started = time.perf_counter()
    for number in range(games):
        created = service.create_game(GAME, PLAYERS, {}, f"bench-{number}".encode())
        latencies += play_with_bot(service, created, RandomBot(f"bot-{number}".encode()))
    report("in process, SQLite   ", latencies, time.perf_counter() - started)


def over_http(games: int, db: Path) -> None:
    port = 8765
    server = subprocess.Popen(
        [sys.executable, "-m", "api.cli.main", "serve", "--port", str(port)],
        env={**os.environ, "ALEXANDRIA_DATABASE_URL": f"sqlite:///{db}"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        client = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30)
        for _ in range(100):
            try:
                client.get("/games/catalog")
                break
            except httpx.TransportError:
                time.sleep(0.1)
        latencies: list[float] = []
        started = time.perf_counter()
        for number in range(games):
            created = client.post("/games", json={"game": GAME, "players": PLAYERS, "seed": f"h-{number}"}).json()
            tokens = [s["token"] for s in created["seats"]]
            rng = Chance(f"http-bot-{number}".encode())
            game = created["game_id"]
            version = created["version"]
            while True:
                view = client.get(f"/games/{game}", params={"min_version": version}).json()
                if view["status"] == "ended":
                    break
                seat = int(rng.choice("seat", sorted(view["awaited"])))
                headers = {"Authorization": f"Bearer {tokens[seat]}"}
                moves = client.get(f"/games/{game}/legal-moves", headers=headers).json()["moves"]
                body = {**rng.choice("move", moves), "expected_version": view["version"]}
                t0 = time.perf_counter()
                response = client.post(f"/games/{game}/commands", json=body, headers=headers)
                latencies.append(time.perf_counter() - t0)
                response.raise_for_status()
                version = response.json()["version"]
        report("over HTTP, SQLite    ", latencies, time.perf_counter() - started)
    finally:
        server.terminate()
        server.wait()


def load_versions(service: GameService, game: str, players: int, options: dict) -> None:
    created = service.create_game(game, players, options, b"long-game")
    play_with_bot(service, created, RandomBot(b"long-bot"))
    records = service.records(created.game_id)
    final = service.load(created.game_id)
    print(f"a {len(records)}-record {players}-player {game} game (snapshots every 100 versions):")
    for version in sorted({1, len(records) // 4, len(records) // 2, len(records) - 1, len(records)}):
        rounds = 20
        t0 = time.perf_counter()
        for _ in range(rounds):
            service.load(created.game_id, version)
        snap = (time.perf_counter() - t0) / rounds
        t0 = time.perf_counter()
        for _ in range(rounds):
            replay = Match(final.match.game, players, final.match.options, Chance(b"x"))
            for record in service.records(created.game_id, through=version):
                replay.apply_record(record)
        full = (time.perf_counter() - t0) / rounds
        print(f"  version {version:5d}: with snapshots {snap * 1000:7.2f} ms   full replay {full * 1000:7.2f} ms")


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        service = build_service(Settings(database_url=f"sqlite:///{folder}/bench.sqlite"))
        in_process(service, games=10)
        load_versions(service, "peloponnes", 5, {})
        # The kernel's test game, long enough for a 1,000-record log.
        load_versions(service, "sealed_guess", 3, {"rounds": 150})
        service.close()
        over_http(games=3, db=Path(folder) / "http.sqlite")


if __name__ == "__main__":
    main()
