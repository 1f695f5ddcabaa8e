"""The embedded mode beside a bare FastAPI + eventsourcing app (``bare_app.py``), in one run.

``python -m tests.benchmarks.bench_embedded commands [rounds] [--connections 1,2,8] [--games 3] [--source DIR]``
    The command route: commands/s and p50/p99 at 1, 2 and 8 connections, each connection on its
    own games (``--games`` of them, 80 commands each; the kernel's sealed-guess game, whose
    commands a client knows without reading). ``--source``: also the server of another checkout.
    Rounds interleave the two apps, each on a fresh file;
    reported: the median round and the ratio Alexandria / bare.
``python -m tests.benchmarks.bench_embedded restart [games] [--rounds N] [--keep DIR] [--source DIR]``
    A file with 10,000 stored games (read models and analytics caught up), then the time from
    process start to the first successful read of a game and to ``/readyz``, beside the bare app's
    first read, in alternating order. ``--source`` also starts the server from another checkout
    (e.g. the code before a change) in every round, on the same file.
``python -m tests.benchmarks.bench_embedded memory [games]``
    RSS of ``serve`` as it plays 10,000 solo Peloponnes games (``bench_real_games memory``).
``python -m tests.benchmarks.bench_embedded versions``
    Every version of a 1,000-record game: in process (the read side) and ``/versions/{v}`` over HTTP.
``python -m tests.benchmarks.bench_embedded render``
    Rendering views on change (every viewer, every batch) against on read (from the stored match,
    cached): the projection's cost per record both ways, and a read's cost cold and cached.
``python -m tests.benchmarks.bench_embedded waiters [--source DIR]``
    A bystander's plain reads while 300 clients long-poll ``min_version`` for a move that does not
    come. ``--source`` runs the server from another checkout (e.g. the code before this change,
    ``git archive 49de55c | tar -x -C DIR``) for the before/after comparison.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import httpx

from tests.infra.services import free_port

REPO = Path(__file__).resolve().parents[2]
GAME, PLAYERS = "peloponnes", 3


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


@contextmanager
def server(kind: str, db: Path, source: Path = REPO, env: dict[str, str] | None = None) -> Iterator[tuple[str, Any]]:
    """``kind`` alexandria (``serve``, with the kernel's test game registered) or bare."""
    port = free_port()
    if kind == "alexandria":
        command = [sys.executable, "-m", "tests.infra.launch", "serve", "--port", str(port)]
    else:
        command = [sys.executable, "-m", "tests.benchmarks.bare_app", "--port", str(port), "--db", str(db)]
    environment = {
        **os.environ,
        "ALEXANDRIA_DATABASE_URL": f"sqlite:///{db}",
        "ALEXANDRIA_CREATION_RATE_LIMIT": "",  # the benchmarks' one client creates thousands of games
        "PYTHONPATH": str(source),
        **(env or {}),
    }
    environment.pop("ALEXANDRIA_REDIS_URL", None)
    started = time.perf_counter()
    process = subprocess.Popen(command, cwd=source, env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    probe = "/games/catalog" if kind == "alexandria" else "/healthz"
    while True:
        try:
            if httpx.get(url + probe, timeout=1).status_code == 200:
                break
        except httpx.TransportError:
            pass
        if process.poll() is not None:
            raise RuntimeError(process.stderr.read().decode() if process.stderr else "server died")
        time.sleep(0.01)
    process.started = started  # type: ignore[attr-defined]
    try:
        yield url, process
    finally:
        process.terminate()
        process.wait()


# -- the command route ------------------------------------------------------------------------------


ROUNDS = 40  # commands per game: two sealed guesses a round


def prepared_games(url: str, kind: str, count: int, tag: str) -> list[dict[str, Any]]:
    """Games created on the server, with the commands to send (per seat token).

    The kernel's sealed-guess game: both seats guess in every round, in any order, so the client
    knows its commands without reading anything (a game's seed is salted by the server, so a
    client cannot replay a real game locally). Each command goes through the whole pipeline:
    parsing, the rules, a sealed private record with its digest, the hash chain, the store."""
    games: list[dict[str, Any]] = []
    with httpx.Client(base_url=url, timeout=30) as client:
        for number in range(count):
            body = {"game": "sealed_guess", "players": 2, "seed": f"{tag}-{number}", "options": {"rounds": ROUNDS}}
            created = client.post("/games", json=body).json()
            tokens = [s["token"] for s in created.get("seats", [])]
            commands = [
                ({"Authorization": f"Bearer {tokens[seat]}"} if tokens else {}, {"type": "commit_guess", "guess": 3})
                for _ in range(ROUNDS)
                for seat in (0, 1)
            ]
            games.append({"game_id": created["game_id"], "commands": commands, "kind": kind})
    return games


async def send_commands(url: str, games: list[dict[str, Any]], latencies: list[float]) -> None:
    async with httpx.AsyncClient(base_url=url, timeout=60) as client:
        for game in games:
            for headers, body in game["commands"]:
                started = time.perf_counter()
                response = await client.post(f"/games/{game['game_id']}/commands", json=body, headers=headers)
                latencies.append(time.perf_counter() - started)
                if response.status_code != 200:
                    raise RuntimeError(response.text)


def command_round(
    kind: str, connections: list[int], games_per_connection: int, source: Path = REPO
) -> dict[int, dict[str, float]]:
    results: dict[int, dict[str, float]] = {}
    with tempfile.TemporaryDirectory() as folder, server(kind, Path(folder) / "events.sqlite", source) as (url, _):
        for count in connections:
            games = prepared_games(url, kind, count * games_per_connection, f"c{count}")
            shares = [games[i::count] for i in range(count)]
            latencies: list[float] = []

            async def everyone(shares: list[list[dict[str, Any]]] = shares, latencies: list[float] = latencies) -> None:
                await asyncio.gather(*(send_commands(url, share, latencies) for share in shares))

            started = time.perf_counter()
            asyncio.run(everyone())
            elapsed = time.perf_counter() - started
            results[count] = {
                "per_second": len(latencies) / elapsed,
                "p50_ms": 1000 * statistics.median(latencies),
                "p99_ms": 1000 * percentile(latencies, 0.99),
            }
    return results


def commands(
    rounds: int = 3, connections: list[int] | None = None, games_per_connection: int = 3, source: Path | None = None
) -> None:
    """``source``: also the server from another checkout (the code before a change), in every round."""
    connections = connections or [1, 2, 8]
    apps = [("bare", "bare", REPO), ("alexandria", "alexandria", REPO)]
    if source is not None:
        apps.append((f"from {source}", "alexandria", source))
    runs: dict[str, list[dict[int, dict[str, float]]]] = {label: [] for label, _, _ in apps}
    for number in range(rounds):
        for label, kind, checkout in apps if number % 2 == 0 else apps[::-1]:
            runs[label].append(command_round(kind, connections, games_per_connection, checkout))
    for count in connections:
        line = []
        medians = {}
        for label in [label for label, _, _ in apps if label != "bare"] + ["bare"]:
            per_second = statistics.median(r[count]["per_second"] for r in runs[label])
            p50 = statistics.median(r[count]["p50_ms"] for r in runs[label])
            p99 = statistics.median(r[count]["p99_ms"] for r in runs[label])
            medians[label] = per_second
            line.append(f"{label} {per_second:6.0f}/s p50 {p50:5.1f} ms p99 {p99:5.1f} ms")
        ratio = medians["alexandria"] / medians["bare"]
        print(f"{count} connection(s): {' | '.join(line)} | ratio {ratio:.2f}")


# -- restart with many stored games -----------------------------------------------------------------


def stored_games(db: Path, games: int) -> list[str]:
    """``games`` games in the file (each created and a few commands in), read models caught up."""
    from domain.kernel.bots import RandomBot
    from infra.bootstrap import build_service
    from infra.games.simulation import play_with_bot
    from infra.readside.reader import build_read_side
    from infra.settings import Settings

    settings = Settings(database_url=f"sqlite:///{db}")
    service = build_service(settings)
    ids = []
    for number in range(games):
        created = service.create_game(GAME, PLAYERS, None, f"stored-{number}".encode())
        play_with_bot(service, created, RandomBot(f"stored-{number}".encode()), commands=5)
        ids.append(created.game_id)
    reads = build_read_side(service, settings)
    assert reads.projector is not None
    reads.projector.catch_up()
    from infra.analytics.store import Analytics  # a restarted server finds its analytics caught up too

    analytics = Analytics.for_service(service, worker=True)
    analytics.projector.catch_up()
    analytics.close()
    records = service.recorder.max_notification_id()
    print(f"{games} stored games, {records} records")
    service.close()
    return ids


def cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) a process has used so far: what a busy machine does not inflate."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def first_read(kind: str, db: Path, game_id: str, source: Path = REPO) -> dict[str, float]:
    """Seconds from process start to the first successful read of ``game_id`` (``read``), the
    CPU seconds the server had used by then (``cpu``), and for Alexandria to ``/readyz`` (``ready``).
    Until the port accepts, the client only tries to connect (an HTTP client per attempt would take
    CPU from the server starting beside it)."""
    port = free_port()
    if kind == "alexandria":
        command = [sys.executable, "-m", "api.cli.main", "serve", "--port", str(port)]
    else:
        command = [sys.executable, "-m", "tests.benchmarks.bare_app", "--port", str(port), "--db", str(db)]
    env = {**os.environ, "ALEXANDRIA_DATABASE_URL": f"sqlite:///{db}", "PYTHONPATH": str(source)}
    # Made before the clock starts: an HTTP client's set-up (its TLS context) is the client's cost.
    client = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30)
    with suppress(httpx.TransportError):  # and its transport's modules, imported on first use
        client.get("/")
    started = time.perf_counter()
    process = subprocess.Popen(command, cwd=source, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    figures: dict[str, float] = {}
    try:
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if process.poll() is not None:
                    raise RuntimeError(f"{kind} server exited with status {process.returncode}") from None
                time.sleep(0.005)
        while "read" not in figures or (kind == "alexandria" and "ready" not in figures):
            if "read" not in figures and client.get(f"/games/{game_id}").status_code == 200:
                figures["read"] = time.perf_counter() - started
                figures["cpu"] = cpu_seconds(process.pid)
            if kind == "alexandria" and "ready" not in figures and client.get("/readyz").status_code == 200:
                figures["ready"] = time.perf_counter() - started
        return figures
    finally:
        client.close()
        process.terminate()
        process.wait()


def bare_stored_games(db: Path, games: int) -> list[str]:
    from tests.benchmarks.bare_app import Game, Games

    app = Games(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(db)})
    ids = []
    for _ in range(games):
        game = Game(GAME, PLAYERS)
        for _ in range(5):
            game.move({"type": "x"})
        app.save(game)
        ids.append(str(game.id))
    app.close()
    return ids


