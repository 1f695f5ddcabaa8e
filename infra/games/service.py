"""The game service: one ``eventsourcing`` application for every game.

Create a game, execute a command for a seat (optimistic concurrency with an expected version,
idempotency with a client command id), read a game at any version, read its log, fork it.
"""

from __future__ import annotations

import hashlib
import secrets
import threading
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, cast
from uuid import UUID, uuid4

from eventsourcing.application import AggregateNotFoundError, Application, ProcessingEvent
from eventsourcing.domain import Aggregate
from eventsourcing.persistence import (
    InfrastructureFactory,
    JSONTranscoder,
    Mapper,
    RecordConflictError,
    Recording,
    Transcoder,
)
from eventsourcing.sqlite import SQLiteAggregateRecorder

from domain.catalog import GAMES
from domain.kernel import engine
from domain.kernel.bots import BOT_NAMES, bot_of_seat_name, bot_seat_name
from domain.kernel.chance import SALT_BYTES, Chance, parse_contribution, salted_seed
from domain.kernel.errors import BAD_INPUT, RuleViolation
from domain.kernel.log import COMMAND_ACCEPTED, Record, recorded_command
from domain.kernel.match import Match
from domain.kernel.messages import parse_command
from domain.kernel.seats import Seat
from domain.kernel.signatures import BY_ORGANISER, bot_key, public_key_of, sign, signed_payload
from infra.games.aggregate import (
    GameAggregate,
    GameMapper,
    MatchTranscoding,
    StoredGameEvent,
    StoredJSONTranscoder,
    records_of,
)
from infra.games.group_commit import GroupCommit


class ServiceError(Exception):
    """A request the service refuses for a reason that is not a game rule."""

    code = "ERROR"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class GameNotFound(ServiceError):
    code = "UNKNOWN_GAME_ID"


class StaleVersion(ServiceError):
    code = "STALE_VERSION"


class Unauthorized(ServiceError):
    code = "BAD_TOKEN"


class Forbidden(ServiceError):
    code = "FORBIDDEN"


class Conflict(ServiceError):
    code = "CONFLICT"


class Invalid(ServiceError):
    code = "BAD_INPUT"


class UnknownVersion(ServiceError):
    """A version the game does not have (yet)."""

    code = "UNKNOWN_VERSION"


class UnfitForGame(ServiceError):
    """A well-formed command whose fields name what this game does not have (a space off the
    board, an unknown tile): the game's rules refused it as bad input."""

    code = "BAD_INPUT"


class WrongGame(ServiceError):
    """A command sent to another game's command route."""

    code = "WRONG_GAME"


class NotStarted(ServiceError):
    """A command to a game whose seats are still open."""

    code = "GAME_NOT_STARTED"


@dataclass(frozen=True)
class CreatedGame:
    game_id: str
    version: int
    tokens: list[str]  # empty when the seats are open to join; "" for a seat the server's bot plays
    open_seats: list[Seat] = field(default_factory=list)
    bots: dict[Seat, str] = field(default_factory=dict)  # seat -> the bot the server plays it with


@dataclass(frozen=True)
class JoinedSeat:
    game_id: str
    seat: Seat
    name: str
    token: str
    version: int
    started: bool


@dataclass(frozen=True)
class CommandResult:
    version: int
    records: list[Record]
    duplicate: bool  # a retry of an already recorded command id: nothing new was recorded


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_seed(creator_seed: bytes | None) -> bytes:
    """A game's seed: fresh secret salt from the server, then the creator's seed if any, so that no
    seed a creator chooses can be guessed from the commitment or from the dice (docs/trust.md: Seeds)."""
    return salted_seed(secrets.token_bytes(SALT_BYTES), creator_seed)


BAD_BOTS = "BAD_BOTS"  # a game's bots that cannot be seated (a refusal of the request's content: 422)


