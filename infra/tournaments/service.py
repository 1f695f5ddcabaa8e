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

import hmac
import logging
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
from eventsourcing.persistence import IntegrityError, RecordConflictError
from eventsourcing.projection import EventSourcedProjection
from eventsourcing.sqlite import SQLiteDatastore, SQLiteProcessRecorder
from eventsourcing.utils import get_topic

from domain.catalog import GAMES
from domain.kernel.chance import SALT_BYTES
from domain.kernel.log import GAME_ENDED, GENESIS, Record, for_viewer, recorded_command
from domain.kernel.match import Match
from domain.kernel.seats import Seat
from domain.kernel.signatures import BY_ORGANISER as ORGANISERS_ACT
from domain.kernel.signatures import BY_SERVER
from domain.tournament import rules
from domain.tournament.clock import GameClock, check_clock, clock_bot
from domain.tournament.log import (
    ADJUDICATED,
    BY_ORGANISER,
    BY_SELF,
    CHECK_IN_OPENED,
    CHECKED_IN,
    FORFEIT_GAME,
    LATE_ENTRY,
    PLAYER_REGISTERED,
    PLAYER_WITHDRAWN,
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
    ruled_forfeits,
    seal,
)
from domain.tournament.seeds import clock_bot_seed, mixed_seed, registration_code, table_seed
from domain.tournament.verification import BUNDLE_FORMAT
from infra.games.aggregate import GameAggregate, record_of
from infra.games.service import (
    CommandResult,
    Conflict,
    Forbidden,
    GameNotFound,
    GameService,
    Invalid,
    ServiceError,
    StaleVersion,
    Unauthorized,
    parse_game_id,
    token_hash,
)
from infra.readside.follower import log_follower
from infra.tournaments.aggregate import (
    TableIndex,
    TournamentAggregate,
    table_index_id,
    unsalted_game_id,
    unsalted_tournament_id,
)
from infra.tournaments.results import NOTIFICATIONS_PER_READ as RESULTS_PER_READ
from infra.tournaments.results import EndedGames, ResultsTracking

MAX_CLOCK_MOVES = 10_000  # a safety bound on moves the clock rule plays in one go
MAX_CLOCKS_KEPT = 512
MAX_PLAY_ATTEMPTS = 8  # a clocked command decided again this often at most while other writers move the game

log = logging.getLogger(__name__)


class TournamentNotFound(ServiceError):
    code = "UNKNOWN_TOURNAMENT_ID"


class WrongRegistrationCode(Forbidden):
    """A self-registration whose code is not the tournament's published one."""

    code = "WRONG_REGISTRATION_CODE"


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
    registration_code: str  # what the organiser publishes for players to register themselves


@dataclass(frozen=True)
class RegisteredPlayer:
    player: int
    name: str
    token: str


