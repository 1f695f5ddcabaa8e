"""The clock keeper: the process that applies the clock rule of every running clocked tournament
game by itself, so that a seat out of time is ruled on without anybody's request.

It keeps an index of the running clocked games, built from the tournaments' notification log
(a clocked tournament's ``RoundSeated`` adds its tables; the game's result, a void ruling or the
tournament's end takes them out) and followed from where it last read. Each game has its next
look: the moment the first running clock runs out, or, for the seats whose clocks do not run,
the earliest moment theirs could (a seat's time only runs while it is clocked and a move only adds
to it, so no clock can run out before ``now`` plus the least time any seat has). A pass looks only
at the games whose moment has come; nothing scans the games in between.

Exactly one process keeps the clocks of a store at a time: the keeper holds a lease of the
read-model store (the one the projectors take turns by: ``ReadModelStore.acquire_lease``), so in
the scale-out mode the API processes take turns, and the embedded server's lease tells the
``alexandria tournament clocks`` worker that the store has a keeper already.
"""

from __future__ import annotations

import heapq
import logging
import threading
import uuid
from collections.abc import Sequence
from dataclasses import dataclass

from eventsourcing.persistence import Notification

from domain.kernel.log import Record
from domain.tournament.log import (
    ADJUDICATED,
    RESULT_RECORDED,
    ROUND_SEATED,
    TOURNAMENT_CREATED,
    TOURNAMENT_ENDED,
    VOID_GAME,
)
from infra.games.service import ServiceError
from infra.readside.follower import MemoryPosition, log_follower
from infra.readside.lease import Lease
from infra.readside.projector import transient_errors
from infra.readside.readmodels import Cursor, ReadModelStore
from infra.readside.worker import WorkerThread
from infra.retrying import Backoff
from infra.tournaments.aggregate import LoggedRecord, logged_records
from infra.tournaments.service import TournamentService

log = logging.getLogger(__name__)

CLOCK_LEASE = "tournament-clocks"  # the lease's name in the read-model store
NOTIFICATIONS_PER_READ = 500


class ClocksKeptElsewhere(Exception):
    """Another process keeps the clocks of this store (it holds the lease)."""


@dataclass
class Watched:
    tournament_id: str
    next_look: int  # ms, the server's time


class TournamentRecords:
    """What the clock keeper sees of the tournaments' log: their records."""

    def __init__(self, tournaments: TournamentService) -> None:
        self.tournaments = tournaments

    def apply(self, start: Cursor, batch: Sequence[Notification]) -> list[LoggedRecord]:
        return logged_records(self.tournaments.mapper, batch)