def restart(games: int = 10_000, rounds: int = 3, keep: Path | None = None, source: Path | None = None) -> None:
    """``keep``: a folder for the files, reused by the next run (generating them takes minutes)."""
    with tempfile.TemporaryDirectory() as scratch:
        folder = keep or Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        db, bare_db = folder / "events.sqlite", folder / "bare.sqlite"
        listed, bare_listed = folder / "ids.json", folder / "bare-ids.json"
        if not listed.exists():
            listed.write_text(json.dumps(stored_games(db, games)))
        if not bare_listed.exists():
            bare_listed.write_text(json.dumps(bare_stored_games(bare_db, games)))
        ids, bare_ids = json.loads(listed.read_text()), json.loads(bare_listed.read_text())
        servers = [("Alexandria", "alexandria", REPO), ("bare app", "bare", REPO)]
        if source is not None:
            servers.insert(1, (f"Alexandria from {source}", "alexandria", source))
        reads: dict[str, list[dict[str, float]]] = {label: [] for label, _, _ in servers}
        for number in range(rounds):
            line = []
            for label, kind, checkout in servers if number % 2 == 0 else servers[::-1]:
                files = (db, ids) if kind == "alexandria" else (bare_db, bare_ids)
                figures = first_read(kind, files[0], files[1][(number * 7919) % games], checkout)
                reads[label].append(figures)
                ready = f", ready {figures['ready']:.2f} s" if "ready" in figures else ""
                line.append(f"{label} first read {figures['read']:.2f} s (CPU {figures['cpu']:.2f} s){ready}")
            print(f"restart {number + 1}: " + "; ".join(line))
        bare = {what: statistics.median(f[what] for f in reads["bare app"]) for what in ("read", "cpu")}
        for label, runs in reads.items():
            read = sorted(f["read"] for f in runs)
            cpu = statistics.median(f["cpu"] for f in runs)
            print(
                f"{label}: first read median {statistics.median(read):.2f} s ({read[0]:.2f}-{read[-1]:.2f}), "
                f"ratio {statistics.median(read) / bare['read']:.2f}; CPU median {cpu:.2f} s, "
                f"ratio {cpu / bare['cpu']:.2f}"
            )


