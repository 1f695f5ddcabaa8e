"""Reconnecting with backoff: what a long-running worker does when a back-end goes away."""

from __future__ import annotations

import logging
import threading


class Backoff:
    """Waits that grow from ``first`` to ``longest`` seconds while ``what`` keeps failing, with a
    log line when it is lost (once), each retry, and when it is back.

    At most a second between attempts: an attempt on a back-end that is still away costs one
    refused connection, and a worker should be back within a second of its back-end (a longer
    wait only adds to the time its readers see stale data after a restart)."""

    def __init__(self, what: str, log: logging.Logger, first: float = 0.1, longest: float = 1.0) -> None:
        self.what = what
        self.log = log
        self.first = first
        self.longest = longest
        self.failures = 0

    def failed(self, problem: BaseException, stop: threading.Event) -> None:
        """Log ``problem`` and wait before the next attempt (less if ``stop`` is set meanwhile)."""
        delay = min(self.longest, self.first * 2**self.failures)
        self.failures += 1
        first_line = str(problem).strip().splitlines()[0] if str(problem).strip() else type(problem).__name__
        self.log.warning(
            "lost %s (%s); reconnecting in %.1f s (attempt %d)", self.what, first_line, delay, self.failures
        )
        stop.wait(delay)

    def succeeded(self) -> None:
        if self.failures:
            self.log.warning("reconnected to %s after %d attempts", self.what, self.failures)
        self.failures = 0
