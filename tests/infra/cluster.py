"""A scale-out deployment in processes, for the integration tests and the HTTP benchmarks:
API workers and projection workers on one PostgreSQL database and one Redis prefix, plus
bots that play sealed-guess games through the workers over HTTP."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import httpx
import psycopg

from infra.bootstrap import build_service
from infra.games.service import GameService
from infra.settings import Settings
from tests.support.http import auth
from tests.support.server import REPO, REQUEST_SECONDS, free_port, wait_until_serving


def drop_connections(database_url: str) -> int:
    """Have PostgreSQL drop every connection to the database (what a restart or failover does),
    but this one's own; how many it dropped."""
    database = urlparse(database_url).path.lstrip("/")
    with psycopg.connect(database_url, autocommit=True) as admin:
        dropped = admin.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
            "WHERE datname = %s AND pid <> pg_backend_pid()",
            (database,),
        ).fetchone()
    return int(dropped[0]) if dropped is not None else 0


class Cluster:
    def __init__(self, database_url: str, redis_url: str, prefix: str, log_dir: Path) -> None:
        self.settings = Settings(database_url=database_url, redis_url=redis_url, redis_prefix=prefix)
        self.env = {
            **os.environ,
            "ALEXANDRIA_DATABASE_URL": database_url,
            "ALEXANDRIA_REDIS_URL": redis_url,
            "ALEXANDRIA_REDIS_PREFIX": prefix,
            "PYTHONPATH": str(REPO),
            "PYTHONOPTIMIZE": "1",  # the library's type-check asserts dominate replay otherwise
        }
        self.log_dir = log_dir
        self.apis: list[str] = []
        self.processes: list[subprocess.Popen[bytes]] = []

    @cached_property
    def service(self) -> GameService:
        """The test's own service on the cluster's event store (made when first asked for, so that
        the workers may be the first to create the tables)."""
        return build_service(self.settings)

    def _start(self, name: str, *args: str) -> subprocess.Popen[bytes]:
        log = (self.log_dir / f"{name}.log").open("ab")
        process = subprocess.Popen(
            [sys.executable, "-m", "tests.infra.launch", *args], cwd=REPO, env=self.env, stdout=log, stderr=log
        )
        self.processes.append(process)
        return process

    def start_api(self) -> str:
        return self.start_together(apis=1)[0]

    def start_together(self, apis: int, projectors: int = 0) -> list[str]:
        """Start API workers and projection workers at the same moment (as a container platform
        starts replicas), then wait until each API worker serves; their URLs."""
        ports = [free_port() for _ in range(apis)]
        started = [self._start(f"api-{port}", "serve", "--port", str(port)) for port in ports]
        for _ in range(projectors):
            self.start_projector()
        urls = [f"http://127.0.0.1:{port}" for port in ports]
        for url, port, process in zip(urls, ports, started, strict=True):
            wait_until_serving(url, process, self.log_dir / f"api-{port}.log")
        self.apis.extend(urls)
        return urls

    def start_projector(self) -> subprocess.Popen[bytes]:
        return self._start("projector", "project")

    def cli(self, *args: str) -> None:
        subprocess.run([sys.executable, "-m", "tests.infra.launch", *args], cwd=REPO, env=self.env, check=True)

    def kill(self, process: subprocess.Popen[bytes]) -> None:
        process.send_signal(signal.SIGKILL)
        process.wait()

    def stop(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                process.terminate()
        for process in self.processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill(process)
        if "service" in self.__dict__:
            self.service.close()


@dataclass
class Accepted:
    """What the bots saw: every accepted command's version and its latency."""

    versions: dict[str, list[int]] = field(default_factory=dict)  # game id -> versions of accepted commands
    latencies: list[float] = field(default_factory=list)  # seconds, command sent -> response
    accepted_at: list[tuple[str, int, float]] = field(default_factory=list)  # (game, version, time accepted)
    conflicts: int = 0
    read_retries: int = 0
    errors: list[BaseException] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    # A test that must act mid-play (kill a worker, say) holds the bots after this many accepted
    # commands until it sets ``resume``: "mid-play" then does not depend on how fast anything runs.
    hold_after: int | None = None
    resume: threading.Event = field(default_factory=threading.Event)

    def held(self) -> bool:
        return self.hold_after is not None and len(self.latencies) >= self.hold_after and not self.resume.is_set()

    def failures(self) -> list[str]:
        """The bots' failures, each with the game and seat it happened in."""
        return [" ".join([repr(e), *getattr(e, "__notes__", [])]) for e in self.errors]

    def playing(self, deadline: float, game_id: str) -> bool:
        """Whether a bot plays on: not once another bot has failed (its game would wait for a
        move that never comes, so the failure is the test's answer), never past ``deadline``."""
        if time.monotonic() > deadline:
            raise TimeoutError(f"game {game_id} did not end within {BOT_SECONDS} s")
        return not self.errors


# However busy the machine: a bound on a hang, not a speed.
BOT_SECONDS = 600


def create_game(api: str, seed: str, players: int = 2, game: str = "sealed_guess") -> dict[str, Any]:
    response = httpx.post(
        f"{api}/games", json={"game": game, "players": players, "seed": seed}, timeout=REQUEST_SECONDS
    )
    response.raise_for_status()
    created: dict[str, Any] = response.json()
    return created


def play_seat(apis: list[str], game: dict[str, Any], seat: int, accepted: Accepted, rng: random.Random) -> None:
    """One seat's bot: read its view (its own writes included), guess when awaited, until the end.

    Every request goes to a random API worker, so commands on one game race across workers.
    """
    game_id = game["game_id"]
    headers = auth(game["seats"][seat]["token"])
    seen = 1
    deadline = time.monotonic() + BOT_SECONDS
    with httpx.Client(timeout=REQUEST_SECONDS) as client:
        while accepted.playing(deadline, game_id):
            response = client.get(f"{rng.choice(apis)}/games/{game_id}", params={"min_version": seen}, headers=headers)
            # READ_MODEL_BEHIND (503): the projection worker is restarting;
            # VERSION_NOT_REACHED (409): the other seat has not moved yet.
            if response.status_code in (503, 409):
                with accepted.lock:
                    accepted.read_retries += 1
                continue
            assert response.status_code == 200, response.text
            view = response.json()
            seen = view["version"]
            if view["status"] == "ended":
                return
            if str(seat) not in view["awaited"]:
                seen += 1  # wait for the next version: the other seat's move
                continue
            command = {"type": "commit_guess", "guess": rng.randint(1, 6), "expected_version": view["version"]}
            seen = send(client, rng.choice(apis), game_id, command, game["seats"][seat]["token"], accepted) or seen


def send(client: httpx.Client, api: str, game_id: str, command: dict[str, Any], token: str, accepted: Accepted) -> int:
    """Send a command; the new version, or 0 if refused for a stale version or out of turn."""
    sent = time.perf_counter()
    response = client.post(f"{api}/games/{game_id}/commands", json=command, headers=auth(token))
    now = time.perf_counter()
    with accepted.lock:
        if response.status_code == 200:
            version: int = response.json()["version"]
            accepted.versions.setdefault(game_id, []).append(version)
            accepted.latencies.append(now - sent)
            accepted.accepted_at.append((game_id, version, now))
            held = accepted.held()
    if response.status_code == 200:
        if held:
            accepted.resume.wait()
        return version
    with accepted.lock:
        if response.json()["error"]["code"] in ("STALE_VERSION", "NOT_YOUR_TURN"):
            accepted.conflicts += 1
            return 0
    raise AssertionError(response.text)


def play_with_legal_moves(
    apis: list[str],
    game: dict[str, Any],
    accepted: Accepted,
    rng: random.Random,
    before_command: Callable[[], None] = lambda: None,
) -> None:
    """One client per game playing whichever seat is awaited, from its legal moves: the load of
    turn-based games, where commands on one game do not race. ``before_command`` is called
    before each command is sent (a benchmark paces the commands with it)."""
    game_id = game["game_id"]
    tokens = [s["token"] for s in game["seats"]]
    seen = 1
    deadline = time.monotonic() + BOT_SECONDS
    with httpx.Client(timeout=REQUEST_SECONDS) as client:
        while accepted.playing(deadline, game_id):
            response = client.get(f"{rng.choice(apis)}/games/{game_id}", params={"min_version": seen})
            assert response.status_code == 200, response.text
            view = response.json()
            if view["status"] == "ended":
                return
            seat = int(rng.choice(sorted(view["awaited"])))
            listed = client.get(f"{rng.choice(apis)}/games/{game_id}/legal-moves", headers=auth(tokens[seat])).json()
            command = {**rng.choice(listed["moves"]), "expected_version": listed["version"]}
            before_command()
            seen = send(client, rng.choice(apis), game_id, command, tokens[seat], accepted) or seen


def play_games(
    apis: list[str], games: list[dict[str, Any]], accepted: Accepted, seed: int = 0, racing: bool = True
) -> None:
    """Every game at once: racing, a thread per seat (``play_seat``); else a thread per game
    (``play_with_legal_moves``). A bot's failure is kept in ``accepted.errors``."""

    def bot(game: dict[str, Any], seat: int | None, rng: random.Random) -> None:
        try:
            if seat is None:
                play_with_legal_moves(apis, game, accepted, rng)
            else:
                play_seat(apis, game, seat, accepted, rng)
        except BaseException as problem:
            problem.add_note(f"the bot of game {game['game_id']}, seat {'any' if seat is None else seat}")
            accepted.errors.append(problem)

    seats: list[int | None] = list(range(len(games[0]["seats"]))) if racing else [None]
    threads = [
        threading.Thread(target=bot, args=(game, seat, random.Random(f"{seed}-{i}-{seat}")))
        for i, game in enumerate(games)
        for seat in seats
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
