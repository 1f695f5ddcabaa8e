"""The tournament service: one ``eventsourcing`` application for every tournament, beside the
game service.

It creates tournaments, registers players (each gets a player token), seats rounds (creating each
table's game with the seed derived from the master seed), forwards a player's commands to the
seat they were given (stamping the server's time on clocked games), applies the clock rule when a
seat runs out of time, records adjudications, ends the tournament (revealing the master seed)
and exports its bundle.

Results reach a tournament through a process that follows the game service's notification log:
a game's ``GameEnded`` becomes the tournament's ``ResultRecorded``, recorded once (idempotent by
game id) together with the tracked notification id. No game aggregate ever writes to a
tournament, nor a tournament to a game's record except through the game service's commands.

The service holds what every part shares: the store, each tournament's lock, the loading and
changing of a tournament under it, and who may act (the organiser's and the players' tokens). Each
part of the work is a collaborator of its own module, given the service: the roster
(``registration``), reading (``reading``), rounds and results (``rounds``), rulings (``rulings``),
playing and the clock rule (``clocks``); the service's public methods are theirs.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError, ProcessingEvent
from eventsourcing.domain import DomainEventProtocol
from eventsourcing.persistence import RecordConflictError
from eventsourcing.projection import EventSourcedProjection
from eventsourcing.sqlite import SQLiteDatastore, SQLiteProcessRecorder
from eventsourcing.utils import get_topic

from domain.kernel.log import GAME_ENDED
from domain.tournament import rules
from domain.tournament.log import RESULT_RECORDED
from infra.games.aggregate import records_of
from infra.games.service import Conflict, Forbidden, GameService, Unauthorized, token_hash
from infra.tournaments.aggregate import (
    TableIndex,
    TournamentAggregate,
    TournamentNotFound,
    parse_tournament_id,
    table_index_id,
)
from infra.tournaments.clocks import Clocks
from infra.tournaments.reading import Reading
from infra.tournaments.registration import Registration
from infra.tournaments.rounds import Rounds
from infra.tournaments.rulings import Rulings


def wall_clock_ms() -> int:
    return time.time_ns() // 1_000_000


class TournamentProcessRecorder(SQLiteProcessRecorder):
    """On SQLite the tournaments share the game store's file, in a table of their own (on
    PostgreSQL the application's name gives them their own tables)."""

    def __init__(self, datastore: SQLiteDatastore, *, events_table_name: str = "tournament_events") -> None:
        super().__init__(datastore, events_table_name=events_table_name)


def _store_env(games: GameService) -> dict[str, str]:
    """The game service's event-store settings, for the tournaments' own application."""
    wanted = ("PERSISTENCE_MODULE", "AGGREGATE_CACHE_MAXSIZE", "DEEPCOPY_FROM_AGGREGATE_CACHE")
    env = {k: v for k, v in games.env.items() if k in wanted or k.startswith(("SQLITE_", "POSTGRES_"))}
    if env.get("PERSISTENCE_MODULE") == "eventsourcing.sqlite":
        env["PROCESS_RECORDER_TOPIC"] = get_topic(TournamentProcessRecorder)
    return env


