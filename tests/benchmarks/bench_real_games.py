"""The command route with the four real games, beside the bare FastAPI + eventsourcing app
(``bare_app.py``), in one run, interleaved.

``python -m tests.benchmarks.bench_real_games [--rounds 3] [--connections 1,2,8]
[--games peloponnes:3,catan_alexander:3,alexandros:2,empire_builder:3] [--commands 1500]
[--source DIR]``
``python -m tests.benchmarks.bench_real_games memory [games] [--game peloponnes:1] [--chunk 1000]
[--warm N]``
    RSS of ``serve`` as it plays real games (default 10,000 solo Peloponnes games; Catan:
    ``--game catan_alexander:3``), after a warm-up of ``--warm`` games (default 100, a tenth of
    them when fewer), read every ``--chunk`` games.

Each game's commands are pre-played on the pure kernel (``Match``, the random bot, fixed seeds
and a fixed salt), then the same games are created in a fresh SQLite file in process (the same
salt and seeds: the same dice), so the client knows every command without reading anything; a
Catan game is played to its end (about 600 commands). The bare app gets the same request bodies,
one small event appended per POST. A server is started on its file (``taskset -c 0``, Alexandria
once ``/readyz`` answers), and for each number of connections a separate load generator process
(``load_generator.py``, ``taskset -c 1``) sends fresh games' pre-built requests on raw
keep-alive sockets, at least ``--commands`` commands per run, each connection its own games.

Reported per game and number of connections (the median of the rounds): commands/s, p50/p99
latency, the server's CPU per command (user and system time of the whole server process from
``/proc``, counted until its background work, the read models and the analytics tables, has
settled; counting starts once Alexandria's analytics tables have opened, which they do a moment
after it starts, whatever it is asked), and the ratio Alexandria / bare app. ``--source DIR`` also
runs Alexandria from another checkout (e.g. the code before a change, ``git archive main | tar -x
-C DIR``) in every round.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from api.http.analytics_source import BACKGROUND_START_SECONDS, QUIET_SECONDS
from tests.benchmarks.bench_embedded import cpu_seconds, percentile, rss_mb
from tests.infra.services import free_port

REPO = Path(__file__).resolve().parents[2]
SALT = b"bench-real-games-salt-0123456789"  # 32 bytes: the same dice for the kernel and the server
SERVER_CORE, CLIENT_CORE = "0", "1"
DEFAULT_GAMES = "peloponnes:3,catan_alexander:3,alexandros:2,empire_builder:3"
Lanes = list[list[bytes]]


@dataclass(frozen=True)
class PlayedGame:
    game: str
    players: int
    seed: bytes
    commands: list[tuple[int, dict[str, Any]]]  # (seat, the command as a client sends it)


def played_game(game: str, players: int, seed: bytes) -> PlayedGame:
    """A whole game played by the random bot on the pure kernel, with the server's salt and dice."""
    from domain.catalog import GAMES
    from domain.kernel.bots import RandomBot
    from domain.kernel.chance import salted_seed
    from domain.kernel.match import Match

    definition = GAMES.get(game)
    match, _ = Match.create(definition, players, None, salted_seed(SALT, seed))
    bot = RandomBot(b"bot-" + seed)
    commands = []
    while not match.is_over:
        seat, command = bot.next_move(definition, match.state)
        match.execute(seat, command)
        commands.append((seat, {"type": command.type, **command.to_dict()}))
    return PlayedGame(game, players, seed, commands)


def plan(game: str, players: int, connections: list[int], at_least: int) -> dict[int, list[PlayedGame]]:
    """For each number of connections, its own fresh games: at least ``at_least`` commands, and a
    multiple of ``connections`` games (every connection plays as many)."""
    runs: dict[int, list[PlayedGame]] = {}
    for count in connections:
        games: list[PlayedGame] = []
        while len(games) % count or sum(len(g.commands) for g in games) < at_least:
            games.append(played_game(game, players, f"{game}-{count}-{len(games)}".encode()))
        runs[count] = games
    return runs


