"""Scale-out on real PostgreSQL and Redis: two API worker processes, a projection worker, bots
racing commands on the same games through both workers, a live stream across workers, the
projection worker killed and restarted, Redis flushed and rebuilt."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from domain.kernel.log import COMMAND_ACCEPTED, for_viewer
from infra.readside.projector import Projector
from infra.readside.readmodels import MemoryStore, ReadModelStore
from infra.readside.redis_store import RedisStore
from projections.registry import PROJECTION_NAMES
from tests.infra.cluster import Accepted, Cluster, create_game, play_games
from tests.support.http import auth
from tests.support.server import REQUEST_SECONDS
from tests.support.stream import sse_messages

pytestmark = [pytest.mark.services, pytest.mark.slow]

GAMES = 8


def read_models(store: ReadModelStore) -> dict[str, Any]:
    return {name: {"position": store.position(name), **store.export(name)} for name in PROJECTION_NAMES}


def rebuilt_from_the_event_store(cluster: Cluster) -> dict[str, Any]:
    store = MemoryStore()
    Projector(cluster.service, store).catch_up()
    return read_models(store)


def stream_messages(api: str, game: dict[str, Any], seat: int, out: list[tuple[str, Any]]) -> None:
    path = f"{api}/games/{game['game_id']}/stream"
    with httpx.stream("GET", path, headers=auth(game["seats"][seat]["token"]), timeout=60) as response:
        # Opened right after the game was created on the other worker: a game the read models
        # have not seen yet still streams (an error body is not an empty stream).
        out.append(("status", response.status_code))
        out.extend(sse_messages(response.iter_lines()))


def wait_until_projected(store: RedisStore, cluster: Cluster, seconds: float = 30) -> None:
    target = cluster.service.recorder.max_notification_id()
    deadline = time.monotonic() + seconds
    while any(store.position(name) != target for name in PROJECTION_NAMES):
        assert time.monotonic() < deadline, {name: store.position(name) for name in PROJECTION_NAMES}
        time.sleep(0.1)


def test_workers_race_commands_and_every_read_model_equals_a_rebuild(
    database_url: str, redis_url: str, redis_prefix: str, tmp_path: Path
) -> None:
    cluster = Cluster(database_url, redis_url, redis_prefix, tmp_path)
    store = RedisStore(redis_url, redis_prefix)
    try:
        api_a, api_b = cluster.start_api(), cluster.start_api()
        projector = cluster.start_projector()

        # A seat on worker A watches a game that is played through worker B only.
        watched = create_game(api_b, "watched")
        streamed: list[tuple[str, Any]] = []
        watcher = threading.Thread(target=stream_messages, args=(api_a, watched, 1, streamed))
        watcher.start()

        games = [create_game(api_a if i % 2 else api_b, f"game-{i}") for i in range(GAMES)]
        accepted = Accepted(hold_after=GAMES * 2)
        bots = threading.Thread(target=play_games, args=([api_a, api_b], games, accepted))
        bots.start()
        watched_bots = threading.Thread(target=play_games, args=([api_b], [watched], accepted, 1))
        watched_bots.start()

        # Kill the projection worker mid-play (the bots are held after GAMES * 2 commands, once it
        # has projected something); its lease runs out and the new one resumes.
        deadline = time.monotonic() + 120
        while len(accepted.latencies) < GAMES * 2 or min(map(store.position, PROJECTION_NAMES)) == 0:
            assert time.monotonic() < deadline and not accepted.errors, (
                accepted.failures(),
                len(accepted.latencies),
                {name: store.position(name) for name in PROJECTION_NAMES},
                (tmp_path / "projector.log").read_text()[-3000:],
            )
            time.sleep(0.05)
        cluster.kill(projector)
        assert bots.is_alive(), "the worker should be killed while the bots still play"
        killed_at = {name: store.position(name) for name in PROJECTION_NAMES}
        projector = cluster.start_projector()
        accepted.resume.set()
        bots.join()
        watched_bots.join()
        watcher.join(timeout=30)
        assert not accepted.errors, accepted.failures()

        # Exactly one winner per version: accepted versions are unique and are all the log has.
        for game in [*games, watched]:
            records = cluster.service.records(game["game_id"])
            assert records[-1].type == "GameEnded"
            assert [r.position for r in records] == list(range(1, len(records) + 1))
            versions = accepted.versions[game["game_id"]]
            assert len(versions) == len(set(versions))
            assert len(versions) == sum(r.type == COMMAND_ACCEPTED for r in records)
            assert httpx.get(f"{api_a}/games/{game['game_id']}/verify", timeout=REQUEST_SECONDS).json()["chain_ok"]
        assert accepted.conflicts > 0, "the bots should have raced (or this test proves little)"

        # The streamed seat got every record of the watched game, in order, as seat 1 may see it.
        records = cluster.service.records(watched["game_id"])
        assert streamed[0] == ("status", 200), streamed[:3]
        received = [data for event, data in streamed if event == "record"]
        assert received == [json.loads(json.dumps(for_viewer(r, 1, reveal_all=False))) for r in records]
        assert streamed[-1] == ("end", {"version": len(records)})

        wait_until_projected(store, cluster)
        assert all(0 < killed_at[name] < store.position(name) for name in PROJECTION_NAMES), killed_at
        expected = rebuilt_from_the_event_store(cluster)
        assert read_models(store) == expected
        lobby = httpx.get(f"{api_b}/games", params={"status": "ended"}, timeout=REQUEST_SECONDS).json()
        assert len(lobby) == GAMES + 1

        # Lose Redis: flush it and rebuild each read model from the event store.
        cluster.kill(projector)
        store.flush()
        for name in PROJECTION_NAMES:
            cluster.cli("project", "--rebuild", name)
        assert read_models(store) == expected
        scoreboard = httpx.get(f"{api_a}/games/{watched['game_id']}/scoreboard", timeout=REQUEST_SECONDS).json()
        assert scoreboard["final"] and scoreboard["version"] == len(records)
    finally:
        store.close()
        cluster.stop()
