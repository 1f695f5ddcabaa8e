"""Game clocks, computed from the record: the time the round was seated and the server time
stamped on every accepted command (``CommandAccepted.data.at``, milliseconds). Nothing reads a
clock here, so the verifier gets the same answer as the server did.

A seat's clock runs while the game awaits it and the game counts it as clocked
(``GameDefinition.clocked_seats``: the awaited seats unless the game narrows them; Catan runs no
clock for answering a trade offer). A move of a seat whose clock was running adds the increment to
its clock (a seat that had run out starts again from zero); a move nobody waited for (an optional
one, such as a counter-offer) adds nothing, so no seat can bank time by making them.

The rule the service keeps and the verifier checks, in one function (``check_clock``): when a
command is stamped at a time some running clock has run out by, that command is the rule's move
for the seat that ran out first, and a ``TimedOut`` of that seat at the version before it is
recorded (unless the seat already belongs to the bot: forfeited by a ruling, or by an earlier
timeout under the forfeit rule). The verifier runs it over a game's whole record; the service asks
it about each ``TimedOut`` before recording it, so it never records one the verifier would reject.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from domain.kernel.bots import Bot, make_bot
from domain.kernel.game import GameDefinition
from domain.kernel.log import COMMAND_ACCEPTED, Record
from domain.kernel.match import Match
from domain.kernel.seats import Seat
from domain.tournament.config import FORFEIT, LEGACY_CLOCK_BOT, TimeControl


def clock_bot(control: TimeControl | None, seed: bytes) -> Bot:
    """The bot that moves for a seat out of time (or ruled forfeited), as the clock's settings name
    it, on its stream for the game and version (``seeds.clock_bot_seed``): the server plays its move
    and the verifier plays it again. A ``search`` bot has a budget of playouts only, so both get the
    same move. A tournament without clocks plays a forfeited seat with the random bot."""
    if control is None:
        return make_bot(LEGACY_CLOCK_BOT, seed)
    return make_bot(control.bot, seed, playouts=control.bot_playouts)


@dataclass(frozen=True)
class DueTimeout:
    """A seat whose time had run out when the game's next command was stamped."""

    seat: Seat
    version: int  # the game's version before that command
    expired_at: int  # when the seat's time ran out, as its clock says
    mover: Seat  # whose command it was (the rule's move: the same seat)
    at: int  # the command's stamp


@dataclass(frozen=True)
class Stamped:
    """A command of a clocked game, with the clocks as the records before it leave them."""

    position: int  # in the game's record (the version before it is one less)
    mover: Seat
    at: int | None  # its stamp (None: it carries none, or not a whole number)
    clock_time: int  # the latest stamp before it (the round's start before the first)
    expiries: Mapping[Seat, int]  # when each running clock runs out if its seat does not move
    flagged: tuple[Seat, ...]  # the running seats out of time by its stamp, the first to run out first


