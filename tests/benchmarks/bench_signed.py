"""Signed commands' cost: commands of keyed seats against unkeyed ones, in the same run, interleaved.

Pairs of Peloponnes games (3 players) are created with the same seed and salt, one with every seat
keyed and one without, and the same random bot plays both, one command of each in turn (the order
alternating), through the application service on the embedded store (SQLite in memory). Only the
server's ``execute`` is timed; the client's signing is measured apart.

Run: ``python -m tests.benchmarks.bench_signed [GAMES]`` (default 20 pairs, about a minute).

``python -m tests.benchmarks.bench_signed route [--games peloponnes:3,catan_alexander:3]
[--connections 1,8] [--rounds 3] [--commands 1500]`` measures the same at the command route, as a
client meets it: ``serve`` on its own core and a load generator on the other, sending pre-built
requests on raw keep-alive connections (``bench_real_games``' harness). Each game's commands are
pre-played on the pure kernel; the games are created in a fresh SQLite file with every seat keyed
(and, in the other kind of round, with none) and played once through the service on a scratch
store, which gives each command's version, so that every request is built before the server starts.
A keyed seat's request carries ``expected_version``, ``command_id`` and ``signature``; an unkeyed
one ``expected_version``, as the web client sends it. The rounds of the two kinds alternate; the
cost is the server process's CPU per command (its background work included), and the ratio is
keyed over unkeyed.
"""

from __future__ import annotations

import base64
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from uuid import UUID, uuid4

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from nacl.bindings import crypto_sign_open

from api.client.seat_key import SeatKey
from domain.kernel.bots import RandomBot
from domain.kernel.log import recorded_command
from domain.kernel.signatures import check_signature, sign, signed_payload
from infra.bootstrap import build_service
from infra.games.service import CreatedGame, GameService
from infra.settings import Settings
from tests.benchmarks.bench_real_games import (
    REPO,
    SALT,
    Lanes,
    PlayedGame,
    Results,
    drive,
    figures_line,
    heading,
    load_average,
    medians_by_count,
    pinned_server,
    plan,
    request,
)

GAME, PLAYERS = "peloponnes", 3


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def pair(service: GameService, number: int) -> tuple[CreatedGame, CreatedGame, list[SeatKey]]:
    keys = [SeatKey.generate() for _ in range(PLAYERS)]
    seed, salt = f"bench-signed-{number}".encode(), bytes(32)
    keyed = service.create_game(
        GAME, PLAYERS, None, seed, salt=salt, game_id=uuid4(), keys={s: k.public_key for s, k in enumerate(keys)}
    )
    plain = service.create_game(GAME, PLAYERS, None, seed, salt=salt, game_id=uuid4())
    return keyed, plain, keys


