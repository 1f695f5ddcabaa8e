"""The server's bot seats: a background process of ``serve`` that plays the seats a game was created
with bots for (``POST /games`` with ``"bots"``).

After every save it looks at the games it watches; where an awaited seat is a bot's, the bot decides
on a copy of the state (through the game's ``sample_state``: only what that seat may know) and the
move goes through the application service like any client's, as that seat, against the version it
decided on (a stale version means somebody moved meanwhile: it decides again). The seat's
``SeatTaken`` record names the bot; its commands are recorded as the seat's.

The embedded mode only: one process watches the games it created or found running at its start.
In scale-out several API workers would each run one and race (the expected version keeps a race from
recording a move twice, but both would think); a lease per game, as the projectors take turns,
is the later step.
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from collections.abc import Callable

from domain.kernel.bots import bot_of_seat_name, make_bot
from domain.kernel.errors import RuleViolation
from domain.kernel.sampling import clone_state
from infra.service import GameService, ServiceError, StaleVersion

log = logging.getLogger(__name__)

SEARCH_PLAYOUTS = 2_000  # the cap; the time budget ends a decision first
SEARCH_SECONDS = 0.5
IDLE_WAIT = 1.0  # a wake-up may be missed (a save by another process): look again this often


class BotSeats:
    def __init__(
        self,
        service: GameService,
        playouts: int = SEARCH_PLAYOUTS,
        seconds: float | None = SEARCH_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.service = service
        self.playouts = playouts
        self.seconds = seconds
        self.clock = clock
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
                seat, version, game = due[0], aggregate.version, match.game
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

    def step(self) -> int:
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
        while not self._stop.is_set():
            self._wake.wait(IDLE_WAIT)
            self._wake.clear()
            if self._stop.is_set():
                return
            try:
                self.step()
            except Exception:  # a bug in one decision must not stop the seats of every other game
                log.exception("bot seats")

    def start(self, resume: Callable[[], None] | None = None) -> None:
        """Play in a background thread (one, however many callers start it at once); ``resume``
        first finds the games to watch (a restart's)."""
        with self._starting:
            if self._thread is not None and self._thread.is_alive():
                return
            self._stop.clear()

            def run() -> None:
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