@dataclass
class GameClock:
    """The clocks of one game, fed its records in order."""

    game: GameDefinition[Any]
    players: int
    options: dict[str, Any]
    control: TimeControl
    started_at: int
    remaining: list[int] = field(default_factory=list)
    running_since: dict[int, int] = field(default_factory=dict)
    version: int = 0
    last_stamp: int = 0
    commands: list[Stamped] = field(default_factory=list)  # every command fed, in order
    _match: Match | None = None
    _in_batch: bool = False

    def __post_init__(self) -> None:
        self.remaining = [self.control.base_ms] * self.players
        self.last_stamp = self.started_at
        self._match = Match.replay(self.game, self.players, self.options)

    @property
    def match(self) -> Match:
        """The game as the records fed so far leave it (what the rule's bot chooses from)."""
        assert self._match is not None
        return self._match

    def feed(self, records: Iterable[Record]) -> None:
        match = self.match
        for record in records:
            if record.position <= self.version:
                continue
            if record.type == COMMAND_ACCEPTED:
                self._settle()
                stamp = record.data.get("at")
                # A command without a whole-number stamp counts as made at the latest one (the check stops there).
                given = stamp if isinstance(stamp, int) and not isinstance(stamp, bool) else None
                at = self.last_stamp if given is None else given
                mover = record.data["seat"]
                expiries = {s: since + self.remaining[s] for s, since in self.running_since.items()}
                flagged = tuple(self.out_of_time(at))
                self.commands.append(Stamped(record.position, mover, given, self.last_stamp, expiries, flagged))
                for seat, since in self.running_since.items():
                    self.remaining[seat] -= max(0, at - since)
                if mover in self.running_since:
                    # A seat that ran out moves (the rule's move) with nothing left, never less.
                    self.remaining[mover] = max(self.remaining[mover], 0) + self.control.increment_ms
                self.running_since = {}
                self.last_stamp = max(self.last_stamp, at)
            match.apply_record(record)
            self.version = record.position
            self._in_batch = True
        self._settle()

    def _settle(self) -> None:
        """After a batch: the clocks of the seats now clocked run from the batch's time."""
        if not self._in_batch:
            return
        match = self.match
        self._in_batch = False
        self.running_since = (
            {} if match.is_over else {s: self.last_stamp for s in sorted(match.game.clocked_seats(match.state))}
        )

    def remaining_at(self, seat: int, now: int) -> int:
        since = self.running_since.get(seat)
        return self.remaining[seat] - (max(0, now - since) if since is not None else 0)

    def expiry(self, seat: int) -> int | None:
        """When the seat's time runs out if it does not move (None: its clock is not running)."""
        since = self.running_since.get(seat)
        return None if since is None else since + self.remaining[seat]

    def out_of_time(self, now: int) -> list[int]:
        """The running seats whose time has run out by ``now``, the first to run out first."""
        flagged = [s for s in self.running_since if self.remaining_at(s, now) <= 0]
        return sorted(flagged, key=lambda s: (self.expiry(s) or 0, s))

    def next_expiry(self) -> int | None:
        """The earliest time a running clock runs out if nobody moves (None: no clock runs)."""
        expiries = [e for s in self.running_since if (e := self.expiry(s)) is not None]
        return min(expiries, default=None)

    def earliest_possible_expiry(self, now: int) -> int | None:
        """No clock of this game can run out before this, whatever is played meanwhile: a seat's
        time only runs while it is clocked and a move only adds to it, so each seat has at least
        what it has now (None: the game is over)."""
        if self.match.is_over:
            return None
        return now + min(max(self.remaining_at(s, now), 0) for s in range(self.players))

    def view(self, now: int) -> dict[str, Any]:
        return {
            "base_ms": self.control.base_ms,
            "increment_ms": self.control.increment_ms,
            "on_timeout": self.control.on_timeout,
            "as_of": now,
            "version": self.version,
            "seats": [
                {"seat": s, "remaining_ms": max(0, self.remaining_at(s, now)), "running": s in self.running_since}
                for s in range(self.players)
            ],
        }

    def command_after(self, version: int) -> Stamped | None:
        """The command fed at ``version`` + 1 (None: the record has none there)."""
        return next((c for c in reversed(self.commands) if c.position == version + 1), None)


@dataclass(frozen=True)
class ClockFinding:
    """One problem of a clocked game's record and its recorded timeouts."""

    message: str
    position: int | None  # the command of the game's record it was found at (None: after the whole record)
    timeout: int | None = None  # the recorded timeout it is about (its index among those checked), if any
    due: DueTimeout | None = None  # a timeout the stamps show due that is not recorded


@dataclass(frozen=True)
class ClockCheck:
    """What ``check_clock`` found in one game, in the record's order."""

    findings: list[ClockFinding]
    rule_moves: list[Stamped]  # the commands the clock rule made (the random bot's, with the game's stream)
    stopped: bool  # at a stamp it could not count from (the last finding): nothing after it is judged

    def problems_of(self, timeout: int) -> list[str]:
        """Why the verifier would reject one of the timeouts checked (its index) in this game."""
        mine = [f.message for f in self.findings if f.timeout == timeout]
        return [*mine, self.findings[-1].message] if self.stopped else mine


