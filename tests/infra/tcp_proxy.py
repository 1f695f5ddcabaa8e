"""A TCP proxy the tests can cut: every connection through it drops, and new ones are refused,
for as long as the cut lasts (a lost Redis, as a client sees it)."""

from __future__ import annotations

import socket
import threading
from contextlib import suppress


class CuttableProxy:
    def __init__(self, upstream_host: str, upstream_port: int) -> None:
        self.upstream = (upstream_host, upstream_port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.open = threading.Event()
        self.open.set()
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()
        self._closed = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self._closed:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if not self.open.is_set():
                client.close()  # refused while cut
                continue
            try:
                server = socket.create_connection(self.upstream)
            except OSError:
                client.close()
                continue
            with self._lock:
                self._sockets += [client, server]
            for source, target in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(source, target), daemon=True).start()

    def _pump(self, source: socket.socket, target: socket.socket) -> None:
        with suppress(OSError):
            while data := source.recv(65536):
                target.sendall(data)
        for end in (source, target):
            with suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)
            end.close()

    def cut(self) -> None:
        """Drop every connection and refuse new ones until ``restore``."""
        self.open.clear()
        with self._lock:
            sockets, self._sockets = self._sockets, []
        for end in sockets:
            with suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)
            end.close()

    def restore(self) -> None:
        self.open.set()

    def close(self) -> None:
        self._closed = True
        self.cut()
        self.listener.close()
