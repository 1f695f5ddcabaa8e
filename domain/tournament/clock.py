"""Game clocks, computed from the record: the time the round was seated and the server time
stamped on every accepted command (``CommandAccepted.data.at``, milliseconds). Nothing reads a
clock here, so the verifier gets the same answer as the server did.

A seat's clock runs while the game awaits it; a move adds the increment to the mover's clock
(a seat that had run out starts again from zero).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from domain.kernel.chance import Chance
from domain.kernel.game import GameDefinition
from domain.kernel.log import COMMAND_ACCEPTED, Record
from domain.kernel.match import Match
from domain.tournament.config import TimeControl


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
    _match: Match | None = None
    _in_batch: bool = False

    def __post_init__(self) -> None:
        self.remaining = [self.control.base_ms] * self.players
        self.last_stamp = self.started_at
        # Replaying records never draws on chance; the source is only there because a Match has one.
        self._match = Match(self.game, self.players, self.options, Chance(b"clock-replay"))

    def feed(self, records: Iterable[Record]) -> None:
        match = self._match
        assert match is not None
        for record in records:
            if record.position <= self.version:
                continue
            if record.type == COMMAND_ACCEPTED:
                self._settle()
                stamp = record.data.get("at")
                at = stamp if isinstance(stamp, int) else self.last_stamp
                for seat, since in self.running_since.items():
                    self.remaining[seat] -= max(0, at - since)
                mover = record.data["seat"]
                # A seat that ran out moves (the rule's move) with nothing left, never less.
                self.remaining[mover] = max(self.remaining[mover], 0) + self.control.increment_ms
                self.running_since = {}
                self.last_stamp = max(self.last_stamp, at)
            match.apply_record(record)
            self.version = record.position
            self._in_batch = True
        self._settle()

    def _settle(self) -> None:
        """After a batch: the clocks of the seats now awaited run from the batch's time."""
        if not self._in_batch:
            return
        match = self._match
        assert match is not None
        self._in_batch = False
        self.running_since = {} if match.is_over else {s: self.last_stamp for s in match.game.awaited(match.state)}

    def remaining_at(self, seat: int, now: int) -> int:
        since = self.running_since.get(seat)
        return self.remaining[seat] - (max(0, now - since) if since is not None else 0)

    def expiry(self, seat: int) -> int | None:
        """When the seat's time runs out if it does not move (None: its clock is not running)."""
        since = self.running_since.get(seat)
        return None if since is None else since + self.remaining[seat]

    def out_of_time(self, now: int) -> list[int]:
        """The awaited seats whose time has run out by ``now``, the first to run out first."""
        flagged = [s for s in self.running_since if self.remaining_at(s, now) <= 0]
        return sorted(flagged, key=lambda s: (self.expiry(s) or 0, s))

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