@dataclass(frozen=True)
class RegisteredBot:
    player: int
    name: str
    bot: str  # the server's bot that plays the entry (no token exists for it)


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
        self._results = ResultsTracking(self, self._evict_all)
        self._results_follower = log_follower(games.recorder, EndedGames(games), self._results, RESULTS_PER_READ)
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
        name: str | None = None,
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
        data = rules.created(definition, str(tournament_id), dict(settings or {}), seed, self.now(), name)
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
        return CreatedTournament(
            str(tournament_id), token, aggregate.version, registration_code(seed, str(tournament_id))
        )

    def register(
        self,
        tournament_id: str,
        organiser_token: str | None,
        name: Any,
        commitment: str | None = None,
        public_key: str | None = None,
    ) -> RegisteredPlayer:
        """A new player (the organiser registers them, and is handed their token), with the player's
        commitment to a secret (sha256 hex) and their public key if they send them."""
        with self._changing(tournament_id) as aggregate:
            self._check_organiser(aggregate, organiser_token)
            return self._register(aggregate, name, commitment, BY_ORGANISER, public_key)

    def register_bot(
        self,
        tournament_id: str,
        organiser_token: str | None,
        name: Any,
        bot: Any,
        commitment: str | None = None,
        public_key: str | None = None,
    ) -> RegisteredBot:
        """A bot player, the organiser's entry: the server's bot of that name plays its seat at each of
        its tables (as a game's bot seats do); no token exists for it (nor a secret or a key: the
        rules refuse them)."""
        with self._changing(tournament_id) as aggregate:
            self._check_organiser(aggregate, organiser_token)
            data = rules.register(aggregate.log.state, name, self.now(), commitment, BY_ORGANISER, public_key, bot)
            # Its place in the token list holds no hash: no token is the bot player's.
            aggregate.append(PLAYER_REGISTERED, data, {"player_token_hash": ""})
            self.save(aggregate)
        return RegisteredBot(data["player"], data["name"], data["bot"])

    def join(
        self, tournament_id: str, name: Any, code: Any, commitment: str | None = None, public_key: str | None = None
    ) -> RegisteredPlayer:
        """A player registers themselves with the published registration code; the token is
        answered to them only (it is never the organiser's to see). With a ``public_key`` every
        move of theirs must carry their signature (docs/signed-commands.md)."""
        with self._changing(tournament_id) as aggregate:
            self._check_registration_code(aggregate, code)
            return self._register(aggregate, name, commitment, BY_SELF, public_key)

    def registration_code_of(self, tournament_id: str, organiser_token: str | None) -> str:
        """The code to publish again (the organiser's)."""
        aggregate = self.load(tournament_id)
        self._check_organiser(aggregate, organiser_token)
        return registration_code(aggregate.seed, tournament_id)

    def _register(
        self,
        aggregate: TournamentAggregate,
        name: Any,
        commitment: str | None,
        by: str,
        public_key: str | None,
    ) -> RegisteredPlayer:
        data = rules.register(aggregate.log.state, name, self.now(), commitment, by, public_key)
        token = secrets.token_urlsafe(24)
        aggregate.append(PLAYER_REGISTERED, data, {"player_token_hash": token_hash(token)})
        self.save(aggregate)
        return RegisteredPlayer(data["player"], data["name"], token)

    def _check_registration_code(self, aggregate: TournamentAggregate, code: Any) -> None:
        expected = registration_code(aggregate.seed, str(aggregate.id))
        if not isinstance(code, str) or not hmac.compare_digest(code.encode(), expected.encode()):
            raise WrongRegistrationCode("this is not the tournament's registration code")

    def withdraw(self, tournament_id: str, organiser_token: str | None, player: Any, reason: Any) -> dict[str, Any]:
        """The organiser takes a player out of every round not seated yet (a recorded roster change)."""
        self.follow_results()
        with self._changing(tournament_id) as aggregate:
            self._check_organiser(aggregate, organiser_token)
            data = rules.player_withdrawn(aggregate.log.state, player, reason, self.now())
            aggregate.append(PLAYER_WITHDRAWN, data)
            self.save(aggregate)
        return data

    def enter_late(
        self,
        tournament_id: str,
        organiser_token: str | None,
        name: Any,
        missed_rounds: Any = None,
        public_key: str | None = None,
    ) -> tuple[RegisteredPlayer, dict[str, Any]]:
        """A late entry, seated from the next round; the organiser is handed the player's token."""
        self.follow_results()
        with self._changing(tournament_id) as aggregate:
            self._check_organiser(aggregate, organiser_token)
            data = rules.late_entry(aggregate.log.state, name, missed_rounds, self.now(), public_key)
            token = secrets.token_urlsafe(24)
            aggregate.append(LATE_ENTRY, data, {"player_token_hash": token_hash(token)})
            self.save(aggregate)
        return RegisteredPlayer(data["player"], data["name"], token), data

    def open_check_in(self, tournament_id: str, organiser_token: str | None) -> dict[str, Any]:
        """The organiser asks for check-in before round 1 (whoever has not checked in when
        registration closes is withdrawn then)."""
        with self._changing(tournament_id) as aggregate:
            self._check_organiser(aggregate, organiser_token)
            data = rules.check_in_opened(aggregate.log.state, self.now())
            aggregate.append(CHECK_IN_OPENED, data)
            self.save(aggregate)
        return data

    def check_in(self, tournament_id: str, player_token: str | None) -> dict[str, Any]:
        """The bearer player checks in."""
        with self._changing(tournament_id) as aggregate:
            player = self.player_for_token(aggregate, player_token)
            data = rules.checked_in(aggregate.log.state, player, self.now())
            aggregate.append(CHECKED_IN, data)
            self.save(aggregate)
        return data

    def _leave_out_missed_check_ins(self, aggregate: TournamentAggregate) -> list[dict[str, Any]]:
        """Withdraw, in public, every player who has not checked in (when the roster closes);
        recorded with what closes it or not at all."""
        missed = rules.check_in_missed(aggregate.log.state, self.now())
        for withdrawal in missed:
            aggregate.append(PLAYER_WITHDRAWN, withdrawal)
        return missed

    def close_registration(self, tournament_id: str, organiser_token: str | None) -> dict[str, Any]:
        """No more players or commitments: the committed players may reveal their secrets now.
        With check-in open, everyone who has not checked in is withdrawn first."""
        with self._changing(tournament_id) as aggregate:
            self._check_organiser(aggregate, organiser_token)
            self._leave_out_missed_check_ins(aggregate)
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

    def records(self, tournament_id: str, after: int = 0) -> list[Record]:
        """The tournament's records after position ``after`` (each record is one stored event)."""
        uuid = parse_tournament_id(tournament_id)
        return [Record.from_dict(cast(Any, event).record) for event in self.events.get(uuid, gt=after or None)]

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

    def table_names(self, game_id: str) -> dict[str, str]:
        """A tournament table's players by seat (the names they registered with); none for other games."""
        tournament_id = self.tournament_of(game_id)
        if tournament_id is None:
            return {}
        state = self.state(tournament_id)
        table = state.table_of(game_id)
        return {} if table is None else {str(seat): state.names[player] for seat, player in enumerate(table.players)}

    def player_at_table(self, game_id: str, token: str | None) -> tuple[str, Seat] | None:
        """The tournament and the seat of a player token's bearer at one of its tables' games, so
        the player's own token works at ``/games/{id}`` for their table; None: the game is no
        table, or the token is no player's at it."""
        if token is None:
            return None
        tournament_id = self.tournament_of(game_id)
        if tournament_id is None:
            return None
        aggregate = self.load(tournament_id)
        player = aggregate.player_of(token_hash(token))
        table = aggregate.log.state.table_of(game_id)
        if player is None or table is None or player not in table.players:
            return None
        return tournament_id, table.players.index(player)

    def player_page(self, tournament_id: str, token: str | None) -> dict[str, Any]:
        """What the bearer player needs to play: this round's table and seat (or their bye), the
        game's status and whether it awaits them, and every table they have had."""
        state = self.state(tournament_id)
        aggregate = self.load(tournament_id)
        player = self.player_for_token(aggregate, token)
        number = len(state.rounds)
        tables = [self._table_for(state, t, player) for t in state.tables() if player in t.players]
        current = next((t for t in tables if t["round"] == number), None)
        return {
            "player": player,
            "name": state.names[player],
            "registered_by": state.registered_by.get(player),
            "withdrawn": player in state.withdrawn,
            # check-in: asked (the organiser opened it), open (it still takes check-ins), checked_in
            "check_in": {
                "asked": state.check_in_open,
                "open": state.check_in_taken,
                "checked_in": player in state.checked_in,
            },
            "round": number or None,
            "table": current,
            "bye": bool(number) and player in state.byes[number - 1],
            "your_turn": current is not None and current["your_turn"],
            "tables": tables,
        }

    def _table_for(self, state: TournamentState, table: Table, player: int) -> dict[str, Any]:
        """One of a player's tables as their page shows it: ``status`` is ``running``, ``ended``
        or ``voided``; ``your_turn``: the game awaits the player's seat (never a forfeited one)."""
        seat = table.players.index(player)
        with self.games.reading(table.game_id) as game:
            match = game.match
            version = game.version
            awaited = set() if match.is_over else set(match.game.awaited(match.state))
        voided = table.game_id in state.voided()
        status = "voided" if voided else "ended" if match.is_over or table.game_id in state.results else "running"
        playing = status == "running" and state.ended is None and player not in state.forfeited(table.game_id)
        return {
            "round": table.round,
            "table": table.table,
            "game_id": table.game_id,
            "seat": seat,
            "players": [{"player": p, "name": state.names[p]} for p in table.players],
            "status": status,
            "version": version,
            "your_turn": playing and seat in awaited,
        }

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

    def seat_next_round(
        self,
        tournament_id: str,
        organiser_token: str | None,
        admit_tables: Callable[[int], None] | None = None,
        manual: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """Seat the next round and create each table's game with its derived seed. ``admit_tables``
        (the API's creation limit) may refuse the round's number of games before any is created.
        ``manual`` ({tables, byes, reason}) is the organiser's own seating, checked by the rules."""
        self.follow_results()
        with self._changing(tournament_id) as aggregate:
            self._check_organiser(aggregate, organiser_token)
            state = aggregate.log.state
            # Before round 1 with registration open: whoever has not checked in is withdrawn.
            self._leave_out_missed_check_ins(aggregate)
            # Before round 1: each reveal still missing is withheld, in public, and its entry
            # withdrawn; recorded with the seating or not at all.
            for withheld in rules.reveals_withheld(state, self.now()):
                aggregate.append(REVEAL_WITHHELD, withheld)
            if manual is None:
                seating = rules.plan_round(state, aggregate.seed)
            else:
                seating = rules.manual_seating(state, manual.get("tables"), manual.get("byes"), manual.get("reason"))
            if admit_tables is not None:
                admit_tables(len(seating.tables))
            config = state.settings
            number = len(state.rounds) + 1
            mixed = mixed_seed(aggregate.seed, state.reveals)
            created = [
                self.games.create_game(
                    config.game,
                    len(players),
                    config.options,
                    table_seed(mixed, tournament_id, number, i),
                    **self._unsalted_game(aggregate, number, i),
                    keys_required=config.keys_required,
                    keys={s: state.keys[p] for s, p in enumerate(players) if p in state.keys},
                    # A bot player's seat is the server's bot seat (as POST /games with "bots").
                    bots={s: state.bots[p] for s, p in enumerate(players) if p in state.bots} or None,
                    every_seat_a_bot=True,
                )
                for i, players in enumerate(seating.tables, start=1)
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
            running: list[tuple[GameAggregate, Seat]] = []
            if data["kind"] == REPLACE_PLAYER:
                token = secrets.token_urlsafe(24)
                extra["player_token_hash"] = token_hash(token)
                if "public_key" in data:  # held still until re-keyed: the old key signs nothing more
                    running = [
                        (closing.enter_context(self.games.reading(table.game_id)), table.players.index(data["player"]))
                        for table in _running_tables_of(aggregate.log.state, data["player"])
                    ]
            record = aggregate.append(ADJUDICATED, data, extra)
            self.save(aggregate)
            for game, seat in running:
                if not game.match.is_over and game.match.keys.get(seat) != data["public_key"]:
                    self.games.rekey_seat(str(game.id), seat, data["public_key"])
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
        signature: str | None = None,
    ) -> tuple[Seat, CommandResult]:
        """A player's command at the seat they were given (with the player's chance contribution,
        if any, and a keyed player's signature); on a clocked game, stamped with the server's time
        after any timeout that is due has been recorded and ruled on."""
        aggregate, table, seat = self.seat_of(tournament_id, game_id, player_token)
        state = aggregate.log.state
        rules.check_playable(state, game_id)
        if state.settings.time_control is not None:
            return seat, self._play_clocked(
                tournament_id, table, seat, payload, expected_version, command_id, contribution, signature
            )
        if state.forfeited(game_id):
            self.enforce_clock(tournament_id, game_id)
        # The game's lock, held from the check to the command: a void (and the end) read where the
        # game stands under the same lock, so no command lands after the game was closed.
        with self.games.reading(game_id):
            aggregate = self.load(tournament_id)
            state = aggregate.log.state
            rules.check_playable(state, game_id)
            if table.players[seat] in state.forfeited(game_id):
                raise Conflict(f"player {table.players[seat]} has forfeited game {game_id}; the bot plays the seat")
            token = aggregate.seat_tokens[game_id][seat]
            _, result = self.games.execute(
                game_id, token, payload, expected_version, command_id, contribution, signature=signature
            )
        if result.records[-1].type == GAME_ENDED:
            self.follow_results()
        return seat, result

    def _play_clocked(
        self,
        tournament_id: str,
        table: Table,
        seat: Seat,
        payload: dict[str, Any],
        expected_version: int | None,
        command_id: str | None,
        contribution: str | None,
        signature: str | None = None,
    ) -> CommandResult:
        """A command of a clocked game: its stamp is chosen first, every timeout due at that stamp
        is recorded and ruled on, then the command is executed at the version that was checked
        (if the game moved meanwhile, everything is decided again)."""
        game_id = table.game_id
        for _ in range(MAX_PLAY_ATTEMPTS):
            now = self.now()
            self.enforce_clock(tournament_id, game_id, now)
            aggregate = self.load(tournament_id)
            with self._clocked_game(aggregate, table) as clock:
                # Read under the game's lock: a timeout of the seat recorded meanwhile is seen.
                aggregate = self.load(tournament_id)
                state = aggregate.log.state
                rules.check_playable(state, game_id)
                if table.players[seat] in state.forfeited(game_id):
                    raise Conflict(f"player {table.players[seat]} has forfeited game {game_id}; the bot plays the seat")
                ruled = state.ended is None and game_id not in state.voided()  # else the rule plays no more
                at = max(now, clock.last_stamp)
                if ruled and clock.out_of_time(at) and not clock.match.is_over:
                    continue  # a clock ran out since the look: rule on it first
                token = aggregate.seat_tokens[game_id][seat]
                # A signed command is executed at the version it was signed at, never another.
                version = clock.version if expected_version is None and signature is None else expected_version
                try:
                    _, result = self.games.execute(
                        game_id, token, payload, version, command_id, contribution, at=at, signature=signature
                    )
                except StaleVersion:
                    if expected_version is not None:
                        raise
                    self._drop_cached_game(game_id)
                    continue  # another writer moved the game: decide again at its new version
            if result.records[-1].type == GAME_ENDED:
                self.follow_results()
            return result
        raise Conflict(f"game {game_id} kept moving while this command waited; send it again")

    def clock_view(self, game_id: str) -> dict[str, Any] | None:
        """The clocks of a clocked tournament game (None for any other game)."""
        tournament_id = self.tournament_of(game_id)
        if tournament_id is None:
            return None
        aggregate = self.load(tournament_id)
        table = aggregate.log.state.table_of(game_id)
        if table is None or aggregate.log.state.settings.time_control is None:
            return None
        with self._clocked_game(aggregate, table) as clock:
            return clock.view(self.now())

    def enforce_clocks(self, tournament_id: str) -> int:
        """Apply the clock rule in every running game of the tournament (what a clock worker does);
        returns how many moves the rule played."""
        state = self.state(tournament_id)
        return sum(
            self.enforce_clock(tournament_id, t.game_id)
            for t in state.tables()
            if t.game_id not in state.results and t.game_id not in state.voided()
        )

    def enforce_clock(self, tournament_id: str, game_id: str, now: int | None = None) -> int:
        """Record every timeout that is due in one game (by ``now``, the server's time by default)
        and apply the tournament's rule: the random bot (with a stream derived from the master
        seed) moves for the seat; under the forfeit rule the seat then stays the bot's for the
        rest of the game. Seats forfeited by adjudication are moved for the same way. Returns how
        many moves were played.

        Everything is decided against the game as the store has it now (the clock is fed from the
        store's records, and a cached game that another process moved on is dropped), under the
        game's lock; the rule's move is executed at the version that was looked at, and only once
        it is recorded is its ``TimedOut`` recorded, checked as the verifier checks it first. A
        move that lost a race to another command is decided again."""
        played = lost = 0
        while played < MAX_CLOCK_MOVES and lost < MAX_PLAY_ATTEMPTS:
            aggregate = self.load(tournament_id)
            state = aggregate.log.state
            table = state.table_of(game_id)
            if table is None or state.ended is not None or game_id in state.voided():
                break
            forfeited = {table.players.index(p) for p in state.forfeited(game_id) if p in table.players}
            if state.settings.time_control is None:
                if not forfeited or not self._move_for_forfeited(aggregate, table, forfeited):
                    break
                played += 1
                continue
            with self._clocked_game(aggregate, table) as clock:
                self._record_missing_timeouts(tournament_id, table, clock)
                match = clock.match
                if match.is_over:
                    break
                version = clock.version
                at = max(self.now() if now is None else now, clock.last_stamp)
                flagged = clock.out_of_time(at)
                seat = flagged[0] if flagged else min(forfeited & set(match.game.awaited(match.state)), default=None)
                if seat is None:
                    break
                if not self._bot_move(aggregate, table, seat, match, version, at):
                    lost += 1
                    continue  # another writer moved first: look again
                played += 1
                if flagged and seat not in forfeited:
                    self._record_timeout(tournament_id, table, seat, version)
        if played:
            self.follow_results()
        return played

    def next_clock_look(self, tournament_id: str, game_id: str, now: int, least_ms: int) -> int | None:
        """When the clock keeper must look at the game again (ms; None: never, its clocks are done):
        when its first running clock runs out, and no later than the earliest moment any other
        clock could (but not within ``least_ms`` of now for those: that bound moves with every
        look); every ``least_ms`` while a forfeited seat's moves are the bot's to play."""
        state = self.load(tournament_id).log.state
        table = state.table_of(game_id)
        if (
            table is None
            or state.settings.time_control is None
            or state.ended is not None
            or game_id in state.voided()
            or game_id in state.results
        ):
            return None
        aggregate = self.load(tournament_id)
        with self._clocked_game(aggregate, table) as clock:
            possible = clock.earliest_possible_expiry(now)
            if possible is None:
                return None
            if state.forfeited(game_id):
                return now + least_ms
            running = clock.next_expiry()
            later = max(possible, now + least_ms)
            return later if running is None else min(running, later)

    def _move_for_forfeited(self, aggregate: TournamentAggregate, table: Table, forfeited: set[Seat]) -> bool:
        """An unclocked game: the bot moves for a forfeited seat the game awaits, if any."""
        with self._current_game(table.game_id) as game:
            match = game.match
            seat = None if match.is_over else min(forfeited & set(match.game.awaited(match.state)), default=None)
            return seat is not None and self._bot_move(aggregate, table, seat, match, game.version, None)

    def _record_missing_timeouts(self, tournament_id: str, table: Table, clock: GameClock) -> None:
        """A rule's move recorded without its ``TimedOut`` (the process stopped between the two):
        the timeout is recorded now, as it is due."""
        state = self.load(tournament_id).log.state
        recorded = [t for t in state.timeouts if t["game_id"] == table.game_id]
        for finding in check_clock(clock, recorded, _ruled_forfeits(state, table)).findings:
            due = finding.due
            if due is not None and due.mover == due.seat:
                self._record_timeout(tournament_id, table, due.seat, due.version)

    def _record_timeout(self, tournament_id: str, table: Table, seat: Seat, version: int) -> None:
        """Record the timeout whose rule's move the game's record has at ``version`` + 1, once, and
        only if the verifier's own clock check (``check_clock``) accepts it against the record as
        the store has it."""
        for _ in range(MAX_PLAY_ATTEMPTS):
            aggregate = self.load(tournament_id)
            state = aggregate.log.state
            clock = self._clock(aggregate, table)
            command = clock.command_after(version)
            expired_at = None if command is None else command.expiries.get(seat)
            recorded = [t for t in state.timeouts if t["game_id"] == table.game_id]
            asked = {"seat": seat, "version": version, "expired_at": expired_at}
            check = check_clock(clock, [*recorded, asked], _ruled_forfeits(state, table))
            problems = check.problems_of(len(recorded))
            if expired_at is None or problems:
                log.error(
                    "game %s: not recording a timeout of seat %s at %s: %s",
                    table.game_id,
                    seat,
                    version,
                    "; ".join(problems) or "its clock was not running",
                )
                return
            try:
                with self._changing(tournament_id) as changing:
                    state = changing.log.state
                    if any(
                        t["game_id"] == table.game_id and t["seat"] == seat and t["version"] == version
                        for t in state.timeouts
                    ):
                        return  # recorded already (by another process, or before a restart)
                    data = rules.timed_out(state, table.game_id, seat, version, expired_at, self.now())
                    changing.append(TIMED_OUT, data)
                    self.save(changing)
                return
            except Conflict:
                continue  # the tournament changed meanwhile (another process): look again

    def _bot_move(
        self, aggregate: TournamentAggregate, table: Table, seat: Seat, match: Match, version: int, at: int | None
    ) -> bool:
        """The clock's bot's move for the seat in ``match`` (the game at ``version``), executed at that
        version; False when another command was recorded first. It is recorded as no act of the
        seat's: the organiser's, for a seat whose player they ruled forfeited, else the server's (the
        clock rule's), unsigned whether the seat is keyed or not."""
        state = aggregate.log.state
        seed = clock_bot_seed(aggregate.seed, state.tournament_id, table.game_id, version)
        bot = clock_bot(state.settings.time_control, seed)
        command = bot.choose(match.game, match.state, seat)
        token = aggregate.seat_tokens[table.game_id][seat]
        by = ORGANISERS_ACT if table.players[seat] in ruled_forfeits(state, table.game_id) else BY_SERVER
        try:
            self.games.execute(table.game_id, token, recorded_command(command), version, at=at, by=by)
        except StaleVersion:
            self._drop_cached_game(table.game_id)
            return False
        return True

    @contextmanager
    def _clocked_game(self, aggregate: TournamentAggregate, table: Table) -> Iterator[GameClock]:
        """The game's clocks as the store's records leave them, with the game held still in this
        process; a cached game that is behind the store (another process wrote) is dropped, so the
        command that follows is decided on the game as it is."""
        with self.games.reading(table.game_id) as game:
            clock = self._clock(aggregate, table)
            if game.version != clock.version:
                self._drop_cached_game(table.game_id)
            yield clock

    @contextmanager
    def _current_game(self, game_id: str) -> Iterator[GameAggregate]:
        """The game as the store has it now, held still in this process."""
        with self.games.reading(game_id) as game:
            if not self.games.records(game_id, after=game.version, through=game.version + 1):
                yield game
                return
            self._drop_cached_game(game_id)
            yield self.games.load(game_id)

    def _drop_cached_game(self, game_id: str) -> None:
        self.games._evict(parse_game_id(game_id))

    def _clock(self, aggregate: TournamentAggregate, table: Table) -> GameClock:
        """The game's clocks, kept in process and fed the records added to the store since they
        were last read (so they are never behind the store, whoever wrote)."""
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
        with self._follow_lock:
            before = self._results.recorded
            self._results_follower.catch_up()
            return self._results.recorded - before

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


def _running_tables_of(state: TournamentState, player: int) -> list[Table]:
    """The tables ``player`` sits at whose game has no result and is not void: still being played."""
    done = set(state.results) | state.voided()
    return [t for t in state.tables() if player in t.players and t.game_id not in done]


def _ruled_forfeits(state: TournamentState, table: Table) -> list[tuple[int, Seat]]:
    """The seats of a table forfeited by an organiser's ruling, with when (from then on the bot
    plays them, with no timeout)."""
    return [
        (a["at"], table.players.index(a["player"]))
        for a in state.adjudications
        if a["kind"] == FORFEIT_GAME and a["game_id"] == table.game_id and a["player"] in table.players
    ]
