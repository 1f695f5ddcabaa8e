"""The API on a real port for a browser: uvicorn in a thread of the test process, on a free port."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import uvicorn

from api.http.app import create_app
from infra.bootstrap import build_service
from infra.games.service import GameService
from infra.settings import Settings
from infra.tournaments.service import TournamentService


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def live_server(folder: Path) -> Iterator[tuple[str, GameService, TournamentService]]:
    """Yields the server's base URL and its game and tournament services (to set games and
    tournaments up in process, quickly); stops the server and closes the stores on exit."""
    service = build_service(Settings(database_url=f"sqlite:///{folder}/events.sqlite"))
    tournaments = TournamentService(service)
    port = free_port()
    app = create_app(service, tournaments=tournaments)
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="off")
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
        yield f"http://127.0.0.1:{port}", service, tournaments
    finally:
        server.should_exit = True
        thread.join()
        tournaments.close()
        service.close()