def check_clock(
    clock: GameClock, timeouts: Sequence[Mapping[str, Any]], forfeits: Iterable[tuple[int, Seat]] = ()
) -> ClockCheck:
    """A clocked game's record (fed to ``clock``) against its recorded timeouts (each ``{seat,
    version, expired_at}``) and the seats forfeited by a ruling (``(at, seat)`` each): every stamp
    is the server's time and never goes back; every timeout is on its seat's clock and the game
    goes on with the seat's move; no command is stamped after a seat ran out without that seat's
    timeout before it (unless the bot plays the seat already), and the rule's move comes first.
    The check stops at a stamp it cannot count from (the clocks after it are not known)."""
    ruled = list(forfeits)
    recorded = {(t["version"], t["seat"]): i for i, t in enumerate(timeouts)}
    at_version: dict[int, list[tuple[Seat, int]]] = {}
    for (version, seat), i in sorted(recorded.items()):
        at_version.setdefault(version, []).append((seat, i))
    forfeit_rule = clock.control.on_timeout == FORFEIT
    taken: dict[Seat, int] = {}  # seat -> the version the forfeit rule gave it to the bot at
    followed: set[int] = set()
    findings: list[ClockFinding] = []
    rule_moves: list[Stamped] = []
    for command in clock.commands:
        p, version, mover, at = command.position, command.position - 1, command.mover, command.at
        if at is None:
            findings.append(ClockFinding("a command of a clocked game carries the server's time (at)", p))
            return ClockCheck(findings, rule_moves, stopped=True)
        if at < command.clock_time:
            findings.append(ClockFinding(f"at {at} goes back in time (the clock stands at {command.clock_time})", p))
            return ClockCheck(findings, rule_moves, stopped=True)
        for seat, i in at_version.get(version, ()):
            expiry = command.expiries.get(seat)
            if expiry is None or expiry != timeouts[i]["expired_at"]:
                message = f"the timeout of seat {seat} at version {version} is not on its clock"
                findings.append(ClockFinding(message, p, i))
            elif mover == seat and at >= expiry:
                followed.add(i)
                if forfeit_rule:
                    taken.setdefault(seat, version)
        if command.flagged:
            first = command.flagged[0]
            expired_at = command.expiries[first]
            exempt = taken.get(first, version) < version or any(t <= at and s == first for t, s in ruled)
            if (version, first) not in recorded and not exempt:
                message = (
                    f"seat {first} had run out of time at {expired_at} by the stamps, but no timeout is "
                    f"recorded at version {version} before this command (stamped {at})"
                )
                findings.append(ClockFinding(message, p, due=DueTimeout(first, version, expired_at, mover, at)))
            elif mover != first:
                message = (
                    f"seat {first} had run out of time at {expired_at}: the clock rule's move for it comes "
                    f"before any other command (this one is seat {mover}'s, stamped {at})"
                )
                findings.append(ClockFinding(message, p))
        # The bot plays a seat after its timeout, and from then on once the forfeit rule (or a
        # ruling before the stamp: a forfeited player's own commands are refused) gave it the seat.
        if (
            (version, mover) in recorded
            or taken.get(mover, version) < version
            or any(t < at and s == mover for t, s in ruled)
        ):
            rule_moves.append(command)
    findings += [
        ClockFinding(
            f"after the timeout of seat {t['seat']} at version {t['version']} the game does not go on with its move",
            None,
            i,
        )
        for i, t in enumerate(timeouts)
        if i not in followed
    ]
    return ClockCheck(findings, rule_moves, stopped=False)


def timeout_problems(
    clock: GameClock, timeouts: Sequence[Mapping[str, Any]], forfeits: Iterable[tuple[int, Seat]] = ()
) -> list[str]:
    """The messages of ``check_clock``'s findings."""
    return [finding.message for finding in check_clock(clock, timeouts, forfeits).findings]
