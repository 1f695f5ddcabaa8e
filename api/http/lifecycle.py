"""Stopping gracefully: a server that is asked to stop ends its live streams at once (their
clients resume with ``Last-Event-ID`` or ``after=``, on this worker once it is back or on
another), lets other requests in flight finish for a short grace period, then exits.

uvicorn waits for every open response before it stops, and a stream never ends by itself, so
the server tells the streams first (``Shutdown.request``) and only then waits.
"""

from __future__ import annotations

import asyncio
import signal
import socket
import threading
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import anyio
import uvicorn
from fastapi import FastAPI

T = TypeVar("T")


class ServerStopping(Exception):
    """The server is stopping: a long-lived response ends now."""


class Shutdown:
    """Set once when the server begins to stop; safe to request from any thread."""

    def __init__(self) -> None:
        self._requested = threading.Event()
        # One event per waiter, each on its own loop (a test client runs a loop per request).
        self._waiters: set[tuple[asyncio.AbstractEventLoop, asyncio.Event]] = set()

    @property
    def requested(self) -> bool:
        return self._requested.is_set()

    def request(self) -> None:
        self._requested.set()
        for loop, event in list(self._waiters):
            loop.call_soon_threadsafe(event.set)

    async def unless_stopping(self, wait: Callable[[], Awaitable[T]]) -> T:
        """``await wait()``, cancelled and turned into ``ServerStopping`` if the server stops first."""
        waiter = (asyncio.get_running_loop(), asyncio.Event())
        self._waiters.add(waiter)
        try:
            if self.requested:  # requested before this waiter was there to be told
                raise ServerStopping
            results: list[T] = []
            async with anyio.create_task_group() as group:

                async def run() -> None:
                    results.append(await wait())
                    group.cancel_scope.cancel()

                async def watch() -> None:
                    await waiter[1].wait()
                    group.cancel_scope.cancel()

                group.start_soon(run)
                group.start_soon(watch)
            if not results:
                raise ServerStopping
            return results[0]
        finally:
            self._waiters.discard(waiter)


def shutdown_of(app: FastAPI) -> Shutdown:
    shutdown: Shutdown = app.state.shutdown
    return shutdown


class _StreamClosingServer(uvicorn.Server):
    def __init__(self, config: uvicorn.Config, shutdown: Shutdown) -> None:
        super().__init__(config)
        self.app_shutdown = shutdown

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        self.app_shutdown.request()
        await super().shutdown(sockets)


STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)


def run_server(app: FastAPI, host: str, port: int, grace_seconds: int, **options: Any) -> None:
    """Serve ``app`` until SIGTERM or SIGINT, then stop as described above and return; ``options``
    are more ``uvicorn.Config`` arguments (``api.http.limits.server_options``)."""
    config = uvicorn.Config(
        app, host=host, port=port, log_level="warning", timeout_graceful_shutdown=max(grace_seconds, 1), **options
    )
    # uvicorn raises the signal that stopped it again once it is done, to whatever handler was
    # there before it: a stop that went as planned is a normal exit (status 0, no traceback).
    before = {signum: signal.signal(signum, lambda *_: None) for signum in STOP_SIGNALS}
    try:
        _StreamClosingServer(config, shutdown_of(app)).run()
    finally:
        for signum, handler in before.items():
            signal.signal(signum, handler)
