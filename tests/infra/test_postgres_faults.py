"""PostgreSQL dropping every connection (``pg_terminate_backend``: what a restart or a failover
does), once and several times in a row, under a running scale-out deployment: an API worker and a
projection worker recover as soon as PostgreSQL answers again, they do not wait out the pool's
timeouts (``docs/faults.md``: the figures and how to measure them)."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import httpx
import pytest

from infra.readside.projector import HEADS, Projector
from infra.readside.readmodels import MemoryStore
from infra.readside.redis_store import RedisStore
from projections.registry import PROJECTION_NAMES
from tests.infra.cluster import Cluster, drop_connections
from tests.infra.tcp_proxy import CuttableProxy
from tests.support.http import auth
from tests.support.server import START_SECONDS

pytestmark = [pytest.mark.services, pytest.mark.slow]

# A bound on a hang, not a speed: recovery takes a fraction of a second (the old pool took 13 s
# to accept a command and 27 s to serve its read after two drops); a loaded machine may be slow.
RECOVERY_BOUND_SECONDS = 10.0
DROPS_APART_SECONDS = 4.0
OUTAGE_SECONDS = 6.0  # longer than the pool's wait for a connection (5 s): requests give up meanwhile


def until_served(client: httpx.Client, deadline: float, request: Any) -> httpx.Response:
    """``request()`` again until it is answered with something else than a 5xx, or the deadline."""
    while True:
        try:
            response: httpx.Response = request()
            problem = f"{response.status_code} {response.text}"
            if response.status_code < 500:
                # A request that hung in the server until it got a connection counts by its answer.
                assert time.monotonic() < deadline, f"answered only after {RECOVERY_BOUND_SECONDS} s: {problem}"
                return response
        except httpx.TransportError as error:
            problem = repr(error)
        assert time.monotonic() < deadline, f"not recovered within {RECOVERY_BOUND_SECONDS} s: {problem}"
        time.sleep(0.02)


def projected_game(
    client: httpx.Client, api: str, store: RedisStore, seed: str, seconds: float = RECOVERY_BOUND_SECONDS
) -> dict[str, Any]:
    """A new game, once the read models know it (so a read of a later version needs the projection
    worker: a game they do not know yet is read from the event store)."""
    created = client.post(f"{api}/games", json={"game": "sealed_guess", "players": 2, "seed": seed})
    assert created.status_code == 201, created.text
    game: dict[str, Any] = created.json()
    deadline = time.monotonic() + seconds
    while store.get("boards", HEADS, game["game_id"]) is None:
        assert time.monotonic() < deadline, "the projection worker should project the new game"
        time.sleep(0.02)
    return game


def recovery(client: httpx.Client, api: str, game: dict[str, Any], dropped_at: float) -> tuple[float, float]:
    """Seconds after a drop until a command was accepted, and until a read of it (``min_version``
    of its version, which the projection worker must have applied) was served."""
    deadline = dropped_at + RECOVERY_BOUND_SECONDS
    token = game["seats"][0]["token"]
    command = {"type": "commit_guess", "guess": 3, "command_id": "after-the-drop"}  # a retry records it once
    path = f"{api}/games/{game['game_id']}"
    sent = until_served(client, deadline, lambda: client.post(f"{path}/commands", json=command, headers=auth(token)))
    assert sent.status_code == 200, sent.text
    accepted = time.monotonic() - dropped_at
    params = {"min_version": sent.json()["version"]}
    read = until_served(client, deadline, lambda: client.get(path, params=params, headers=auth(token)))
    # 503 READ_MODEL_BEHIND (the projection worker did not catch up within the wait) is a 5xx: asked again.
    assert read.status_code == 200 and read.json()["version"] >= params["min_version"], read.text
    return accepted, time.monotonic() - dropped_at


def test_commands_and_reads_recover_at_once_when_postgresql_drops_every_connection(
    database_url: str, redis_url: str, redis_prefix: str, tmp_path: Path
) -> None:
    cluster = Cluster(database_url, redis_url, redis_prefix, tmp_path)
    store = RedisStore(redis_url, redis_prefix)
    figures: dict[int, list[tuple[float, float]]] = {}
    try:
        api = cluster.start_api()
        cluster.start_projector()
        with httpx.Client(timeout=30) as client:
            # Every worker is up and has its connections (a loaded machine starts a worker slowly).
            game = projected_game(client, api, store, "first", seconds=START_SECONDS)
            recovery(client, api, game, time.monotonic())
            for drops in (1, 2, 5):
                dropped_at = 0.0
                for drop in range(drops):
                    game = projected_game(client, api, store, f"{drops}-{drop}")
                    if drop:
                        time.sleep(max(0.0, dropped_at + DROPS_APART_SECONDS - time.monotonic()))
                    assert drop_connections(database_url) >= 2, "the workers' connections should have been dropped"
                    dropped_at = time.monotonic()
                    figures.setdefault(drops, []).append(recovery(client, api, game, dropped_at))
        print(f"\nseconds after each drop until a command was accepted, and until its read: {figures}")
        projector_log = (tmp_path / "projector.log").read_text()
        # The pool no longer waits out its check backoff on each dead connection in turn.
        assert "couldn't get a connection" not in projector_log, projector_log
        rebuilt = MemoryStore()
        Projector(cluster.service, rebuilt).catch_up()
        target = cluster.service.recorder.max_notification_id()
        deadline = time.monotonic() + RECOVERY_BOUND_SECONDS
        while any(store.position(name) != target for name in PROJECTION_NAMES):
            assert time.monotonic() < deadline, {name: store.position(name) for name in PROJECTION_NAMES}
            time.sleep(0.05)
        for name in PROJECTION_NAMES:
            assert store.export(name) == rebuilt.export(name), name
    finally:
        cluster.stop()
        store.close()


def test_commands_and_reads_recover_at_once_when_postgresql_answers_again_after_an_outage(
    database_url: str, redis_url: str, redis_prefix: str, tmp_path: Path
) -> None:
    """PostgreSQL away for a while (a restart as the clients see it: connections dropped, new
    ones refused), with a command waiting meanwhile; measured from when it answers again."""
    address = urlparse(database_url)
    proxy = CuttableProxy(address.hostname or "127.0.0.1", address.port or 5432)
    through_proxy = address._replace(netloc=f"{address.username or 'postgres'}@127.0.0.1:{proxy.port}").geturl()
    cluster = Cluster(through_proxy, redis_url, redis_prefix, tmp_path)
    store = RedisStore(redis_url, redis_prefix)
    try:
        api = cluster.start_api()
        cluster.start_projector()
        with httpx.Client(timeout=60) as client:
            game = projected_game(client, api, store, "before", seconds=START_SECONDS)
            waiting = projected_game(client, api, store, "waiting")
            proxy.cut()
            command = {"type": "commit_guess", "guess": 2, "command_id": "during-the-outage"}
            during = threading.Thread(
                target=client.post,
                args=(f"{api}/games/{waiting['game_id']}/commands",),
                kwargs={"json": command, "headers": auth(waiting["seats"][0]["token"])},
            )
            during.start()  # a request that waits for a connection while PostgreSQL is away
            time.sleep(OUTAGE_SECONDS)
            proxy.restore()
            answering = time.monotonic()
            accepted, read = recovery(client, api, game, answering)
            during.join(timeout=RECOVERY_BOUND_SECONDS)
        print(f"\nseconds after PostgreSQL answered again until a command was accepted, and its read: {accepted, read}")
    finally:
        cluster.stop()
        store.close()
        proxy.close()
