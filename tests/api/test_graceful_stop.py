"""SIGTERM to ``alexandria serve`` with a live stream open: the stream ends, the server exits
cleanly, and the client resumes from the last event id on the server started again."""

from __future__ import annotations

import signal
import threading
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.support.http import auth
from tests.support.server import start_server
from tests.support.stream import sse_messages

# Generous: it bounds a hang, not a speed (a loaded 2-core machine may be slow to stop).
STOP_SECONDS = 10


class StreamReader(threading.Thread):
    """Reads one stream to its end, keeping its messages, the last event id and any failure."""

    def __init__(self, url: str) -> None:
        super().__init__(daemon=True)
        self.url = url
        self.messages: list[tuple[str, Any]] = []
        self.comments: list[str] = []
        self.last_id: str | None = None
        self.first_view = threading.Event()
        self.failure: BaseException | None = None

    def lines(self, response: httpx.Response) -> Any:
        for line in response.iter_lines():
            if line.startswith("id: "):
                self.last_id = line.removeprefix("id: ")
            elif line.startswith(":"):
                self.comments.append(line)
            yield line

    def run(self) -> None:
        try:
            with httpx.stream("GET", self.url, timeout=httpx.Timeout(5, read=None)) as response:
                assert response.status_code == 200, response.read()
                for message in sse_messages(self.lines(response)):
                    self.messages.append(message)
                    if message[0] == "view":
                        self.first_view.set()
        except BaseException as problem:
            self.failure = problem


@pytest.mark.slow
def test_sigterm_with_an_open_stream_stops_the_server_and_the_client_resumes(tmp_path: Path) -> None:
    database, log = tmp_path / "events.sqlite", tmp_path / "server.log"
    server, url = start_server(database, log)
    try:
        created = httpx.post(f"{url}/games", json={"game": "sealed_guess", "players": 2, "seed": "stop"}).json()
        game = created["game_id"]
        reader = StreamReader(f"{url}/games/{game}/stream")
        reader.start()
        assert reader.first_view.wait(30), "the stream should send the game as it is first"

        server.send_signal(signal.SIGTERM)
        assert server.wait(timeout=STOP_SECONDS) == 0, log.read_text()
        reader.join(timeout=STOP_SECONDS)
        assert not reader.is_alive() and reader.failure is None, reader.failure
        assert [event for event, _ in reader.messages] == ["record", "view"]
        assert reader.last_id == "1"
        assert any("resume with Last-Event-ID: 1" in comment for comment in reader.comments)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()

    # Moves made meanwhile (through the store) come first when the client resumes.
    server, url = start_server(database, log)
    try:
        tokens = [seat["token"] for seat in created["seats"]]
        for seat in (0, 1):
            command = {"type": "commit_guess", "guess": 2}
            sent = httpx.post(f"{url}/games/{game}/commands", json=command, headers=auth(tokens[seat]))
            assert sent.status_code == 200, sent.text
        with httpx.stream("GET", f"{url}/games/{game}/stream", headers={"Last-Event-ID": reader.last_id}) as resumed:
            first = next(sse_messages(resumed.iter_lines()))
        assert first[0] == "record" and first[1]["position"] == 2 and first[1]["type"] == "CommandAccepted"
        server.send_signal(signal.SIGTERM)
        assert server.wait(timeout=STOP_SECONDS) == 0, log.read_text()
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
