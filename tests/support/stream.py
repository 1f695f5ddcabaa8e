"""Reading a game's live stream (server-sent events) as a client would."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterable, Iterator
from typing import Any

from fastapi.testclient import TestClient

Message = tuple[str, Any]  # (event, data)


def sse_messages(lines: Iterable[str]) -> Iterator[Message]:
    """The (event, data) messages of a server-sent event stream, as they come."""
    event = ""
    for line in lines:
        if line.startswith("event: "):
            event = line.removeprefix("event: ")
        elif line.startswith("data: "):
            yield event, json.loads(line.removeprefix("data: "))


def read_stream(
    client: TestClient, path: str, headers: dict[str, str], first_view: threading.Event | None = None
) -> list[Message]:
    """The messages of a stream until it ends; ``first_view`` is set when the first view arrives."""
    messages: list[Message] = []
    with client.stream("GET", path, headers=headers) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        for message in sse_messages(response.iter_lines()):
            messages.append(message)
            if first_view is not None and message[0] == "view":
                first_view.set()
    return messages


class StreamWatcher:
    """A stream read to its end in a thread, while the test moves the game or stops the server."""

    def __init__(self, client: TestClient, path: str, headers: dict[str, str] | None = None) -> None:
        self.messages: list[Message] = []
        self.first_view = threading.Event()
        self.thread = threading.Thread(
            target=lambda: self.messages.extend(read_stream(client, path, headers or {}, self.first_view)),
            daemon=True,
        )
        self.thread.start()
        # Generous: it bounds a hang, not a speed.
        assert self.first_view.wait(30), "the stream should send the game as it is first"

    def ended(self, seconds: float = 30) -> list[Message]:
        """The messages, once the stream has ended (fails if it is still open after ``seconds``)."""
        self.thread.join(timeout=seconds)
        assert not self.thread.is_alive(), "the stream should have ended"
        return self.messages


def stream_when_the_server_stops(client: TestClient, path: str) -> list[Message]:
    """The messages of a stream open when the app is asked to stop: it should end them."""
    watcher = StreamWatcher(client, path)
    client.app.state.shutdown.request()  # type: ignore[attr-defined]
    return watcher.ended()
