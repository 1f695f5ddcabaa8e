"""A game's analysis: the ``search`` bot's best moves for an awaited seat, with their estimated win
chances (as an engine's lines in a chess viewer).

Who may ask what:

- an ended game: any version, any seat awaited at it (nothing is secret any more);
- a running casual game: only a *hint*, for the bearer of a seat awaited now, in a game whose other
  seats are all the server's bots;
- a running tournament game: never.

Whichever seat is analysed, the search decides from that seat's knowledge only: it draws every
playout's state with the game's ``sample_state`` from the state at the version, as the bots do.
The budget is a number of playouts (capped), and the same seed and budget give the same lines.
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from domain.kernel.search import SearchBot
from domain.kernel.seats import Seat
from infra.games.service import Conflict, Forbidden, GameService, Invalid, ServiceError
from infra.readside.reader import VersionNotReached

DEFAULT_PLAYOUTS = 200
MAX_PLAYOUTS = 2_000  # about a second or two of one core in the slowest game
MAX_SEED_CHARS = 64
CONCURRENT_ANALYSES = 2  # at most this many searches at once per process (the machine's cores)
BUSY_WAIT_SECONDS = 10.0


class AnalysisForbidden(Forbidden):
    """A running game's analysis for somebody other than a seat playing only bots."""

    code = "ANALYSIS_FORBIDDEN"


class TournamentGameRunning(Forbidden):
    """A running tournament game is never analysed: the engine would be an accomplice."""

    code = "TOURNAMENT_GAME_RUNNING"


class SeatNotAwaited(Conflict):
    """The seat asked about has no move to make at the version."""

    code = "SEAT_NOT_AWAITED"


class AnalysisBusy(ServiceError):
    """Every analysis slot of the server stayed busy: ask again in a moment."""

    code = "ANALYSIS_BUSY"


@dataclass(frozen=True)
class Line:
    move: dict[str, Any]
    win_chance: float
    playouts: int


@dataclass(frozen=True)
class Analysis:
    version: int
    seat: Seat | None
    awaited: list[Seat]
    lines: list[Line]
    playouts: int  # the budget asked for
    searched: int  # the playouts the search made (0 for a lone move)
    seed: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "seat": self.seat,
            "awaited": self.awaited,
            "lines": [dataclasses.asdict(line) for line in self.lines],
            "budget": {
                "playouts": self.playouts,
                "searched": self.searched,
                "max_playouts": MAX_PLAYOUTS,
                "seed": self.seed,
            },
        }


class Analyst:
    """Analyses games of a service under the rules above, a bounded number at a time."""

    def __init__(
        self,
        service: GameService,
        tournament_of: Callable[[str], str | None],
        max_playouts: int = MAX_PLAYOUTS,
    ) -> None:
        self.service = service
        self.tournament_of = tournament_of
        self.max_playouts = max_playouts
        self._slots = threading.BoundedSemaphore(CONCURRENT_ANALYSES)

    def analyse(
        self,
        game_id: str,
        token: str | None,
        version: int | None = None,
        seat: Seat | None = None,
        playouts: int = DEFAULT_PLAYOUTS,
        seed: str | None = None,
    ) -> Analysis:
        if not 1 <= playouts <= self.max_playouts:
            raise Invalid(f"playouts must be between 1 and {self.max_playouts}")
        if seed is not None and not 1 <= len(seed) <= MAX_SEED_CHARS:
            raise Invalid(f"a seed has 1 to {MAX_SEED_CHARS} characters")
        with self.service.reading(game_id) as aggregate:
            over, latest = aggregate.match.is_over, aggregate.match.version
            if not over and self.tournament_of(game_id) is not None:  # whoever asks, with whatever token
                raise TournamentGameRunning(
                    f"game {game_id} is a running tournament game: it can be analysed once it has ended"
                )
            bearer = self.service.seat_for_token(aggregate, token)
            bots = self.service.bot_seats(aggregate)
            players = aggregate.match.players
            # A version inside a command's records is midway through its automatic consequences: the
            # state shows seats awaited that do not move there (and the rules' steps cannot run on it).
            midway = version is not None and over and not aggregate.ends_stored_event(version)
        if version is not None and version > latest:
            raise VersionNotReached(f"game {game_id} is at version {latest}, not {version}")
        if not over:
            seat = self._hint_seat(game_id, bearer, bots, players, version, latest, seat)
            version = latest
        at = version or latest
        match = self.service.load(game_id, at).match
        awaited = [] if match.waiting or match.is_over or midway else sorted(match.game.awaited(match.state))
        if seat is None:
            if not awaited:  # nobody moves at this version (midway through a move's consequences, the end)
                return Analysis(at, None, [], [], playouts, 0, seed or "")
            seat = awaited[0]
        if seat not in awaited:
            raise SeatNotAwaited(
                f"seat {seat} has no move at version {at}"
                + (f"; the awaited seats are {', '.join(map(str, awaited))}" if awaited else "; nobody is awaited")
                + (
                    "; that version is midway through a move's consequences: ask for the version its move ended at"
                    if midway
                    else ""
                )
            )
        seed = seed if seed is not None else f"{game_id}:{at}:{seat}"
        if not self._slots.acquire(timeout=BUSY_WAIT_SECONDS):
            raise AnalysisBusy("every analysis slot is busy: ask again in a moment")
        try:
            bot = SearchBot(f"analysis:{seed}".encode(), playouts=playouts)
            estimates = bot.analyse(match.game, match.state, seat)
        finally:
            self._slots.release()
        lines = [Line({"type": e.move.type, **e.move.to_dict()}, round(e.win_share, 4), e.playouts) for e in estimates]
        return Analysis(at, seat, awaited, lines, playouts, bot.last_playouts, seed)

    def _hint_seat(
        self,
        game_id: str,
        bearer: Seat | None,
        bots: dict[Seat, str],
        players: int,
        version: int | None,
        latest: int,
        seat: Seat | None,
    ) -> Seat:
        """A running casual game: the bearer's own seat, now, against bots only — or a refusal."""
        if bearer is None:
            raise AnalysisForbidden(
                "a running game is analysed only as a hint for a player against bots: send your seat's token "
                "(a spectator's analysis comes after the end)"
            )
        people = [other for other in range(players) if other != bearer and other not in bots]
        if people:
            raise AnalysisForbidden(
                f"a hint is only for a player whose opponents are all bots; seat(s) {', '.join(map(str, people))} "
                "are played by people"
            )
        if seat is not None and seat != bearer:
            raise AnalysisForbidden(f"a hint is for the bearer's own seat ({bearer}), not seat {seat}")
        if version is not None and version != latest:
            raise SeatNotAwaited(f"a hint is for the position now (version {latest}), not version {version}")
        return bearer