# -- memory ------------------------------------------------------------------------------------------


def memory(games: int = 10_000) -> None:
    """Real games, not the test game: solo Peloponnes (``bench_real_games memory``; Catan with
    ``python -m tests.benchmarks.bench_real_games memory N --game catan_alexander:3``)."""
    from tests.benchmarks.bench_real_games import memory as real_games_memory

    real_games_memory("peloponnes", 1, games)


# -- any version -------------------------------------------------------------------------------------


def versions() -> None:
    import tests.conftest  # noqa: F401 - registers sealed_guess
    from domain.kernel.bots import RandomBot
    from infra.bootstrap import build_service
    from infra.games.simulation import play_with_bot
    from infra.readside.reader import build_read_side
    from infra.settings import Settings

    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "events.sqlite"
        settings = Settings(database_url=f"sqlite:///{db}")
        service = build_service(settings)
        created = service.create_game("sealed_guess", 2, {"rounds": 200}, b"versions")
        play_with_bot(service, created, RandomBot(b"versions"))
        reads = build_read_side(service, settings)
        assert reads.projector is not None
        reads.projector.catch_up()
        last = service.load(created.game_id).match.version
        timings = [float("inf")] * last
        for _ in range(3):  # the best of three passes per version: the machine is shared
            for version in range(1, last + 1):
                started = time.perf_counter()
                reads.at_version(created.game_id, version, 0)
                timings[version - 1] = min(timings[version - 1], time.perf_counter() - started)
        print(
            f"in process, every version of a {last}-record game: mean {1000 * statistics.mean(timings):.2f} ms, "
            f"p99 {1000 * percentile(timings, 0.99):.2f} ms, max {1000 * max(timings):.2f} ms"
        )
        service.close()
        with server("alexandria", db) as (url, _), httpx.Client(base_url=url) as client:
            latencies = []
            for version in [*range(1, last + 1), *range(last, 0, -7)]:
                started = time.perf_counter()
                client.get(f"/games/{created.game_id}/versions/{version}").raise_for_status()
                latencies.append(time.perf_counter() - started)
            print(
                f"over HTTP, /versions/{{v}} ({len(latencies)} reads): "
                f"p50 {1000 * statistics.median(latencies):.2f} ms, "
                f"p99 {1000 * percentile(latencies, 0.99):.2f} ms"
            )