def check_bot_seats(
    bots: dict[Seat, str],
    players: int,
    keys_required: bool = False,
    open_seats: bool = True,
    every_seat_a_bot: bool = False,
) -> None:
    """The server plays some seats, never every seat (a game nobody plays would only burn the server's
    time). In a game whose seats must all be keyed, a bot's seat is keyed with the key derived from
    the game's seed (``signatures.bot_key``), and every other seat is a person's who joins with their
    own key: such a game has open seats."""
    if keys_required and not open_seats:
        raise RuleViolation(
            BAD_BOTS,
            "bots: a game whose seats must all be keyed and that has bots has open_seats: each player joins with "
            "their own public_key (the creator holds no seat token to key)",
        )
    for seat, bot in bots.items():
        if not isinstance(seat, int) or not 0 <= seat < players:
            raise RuleViolation(BAD_BOTS, f"bots: there is no seat {seat!r} in a game of {players}")
        if bot not in BOT_NAMES:
            raise RuleViolation(BAD_BOTS, f"bots: there is no bot {bot!r}; the bots are: {', '.join(BOT_NAMES)}")
    if len(bots) >= players and not every_seat_a_bot:
        raise RuleViolation(BAD_BOTS, "bots: at least one seat must be left to a player")


def parse_game_id(game_id: str) -> UUID:
    try:
        return UUID(game_id)
    except (ValueError, AttributeError, TypeError):
        raise GameNotFound(f"there is no game {game_id!r}") from None


def legal_moves_answer(game_id: str, match: Match, seat: Seat | None) -> dict[str, Any]:
    """What ``/legal-moves`` answers: the seat's legal commands now (none for a seat that may not
    act, or for no seat), and whether the list is complete or a sample."""
    if seat is None:
        return {"game": match.game.id, "version": match.version, "seat": seat, "moves": [], "complete": True}
    # A sample (where the space is huge) drawn from a stream that is no secret of the game.
    rng = Chance(f"legal-moves:{game_id}:{match.version}".encode())
    moves = engine.legal_moves(match.game, match.state, seat, rng)
    return {
        "game": match.game.id,
        "version": match.version,
        "seat": seat,
        "moves": [{"type": m.type, **m.to_dict()} for m in moves],
        "complete": moves.complete,
    }