def request(game_id: str, token: str | None, body: dict[str, Any]) -> bytes:
    content = json.dumps(body, separators=(",", ":")).encode()
    auth = f"Authorization: Bearer {token}\r\n" if token else ""
    head = (
        f"POST /games/{game_id}/commands HTTP/1.1\r\nHost: bench\r\n{auth}"
        f"Content-Type: application/json\r\nContent-Length: {len(content)}\r\n\r\n"
    )
    return head.encode() + content


def lanes_of(games: list[PlayedGame], ids_and_tokens: list[tuple[str, list[str]]], count: int) -> Lanes:
    lanes: Lanes = [[] for _ in range(count)]
    for number, (game, (game_id, tokens)) in enumerate(zip(games, ids_and_tokens, strict=True)):
        lanes[number % count] += [request(game_id, tokens[seat] if tokens else None, c) for seat, c in game.commands]
    return lanes


def prepare_alexandria(
    db: Path, runs: dict[int, list[PlayedGame]], source: Path, connections: int | None = None
) -> dict[int, Lanes]:
    """The games created in ``db`` by the service of ``source``'s checkout (in a child process,
    so that another checkout's code is what creates them)."""
    specs = {count: [(g.game, g.players, g.seed.decode()) for g in games] for count, games in runs.items()}
    script = (
        "import json, sys\n"
        "from infra.bootstrap import build_service\n"
        "from infra.settings import Settings\n"
        "specs = json.loads(sys.stdin.read())\n"
        "service = build_service(Settings(database_url='sqlite:///' + sys.argv[1]))\n"
        "out = {}\n"
        "for count, games in specs.items():\n"
        "    out[count] = []\n"
        "    for game, players, seed in games:\n"
        f"        created = service.create_game(game, players, None, seed.encode(), salt={SALT!r})\n"
        "        out[count].append((created.game_id, created.tokens))\n"
        "service.close()\n"
        "print(json.dumps(out))\n"
    )
    environment = {**os.environ, "PYTHONPATH": str(source)}
    made = subprocess.run(
        [sys.executable, "-c", script, str(db)],
        input=json.dumps(specs),  # ten thousand games' specs are too long for an argument
        cwd=source,
        env=environment,
        capture_output=True,
        text=True,
        check=True,
    )
    created = json.loads(made.stdout)
    return {key: lanes_of(runs[key], created[str(key)], connections or key) for key in runs}


def prepare_bare(db: Path, runs: dict[int, list[PlayedGame]]) -> dict[int, Lanes]:
    from tests.benchmarks.bare_app import Game, Games

    app = Games(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(db)})
    lanes = {}
    for count, games in runs.items():
        created = []
        for played in games:
            game = Game(played.game, played.players)
            app.save(game)
            created.append((str(game.id), []))
        lanes[count] = lanes_of(games, created, count)
    app.close()
    return lanes


@contextmanager
def pinned_server(kind: str, db: Path, source: Path) -> Iterator[tuple[int, subprocess.Popen[bytes]]]:
    port = free_port()
    if kind == "alexandria":
        command = [sys.executable, "-m", "api.cli.main", "serve", "--port", str(port)]
    else:
        command = [sys.executable, "-m", "tests.benchmarks.bare_app", "--port", str(port), "--db", str(db)]
    environment = {
        **os.environ,
        "ALEXANDRIA_DATABASE_URL": f"sqlite:///{db}",
        "PYTHONPATH": str(source if kind == "alexandria" else REPO),
    }
    environment.pop("ALEXANDRIA_REDIS_URL", None)
    # The server's log goes to a file (a pipe nobody reads would stop the server once full), and
    # its end is shown when the run fails.
    log_path = Path(tempfile.gettempdir()) / f"bench-{kind}-{port}.log"
    log_file = log_path.open("wb")
    process = subprocess.Popen(
        ["taskset", "-c", SERVER_CORE, *command],
        cwd=source if kind == "alexandria" else REPO,
        env=environment,
        stdout=subprocess.DEVNULL,
        stderr=log_file,
    )
    probe = f"http://127.0.0.1:{port}" + ("/readyz" if kind == "alexandria" else "/healthz")
    deadline = time.monotonic() + 120
    try:
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"the {kind} server died")
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                if httpx.get(probe, timeout=5).status_code == 200:
                    break
            except (OSError, httpx.TransportError):
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"{kind} server not ready after 120 s")
            time.sleep(0.05)
        if kind == "alexandria":  # its analytics tables open a moment after it starts: not a command's cost
            time.sleep(BACKGROUND_START_SECONDS + 1)
        settle(process.pid)
        yield port, process
    except BaseException:
        print(f"the {kind} server's log ({log_path}), its end:", file=sys.stderr)
        print(log_path.read_text(errors="replace")[-4000:], file=sys.stderr)
        raise
    finally:
        process.terminate()
        process.wait()
        log_file.close()