# -- views rendered on change or on read ------------------------------------------------------------


def render() -> None:
    from collections.abc import Sequence

    from domain.kernel.bots import RandomBot
    from infra.bootstrap import build_service
    from infra.games.simulation import play_with_bot
    from infra.readside.projector import Projector
    from infra.readside.reader import ReadSide
    from infra.readside.readmodels import MemoryStore
    from infra.settings import Settings
    from projections.base import Documents, ProjectedRecord
    from projections.board import BoardProjection, board_view
    from projections.checkpoint import MATCHES, decode_match
    from projections.scoreboard import scoreboard_entry

    class RenderingOnChange(BoardProjection):
        """The board read model as it was: every viewer's view and the scoreboard, every batch."""

        def apply(self, documents: Documents, batch: Sequence[ProjectedRecord]) -> None:
            super().apply(documents, batch)
            for game_id in dict.fromkeys(item.game_id for item in batch):
                match = decode_match(documents.get(MATCHES, game_id))
                for viewer in [None, *range(match.players)]:
                    documents.put("views", f"{game_id}/{viewer}", board_view(game_id, match, viewer))
                documents.put("scores", game_id, scoreboard_entry(game_id, match))

    with tempfile.TemporaryDirectory() as folder:
        service = build_service(Settings(database_url=f"sqlite:///{folder}/e.sqlite"))
        ids = []
        for number in range(20):
            created = service.create_game(GAME, PLAYERS, None, f"render-{number}".encode())
            play_with_bot(service, created, RandomBot(f"render-{number}".encode()))
            ids.append(created.game_id)
        records = service.recorder.max_notification_id() or 0
        for label, projection in [("on read ", BoardProjection()), ("on change", RenderingOnChange())]:
            best = float("inf")
            for _ in range(3):
                store = MemoryStore()
                started = time.perf_counter()
                Projector(service, store, [projection], batch_size=5).catch_up()  # about a command a batch
                best = min(best, time.perf_counter() - started)
            print(f"views rendered {label}: projection {1e6 * best / records:6.1f} µs per record ({records} records)")
        store = MemoryStore()
        projector = Projector(service, store)
        projector.catch_up()
        reads = ReadSide(service, store, projector)
        cold, warm = [], []
        for game_id in ids:
            for viewer in [None, 0, 1, 2]:
                started = time.perf_counter()
                reads.board(game_id, viewer)
                cold.append(time.perf_counter() - started)
                started = time.perf_counter()
                reads.board(game_id, viewer)
                warm.append(time.perf_counter() - started)
        print(
            f"a read rendered on read: first {1000 * statistics.median(cold):.2f} ms (median), "
            f"cached {1000 * statistics.median(warm):.3f} ms"
        )
        service.close()


# -- waiters -----------------------------------------------------------------------------------------


