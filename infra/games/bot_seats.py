"""The server's bot seats: a background process of ``serve`` that plays the seats a game was created
with bots for (``POST /games`` with ``"bots"``).

It follows the event store's notification log (as the projectors do): a ``SeatTaken`` that names
a bot adds its game to the games it watches, and after every save (in this process) or every
``interval`` (a save by another process) it looks at them; where an awaited seat is a bot's, the
bot decides on a copy of the state (through the game's ``sample_state``: only what that seat may
know) and the move goes through the application service like any client's, as that seat, against
the version it decided on (a stale version means somebody moved meanwhile: it decides again). The
seat's ``SeatTaken`` record names the bot; its commands are recorded as the seat's.

One process at a time plays the bot seats of a store: the one that holds the ``bot-seats`` lease
of the read-model store (``ReadModelStore.acquire_lease``, the one the projectors and the clock
keeper take turns by). In scale-out every API worker runs one and the others are hot standbys,
following the log too; a worker that stops releases the lease, and one that was killed leaves a
lease the store hands on at once (``owner_gone``) or when it runs out.
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from collections.abc import Callable, Sequence

from eventsourcing.persistence import Notification

from domain.kernel.bots import bot_of_seat_name, make_bot
from domain.kernel.errors import RuleViolation
from domain.kernel.match import SEAT_TAKEN
from domain.kernel.sampling import clone_state
from infra.games.aggregate import may_hold, records_of
from infra.games.service import GameService, ServiceError, StaleVersion
from infra.readside.follower import MemoryPosition, log_follower
from infra.readside.lease import Lease
from infra.readside.projector import transient_errors
from infra.readside.readmodels import Cursor, MemoryStore, ReadModelStore, lease_owner

log = logging.getLogger(__name__)

SEARCH_PLAYOUTS = 2_000  # the cap; the time budget ends a decision first
SEARCH_SECONDS = 0.5
IDLE_WAIT = 1.0  # a wake-up may be missed (a save by another process): look again this often
# Between two passes: under a stream of commands the saves of a pause are followed in one read of
# the log, not one read a save (a bot still answers a person's move within this pause).
PAUSE_SECONDS = 0.05
BOT_LEASE = "bot-seats"  # the lease's name in the read-model store
NOTIFICATIONS_PER_READ = 500


class GamesWithBots:
    """What the bot seats see of the log: the games whose ``SeatTaken`` names a bot (those of
    ``POST /games`` with ``"bots"`` and the tournament tables of bot players alike)."""

    def __init__(self, service: GameService) -> None:
        self.service = service

    def apply(self, start: Cursor, batch: Sequence[Notification]) -> set[str]:
        games: set[str] = set()
        for notification in batch:
            if not may_hold(self.service.mapper, notification, SEAT_TAKEN):
                continue
            event = self.service.mapper.to_domain_event(notification)
            if any(r.type == SEAT_TAKEN and bot_of_seat_name(r.data.get("name")) for r in records_of(event)):
                games.add(str(event.originator_id))
        return games


class BotSeats:
    def __init__(
        self,
        service: GameService,
        playouts: int = SEARCH_PLAYOUTS,
        seconds: float | None = SEARCH_SECONDS,
        clock: Callable[[], float] = time.monotonic,
        store: ReadModelStore | None = None,
        *,
        lease_seconds: float = 10.0,
        interval: float = IDLE_WAIT,
        pause: float = PAUSE_SECONDS,
        role: str = "server",
    ) -> None:
        self.service = service
        self.playouts = playouts
        self.seconds = seconds
        self.clock = clock
        self.store = store or MemoryStore()  # the lease's store (alone: this process's own)
        self.interval = interval
        self.pause = pause
        self.owner = lease_owner(f"bots-{role}")
        self.moves_played = 0  # by this process (tests and logs)
        # The notification log, followed up to here in this process (the games watched are rebuilt on start).
        self._position: MemoryPosition[set[str]] = MemoryPosition(self._watch_all)
        self._follower = log_follower(service.recorder, GamesWithBots(service), self._position, NOTIFICATIONS_PER_READ)
        self.lease = Lease(self.store, BOT_LEASE, self.owner, lease_seconds)
        # The bots' streams are keyed by a secret of this process, so nobody can foresee a bot's choices.
        self._salt = secrets.token_hex(16)
        self._games: set[str] = set()
        self._guard = threading.Lock()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._starting = threading.Lock()
        service.on_saved(self._wake.set)
        service.on_closing(self.stop)

    def watch(self, game_id: str) -> None:
        with self._guard:
            self._games.add(game_id)
        self._wake.set()

    def watch_named(self, game_id: str, names: dict[str, str]) -> None:
        """Watch a game found in the lobby if any of its seats is named by a bot."""
        if any(bot_of_seat_name(name) for name in names.values()):
            self.watch(game_id)

    def play_due(self, game_id: str) -> int:
        """Play the game's bot seats until a person's seat is awaited or the game is over; the moves made."""
        moves = 0
        while True:
            with self.service.reading(game_id) as aggregate:
                match = aggregate.match
                bots = self.service.bot_seats(aggregate)
                if match.is_over or match.waiting:
                    if match.is_over:
                        with self._guard:
                            self._games.discard(game_id)
                    return moves
                due = sorted(seat for seat in match.game.awaited(match.state) if seat in bots)
                if not due:
                    return moves
                seat, version, game = due[0], match.version, match.game
                state = clone_state(match.state)  # decided on outside the game's lock
            bot = make_bot(
                bots[seat],
                f"{self._salt}:{game_id}:{seat}:{version}".encode(),
                self.playouts,
                self.seconds,
                self.clock,
            )
            command = bot.choose(game, state, seat)
            try:
                self.service.execute(
                    game_id, None, {"type": command.type, **command.to_dict()}, expected_version=version, bot_seat=seat
                )
            except StaleVersion:
                continue
            moves += 1
            self.moves_played += 1

    # -- the log and the lease --------------------------------------------------------------------

    def start_following(self) -> None:
        """Follow the log from its end (the games before it: ``watch``, or a resume from the lobby)."""
        self._position.begin(self.service.recorder.max_notification_id() or 0)

    def follow(self) -> None:
        """Read the notification log from where this process left it: watch each game whose
        ``SeatTaken`` names a bot."""
        self._position.begin(0)
        self._follower.catch_up()

    def _watch_all(self, games: set[str]) -> None:
        with self._guard:
            self._games.update(games)

    def hold_lease(self) -> bool:
        """Take or renew the bot seats' lease (renewed once half of it has run out)."""
        return self.lease.hold()

    def release_lease(self) -> None:
        self.lease.release()

    # -- one pass ---------------------------------------------------------------------------------

    def step(self) -> int:
        """Follow the log, then, if this process holds the lease, play every watched game's due
        bot seats; the moves made."""
        self.follow()
        if not self.hold_lease():
            return 0
        with self._guard:
            games = sorted(self._games)
        moves = 0
        for game_id in games:
            try:
                moves += self.play_due(game_id)
            except (ServiceError, RuleViolation) as failure:  # the game went away or refused: not the others
                log.warning("bot seats of game %s: %s", game_id, failure)
                with self._guard:
                    self._games.discard(game_id)
        return moves

    def run_forever(self) -> None:
        try:
            while not self._stop.is_set():
                self._wake.wait(self.interval)
                self._wake.clear()
                if self._stop.is_set():
                    return
                try:
                    self.step()
                except transient_errors() as problem:  # a lost connection: the lease may run out meanwhile
                    self.lease.doubt()
                    log.warning("bot seats: %s", problem)
                except Exception:  # a bug in one decision must not stop the seats of every other game
                    log.exception("bot seats")
                self._stop.wait(self.pause)
        finally:
            try:
                self.release_lease()
            except transient_errors():
                pass  # the lease runs out by itself

    def start(self, resume: Callable[[], None] | None = None) -> None:
        """Play in a background thread (one, however many callers start it at once); ``resume``
        first finds the games to watch (a restart's)."""
        with self._starting:
            if self._thread is not None and self._thread.is_alive():
                return
            self._stop.clear()

            def run() -> None:
                self.start_following()
                if resume is not None:
                    try:
                        resume()
                    except Exception:  # the games created from now on are still played
                        log.exception("bot seats: resuming the running games")
                self.run_forever()

            self._thread = threading.Thread(target=run, name="bot-seats", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=10)