class ClockKeeper:
    def __init__(
        self,
        tournaments: TournamentService,
        store: ReadModelStore,
        *,
        interval: float = 0.5,
        lease_seconds: float = 10.0,
        role: str = "server",
    ) -> None:
        self.tournaments = tournaments
        self.store = store
        self.interval = interval  # seconds: the longest a pass waits, and the least between looks at a game
        self.owner = f"{role}-{uuid.uuid4().hex[:12]}"
        self.watched: dict[str, Watched] = {}  # game id -> its tournament and next look
        self._clocked: dict[str, bool] = {}  # tournament id -> whether it has clocks
        self._games_of: dict[str, set[str]] = {}  # tournament id -> its watched games
        self._heap: list[tuple[int, str]] = []  # (next look, game id); stale entries are skipped
        # The tournaments' notification log, read up to here (the index is rebuilt on every start).
        self._position: MemoryPosition[list[LoggedRecord]] = MemoryPosition(self._index_all)
        self._follower = log_follower(
            tournaments.recorder, TournamentRecords(tournaments), self._position, NOTIFICATIONS_PER_READ
        )
        self.lease = Lease(store, CLOCK_LEASE, self.owner, lease_seconds)
        self._wake = threading.Event()
        self._worker = WorkerThread("clocks", self.run_forever, self._wake)
        self.passed = threading.Event()  # set after every pass (tests wait on it, never on time)

    # -- one pass ---------------------------------------------------------------------------------

    def step(self) -> int:
        """One pass, if this keeper holds the lease: follow the tournaments' log, then apply the
        clock rule in every watched game whose next look has come. Returns the moves played."""
        if not self.hold_lease():
            return 0
        self.follow()
        played = 0
        now = self.tournaments.now()
        while self._heap and self._heap[0][0] <= now:
            moment, game_id = heapq.heappop(self._heap)
            watched = self.watched.get(game_id)
            if watched is None or watched.next_look != moment:
                continue  # taken out, or looked at again since
            played += self._look(game_id, watched)
        return played

    def _look(self, game_id: str, watched: Watched) -> int:
        try:
            played = self.tournaments.enforce_clock(watched.tournament_id, game_id)
            now = self.tournaments.now()
            moment = self.tournaments.next_clock_look(watched.tournament_id, game_id, now, round(self.interval * 1000))
        except ServiceError as refusal:  # the game or its tournament changed meanwhile: look again soon
            log.info("clocks of game %s: %s", game_id, refusal)
            played, moment = 0, self.tournaments.now() + round(self.interval * 1000)
        if moment is None:
            self._forget(game_id)
        else:
            self._schedule(game_id, moment)
        return played

    def next_look(self) -> int | None:
        """The earliest next look of a watched game (ms), if any."""
        while self._heap:
            moment, game_id = self._heap[0]
            watched = self.watched.get(game_id)
            if watched is not None and watched.next_look == moment:
                return moment
            heapq.heappop(self._heap)
        return None

    # -- the index --------------------------------------------------------------------------------

    def follow(self) -> None:
        """Read the tournaments' notification log from where this keeper left it."""
        self._follower.catch_up()

    def _index_all(self, records: list[LoggedRecord]) -> None:
        for logged in records:
            self._index(logged.tournament_id, logged.record)

    def _index(self, tournament_id: str, record: Record) -> None:
        data = record.data
        if record.type == TOURNAMENT_CREATED:
            self._clocked[tournament_id] = data["config"].get("time_control") is not None
        elif record.type == ROUND_SEATED and self._clocked.get(tournament_id):
            now = self.tournaments.now()
            for table in data["tables"]:
                self.watched[table["game_id"]] = Watched(tournament_id, now)
                self._games_of.setdefault(tournament_id, set()).add(table["game_id"])
                heapq.heappush(self._heap, (now, table["game_id"]))
        elif record.type == RESULT_RECORDED or (record.type == ADJUDICATED and data.get("kind") == VOID_GAME):
            self._forget(data["game_id"])
        elif record.type == TOURNAMENT_ENDED:
            for game_id in list(self._games_of.pop(tournament_id, ())):
                self._forget(game_id)

    def _schedule(self, game_id: str, moment: int) -> None:
        watched = self.watched[game_id]
        watched.next_look = moment
        heapq.heappush(self._heap, (moment, game_id))

    def _forget(self, game_id: str) -> None:
        watched = self.watched.pop(game_id, None)
        if watched is not None:
            self._games_of.get(watched.tournament_id, set()).discard(game_id)

    # -- the lease --------------------------------------------------------------------------------

    def hold_lease(self) -> bool:
        """Take or renew the clocks' lease (renewed once half of it has run out)."""
        return self.lease.hold()

    def take_lease(self) -> None:
        """Hold the lease now, or raise ``ClocksKeptElsewhere``."""
        if not self.hold_lease():
            raise ClocksKeptElsewhere(
                "another process keeps the clocks of this store (a running `alexandria serve` does it by itself, "
                "or another clock worker): this one would write the same games beside it, so it does not start"
            )

    def release_lease(self) -> None:
        self.lease.release()

    # -- running ----------------------------------------------------------------------------------

    def wake(self) -> None:
        """Look again now (a test that moved its clock on; a new round)."""
        self._wake.set()

    def run_forever(self, stop: threading.Event) -> None:
        """Pass after pass until ``stop`` is set or the service is closed; each waits until the next
        look is due (at most ``interval`` seconds, so new rounds and a free lease are seen soon)."""
        backoff = Backoff("the event store or the read-model store", log)
        try:
            while not self._stopping(stop):
                try:
                    self._wake.clear()
                    self.step()
                    backoff.succeeded()
                except transient_errors() as problem:
                    self.lease.doubt()  # the lease may have run out while we were away
                    backoff.failed(problem, stop)
                    continue
                except Exception:  # a keeper that stopped would leave every clock to requests
                    log.exception("the clock keeper's pass failed; it goes on")
                finally:
                    self.passed.set()
                self._wake.wait(self._wait_seconds())
        finally:
            try:
                self.release_lease()
            except transient_errors():
                pass  # the lease runs out by itself

    def _wait_seconds(self) -> float:
        moment = self.next_look()
        if moment is None:
            return self.interval
        return min(self.interval, max(0.0, (moment - self.tournaments.now()) / 1000))

    def _stopping(self, stop: threading.Event) -> bool:
        return stop.is_set() or self.tournaments.games.closing.is_set()

    def start(self) -> None:
        """Run ``run_forever`` in a background thread (what ``serve`` does)."""
        self._worker.start()

    @property
    def running(self) -> bool:
        return self._worker.running

    def stop(self, timeout: float = 10.0) -> None:
        self._worker.stop(timeout)
