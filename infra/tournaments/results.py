"""The tournaments' results: a follower of the games' notification log (``infra.readside.follower``)
that records the result of every tournament game when its ``GameEnded`` comes by.

Each result is committed together with a tracking record of the notification it came from (the
eventsourcing library's ``process_event``), so that a result is recorded once per game, in any
number of processes at once, and a restarted process goes on after the last one recorded.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, NamedTuple
from uuid import UUID

from eventsourcing.domain import DomainEventProtocol
from eventsourcing.persistence import IntegrityError, Notification, RecordConflictError, Tracking

from domain.kernel.log import GAME_ENDED
from infra.games.aggregate import may_hold, records_of
from infra.games.service import GameService
from infra.readside.readmodels import Cursor

if TYPE_CHECKING:
    from infra.tournaments.service import TournamentService

RESULTS_TRACKING = "Alexandria:GameEnded"
NOTIFICATIONS_PER_READ = 500


class EndedGame(NamedTuple):
    event: DomainEventProtocol[UUID]
    notification_id: int


class EndedGames:
    """What the tournaments see of the games' log: the events that end a game."""

    def __init__(self, games: GameService) -> None:
        self.games = games

    def apply(self, start: Cursor, batch: Sequence[Notification]) -> list[EndedGame]:
        ended: list[EndedGame] = []
        for notification in batch:
            if not may_hold(self.games.mapper, notification, GAME_ENDED):
                continue
            event = self.games.mapper.to_domain_event(notification)
            if any(record.type == GAME_ENDED for record in records_of(event)):
                ended.append(EndedGame(event, notification.id))
        return ended


class ResultsTracking:
    """Where the tournaments stand in the games' log: the last notification this process looked
    at, or the last one a result was recorded from (by any process), whichever is later."""

    def __init__(self, tournaments: TournamentService, forget_cached: Callable[[], None]) -> None:
        self.tournaments = tournaments
        self.forget_cached = forget_cached  # the tournaments this process holds may be behind the store
        self.followed = 0  # notifications of the game service this process has looked at
        self.recorded = 0  # results this process recorded

    def cursor(self) -> Cursor:
        tracked = self.tournaments.recorder.max_tracking_id(RESULTS_TRACKING) or 0
        return Cursor(0, max(self.followed, tracked))

    def commit(self, start: Cursor, position: int, changes: list[EndedGame]) -> bool:
        for ended in changes:
            tracking = Tracking(application_name=RESULTS_TRACKING, notification_id=ended.notification_id)
            try:
                self.tournaments.process_event(ended.event, tracking)
                self.recorded += 1
            except (IntegrityError, RecordConflictError):
                self.forget_cached()  # another process recorded it first
        self.followed = position
        return True