def main(pairs: int) -> None:
    service = build_service(Settings(database_url="sqlite:///:memory:"))
    timings: dict[str, list[float]] = {"keyed": [], "unkeyed": []}
    cpu: dict[str, list[float]] = {"keyed": [], "unkeyed": []}  # the calling thread's CPU time: no waiting
    signing: list[float] = []
    try:
        for number in range(pairs):
            keyed, plain, keys = pair(service, number)
            bots = {"keyed": RandomBot(f"bot-{number}".encode()), "unkeyed": RandomBot(f"bot-{number}".encode())}
            games = {"keyed": keyed, "unkeyed": plain}
            step = 0
            while True:
                order = ("keyed", "unkeyed") if step % 2 == 0 else ("unkeyed", "keyed")
                over = False
                for kind in order:
                    created = games[kind]
                    with service.reading(created.game_id) as aggregate:
                        match = aggregate.match
                        if match.is_over:
                            over = True
                            continue
                        seat, command = bots[kind].next_move(match.game, match.state)
                        version = aggregate.match.version
                    payload = recorded_command(command)
                    controls: dict[str, object] = {}
                    if kind == "keyed":
                        began = time.perf_counter()
                        body = keys[seat].signed_body(created.game_id, seat, version, f"c{version}", payload)
                        signing.append(time.perf_counter() - began)
                        controls = {"command_id": body["command_id"], "signature": body["signature"]}
                    # Yield first, for both kinds alike: on a busy machine the scheduler then starts the
                    # timed call on a fresh slice, rather than charging it for the signing just done.
                    time.sleep(0.001)
                    began, began_cpu = time.perf_counter(), time.thread_time()
                    service.execute(created.game_id, created.tokens[seat], payload, version, **controls)  # type: ignore[arg-type]
                    timings[kind].append(time.perf_counter() - began)
                    cpu[kind].append(time.thread_time() - began_cpu)
                step += 1
                if over:
                    break
    finally:
        service.close()
    for kind, samples in timings.items():
        mean = sum(samples) / len(samples)
        print(
            f"{kind:8} {len(samples):6} commands   mean {mean * 1000:6.3f} ms   "
            f"p50 {percentile(samples, 0.5) * 1000:6.3f} ms   p99 {percentile(samples, 0.99) * 1000:6.3f} ms"
        )
    ratio = (sum(timings["keyed"]) / len(timings["keyed"])) / (sum(timings["unkeyed"]) / len(timings["unkeyed"]))
    median_ratio = percentile(timings["keyed"], 0.5) / percentile(timings["unkeyed"], 0.5)
    # Each keyed command against its unkeyed twin (the same move of the same game, a moment apart):
    # the median of these ratios is the least disturbed by a busy machine.
    twins = [k / u for k, u in zip(timings["keyed"], timings["unkeyed"], strict=False) if u > 0]
    print(
        f"cost ratio keyed/unkeyed (server execute): mean {ratio:.3f}x   median {median_ratio:.3f}x   "
        f"median of twin ratios {percentile(twins, 0.5):.3f}x"
    )
    cpu_ratio = sum(cpu["keyed"]) / sum(cpu["unkeyed"])
    cpu_median = percentile(cpu["keyed"], 0.5) / percentile(cpu["unkeyed"], 0.5)
    print(
        f"cost ratio keyed/unkeyed (server execute, CPU time of the thread): mean {cpu_ratio:.3f}x   "
        f"median {cpu_median:.3f}x   (means {sum(cpu['keyed']) / len(cpu['keyed']) * 1000:.3f} ms against "
        f"{sum(cpu['unkeyed']) / len(cpu['unkeyed']) * 1000:.3f} ms)"
    )
    print(f"client signing: mean {sum(signing) / len(signing) * 1e6:.1f} µs per command")
    print("the parts of the server's extra work per keyed command:")
    print_check_parts()
    print(f"load average during the run: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


def print_check_parts(rounds: int = 200) -> None:
    """Where a keyed command's extra server time goes, each part timed in turn (interleaved): the
    canonical JSON of the signed payload (made once per command: ``execute`` does not check again
    what the service's ``admit_signed`` checked), the Ed25519 verification by libsodium (the
    server's) and by OpenSSL through ``cryptography`` (which the server used before: beside it for
    the ratio), and the server's whole check."""
    key = SeatKey.generate()
    command = {"type": "place_bid", "bid": 3}
    game_id = "00000000-0000-4000-8000-000000000000"
    payload = signed_payload(game_id, 0, 7, "c7", command, None)
    signature = sign(key.private, payload)
    raw_key = base64.urlsafe_b64decode(key.public_key + "=")
    openssl_key = Ed25519PublicKey.from_public_bytes(raw_key)
    raw = base64.urlsafe_b64decode(signature + "==")
    parts: dict[str, Callable[[], object]] = {
        "signed payload (canonical JSON)": lambda: signed_payload(game_id, 0, 7, "c7", command, None),
        "Ed25519 verify, libsodium (PyNaCl)": lambda: crypto_sign_open(raw + payload, raw_key),
        "Ed25519 verify, OpenSSL (cryptography)": lambda: openssl_key.verify(raw, payload),
        "the server's check (check_signature)": lambda: check_signature(key.public_key, signature, payload, 0),
    }
    spent: dict[str, list[float]] = {name: [] for name in parts}
    for _ in range(rounds):
        for name, part in parts.items():
            began = time.thread_time()
            part()
            spent[name].append(time.thread_time() - began)
    for name, samples in spent.items():
        mean = sum(samples) / len(samples)
        print(f"  {name:38} {percentile(samples, 0.5) * 1e6:7.1f} µs CPU median, {mean * 1e6:7.1f} µs mean")


def requests_of(service: GameService, scratch: GameService, played: PlayedGame, keyed: bool) -> list[bytes]:
    """``played``'s game created in ``service`` (every seat keyed, or none) and its requests, built
    by playing it through ``scratch``: the same id, seed, salt and keys, so the same versions."""
    keys = {seat: SeatKey.generate() for seat in range(played.players)} if keyed else {}
    public = {seat: key.public_key for seat, key in keys.items()} or None
    created = service.create_game(played.game, played.players, None, played.seed, salt=SALT, keys=public)
    twin = scratch.create_game(
        played.game, played.players, None, played.seed, salt=SALT, game_id=UUID(created.game_id), keys=public
    )
    version, built = twin.version, []
    for seat, command in played.commands:
        body: dict[str, Any] = {**command, "expected_version": version}
        if keyed:
            body = keys[seat].signed_body(created.game_id, seat, version, f"c{version}", command)
        controls = {key: body[key] for key in ("command_id", "signature") if key in body}
        _, result = scratch.execute(twin.game_id, twin.tokens[seat], command, version, **controls)
        version = result.version
        built.append(request(created.game_id, created.tokens[seat], body))
    return built


def prepared(db: Path, runs: dict[int, list[PlayedGame]], keyed: bool) -> dict[int, Lanes]:
    service = build_service(Settings(database_url=f"sqlite:///{db}"))
    scratch = build_service(Settings(database_url="sqlite:///:memory:"))
    try:
        lanes: dict[int, Lanes] = {}
        for count, games in runs.items():
            lanes[count] = [[] for _ in range(count)]
            for number, played in enumerate(games):
                lanes[count][number % count] += requests_of(service, scratch, played, keyed)
        return lanes
    finally:
        service.close()
        scratch.close()


def route(games: list[tuple[str, int]], connections: list[int], rounds: int, at_least: int) -> None:
    print(f"the command route, keyed seats against unkeyed ones; load average {load_average()}")
    kinds = ["unkeyed", "keyed"]
    for game, players in games:
        runs = plan(game, players, connections, at_least)
        results: Results = {kind: [] for kind in kinds}
        for number in range(rounds):
            for kind in kinds if number % 2 == 0 else kinds[::-1]:
                with tempfile.TemporaryDirectory() as folder:
                    db = Path(folder) / "events.sqlite"
                    lanes = prepared(db, runs, keyed=kind == "keyed")
                    with pinned_server("alexandria", db, REPO) as (port, process):
                        results[kind].append({count: drive(port, process.pid, lanes[count]) for count in runs})
        print(heading(game, players, runs))
        for count, medians in medians_by_count(results).items():
            print(figures_line(count, medians))
            cpu = medians["keyed"]["cpu_ms"] / medians["unkeyed"]["cpu_ms"]
            rate = medians["unkeyed"]["per_second"] / medians["keyed"]["per_second"]
            print(f"    cost ratio keyed/unkeyed: CPU per command {cpu:.3f}x, time per command {rate:.3f}x")


if __name__ == "__main__":
    arguments = sys.argv[1:]
    if arguments and arguments[0] == "route":
        options = dict(zip(arguments[1::2], arguments[2::2], strict=False))
        route(
            [(g.split(":")[0], int(g.split(":")[1])) for g in options.get("--games", "peloponnes:3").split(",")],
            [int(c) for c in options.get("--connections", "1,8").split(",")],
            int(options.get("--rounds", 3)),
            int(options.get("--commands", 1500)),
        )
    else:
        main(int(arguments[0]) if arguments else 20)
