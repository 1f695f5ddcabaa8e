"""A background loop in a daemon thread of its own (the embedded projector's, the clock keeper's):
started once however often it is asked, stopped by setting the event the loop was given and waking
it, and started again after a stop with a fresh event (a stopped run's event stays set)."""

from __future__ import annotations

import threading
from collections.abc import Callable


class WorkerThread:
    def __init__(self, name: str, loop: Callable[[threading.Event], None], wake: threading.Event) -> None:
        self.name = name
        self.loop = loop  # runs until the event it is given is set
        self.wake = wake  # what the loop waits on between passes
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        if self._thread is None:
            self._stop = threading.Event()
            self._thread = threading.Thread(target=self.loop, args=(self._stop,), name=self.name, daemon=True)
            self._thread.start()

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def stop(self, timeout: float = 10.0) -> None:
        self._stop.set()
        self.wake.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None
