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
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass
from typing import Any, cast
from uuid import UUID, uuid4

from eventsourcing.application import AggregateNotFoundError, ProcessingEvent
from eventsourcing.domain import DomainEventProtocol
from eventsourcing.persistence import IntegrityError, RecordConflictError, Tracking
from eventsourcing.projection import EventSourcedProjection
from eventsourcing.sqlite import SQLiteDatastore, SQLiteProcessRecorder
from eventsourcing.utils import get_topic

from domain.catalog import GAMES
from domain.kernel.bots import RandomBot
from domain.kernel.chance import SALT_BYTES
from domain.kernel.log import GAME_ENDED, GENESIS, Record, for_viewer
from domain.kernel.seats import Seat
from domain.tournament import rules
from domain.tournament.clock import GameClock
from domain.tournament.log import (
    ADJUDICATED,
    PLAYER_REGISTERED,
    REGISTRATION_CLOSED,
    REPLACE_PLAYER,
    RESULT_RECORDED,
    REVEAL_WITHHELD,
    ROUND_SEATED,
    SECRET_REVEALED,
    TIMED_OUT,
    TOURNAMENT_CREATED,
    TOURNAMENT_ENDED,
    VOID_GAME,
    Table,
    TournamentState,
    seal,
)
from domain.tournament.seeds import clock_bot_seed, mixed_seed, table_seed
from domain.tournament.verification import BUNDLE_FORMAT
from infra.aggregate import record_of
from infra.service import (
    CommandResult,
    Conflict,
    Forbidden,
    GameNotFound,
    GameService,
    Invalid,
    ServiceError,
    StaleVersion,
    Unauthorized,
    token_hash,
)
from infra.tournament_aggregate import (
    TableIndex,
    TournamentAggregate,
    table_index_id,
    unsalted_game_id,
    unsalted_tournament_id,
)

# The tracking key of the results process (the position in the game service's notification log).
RESULTS_TRACKING = "Alexandria:GameEnded"
MAX_CLOCK_MOVES = 10_000  # a safety bound on moves the clock rule plays in one go
MAX_CLOCKS_KEPT = 512


class TournamentNotFound(ServiceError):
    code = "UNKNOWN_TOURNAMENT_ID"


def wall_clock_ms() -> int:
    return time.time_ns() // 1_000_000


class TournamentProcessRecorder(SQLiteProcessRecorder):
    """On SQLite the tournaments share the game store's file, in a table of their own (on
    PostgreSQL the application's name gives them their own tables)."""

    def __init__(self, datastore: SQLiteDatastore, *, events_table_name: str = "tournament_events") -> None:
        super().__init__(datastore, events_table_name=events_table_name)


@dataclass(frozen=True)
class CreatedTournament:
    tournament_id: str
    organiser_token: str
    version: int


@dataclass(frozen=True)
class RegisteredPlayer:
    player: int
    name: str
    token: str


