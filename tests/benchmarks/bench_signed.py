"""Signed commands' cost: commands of keyed seats against unkeyed ones, in the same run, interleaved.

Pairs of Peloponnes games (3 players) are created with the same seed and salt, one with every seat
keyed and one without, and the same random bot plays both, one command of each in turn (the order
alternating), through the application service on the embedded store (SQLite in memory). Only the
server's ``execute`` is timed; the client's signing is measured apart.

Run: ``python -m tests.benchmarks.bench_signed [GAMES]`` (default 20 pairs, about a minute).
"""

from __future__ import annotations

import base64
import os
import sys
import time
from collections.abc import Callable
from uuid import uuid4

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from nacl.bindings import crypto_sign_open

from api.client.seat_key import SeatKey
from domain.kernel.bots import RandomBot
from domain.kernel.log import recorded_command
from domain.kernel.signatures import check_signature, sign, signed_payload
from infra.bootstrap import build_service
from infra.games.service import CreatedGame, GameService
from infra.settings import Settings

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
                        version = aggregate.version
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


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