class TournamentService(EventSourcedProjection[UUID]):
    name = "Tournaments"

    def __init__(self, games: GameService, now: Callable[[], int] = wall_clock_ms) -> None:
        super().__init__(_store_env(games))
        self.games = games
        self.now = now  # the server's time in ms: injected, so tests never sleep
        self._locks: dict[UUID, threading.RLock] = {}
        self._locks_guard = threading.Lock()
        self.registration = Registration(self)
        self.reading = Reading(self)
        self.rounds = Rounds(self)
        self.rulings = Rulings(self)
        self.clocks = Clocks(self)
        # The public methods (the routes and the CLI call them), each its part's own.
        self.create = self.registration.create
        self.register = self.registration.register
        self.register_bot = self.registration.register_bot
        self.join = self.registration.join
        self.registration_code_of = self.registration.registration_code_of
        self.withdraw = self.registration.withdraw
        self.enter_late = self.registration.enter_late
        self.open_check_in = self.registration.open_check_in
        self.check_in = self.registration.check_in
        self.close_registration = self.registration.close_registration
        self.reveal = self.registration.reveal
        self.state = self.reading.state
        self.records = self.reading.records
        self.seat_of = self.reading.seat_of
        self.table_names = self.reading.table_names
        self.player_at_table = self.reading.player_at_table
        self.player_page = self.reading.player_page
        self.bundle = self.reading.bundle
        self.seat_next_round = self.rounds.seat_next_round
        self.end = self.rounds.end
        self.follow_results = self.rounds.follow_results
        self.adjudicate = self.rulings.adjudicate
        self.play = self.clocks.play
        self.clock_view = self.clocks.clock_view
        self.enforce_clocks = self.clocks.enforce_clocks
        self.enforce_clock = self.clocks.enforce_clock
        self.next_clock_look = self.clocks.next_clock_look

    # -- what every part shares ---------------------------------------------------------------------

    def load(self, tournament_id: str) -> TournamentAggregate:
        uuid = parse_tournament_id(tournament_id)
        try:
            aggregate: TournamentAggregate = self.repository.get(uuid)
        except AggregateNotFoundError:
            raise TournamentNotFound(f"there is no tournament {tournament_id!r}") from None
        if not isinstance(aggregate, TournamentAggregate):
            raise TournamentNotFound(f"there is no tournament {tournament_id!r}")
        return aggregate

    def tournament_of(self, game_id: str) -> str | None:
        """The tournament a game is a table of, if any."""
        try:
            index: TableIndex = self.repository.get(table_index_id(game_id))
        except (AggregateNotFoundError, ValueError):
            return None
        return index.tournament_id

    def player_for_token(self, aggregate: TournamentAggregate, token: str | None) -> int:
        if token is None:
            raise Unauthorized("this needs the player's bearer token")
        player = aggregate.player_of(token_hash(token))
        if player is None:
            raise Unauthorized("this token is not a player token of this tournament")
        return player

    def check_organiser(self, aggregate: TournamentAggregate, token: str | None) -> None:
        if token is None:
            raise Unauthorized("this needs the organiser's bearer token")
        if token_hash(token) != aggregate.organiser_token_hash:
            raise Forbidden("only the tournament's organiser may do this")

    @contextmanager
    def changing(self, tournament_id: str) -> Iterator[TournamentAggregate]:
        """The tournament, held by this thread while it changes; on any failure the cached
        aggregate is dropped, so nothing half-applied is ever seen again."""
        uuid = parse_tournament_id(tournament_id)
        with self._lock(uuid):
            aggregate = self.load(tournament_id)
            try:
                yield aggregate
            except RecordConflictError:
                self._evict(uuid)
                raise Conflict("the tournament changed meanwhile; try again") from None
            except BaseException:
                self._evict(uuid)
                raise

    def policy(self, domain_event: DomainEventProtocol[UUID], processing_event: ProcessingEvent[UUID]) -> None:
        """A game's ``GameEnded`` (from ``follow_results``): its tournament's ``ResultRecorded``."""
        game_id = str(domain_event.originator_id)
        tournament_id = self.tournament_of(game_id)
        if tournament_id is None:
            return
        record = next(r for r in records_of(domain_event) if r.type == GAME_ENDED)
        with self._lock(parse_tournament_id(tournament_id)):
            aggregate = self.load(tournament_id)
            game = self.games.load(game_id, version=record.position)
            scoreboard = game.match.game.scoreboard(game.match.state)
            data = rules.result_recorded(aggregate.log.state, game_id, scoreboard, record.hash, self.now())
            if data is None:
                return
            aggregate.append(RESULT_RECORDED, data)
            processing_event.collect_events(aggregate)

    def evict_all(self) -> None:
        """Forget every tournament this process holds (another process wrote: they may be behind)."""
        if self.repository.cache is not None:
            for uuid in list(self._locks):
                self._evict(uuid)

    def _lock(self, uuid: UUID) -> threading.RLock:
        with self._locks_guard:
            lock = self._locks.get(uuid)
            if lock is None:
                lock = self._locks[uuid] = threading.RLock()
            return lock

    def _evict(self, uuid: UUID) -> None:
        if self.repository.cache is not None:
            with suppress(KeyError):
                self.repository.cache.get(uuid, evict=True)