def parse_tournament_id(tournament_id: str) -> UUID:
    try:
        return UUID(tournament_id)
    except (ValueError, AttributeError, TypeError):
        raise TournamentNotFound(f"there is no tournament {tournament_id!r}") from None


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
        self._follow_lock = threading.Lock()
        self._followed = 0  # notifications of the game service this process has looked at
        # Clocks of running games, each fed only the records it has not seen; bounded (a clock is
        # recomputed from the record when it is needed again).
        self._clocks: OrderedDict[str, GameClock] = OrderedDict()
        self._clocks_lock = threading.Lock()

    # -- creating and registering -----------------------------------------------------------------

    def create(
        self,
        game: str,
        settings: dict[str, Any] | None = None,
        master_seed: bytes | None = None,
        salted: bool = True,
    ) -> CreatedTournament:
        """A new tournament; the organiser's token is returned once.

        The master seed is 32 bytes of fresh secret salt, then ``master_seed`` if given: whoever
        chooses a master seed still cannot try seeds until a seating suits them. Only an in-process
        run whose records must come out the same every time (tests, benchmarks, ``tournament run``)
        passes ``salted=False`` to use ``master_seed`` as it is; no route can. Such a run's
        tournament id and game ids are derived from the master seed, and its games' seeds are
        the derived table seeds with no secret salt, so one store holds one run per seed."""
        if settings is not None and not isinstance(settings, dict):
            raise Invalid("the tournament settings must be a JSON object")
        definition = GAMES.get(game)
        chosen = master_seed or b""
        unsalted = bool(chosen) and not salted
        seed = chosen if unsalted else secrets.token_bytes(SALT_BYTES) + chosen
        tournament_id = unsalted_tournament_id(seed) if unsalted else uuid4()
        data = rules.created(definition, str(tournament_id), dict(settings or {}), seed, self.now())
        token = secrets.token_urlsafe(24)
        record = seal(1, TOURNAMENT_CREATED, data, GENESIS)
        aggregate = TournamentAggregate.start(tournament_id, seed, token_hash(token), record, salted=not unsalted)
        try:
            self.save(aggregate)
        except (IntegrityError, RecordConflictError):
            raise Conflict(
                f"this store holds a tournament of master seed {chosen!r} already: an unsalted run needs a seed "
                "of its own (or a store of its own)"
            ) from None
        return CreatedTournament(str(tournament_id), token, aggregate.version)

    def register(
        self, tournament_id: str, organiser_token: str | None, name: Any, commitment: str | None = None
    ) -> RegisteredPlayer:
        """A new player (the organiser registers them), with the player's commitment to a secret
        (sha256 hex) if they send one."""
        with self._changing(tournament_id) as aggregate:
            self._check_organiser(aggregate, organiser_token)
            data = rules.register(aggregate.log.state, name, self.now(), commitment)
            token = secrets.token_urlsafe(24)
            aggregate.append(PLAYER_REGISTERED, data, {"player_token_hash": token_hash(token)})
            self.save(aggregate)
        return RegisteredPlayer(data["player"], data["name"], token)

    def close_registration(self, tournament_id: str, organiser_token: str | None) -> dict[str, Any]:
        """No more players or commitments: the committed players may reveal their secrets now."""
        with self._changing(tournament_id) as aggregate:
            self._check_organiser(aggregate, organiser_token)
            data = rules.registration_closed(aggregate.log.state, self.now())
            aggregate.append(REGISTRATION_CLOSED, data)
            self.save(aggregate)
        return data

    def reveal(self, tournament_id: str, player_token: str | None, secret: Any) -> dict[str, Any]:
        """The bearer player's secret, checked against their commitment and recorded in public."""
        with self._changing(tournament_id) as aggregate:
            player = self.player_for_token(aggregate, player_token)
            data = rules.secret_revealed(aggregate.log.state, player, secret, self.now())
            aggregate.append(SECRET_REVEALED, data)
            self.save(aggregate)
        return data

    # -- reading ----------------------------------------------------------------------------------

    def load(self, tournament_id: str) -> TournamentAggregate:
        uuid = parse_tournament_id(tournament_id)
        try:
            aggregate: TournamentAggregate = self.repository.get(uuid)
        except AggregateNotFoundError:
            raise TournamentNotFound(f"there is no tournament {tournament_id!r}") from None
        if not isinstance(aggregate, TournamentAggregate):
            raise TournamentNotFound(f"there is no tournament {tournament_id!r}")
        return aggregate

    def state(self, tournament_id: str) -> TournamentState:
        """The tournament now, with every ended game's result in."""
        self.follow_results()
        return self.load(tournament_id).log.state

    def records(self, tournament_id: str) -> list[Record]:
        uuid = parse_tournament_id(tournament_id)
        return [Record.from_dict(cast(Any, event).record) for event in self.events.get(uuid)]

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

    def seat_of(self, tournament_id: str, game_id: str, token: str | None) -> tuple[TournamentAggregate, Table, Seat]:
        """The table and seat the bearer's player was given in one of the tournament's games."""
        aggregate = self.load(tournament_id)
        player = self.player_for_token(aggregate, token)
        table = aggregate.log.state.table_of(game_id)
        if table is None:
            raise GameNotFound(f"game {game_id!r} is no table of tournament {tournament_id}")
        if player not in table.players:
            raise Forbidden(f"player {player} does not play game {game_id}")
        return aggregate, table, table.players.index(player)

    def bundle(self, tournament_id: str) -> dict[str, Any]:
        """The tournament's log and every table's game record: what ``alexandria tournament verify``
        checks. Hidden data of a game is revealed only once that game has ended."""
        state = self.state(tournament_id)
        games: dict[str, list[dict[str, Any]]] = {}
        for table in state.tables():
            records = self.games.records(table.game_id)
            # After the end every game's seed is public (TournamentEnded reveals those of the games
            # that never ended), so nothing of a voided game is secret any more.
            over = state.ended is not None or (bool(records) and records[-1].type == GAME_ENDED)
            games[table.game_id] = [for_viewer(r, None, reveal_all=over) for r in records]
        tournament = [for_viewer(r, None, reveal_all=True) for r in self.records(tournament_id)]
        return {
            "format": BUNDLE_FORMAT,
            "tournament_id": tournament_id,
            "fingerprint": tournament[-1]["hash"],
            "tournament": tournament,
            "games": games,
        }

    # -- organising -------------------------------------------------------------------------------

    def seat_next_round(self, tournament_id: str, organiser_token: str | None) -> dict[str, Any]:
        """Seat the next round and create each table's game with its derived seed."""
        self.follow_results()
        with self._changing(tournament_id) as aggregate:
            self._check_organiser(aggregate, organiser_token)
            state = aggregate.log.state
            # Before round 1: each reveal still missing is withheld, in public, and its entry
            # withdrawn; recorded with the seating or not at all.
            for withheld in rules.reveals_withheld(state, self.now()):
                aggregate.append(REVEAL_WITHHELD, withheld)
            seating = rules.plan_round(state, aggregate.seed)
            config = state.settings
            number = len(state.rounds) + 1
            mixed = mixed_seed(aggregate.seed, state.reveals)
            created = [
                self.games.create_game(
                    config.game,
                    config.table_size,
                    config.options,
                    table_seed(mixed, tournament_id, number, i),
                    **self._unsalted_game(aggregate, number, i),
                )
                for i in range(1, len(seating.tables) + 1)
            ]
            commitments = [self.games.records(g.game_id, through=1)[0].data["seed_commitment"] for g in created]
            data = rules.round_seated(state, seating, [g.game_id for g in created], self.now(), commitments)
            aggregate.append(ROUND_SEATED, data, {"seat_tokens": {g.game_id: g.tokens for g in created}})
            self.save(aggregate, *(TableIndex.of(g.game_id, tournament_id) for g in created))
        return data

    def adjudicate(self, tournament_id: str, organiser_token: str | None, request: dict[str, Any]) -> dict[str, Any]:
        """An organiser's ruling as a compensating record. Replacing a player issues a new player token."""
        self.follow_results()
        if not isinstance(request, dict):
            raise Invalid("an adjudication is a JSON object {kind, reason, ...}")
        with self._changing(tournament_id) as aggregate, ExitStack() as closing:
            self._check_organiser(aggregate, organiser_token)
            game_id = request.get("game_id")
            if request.get("kind") == VOID_GAME and isinstance(game_id, str) and aggregate.log.state.table_of(game_id):
                # A void closes the game where it stands: its lock is held until the void is saved,
                # so no command lands between the game's tip being read and the void recorded.
                closing.enter_context(self.games.reading(game_id))
            data = rules.adjudicated(aggregate.log.state, request, self.now(), self._game_tip)
            extra: dict[str, Any] = {}
            token = None
            if data["kind"] == REPLACE_PLAYER:
                token = secrets.token_urlsafe(24)
                extra["player_token_hash"] = token_hash(token)
            record = aggregate.append(ADJUDICATED, data, extra)
            self.save(aggregate)
        answer = {"version": record.position, "adjudication": data}
        if token is not None:
            answer["player_token"] = token
        return answer

    def end(self, tournament_id: str, organiser_token: str | None) -> dict[str, Any]:
        """End after the last round: the final standings, and the master seed revealed."""
        self.follow_results()
        with self._changing(tournament_id) as aggregate:
            self._check_organiser(aggregate, organiser_token)
            state = aggregate.log.state
            data = rules.ended(state, aggregate.seed, self.now(), self._unfinished_seeds(state))
            aggregate.append(TOURNAMENT_ENDED, data)
            self.save(aggregate)
        return data

    # -- playing ----------------------------------------------------------------------------------

    def play(
        self,
        tournament_id: str,
        game_id: str,
        player_token: str | None,
        payload: dict[str, Any],
        expected_version: int | None = None,
        command_id: str | None = None,
        contribution: str | None = None,
    ) -> tuple[Seat, CommandResult]:
        """A player's command at the seat they were given (with the player's chance contribution,
        if any); on a clocked game, stamped with the server's time after any timeout that is due
        has been recorded and ruled on."""
        aggregate, table, seat = self.seat_of(tournament_id, game_id, player_token)
        state = aggregate.log.state
        rules.check_playable(state, game_id)
        if state.settings.time_control is not None or state.forfeited(game_id):
            self.enforce_clock(tournament_id, game_id)
        # The game's lock, held from the check to the command: a void (and the end) read where the
        # game stands under the same lock, so no command lands after the game was closed.
        with self.games.reading(game_id):
            aggregate = self.load(tournament_id)
            state = aggregate.log.state
            rules.check_playable(state, game_id)
            if table.players[seat] in state.forfeited(game_id):
                raise Conflict(f"player {table.players[seat]} has forfeited game {game_id}; the bot plays the seat")
            at = None
            if state.settings.time_control is not None:
                at = max(self.now(), self._clock(aggregate, table).last_stamp)
            token = aggregate.seat_tokens[game_id][seat]
            _, result = self.games.execute(game_id, token, payload, expected_version, command_id, contribution, at=at)
        if result.records[-1].type == GAME_ENDED:
            self.follow_results()
        return seat, result

    def clock_view(self, game_id: str) -> dict[str, Any] | None:
        """The clocks of a clocked tournament game (None for any other game)."""
        tournament_id = self.tournament_of(game_id)
        if tournament_id is None:
            return None
        aggregate = self.load(tournament_id)
        table = aggregate.log.state.table_of(game_id)
        if table is None or aggregate.log.state.settings.time_control is None:
            return None
        return self._clock(aggregate, table).view(self.now())

    def enforce_clocks(self, tournament_id: str) -> int:
        """Apply the clock rule in every running game of the tournament (what a clock worker does);
        returns how many moves the rule played."""
        state = self.state(tournament_id)
        return sum(
            self.enforce_clock(tournament_id, t.game_id)
            for t in state.tables()
            if t.game_id not in state.results and t.game_id not in state.voided()
        )

    def enforce_clock(self, tournament_id: str, game_id: str) -> int:
        """Record every timeout that is due in one game and apply the tournament's rule: the
        random bot (with a stream derived from the master seed) moves for the seat; under the
        forfeit rule the seat then stays the bot's for the rest of the game. Seats forfeited by
        adjudication are moved for the same way. Returns how many moves were played."""
        played = 0
        while played < MAX_CLOCK_MOVES:
            aggregate = self.load(tournament_id)
            state = aggregate.log.state
            table = state.table_of(game_id)
            if table is None or state.ended is not None or game_id in state.voided():
                return played
            with self.games.reading(game_id) as game:
                match = game.match
                if match.is_over:
                    break
                version = match.version
                awaited = sorted(match.game.awaited(match.state))
            forfeited = {table.players.index(p) for p in state.forfeited(game_id)}
            control = state.settings.time_control
            now = self.now()
            seat: Seat | None = None
            stamp: int | None = None
            if control is not None:
                clock = self._clock(aggregate, table)
                flagged = clock.out_of_time(now)
                if flagged:
                    seat = flagged[0]
                    expiry = clock.expiry(seat)
                    assert expiry is not None
                    # Stamped when it is seen (the next request or the clock worker): the seats
                    # that follow are not charged for a timeout nobody had noticed yet.
                    stamp = max(now, clock.last_stamp)
                    if seat not in forfeited:
                        self._record_timeout(tournament_id, game_id, seat, version, expiry)
                elif forfeited & set(awaited):
                    seat = min(forfeited & set(awaited))
                    stamp = max(now, clock.last_stamp)
            elif forfeited & set(awaited):
                seat = min(forfeited & set(awaited))
            if seat is None:
                break
            if not self._bot_move(aggregate, table, seat, version, stamp):
                continue  # another request moved first: look again
            played += 1
        if played:
            self.follow_results()
        return played

    def _record_timeout(self, tournament_id: str, game_id: str, seat: Seat, version: int, expiry: int) -> None:
        with self._changing(tournament_id) as aggregate:
            state = aggregate.log.state
            if any(t["game_id"] == game_id and t["seat"] == seat and t["version"] == version for t in state.timeouts):
                return  # recorded already (the move that follows it is what is missing)
            aggregate.append(TIMED_OUT, rules.timed_out(state, game_id, seat, version, expiry, self.now()))
            self.save(aggregate)

    def _bot_move(self, aggregate: TournamentAggregate, table: Table, seat: Seat, version: int, at: int | None) -> bool:
        bot = RandomBot(clock_bot_seed(aggregate.seed, aggregate.log.state.tournament_id, table.game_id, version))
        with self.games.reading(table.game_id) as game:
            if game.version != version:
                return False
            command = bot.choose(game.match.game, game.match.state, seat)
        token = aggregate.seat_tokens[table.game_id][seat]
        try:
            self.games.execute(table.game_id, token, {"type": command.type, **command.to_dict()}, version, at=at)
        except StaleVersion:
            return False
        return True

    def _clock(self, aggregate: TournamentAggregate, table: Table) -> GameClock:
        """The game's clocks, kept in process and fed the records added since they were last read."""
        with self._clocks_lock:
            state = aggregate.log.state
            control = state.settings.time_control
            assert control is not None
            clock = self._clocks.get(table.game_id)
            if clock is None:
                clock = GameClock(
                    GAMES.get(state.settings.game),
                    len(table.players),
                    state.settings.options,
                    control,
                    state.round_times[table.round - 1],
                )
                self._clocks[table.game_id] = clock
                while len(self._clocks) > MAX_CLOCKS_KEPT:
                    self._clocks.popitem(last=False)
            self._clocks.move_to_end(table.game_id)
            clock.feed(self.games.records(table.game_id, after=clock.version))
            return clock

    # -- results: following the game service's notification log -----------------------------------

    def follow_results(self) -> int:
        """Record the result of every tournament game that has ended since the last look; returns
        how many were recorded. Safe to run in any number of processes at once: a result is
        recorded once per game, with the notification id it came from."""
        recorded = 0
        with self._follow_lock:
            start = max(self._followed, self.recorder.max_tracking_id(RESULTS_TRACKING) or 0)
            while True:
                notifications = self.games.recorder.select_notifications(start=start + 1, limit=500)
                for notification in notifications:
                    start = notification.id
                    if b"GameEnded" not in notification.state:  # most records are not; decode only candidates
                        continue
                    event = self.games.mapper.to_domain_event(notification)
                    if record_of(event).type != GAME_ENDED:
                        continue
                    tracking = Tracking(application_name=RESULTS_TRACKING, notification_id=notification.id)
                    try:
                        self.process_event(event, tracking)
                        recorded += 1
                    except (IntegrityError, RecordConflictError):
                        self._evict_all()  # another process recorded it first
                if len(notifications) < 500:
                    break
            self._followed = start
        return recorded

    def policy(self, domain_event: DomainEventProtocol[UUID], processing_event: ProcessingEvent[UUID]) -> None:
        game_id = str(domain_event.originator_id)
        tournament_id = self.tournament_of(game_id)
        if tournament_id is None:
            return
        record = record_of(domain_event)
        with self._lock(parse_tournament_id(tournament_id)):
            aggregate = self.load(tournament_id)
            game = self.games.load(game_id, version=record.position)
            scoreboard = game.match.game.scoreboard(game.match.state)
            data = rules.result_recorded(aggregate.log.state, game_id, scoreboard, record.hash, self.now())
            if data is None:
                return
            aggregate.append(RESULT_RECORDED, data)
            processing_event.collect_events(aggregate)

    # -- internals --------------------------------------------------------------------------------

    def _unsalted_game(self, aggregate: TournamentAggregate, round_number: int, table: int) -> dict[str, Any]:
        """An unsalted run's table: its game id derived, and no secret salt (zeros, so that the seed
        keeps its form and the verifier still reads the table's seed out of it)."""
        if aggregate.salted:
            return {}
        return {"salt": bytes(SALT_BYTES), "game_id": unsalted_game_id(aggregate.id, round_number, table)}

    def _game_tip(self, game_id: str) -> tuple[int, str]:
        """A game's version and last hash now (a void closes the game there)."""
        with self.games.reading(game_id) as game:
            return game.version, game.match.last_hash

    def _unfinished_seeds(self, state: TournamentState) -> dict[str, str]:
        """The seed of every table's game that has not ended, to reveal with the end."""
        seeds = {}
        for table in state.tables():
            with self.games.reading(table.game_id) as game:
                if not game.match.is_over:
                    seeds[table.game_id] = game.match.chance.seed_hex
        return seeds

    def _check_organiser(self, aggregate: TournamentAggregate, token: str | None) -> None:
        if token is None:
            raise Unauthorized("this needs the organiser's bearer token")
        if token_hash(token) != aggregate.organiser_token_hash:
            raise Forbidden("only the tournament's organiser may do this")

    @contextmanager
    def _changing(self, tournament_id: str) -> Iterator[TournamentAggregate]:
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

    def _evict_all(self) -> None:
        if self.repository.cache is not None:
            for uuid in list(self._locks):
                self._evict(uuid)
