"""The analytics tables an app serves ``/analytics`` from (``infra.analytics.store``), opened on
first use, and kept current in the background while the app runs (``kept_current``).

The embedded server keeps the analytics tables in the background while its players are quiet:
a batch of records into DuckDB holds the GIL for tens of milliseconds (about 15 ms whatever its
size, a fraction of a millisecond a record), and polled every half second under a stream of
commands it took a tenth of a core in bursts in which every command waited. So it works once no
command has been saved for QUIET_SECONDS, or when the tables are MAX_LAG_SECONDS behind even if
the commands never stop: one batch every 2 s under a steady 100 commands/s is a fortieth of a
core, and keeps the lag (for notebooks: the snapshot's too) under 5 s. A reader of analytics
catches the tables up itself in any case."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING

from infra.games.service import GameService

if TYPE_CHECKING:  # infra.analytics.store (DuckDB, pyarrow) is imported when analytics are first used
    from infra.analytics.runner import AnalyticsProjector
    from infra.analytics.store import Analytics

BACKGROUND_START_SECONDS = 2.0  # after the server starts: its first reads do not wait for DuckDB
QUIET_SECONDS = 1.0
MAX_LAG_SECONDS = 2.0
RETRY_SECONDS = 2.0

log = logging.getLogger(__name__)


def background_due(now: float, last_saved: float, caught_up_at: float) -> bool:
    """Whether the background projector works now: no command saved for QUIET_SECONDS, or the
    tables MAX_LAG_SECONDS behind (monotonic seconds)."""
    return now - last_saved >= QUIET_SECONDS or now - caught_up_at >= MAX_LAG_SECONDS


def caught_up(projector: AnalyticsProjector) -> bool:
    """One batch if the tables are behind the store; whether they now hold everything the store
    held before it. Under a steady stream of commands a batch is never followed by an empty one,
    so that cannot be what "caught up" waits for: the tables would be stepped at every look."""
    latest = projector.source.latest()
    if projector.position < latest:
        projector.step()
    return projector.position >= latest


class AnalyticsSource:
    """One app's analytics tables: an app that never serves analytics opens no database."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self._opened: list[Analytics] = []
        self._opening = threading.Lock()
        self._stopping = threading.Event()
        self._last_saved = time.monotonic()
        service.on_saved(self._saved)

    def _saved(self) -> None:
        self._last_saved = time.monotonic()

    def current(self) -> Analytics:
        with self._opening:
            if not self._opened:
                from infra.analytics.store import Analytics

                self._opened.append(Analytics.for_service(self.service, serving=True))  # bounded as a game server's
            return self._opened[0]

    def keep_while_quiet(self) -> None:
        if self._stopping.wait(BACKGROUND_START_SECONDS):
            return
        from infra.analytics.store import AnalyticsBusy

        keeper = self.current()
        if not keeper.background:
            return
        caught_up_at = time.monotonic() - MAX_LAG_SECONDS  # at once, once quiet or not
        while not self._stopping.wait(QUIET_SECONDS / 4):
            now = time.monotonic()
            if not background_due(now, self._last_saved, caught_up_at):
                continue
            try:
                if caught_up(keeper.projector):
                    caught_up_at = now
                keeper.database.publish()  # for other processes (notebooks): every snapshot_seconds at most
            except AnalyticsBusy as busy:  # another process holds the file: its turn
                log.warning("%s", busy.message)
            except Exception:
                # The event store or the file went away for a moment (or another process holds
                # the file): a batch is all or nothing, so trying again later is safe.
                log.exception("analytics: a background batch failed; trying again in %g s", RETRY_SECONDS)
                self._stopping.wait(RETRY_SECONDS)

    @asynccontextmanager
    async def kept_current(self) -> AsyncIterator[None]:
        """Embedded mode: the server keeps the tables current in the background while it runs
        (see QUIET_SECONDS), starting a moment after the server: importing DuckDB and pyarrow
        takes several times as long as a first read of a game, which should not wait for it."""
        self._stopping.clear()
        starting = threading.Thread(target=self.keep_while_quiet, name="analytics-projector", daemon=True)
        starting.start()
        try:
            yield
        finally:
            self._stopping.set()
            starting.join()
            with self._opening:
                keepers = list(self._opened)
            for keeper in keepers:
                keeper.close()