def settle(pid: int, quiet_seconds: float = 0.5, deadline_seconds: float = 120) -> float:
    """Wait until the process has used (almost) no CPU for ``quiet_seconds``: its background
    work (the projector catching up with the commands) is done. The CPU seconds it has used."""
    deadline = time.monotonic() + deadline_seconds
    before = cpu_seconds(pid)
    while time.monotonic() < deadline:
        time.sleep(quiet_seconds)
        now = cpu_seconds(pid)
        if now - before < 0.02 * quiet_seconds:
            return now
        before = now
    return cpu_seconds(pid)


def drive(port: int, pid: int, lanes: Lanes) -> dict[str, float]:
    with tempfile.NamedTemporaryFile(suffix=".pickle") as file:
        file.write(pickle.dumps(lanes))
        file.flush()
        cpu_before = cpu_seconds(pid)
        generator_command = [sys.executable, "-m", "tests.benchmarks.load_generator", str(port), file.name]
        generator = subprocess.run(
            ["taskset", "-c", CLIENT_CORE, *generator_command],
            cwd=REPO,
            capture_output=True,
            text=True,
        )
        if generator.returncode != 0:
            raise RuntimeError(generator.stderr[-2000:])
        # Quiet for longer than the analytics tables wait for quiet (QUIET_SECONDS) before their
        # last batch: that batch is the commands' too.
        cpu_after = settle(pid, quiet_seconds=QUIET_SECONDS + 0.5)
    result = json.loads(generator.stdout)
    latencies: list[float] = result["latencies"]
    return {
        "per_second": len(latencies) / result["seconds"],
        "p50_ms": 1000 * statistics.median(latencies),
        "p99_ms": 1000 * percentile(latencies, 0.99),
        "cpu_ms": 1000 * (cpu_after - cpu_before) / len(latencies),
        "commands": len(latencies),
    }


def one_round(kind: str, source: Path, runs: dict[int, list[PlayedGame]]) -> dict[int, dict[str, float]]:
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "events.sqlite"
        lanes = prepare_alexandria(db, runs, source) if kind == "alexandria" else prepare_bare(db, runs)
        with pinned_server(kind, db, source) as (port, process):
            return {count: drive(port, process.pid, lanes[count]) for count in runs}