async def raw_get(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, target: str) -> int:
    """One HTTP/1.1 GET on a kept-alive connection, with as little client work as can be: with
    300 clients on the same 2 cores, an HTTP library's own cost would be what gets measured."""
    writer.write(f"GET {target} HTTP/1.1\r\nHost: bench\r\n\r\n".encode())
    await writer.drain()
    head = await reader.readuntil(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    length = next(
        int(line.split(b":", 1)[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:")
    )
    await reader.readexactly(length)
    return status


async def long_poll(port: int, target: str, answered: list[float], stop: asyncio.Event) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        while not stop.is_set():
            started = time.perf_counter()
            status = await raw_get(reader, writer, target)
            answered.append(time.perf_counter() - started)
            if status not in (409, 503):
                raise RuntimeError(f"a long-poll answered {status}")
    finally:
        writer.close()


async def waiters_run(url: str, waiting: int, seconds: float) -> dict[str, float]:
    port = int(url.rsplit(":", 1)[1])
    async with httpx.AsyncClient(base_url=url, timeout=60) as client:
        awaited = (await client.post("/games", json={"game": "sealed_guess", "players": 2, "seed": "w"})).json()
        other = (await client.post("/games", json={"game": "sealed_guess", "players": 2, "seed": "b"})).json()
        await client.get(f"/games/{other['game_id']}", params={"min_version": 1})
    stop = asyncio.Event()
    answered: list[float] = []
    target = f"/games/{awaited['game_id']}?min_version={awaited['version'] + 1}"
    polls = [asyncio.create_task(long_poll(port, target, answered, stop)) for _ in range(waiting)]
    await asyncio.sleep(1.0)  # every waiter is waiting
    bystander: list[float] = []
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        started = time.perf_counter()
        if await raw_get(reader, writer, f"/games/{other['game_id']}") != 200:
            raise RuntimeError("the bystander's read failed")
        bystander.append(time.perf_counter() - started)
        await asyncio.sleep(0.02)
    writer.close()
    stop.set()
    await asyncio.gather(*polls)
    return {
        "bystander_p50_ms": 1000 * statistics.median(bystander),
        "bystander_p99_ms": 1000 * percentile(bystander, 0.99),
        "bystander_reads": len(bystander),
        "waiter_answer_p50_s": statistics.median(answered) if answered else 0.0,
        "waiter_answer_max_s": max(answered, default=0.0),
    }


def waiters(source: Path = REPO, waiting: int = 300, seconds: float = 12.0) -> None:
    with tempfile.TemporaryDirectory() as folder, server("alexandria", Path(folder) / "e.sqlite", source) as (url, _):
        quiet = asyncio.run(waiters_run(url, 0, 3.0))
        loaded = asyncio.run(waiters_run(url, waiting, seconds))
    print(f"server from {source}")
    print(f"  no waiters:  bystander p50 {quiet['bystander_p50_ms']:.1f} ms, p99 {quiet['bystander_p99_ms']:.1f} ms")
    print(
        f"  {waiting} waiters: bystander p50 {loaded['bystander_p50_ms']:.1f} ms, "
        f"p99 {loaded['bystander_p99_ms']:.1f} ms ({loaded['bystander_reads']:.0f} reads); "
        f"a waiter is answered after {loaded['waiter_answer_p50_s']:.1f} s "
        f"(at most {loaded['waiter_answer_max_s']:.1f} s)"
    )


def main() -> None:
    arguments = sys.argv[1:]
    if not arguments:
        print(__doc__)
        return
    what, rest = arguments[0], arguments[1:]
    if what == "commands":
        options = {rest[i]: rest[i + 1] for i in range(len(rest) - 1) if rest[i].startswith("--")}
        rounds = int(rest[0]) if rest and rest[0].isdigit() else 3
        commands(
            rounds,
            [int(c) for c in options["--connections"].split(",")] if "--connections" in options else None,
            int(options.get("--games", 3)),
            Path(options["--source"]) if "--source" in options else None,
        )
    elif what == "restart":
        keep = Path(rest[rest.index("--keep") + 1]) if "--keep" in rest else None
        source = Path(rest[rest.index("--source") + 1]) if "--source" in rest else None
        rounds = int(rest[rest.index("--rounds") + 1]) if "--rounds" in rest else 3
        numbers = [a for i, a in enumerate(rest) if a.isdigit() and (i == 0 or rest[i - 1] != "--rounds")]
        restart(int(numbers[0]) if numbers else 10_000, rounds, keep=keep, source=source)
    elif what == "memory":
        memory(int(rest[0]) if rest else 10_000)
    elif what == "render":
        render()
    elif what == "versions":
        versions()
    elif what == "waiters":
        source = Path(rest[rest.index("--source") + 1]) if "--source" in rest else REPO
        waiters(source)
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main()
