"""The API on a real port for a browser: uvicorn in a thread of the test process, on a free port."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import uvicorn

from api.app import create_app
from infra.bootstrap import build_service
from infra.service import GameService
from infra.settings import Settings


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def live_server(folder: Path) -> Iterator[tuple[str, GameService]]:
    """Yields the server's base URL and its service (to set games up in process, quickly); stops the
    server and closes the store on exit."""
    service = build_service(Settings(database_url=f"sqlite:///{folder}/events.sqlite"))
    port = free_port()
    config = uvicorn.Config(create_app(service), host="127.0.0.1", port=port, log_level="warning", lifespan="off")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="viewer-test-server", daemon=True)
    thread.start()
    pause = threading.Event()
    # uvicorn sets .started once it listens; no deadline: a loaded machine only makes it slower.
    while not server.started:
        if not thread.is_alive():
            raise RuntimeError("the test server did not start")
        pause.wait(0.02)
    try:
        yield f"http://127.0.0.1:{port}", service
    finally:
        server.should_exit = True
        thread.join()
        service.close()