def memory(
    game: str, players: int, games: int, chunk: int = 1000, connections: int = 8, warm: int | None = None
) -> None:
    """RSS of ``serve`` while it plays ``games`` real games (after ``warm`` games of warm-up), on
    ``connections`` connections (100 games, or a tenth of ``games`` if fewer), a reading every
    ``chunk`` games once its background work settled.
    The games are created in the file first (in process) and their commands pre-played: the
    server plays every command of every game, as it would for clients, and nothing else."""
    warm = warm if warm is not None else min(100, max(10, games // 10))
    distinct = [played_game(game, players, f"memory-{game}-{n}".encode()) for n in range(50)]
    sizes = [warm, *[min(chunk, games - start) for start in range(0, games, chunk)]]
    runs = {number: [distinct[(number * 7 + n) % 50] for n in range(size)] for number, size in enumerate(sizes)}
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "events.sqlite"
        lanes = prepare_alexandria(db, runs, REPO, connections)
        with pinned_server("alexandria", db, REPO) as (port, process):
            started_at = rss_mb(process.pid)
            drive(port, process.pid, lanes[0])
            warmed = rss_mb(process.pid)
            print(f"{game}, {players} players: RSS at start {started_at:.1f} MB, after {warm} games {warmed:.1f} MB")
            played = 0
            for number in range(1, len(sizes)):
                result = drive(port, process.pid, lanes[number])
                played += sizes[number]
                now = rss_mb(process.pid)
                print(
                    f"  after {played} games more ({result['commands']:.0f} commands in the last {sizes[number]}): "
                    f"{now:.1f} MB, +{now - warmed:.1f} MB, {1000 * (now - warmed) / played:.1f} MB per 1,000 games"
                    f"; load average {load_average()}",
                    flush=True,
                )


def main() -> None:
    arguments = sys.argv[1:]
    if arguments and arguments[0] == "memory":
        parser = argparse.ArgumentParser(
            prog="python -m tests.benchmarks.bench_real_games memory",
            description="RSS of serve as real games accumulate",
        )
        parser.add_argument("games", nargs="?", type=int, default=10_000, help="games to play after the warm-up")
        parser.add_argument("--game", default="peloponnes:1", help="game:players")
        parser.add_argument("--chunk", type=int, default=1000, help="read the RSS every this many games")
        parser.add_argument(
            "--warm",
            type=int,
            help="games of warm-up (default 100, a tenth when fewer; 256 fill the caches)",
        )
        measured = parser.parse_args(arguments[1:])
        name, seats = measured.game.split(":")
        memory(name, int(seats), measured.games, measured.chunk, warm=measured.warm)
        return
    parser = argparse.ArgumentParser(
        prog="python -m tests.benchmarks.bench_real_games",
        description="the command route with real games beside the bare app (and 'memory ...': RSS as games accumulate)",
    )
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--connections", default="1,2,8", help="comma-separated numbers of connections")
    parser.add_argument("--games", default=DEFAULT_GAMES, help="comma-separated game:players")
    parser.add_argument("--commands", type=int, default=1500, help="at least this many commands per run")
    parser.add_argument("--source", type=Path, help="also run Alexandria from this checkout")
    options = parser.parse_args(arguments)
    rounds = options.rounds
    connections = [int(c) for c in options.connections.split(",")]
    at_least = options.commands
    games = [(g.split(":")[0], int(g.split(":")[1])) for g in options.games.split(",")]
    apps = [("bare", "bare", REPO), ("alexandria", "alexandria", REPO)]
    if options.source is not None:
        apps.append((f"from {options.source}", "alexandria", options.source))
    print(f"server on core {SERVER_CORE}, load generator on core {CLIENT_CORE}; load average {load_average()}")
    for game, players in games:
        runs = plan(game, players, connections, at_least)
        results: Results = {label: [] for label, _, _ in apps}
        for number in range(rounds):
            for label, kind, checkout in apps if number % 2 == 0 else apps[::-1]:
                results[label].append(one_round(kind, checkout, runs))
        print(heading(game, players, runs))
        for count, medians in medians_by_count(results).items():
            ratio = medians["alexandria"]["per_second"] / medians["bare"]["per_second"]
            cpu = medians["alexandria"]["cpu_ms"] / medians["bare"]["cpu_ms"]
            print(figures_line(count, medians))
            print(f"    ratio {ratio:.2f} (commands/s), CPU per command {cpu:.2f}x the bare app's")


Results = dict[str, list[dict[int, dict[str, float]]]]  # label -> its rounds -> connections -> figures


def heading(game: str, players: int, runs: dict[int, list[PlayedGame]]) -> str:
    commands_per_game = statistics.mean(len(g.commands) for g in next(iter(runs.values())))
    return f"\n{game}, {players} players ({commands_per_game:.0f} commands a game); load average {load_average()}"


def medians_by_count(results: Results) -> dict[int, dict[str, dict[str, float]]]:
    """Each kind of server's figures, the median of its rounds, by the number of connections."""
    counts = next(iter(results.values()))[0]
    return {
        count: {
            label: {what: statistics.median(r[count][what] for r in rounds) for what in rounds[0][count]}
            for label, rounds in results.items()
        }
        for count in counts
    }


def figures_line(count: int, medians: dict[str, dict[str, float]]) -> str:
    cells = [
        f"{label} {m['per_second']:5.0f}/s p50 {m['p50_ms']:5.1f} p99 {m['p99_ms']:5.1f} ms "
        f"CPU {m['cpu_ms']:.3f} ms/command"
        for label, m in medians.items()
    ]
    commands = next(iter(medians.values()))["commands"]
    return f"  {count} conn. ({commands:.0f} commands): " + " | ".join(cells)


def load_average() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


if __name__ == "__main__":
    main()