class GameService(Application[UUID]):
    name = "Alexandria"
    snapshotting_intervals = {GameAggregate: 100}

    def __init__(self, env: dict[str, str] | None = None) -> None:
        super().__init__(env)
        # A lock per game while someone uses it: weak values, so that games nobody is playing
        # cost no memory (a server that has seen 10,000 games does not keep 10,000 locks).
        self._locks: weakref.WeakValueDictionary[UUID, Any] = weakref.WeakValueDictionary()
        self._locks_guard = threading.Lock()
        self._on_saved: list[Callable[[], None]] = []
        self._on_closing: list[Callable[[], None]] = []
        self.writes: GroupCommit[UUID] = GroupCommit(self.events.put)

    def on_saved(self, listener: Callable[[], None]) -> None:
        """Call ``listener`` after every save (the embedded projector wakes on it)."""
        self._on_saved.append(listener)

    def on_closing(self, listener: Callable[[], None]) -> None:
        """Call ``listener`` when the service is closed, before its store is: a background
        reader of the store (the embedded projector) stops first instead of reading a closed one."""
        self._on_closing.append(listener)

    def close(self) -> None:
        for listener in self._on_closing:
            listener()
        super().close()

    def save(self, *objs: Any, **kwargs: Any) -> list[Recording[UUID]]:
        """``Application.save`` for aggregates, as the library does it, without its collecting step:
        that asks ``isinstance`` of two runtime-checkable Protocols per object, which on Python 3.11
        costs more than all of a command's hashing (anything else goes the library's way)."""
        if not all(isinstance(obj, Aggregate) for obj in objs):
            return super().save(*objs, **kwargs)
        processing_event: ProcessingEvent[UUID] = ProcessingEvent()
        for aggregate in objs:
            processing_event.events.extend(aggregate.collect_events())
            processing_event.aggregates[aggregate.id] = aggregate
        processing_event.saved_kwargs.update(kwargs)
        recordings = self._record(processing_event)
        self._take_snapshots(processing_event)
        self._notify(recordings)
        return recordings

    def _record(self, processing_event: ProcessingEvent[UUID]) -> list[Recording[UUID]]:
        """The library's, with the events written together with those of the saves queued beside
        them (``infra/games/group_commit.py``)."""
        if processing_event.tracking is not None or processing_event.saved_kwargs:
            return super()._record(processing_event)
        recordings = self.writes.put(processing_event.events)
        if self.repository.cache and not self.repository.fastforward:
            for aggregate_id, aggregate in processing_event.aggregates.items():
                self.repository.cache.put(aggregate_id, aggregate)
        return recordings

    def _notify(self, recordings: list[Recording[UUID]]) -> None:
        for listener in self._on_saved:
            listener()

    def _take_snapshots(self, processing_event: ProcessingEvent[UUID]) -> None:
        """Snapshot the live aggregate when a save crosses a multiple of the interval.

        The library would rebuild the aggregate from the store at that version (16 ms instead
        of 1.4 ms for a command at a multiple of 100); the live one is already in memory, and
        a snapshot at any version serves every later load."""
        if self.snapshots is None:
            return
        for aggregate in processing_event.aggregates.values():
            interval = self.snapshotting_intervals.get(type(aggregate))
            if interval is None or not isinstance(aggregate, GameAggregate):
                continue
            versions = [e.originator_version for e in processing_event.events if e.originator_id == aggregate.id]
            if any(v % interval == 0 for v in versions):
                self._put_snapshot(GameAggregate.Snapshot.take(aggregate))

    def _put_snapshot(self, snapshot: Any) -> None:  # a GameAggregate.Snapshot
        """Store a snapshot. In an SQLite file, without a sync to disk of its own: a snapshot only
        saves replaying, and the next command's commit syncs the log with it in (write-ahead log,
        ``synchronous=NORMAL`` for this commit alone; the database stays consistent if the power
        fails, the snapshot may be lost). A command that crosses a snapshot version then waits for
        one disk sync, not two: about one command in forty of a game, enough for the p99."""
        assert self.snapshots is not None
        recorder = self.snapshots.recorder
        if not isinstance(recorder, SQLiteAggregateRecorder) or recorder.datastore.pool.is_sqlite_memory_mode:
            self.snapshots.put([snapshot])
            return
        stored = [self.snapshots.mapper.to_stored_event(snapshot)]
        with recorder.datastore.get_connection(commit=True) as connection:
            connection.cursor().execute("PRAGMA synchronous=NORMAL")
            try:
                with connection.transaction(commit=True) as cursor:
                    recorder._insert_events(cursor, stored)
            finally:
                connection.cursor().execute("PRAGMA synchronous=FULL")

    def construct_mapper(self) -> Mapper[UUID]:
        if self.env.get(InfrastructureFactory.MAPPER_TOPIC):  # the operator's own mapper
            return super().construct_mapper()
        return self.factory.mapper(transcoder=self.construct_transcoder(), mapper_class=GameMapper)

    def construct_transcoder(self) -> Transcoder:
        transcoder = StoredJSONTranscoder()
        self.register_transcodings(transcoder)
        return transcoder

    def register_transcodings(self, transcoder: JSONTranscoder) -> None:
        super().register_transcodings(transcoder)
        transcoder.register(MatchTranscoding())

    # -- creating -----------------------------------------------------------------------------------

    def create_game(
        self,
        game: str,
        players: int,
        options: dict[str, Any] | None = None,
        seed: bytes | None = None,
        salt: bytes | None = None,
        open_seats: bool = False,
        game_id: UUID | None = None,
        bots: dict[Seat, str] | None = None,
        keys_required: bool = False,
        keys: dict[Seat, str] | None = None,
        every_seat_a_bot: bool = False,
    ) -> CreatedGame:
        """A new game. Its seed is fresh secret salt, then ``seed`` if given (docs/trust.md: Seeds). Only an
        in-process simulation, whose records must come out the same on every run and hold no
        secret worth keeping, passes its own ``salt`` (and its own ``game_id``); no route of the
        API can. Every seat's token goes to the creator, or with ``open_seats`` to nobody yet:
        players ``join`` by name, and the game starts when the last seat is taken. ``bots`` (seat ->
        bot name) seats the server's bots: see ``_seat_bots``. With ``keys_required`` every seat
        must be keyed (with its join, or before its first command; a bot's with the key derived from
        the seed). ``keys`` (seat -> public key) keys seats of a game created with tokens at once, in
        its creation (a tournament's table: each player's registered key). ``every_seat_a_bot``: the
        bots may hold every seat (a tournament's table of bot players; no route can ask for it)."""
        definition = GAMES.get(game)
        if options is not None and not isinstance(options, dict):
            raise Invalid("options must be a JSON object")
        game_seed = new_seed(seed) if salt is None else salted_seed(salt, seed)
        if bots:
            check_bot_seats(bots, players, keys_required, open_seats, every_seat_a_bot)
            match, records = Match.create(definition, players, options, game_seed, True, keys_required)
            key_seed = game_seed if keys_required else None
            return self._seat_bots(match, records, bots, open_seats, game_id, key_seed, keys or {})
        match, records = Match.create(definition, players, options, game_seed, open_seats, keys_required)
        if keys and not open_seats:
            game_id = game_id or uuid4()
            for seat, key in sorted(keys.items()):
                records += match.register_key(seat, key, str(game_id))
        return self._start(match, records, game_id)

    def _seat_bots(
        self,
        match: Match,
        records: list[Record],
        bots: dict[Seat, str],
        open_seats: bool,
        game_id: UUID | None,
        key_seed: bytes | None = None,
        keys: dict[Seat, str] | None = None,
    ) -> CreatedGame:
        """A game some of whose seats the server plays: created with open seats, each bot takes its
        seat by its name (``SeatTaken`` names the bot) and no token (nobody can send as it), then,
        unless ``open_seats``, the creator's seats are taken as "seat N" with tokens for the creator.
        The game starts with the last seat taken, as every game with open seats does. With
        ``key_seed`` (the game's seed, when every seat must be keyed) each bot's seat is keyed with
        the key the server derives from it for the seat, and the bot signs its moves with it.
        ``keys``: the creator's seats keyed at once (a tournament's keyed players)."""
        aggregate = GameAggregate.start(game_id or uuid4(), match, [None] * match.players, records)
        tokens = [""] * match.players
        for seat in range(match.players):
            if seat in bots:
                key = None if key_seed is None else public_key_of(bot_key(key_seed, seat))
                aggregate.join(bot_seat_name(bots[seat], seat), seat, None, key)
            elif not open_seats:
                tokens[seat] = secrets.token_urlsafe(24)
                aggregate.join(f"seat {seat}", seat, token_hash(tokens[seat]), (keys or {}).get(seat))
        self.save(aggregate)
        return CreatedGame(
            game_id=str(aggregate.id),
            version=aggregate.match.version,
            tokens=[] if open_seats else tokens,
            open_seats=aggregate.match.open_seats,
            bots=dict(bots),
        )

    def bot_seats(self, aggregate: GameAggregate) -> dict[Seat, str]:
        """The seats the server's bots play: named by a bot and holding no token."""
        names = aggregate.match.names
        return {
            seat: bot
            for seat, name in names.items()
            if aggregate.token_hashes[seat] is None and (bot := bot_of_seat_name(name)) is not None
        }

    def _start(self, match: Match, records: list[Record], game_id: UUID | None = None) -> CreatedGame:
        tokens = [] if match.waiting else [secrets.token_urlsafe(24) for _ in range(match.players)]
        hashes: list[str | None] = [token_hash(t) for t in tokens] if tokens else [None] * match.players
        aggregate = GameAggregate.start(game_id or uuid4(), match, hashes, records)
        self.save(aggregate)
        return CreatedGame(game_id=str(aggregate.id), version=match.version, tokens=tokens, open_seats=match.open_seats)

    def join(self, game_id: str, name: str, seat: Seat | None = None, public_key: str | None = None) -> JoinedSeat:
        """Take an open seat by name; the token is made here and only its hash is kept. With a
        ``public_key`` the seat is keyed: each of its commands must then be signed."""
        uuid = parse_game_id(game_id)
        with self._lock(uuid):
            aggregate = self.load(game_id)
            token = secrets.token_urlsafe(24)
            try:
                seat, records = aggregate.join(name, seat, token_hash(token), public_key)
                self.save(aggregate)
            except RecordConflictError:
                self._evict(uuid)
                raise Conflict("another player joined at the same moment; try again") from None
            except BaseException:
                self._evict(uuid)
                raise
            return JoinedSeat(
                game_id=game_id,
                seat=seat,
                name=records[0].data["name"],
                token=token,
                version=aggregate.match.version,
                started=not aggregate.match.waiting,
            )

    def register_key(self, game_id: str, token: str | None, public_key: str) -> tuple[Seat, int]:
        """Key the token's seat (once, before its first command); the seat and the game's version."""

        def bearers_seat(aggregate: GameAggregate) -> Seat:
            if token is None:
                raise Unauthorized("registering a seat's key needs the seat's bearer token")
            seat = self.seat_for_token(aggregate, token)
            assert seat is not None
            return seat

        return self._key_seat(game_id, bearers_seat, public_key, None)

    def rekey_seat(self, game_id: str, seat: Seat, public_key: str) -> int:
        """The organiser's act: ``seat`` of a running game passes to a replacement player whose key
        signs its commands from now on (the seat's earlier key no longer does); the game's version."""
        return self._key_seat(game_id, lambda _: seat, public_key, BY_ORGANISER)[1]

    def _key_seat(
        self, game_id: str, seat_of: Callable[[GameAggregate], Seat], public_key: str, by: str | None
    ) -> tuple[Seat, int]:
        uuid = parse_game_id(game_id)
        with self._lock(uuid):
            aggregate = self.load(game_id)
            seat = seat_of(aggregate)
            try:
                aggregate.register_key(seat, public_key, by)
                self.save(aggregate)
            except RecordConflictError:
                self._evict(uuid)
                raise StaleVersion("another record was written first; try again") from None
            except BaseException:
                self._evict(uuid)
                raise
            return seat, aggregate.match.version

    def fork(self, game_id: str, version: int) -> CreatedGame:
        """A new game continuing from ``version`` of an ended game, with a fresh seed and new seats.

        Only ended games can be forked: a fork's seats would otherwise see every seat's hidden
        information, and playing on would show the original game's undrawn future.
        """
        source = self.load(game_id)
        if not source.match.is_over:
            raise Conflict("only a game that has ended can be forked")
        latest = source.match.version
        if not isinstance(version, int) or not 1 <= version < latest:
            raise Invalid(f"version must be between 1 and {latest - 1} (a fork starts before the end)")
        history = self.records(game_id, through=version + 1)
        copied = source.match.copied_through
        if version <= copied or history[-1].type != COMMAND_ACCEPTED:
            # A fork starts where the game waited for a command, after any history it copied itself.
            starts = [r.position - 1 for r in self.records(game_id, after=copied) if r.type == COMMAND_ACCEPTED]
            near = sorted(starts, key=lambda start: abs(start - version))[:3]
            raise Invalid(
                f"version {version} is not where the game waited for a command; "
                f"a fork can start at a version such as {', '.join(map(str, sorted(near)))}"
            )
        match, records = Match.fork(self.load(game_id, version).match, history[:-1], new_seed(None), game_id)
        return self._start(match, records)

    # -- reading ------------------------------------------------------------------------------------

    def load(self, game_id: str, version: int | None = None) -> GameAggregate:
        """The game now (the cached aggregate: hold ``reading`` while using it) or at the game's
        ``version`` (a copy of its own; a version inside a command's records is one too)."""
        uuid = parse_game_id(game_id)
        try:
            aggregate: GameAggregate = self.repository.get(uuid)
        except AggregateNotFoundError:
            raise GameNotFound(f"there is no game {game_id!r}") from None
        if version is None:
            return aggregate
        latest = aggregate.match.version
        if not 1 <= version <= latest:
            raise UnknownVersion(f"game {game_id} has no version {version}; its version is {latest}")
        stored = aggregate.stored_version_holding(version)
        whole = aggregate.ends_stored_event(version)
        past: GameAggregate = self.repository.get(uuid, version=stored if whole else stored - 1)
        if not whole:  # the records of the stored event that holds ``version``, up to it
            for event in self.events.get(uuid, gt=stored - 1, lte=stored):
                for record in records_of(event):
                    if record.position <= version:
                        past.match.apply_record(record)
        return past

    @contextmanager
    def reading(self, game_id: str) -> Iterator[GameAggregate]:
        """The current game, held still while the caller reads it."""
        uuid = parse_game_id(game_id)
        with self._lock(uuid):
            yield self.load(game_id)

    def records(self, game_id: str, after: int = 0, through: int | None = None) -> list[Record]:
        """The game's records after position ``after``, through ``through`` (none for no game)."""
        return [record for record, _ in self.timed_records(game_id, after, through)]

    def timed_records(self, game_id: str, after: int = 0, through: int | None = None) -> list[tuple[Record, datetime]]:
        """``records``, each with when it was stored. Only the stored events that hold them are
        read: the cached game's ``ends`` tell which (past its last known one, every later one).
        From the start, the game is not loaded (a game out of the cache would be replayed to find
        where): every stored event holds a record at least, so the one that holds ``through`` is at
        most version ``through``."""
        uuid = parse_game_id(game_id)
        first, last = 1, through
        if after > 0:
            try:
                aggregate = self.load(game_id)
            except GameNotFound:
                return []
            ends = aggregate.stored_ends()
            first = aggregate.stored_version_holding(after + 1)
            last = None if through is None or through > ends[-1] else aggregate.stored_version_holding(through)
        return [
            (record, cast(StoredGameEvent, event).timestamp)
            for event in self.events.get(uuid, gt=first - 1, lte=last)
            for record in records_of(event)
            if after < record.position and (through is None or record.position <= through)
        ]

    def seat_for_token(self, aggregate: GameAggregate, token: str | None) -> Seat | None:
        """The seat a bearer token belongs to; no token is a spectator."""
        if token is None:
            return None
        seat = aggregate.seat_of(token_hash(token))
        if seat is None:
            raise Unauthorized("this token is not a seat token of this game")
        return seat

    # -- playing ------------------------------------------------------------------------------------

    def execute(
        self,
        game_id: str,
        token: str | None,
        payload: dict[str, Any],
        expected_version: int | None = None,
        command_id: str | None = None,
        contribution: str | None = None,
        at: int | None = None,
        game: str | None = None,
        bot_seat: Seat | None = None,
        signature: str | None = None,
        by: str | None = None,
    ) -> tuple[Seat, CommandResult]:
        """Execute a command for the token's seat; ``game``: refuse unless the game is that game.
        Command ids are the seat's own: the same id from another seat is another id, so no seat
        can learn which ids another seat used. ``at`` (ms) stamps the record with the server's
        time (clocked tournament games). ``bot_seat``: the server's bot plays that seat (no token;
        only for a seat ``bot_seats`` names, which no route can ask for). A keyed seat's command
        must carry its ``signature`` over ``payload`` as sent (docs/signed-commands.md), checked
        before any rule of the game; a keyed bot seat's is made here, with the bot's key. ``by``: the
        command is the server's or the organiser's act, not the seat's (a tournament's clock rule or
        forfeit, which no route can ask for): recorded as theirs, unsigned."""
        uuid = parse_game_id(game_id)
        if contribution is not None:
            contribution = parse_contribution(contribution)
        with self._lock(uuid):
            aggregate = self.load(game_id)
            if game is not None and aggregate.match.game.id != game:
                actual = aggregate.match.game.id
                raise WrongGame(
                    f"game {game_id} is a {actual} game: send its commands to /games/{game_id}/commands/{actual}"
                )
            if bot_seat is not None:
                if bot_seat not in self.bot_seats(aggregate):
                    raise Unauthorized(f"seat {bot_seat} is not played by the server")
                seat = bot_seat
            elif token is None:
                raise Unauthorized("sending a command needs the seat's bearer token")
            else:
                found = self.seat_for_token(aggregate, token)
                assert found is not None
                seat = found
            if aggregate.match.waiting:
                open_list = ", ".join(map(str, aggregate.match.open_seats))
                raise NotStarted(f"the game starts when every seat is taken; still open: seat {open_list}")
            if command_id is not None and aggregate.match.command_position(seat, command_id) is not None:
                return seat, self._first_result(game_id, aggregate, seat, payload, command_id, contribution)
            version = aggregate.match.version
            if expected_version is not None and expected_version != version:
                raise StaleVersion(f"expected version {expected_version}, but the game is at version {version}")
            if bot_seat is not None and seat in aggregate.match.keys:
                command_id = command_id or f"bot-{version}"
                expected_version = version
                signature = self._bot_signature(aggregate, seat, payload, command_id)
            if by is None:
                command = aggregate.match.admit_signed(
                    seat, payload, command_id, contribution, signature, expected_version
                )
            else:
                command = aggregate.match.admit(seat, payload)
            try:
                records = aggregate.execute(seat, command, command_id, contribution, at, signature, by)
                self.save(aggregate)
            except RuleViolation as refusal:
                self._evict(uuid)
                if refusal.code == BAD_INPUT:  # past the parser: the shape was right, the content is not
                    raise UnfitForGame(refusal.message) from None
                raise
            except RecordConflictError:
                self._evict(uuid)
                fresh = self.load(game_id)
                if command_id is not None and fresh.match.command_position(seat, command_id) is not None:
                    return seat, self._first_result(game_id, fresh, seat, payload, command_id, contribution)
                raise StaleVersion("another command was recorded first; read the game again and retry") from None
            except BaseException:
                self._evict(uuid)
                raise
            return seat, CommandResult(version=aggregate.match.version, records=records, duplicate=False)

    @staticmethod
    def _bot_signature(aggregate: GameAggregate, seat: Seat, payload: dict[str, Any], command_id: str) -> str:
        """The server's bot's signature of its command for a keyed bot seat, at the game's version."""
        match = aggregate.match
        if match.game_id is None:
            raise Invalid("a keyed seat's game names the id its signatures are over")
        private = bot_key(bytes.fromhex(match.chance.seed_hex), seat)
        return sign(private, signed_payload(match.game_id, seat, match.version, command_id, payload, None))

    def _first_result(
        self,
        game_id: str,
        aggregate: GameAggregate,
        seat: Seat,
        payload: dict[str, Any],
        command_id: str,
        contribution: str | None,
    ) -> CommandResult:
        position = aggregate.match.command_position(seat, command_id)
        assert position is not None
        records = self.records(game_id, after=position - 1)
        first = records[0]
        command = parse_command(aggregate.match.game.command_types, payload)
        same = first.data["command"] == recorded_command(command) and (first.data.get("contribution") == contribution)
        if not same:
            raise Conflict(f"command id {command_id!r} was already used by this seat for a different command")
        batch = [first]
        for record in records[1:]:
            if record.type == COMMAND_ACCEPTED:
                break
            batch.append(record)
        return CommandResult(version=batch[-1].position, records=batch, duplicate=True)

    def _lock(self, uuid: UUID) -> Any:  # a threading.RLock
        with self._locks_guard:
            lock = self._locks.get(uuid)
            if lock is None:
                lock = threading.RLock()
                self._locks[uuid] = lock
            return lock

    def _evict(self, uuid: UUID) -> None:
        if self.repository.cache is not None:
            with suppress(KeyError):
                self.repository.cache.get(uuid, evict=True)
