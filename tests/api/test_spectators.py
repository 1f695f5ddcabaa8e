"""The spectator count: how many live streams follow a game without a seat's token. A count only,
at GET /games/{id}/spectators and, asked for with ?spectators=true, as `spectators` events of the
stream whenever it changes. Streams of a real server (uvicorn), so that a closed connection is one."""

from __future__ import annotations

import json
import queue
import socket
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import httpx
import pytest

from api.http.watching import LocalSpectators, RedisSpectators
from infra.readside.redis_store import RedisStore
from tests.infra.services import redis_server
from tests.web.server import live_server

DEADLINE = 60.0  # bounds a hang, not a speed


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, Any]]:
    with live_server(tmp_path) as (url, service, _):
        yield url, service


class Stream:
    """A stream read in a thread over a plain socket (closing it is a client going away): its
    `spectators` counts arrive on a queue."""

    def __init__(self, url: str, game_id: str, token: str | None = None, counted: bool = True) -> None:
        self.counts: queue.Queue[int] = queue.Queue()
        self.opened = threading.Event()
        host, port = url.removeprefix("http://").split(":")
        self.socket = socket.create_connection((host, int(port)))
        query = "?spectators=true" if counted else ""
        auth = f"Authorization: Bearer {token}\r\n" if token else ""
        request = (
            f"GET /games/{game_id}/stream{query} HTTP/1.1\r\nHost: {host}\r\n{auth}Accept: text/event-stream\r\n\r\n"
        )
        self.socket.sendall(request.encode())
        self.thread = threading.Thread(target=self.read, daemon=True)
        self.thread.start()
        assert self.opened.wait(DEADLINE), "the stream should send the game as it is first"

    def read(self) -> None:
        buffer, event = b"", ""
        with suppress(OSError):
            while chunk := self.socket.recv(65536):
                buffer += chunk
                *lines, buffer = buffer.split(b"\n")
                for raw in lines:
                    line = raw.decode().rstrip("\r")
                    if line.startswith("event: "):
                        event = line.removeprefix("event: ")
                    elif line.startswith("data: ") and event == "spectators":
                        self.counts.put(json.loads(line.removeprefix("data: "))["spectators"])
                    elif line.startswith("data: ") and event == "view":
                        self.opened.set()

    def next_count(self) -> int:
        return self.counts.get(timeout=DEADLINE)

    def close(self) -> None:
        self.socket.shutdown(socket.SHUT_RDWR)
        self.socket.close()


def counted(url: str, game_id: str) -> int:
    response = httpx.get(f"{url}/games/{game_id}/spectators")
    assert response.status_code == 200, response.text
    assert response.json()["game_id"] == game_id
    number: int = response.json()["spectators"]
    return number


def test_each_spectators_stream_is_counted_live_and_a_seats_is_not(served: tuple[str, Any]) -> None:
    url, service = served
    created = service.create_game("alexandros", 2, None, b"watched")
    assert counted(url, created.game_id) == 0
    first = Stream(url, created.game_id)
    assert first.next_count() == 1
    seat = Stream(url, created.game_id, token=created.tokens[0])
    assert seat.next_count() == 1  # a seat is told the count and is not in it
    second = Stream(url, created.game_id, counted=False)  # counted, whether or not it asks for the count
    assert first.next_count() == 2 and seat.next_count() == 2
    assert counted(url, created.game_id) == 2
    second.close()
    assert first.next_count() == 1 and seat.next_count() == 1
    assert counted(url, created.game_id) == 1
    first.close()
    seat.close()


def test_an_unknown_game_has_no_spectators_to_count(served: tuple[str, Any]) -> None:
    url, _ = served
    response = httpx.get(f"{url}/games/no-such-game/spectators")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "UNKNOWN_GAME_ID"


def test_the_local_count_goes_up_and_down_per_game() -> None:
    spectators = LocalSpectators()
    a, b = spectators.join("g"), spectators.join("g")
    spectators.join("h")
    assert (spectators.count("g"), spectators.count("h"), spectators.count("x")) == (2, 1, 0)
    spectators.leave("g", a)
    spectators.leave("g", b)
    assert spectators.count("g") == 0


def test_workers_share_the_count_through_redis_and_a_lapsed_stream_is_forgotten() -> None:
    with contextmanager(redis_server)() as url:
        store = RedisStore(url, prefix=f"test-spectators-{uuid.uuid4().hex}")
        try:
            one, two = RedisSpectators(store, 45), RedisSpectators(store, 45)  # two workers
            ticket = one.join("g")
            two.join("g")
            assert one.count("g") == two.count("g") == 2
            one.leave("g", ticket)
            assert two.count("g") == 1
            dead = RedisSpectators(store, -1)  # a worker gone without a word: its stream has lapsed
            dead.join("g")
            assert one.count("g") == 1
        finally:
            store.flush()
            store.close()
