"""Game clocks, computed from the record: the time the round was seated and the server time
stamped on every accepted command (``CommandAccepted.data.at``, milliseconds). Nothing reads a
clock here, so the verifier gets the same answer as the server did.

A seat's clock runs while the game awaits it and the game counts it as clocked
(``GameDefinition.clocked_seats``: the awaited seats unless the game narrows them; Catan runs no
clock for answering a trade offer). A move of a seat whose clock was running adds the increment to
its clock (a seat that had run out starts again from zero); a move nobody waited for (an optional
one, such as a counter-offer) adds nothing, so no seat can bank time by making them.

The rule the service keeps and the verifier checks (``timeout_problems``): when a command is
stamped at a time some running clock has run out by, that command is the rule's move for the seat
that ran out first, and a ``TimedOut`` of that seat at the version before it is recorded (unless
the seat already belongs to the bot: forfeited by a ruling, or by an earlier timeout under the
forfeit rule).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from domain.kernel.chance import Chance
from domain.kernel.game import GameDefinition
from domain.kernel.log import COMMAND_ACCEPTED, Record
from domain.kernel.match import Match
from domain.kernel.seats import Seat
from domain.tournament.config import TimeControl


@dataclass(frozen=True)
class DueTimeout:
    """A seat whose time had run out when the game's next command was stamped."""

    seat: Seat
    version: int  # the game's version before that command
    expired_at: int  # when the seat's time ran out, as its clock says
    mover: Seat  # whose command it was (the rule's move: the same seat)
    at: int  # the command's stamp


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
    due: list[DueTimeout] = field(default_factory=list)  # every command stamped after a seat ran out
    _match: Match | None = None
    _in_batch: bool = False

    def __post_init__(self) -> None:
        self.remaining = [self.control.base_ms] * self.players
        self.last_stamp = self.started_at
        # Replaying records never draws on chance; the source is only there because a Match has one.
        self._match = Match(self.game, self.players, self.options, Chance(b"clock-replay"))

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
                at = stamp if isinstance(stamp, int) else self.last_stamp
                mover = record.data["seat"]
                flagged = self.out_of_time(at)
                if flagged:
                    first = flagged[0]
                    expiry = self.expiry(first)
                    assert expiry is not None
                    self.due.append(DueTimeout(first, record.position - 1, expiry, mover, at))
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


def timeout_problem(clock: GameClock, seat: Seat, version: int, expired_at: Any) -> str | None:
    """What is wrong with a timeout of ``seat`` at ``version`` running out at ``expired_at``,
    against a clock fed the game's record past that version (None: nothing). The service checks
    every ``TimedOut`` with this before recording it, and the verifier checks every recorded one."""
    due = next((d for d in clock.due if d.version == version), None)
    if due is None or due.seat != seat or due.expired_at != expired_at:
        return f"the timeout of seat {seat} at version {version} is not on its clock"
    if due.mover != seat:
        return f"after the timeout of seat {seat} the game does not go on with its move"
    return None


def missing_timeouts(
    clock: GameClock,
    timeouts: Sequence[Mapping[str, Any]],
    forfeit_rule: bool,
    forfeited_by_ruling: Collection[Seat] = (),
) -> list[DueTimeout]:
    """The timeouts a game's record shows due that are not among ``timeouts`` (each
    ``{seat, version, ...}``): a command was stamped after the seat's time ran out. A seat the bot
    plays already (forfeited by a ruling, or by an earlier timeout under the forfeit rule) needs none."""
    recorded = {(t["seat"], t["version"]) for t in timeouts}
    return [
        due
        for due in clock.due
        if (due.seat, due.version) not in recorded
        and due.seat not in forfeited_by_ruling
        and not (forfeit_rule and any(seat == due.seat and version < due.version for seat, version in recorded))
    ]


def timeout_problems(
    clock: GameClock,
    timeouts: Sequence[Mapping[str, Any]],
    forfeit_rule: bool,
    forfeited_by_ruling: Collection[Seat] = (),
) -> list[str]:
    """Every problem of a game's recorded timeouts (``{seat, version, expired_at}`` each) against
    its clock fed the whole record: each must be on its clock and followed by the seat's move, and
    none may be missing where a command was stamped after a seat's time ran out."""
    problems = [
        problem
        for t in timeouts
        if (problem := timeout_problem(clock, t["seat"], t["version"], t["expired_at"])) is not None
    ]
    problems += [
        f"seat {due.seat} ran out of time at {due.expired_at} (version {due.version}), but no timeout is "
        f"recorded before the command stamped {due.at}"
        for due in missing_timeouts(clock, timeouts, forfeit_rule, forfeited_by_ruling)
    ]
    return problems
