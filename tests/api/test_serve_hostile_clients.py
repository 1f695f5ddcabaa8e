"""``alexandria serve`` against clients that never finish a request, and against forged
``X-Forwarded-For``: a real server process, raw sockets on 127.0.0.1.

Every loop here is bounded in count and time and stops by itself; the bounds are generous (they
bound a hang, not a speed: a loaded 2-core machine is slow)."""

from __future__ import annotations

import contextlib
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlparse

import httpx
import pytest

from tests.support.server import start_server, stop

DEADLINE_SECONDS = 1  # the server's request deadline in these tests (the default is 5 s)
CLOSED_WITHIN = 30  # how long the test waits for every slow connection to be closed


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    directory = tmp_path_factory.mktemp("hostile")
    env = {
        "ALEXANDRIA_REQUEST_TIMEOUT_SECONDS": str(DEADLINE_SECONDS),
        "ALEXANDRIA_CREATION_RATE_LIMIT": "2/minute",
        "ALEXANDRIA_FORWARDED_ALLOW_IPS": "",
    }
    process, url = start_server(directory / "events.sqlite", directory / "server.log", env)
    try:
        yield url
    finally:
        stop(process)


def connect(url: str) -> socket.socket:
    parsed = urlparse(url)
    sock = socket.create_connection((parsed.hostname, parsed.port), timeout=10)
    sock.setblocking(False)
    return sock


def closed_by_server(sock: socket.socket) -> bool:
    """True once the server has closed ``sock`` (whatever it said before)."""
    try:
        while chunk := sock.recv(65_536):
            del chunk
        return True
    except BlockingIOError:
        return False
    except OSError:  # reset
        return True


PARTIAL_HEAD = b"GET /healthz HTTP/1.1\r\nHost: alexandria\r\nX-Waiting: "
PARTIAL_BODY = (
    b"POST /games HTTP/1.1\r\nHost: alexandria\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n"
    b'{"game": "sealed_guess", '
)


def test_requests_that_never_finish_their_headers_or_body_are_closed(server: str) -> None:
    silent = [connect(server) for _ in range(8)]
    heads = [connect(server) for _ in range(8)]
    bodies = [connect(server) for _ in range(8)]
    trickles = [connect(server) for _ in range(6)]  # a header line now and then, never the end
    for sock in heads:
        sock.sendall(PARTIAL_HEAD)
    for sock in bodies:
        sock.sendall(PARTIAL_BODY)
    for sock in trickles:
        sock.sendall(b"GET /healthz HTTP/1.1\r\n")
    open_ = set(silent + heads + bodies + trickles)
    give_up = time.monotonic() + CLOSED_WITHIN
    rounds = 0
    while open_ and time.monotonic() < give_up and rounds < 10 * CLOSED_WITHIN:
        rounds += 1
        time.sleep(0.1)  # polling a real server: there is no clock to fake
        for sock in list(open_):
            if closed_by_server(sock):
                open_.discard(sock)
            elif sock in trickles:
                try:
                    sock.sendall(b"X-More: x\r\n")
                except OSError:
                    open_.discard(sock)
    still_open = len(open_)
    kinds = {"silent": silent, "partial head": heads, "partial body": bodies, "trickling head": trickles}
    left = {kind: sum(sock in open_ for sock in socks) for kind, socks in kinds.items()}
    for sock in silent + heads + bodies + trickles:
        sock.close()
    assert still_open == 0, f"{still_open} of 30 slow connections still open after {CLOSED_WITHIN} s: {left}"
    # The server goes on answering everyone else.
    assert httpx.get(f"{server}/healthz", timeout=10).status_code == 200


def test_a_request_head_above_the_limit_is_refused_at_once(server: str) -> None:
    """The head (request line and headers) is bounded (ALEXANDRIA_MAX_HEADER_BYTES, 16 KiB)."""
    sock = connect(server)
    sock.setblocking(True)
    sock.settimeout(CLOSED_WITHIN)
    with contextlib.suppress(OSError):  # the server may close before it has read all of it
        sock.sendall(PARTIAL_HEAD + b"x" * 40_000)
    answer = b""
    with contextlib.suppress(OSError):
        while chunk := sock.recv(65_536):
            answer += chunk
    sock.close()
    assert answer.startswith(b"HTTP/1.1 400"), answer[:200]


def test_a_request_that_arrived_whole_is_answered_past_the_deadline(server: str) -> None:
    """The deadline is for a request to arrive, not for its answer: a live stream stays open."""
    created = httpx.post(f"{server}/games", json={"game": "sealed_guess", "players": 2}, timeout=10)
    assert created.status_code == 201, created.text
    game = created.json()["game_id"]
    with httpx.stream("GET", f"{server}/games/{game}/stream", timeout=httpx.Timeout(10, read=30)) as stream:
        lines = stream.iter_lines()
        assert next(line for line in lines if line.startswith("event:"))
        time.sleep(DEADLINE_SECONDS * 2.5)  # past the deadline: the stream must still be live
        token = created.json()["seats"][0]["token"]
        move = httpx.post(
            f"{server}/games/{game}/commands",
            json={"type": "commit_guess", "guess": 3},
            headers={"Authorization": f"Bearer {token}"},
            timeout=10,
        )
        assert move.status_code == 200, move.text
        assert any(line.startswith("event: record") for line, _ in zip(lines, range(50), strict=False))


def test_x_forwarded_for_is_not_believed_from_a_peer_the_settings_do_not_name(server: str) -> None:
    """Each forged address would get its own creation allowance if the header were believed."""
    statuses = [
        httpx.post(
            f"{server}/games",
            json={"game": "sealed_guess", "players": 2},
            headers={"X-Forwarded-For": f"203.0.113.{i}"},
            timeout=10,
        ).status_code
        for i in range(1, 5)
    ]
    assert statuses.count(429) >= 2, statuses  # one allowance (2/minute) for the one real peer


def test_x_forwarded_for_is_believed_from_a_proxy_the_settings_name(tmp_path: Path) -> None:
    env = {"ALEXANDRIA_CREATION_RATE_LIMIT": "1/minute", "ALEXANDRIA_FORWARDED_ALLOW_IPS": "127.0.0.1"}
    process, url = start_server(tmp_path / "events.sqlite", tmp_path / "server.log", env)
    try:

        def create(client: str) -> int:
            body = {"game": "sealed_guess", "players": 2}
            headers = {"X-Forwarded-For": client}
            return httpx.post(f"{url}/games", json=body, headers=headers, timeout=10).status_code

        assert [create("203.0.113.1"), create("203.0.113.2"), create("203.0.113.1")] == [201, 201, 429]
    finally:
        stop(process)
