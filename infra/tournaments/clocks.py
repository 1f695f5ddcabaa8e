"""Playing at a tournament's tables: a player's command at their seat (stamped with the
server's time on a clocked game), and the clock rule: timeouts recorded as the verifier checks
them, and the clock's bot moving for a seat out of time or forfeited."""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from domain.catalog import GAMES
from domain.kernel.log import GAME_ENDED, recorded_command
from domain.kernel.match import Match
from domain.kernel.seats import Seat
from domain.kernel.signatures import BY_ORGANISER as ORGANISERS_ACT
from domain.kernel.signatures import BY_SERVER
from domain.tournament import rules
from domain.tournament.clock import GameClock, check_clock, clock_bot
from domain.tournament.log import TIMED_OUT, Table, ruled_forfeits
from domain.tournament.seeds import clock_bot_seed
from infra.games.aggregate import GameAggregate
from infra.games.service import CommandResult, Conflict, StaleVersion, parse_game_id
from infra.tournaments.aggregate import TournamentAggregate
from infra.tournaments.rulings import ruled_forfeit_seats

if TYPE_CHECKING:
    from infra.tournaments.service import TournamentService

MAX_CLOCK_MOVES = 10_000  # a safety bound on moves the clock rule plays in one go
MAX_CLOCKS_KEPT = 512
MAX_PLAY_ATTEMPTS = 8  # a clocked command decided again this often at most while other writers move the game

log = logging.getLogger(__name__)


class Clocks:
    def __init__(self, tournaments: TournamentService) -> None:
        self.tournaments = tournaments
        self.games = tournaments.games
        # Clocks of running games, each fed only the records it has not seen; bounded (a clock is
        # recomputed from the record when it is needed again).
        self._clocks: OrderedDict[str, GameClock] = OrderedDict()
        self._clocks_lock = threading.Lock()

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
        aggregate, table, seat = self.tournaments.seat_of(tournament_id, game_id, player_token)
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
            aggregate = self.tournaments.load(tournament_id)
            state = aggregate.log.state
            rules.check_playable(state, game_id)
            if table.players[seat] in state.forfeited(game_id):
                raise Conflict(f"player {table.players[seat]} has forfeited game {game_id}; the bot plays the seat")
            token = aggregate.seat_tokens[game_id][seat]
            _, result = self.games.execute(
                game_id, token, payload, expected_version, command_id, contribution, signature=signature
            )
        if result.records[-1].type == GAME_ENDED:
            self.tournaments.follow_results()
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
            now = self.tournaments.now()
            self.enforce_clock(tournament_id, game_id, now)
            aggregate = self.tournaments.load(tournament_id)
            with self._clocked_game(aggregate, table) as clock:
                # Read under the game's lock: a timeout of the seat recorded meanwhile is seen.
                aggregate = self.tournaments.load(tournament_id)
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
                self.tournaments.follow_results()
            return result
        raise Conflict(f"game {game_id} kept moving while this command waited; send it again")

    def clock_view(self, game_id: str) -> dict[str, Any] | None:
        """The clocks of a clocked tournament game (None for any other game)."""
        tournament_id = self.tournaments.tournament_of(game_id)
        if tournament_id is None:
            return None
        aggregate = self.tournaments.load(tournament_id)
        table = aggregate.log.state.table_of(game_id)
        if table is None or aggregate.log.state.settings.time_control is None:
            return None
        with self._clocked_game(aggregate, table) as clock:
            return clock.view(self.tournaments.now())

    def enforce_clocks(self, tournament_id: str) -> int:
        """Apply the clock rule in every running game of the tournament (what a clock worker does);
        returns how many moves the rule played."""
        state = self.tournaments.state(tournament_id)
        return sum(
            self.enforce_clock(tournament_id, t.game_id)
            for t in state.tables()
            if t.game_id not in state.results and t.game_id not in state.voided()
        )

    def enforce_clock(self, tournament_id: str, game_id: str, now: int | None = None) -> int:
        """Record every timeout that is due in one game (by ``now``, the server's time by default)
        and apply the tournament's rule: the time control's bot (``time_control.bot``, greedy by
        default, with a stream derived from the master seed) moves for the seat; under the forfeit
        rule the seat then stays the bot's for the rest of the game. Seats forfeited by
        adjudication are moved for the same way. Returns how many moves were played.

        Everything is decided against the game as the store has it now (the clock is fed from the
        store's records, and a cached game that another process moved on is dropped), under the
        game's lock; the rule's move is executed at the version that was looked at, and only once
        it is recorded is its ``TimedOut`` recorded, checked as the verifier checks it first. A
        move that lost a race to another command is decided again."""
        played = lost = 0
        while played < MAX_CLOCK_MOVES and lost < MAX_PLAY_ATTEMPTS:
            aggregate = self.tournaments.load(tournament_id)
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
                at = max(self.tournaments.now() if now is None else now, clock.last_stamp)
                flagged = clock.out_of_time(at)
                seat = flagged[0] if flagged else min(forfeited & set(match.game.awaited(match.state)), default=None)
                if seat is None:
                    break
                if not self._bot_move(aggregate, table, seat, match, version, at):
                    lost += 1
                    continue  # another writer moved first: look again
                played += 1
                if flagged and seat not in forfeited:
                    self.record_timeout(tournament_id, table, seat, version)
        if played:
            self.tournaments.follow_results()
        return played

    def next_clock_look(self, tournament_id: str, game_id: str, now: int, least_ms: int) -> int | None:
        """When the clock keeper must look at the game again (ms; None: never, its clocks are done):
        when its first running clock runs out, and no later than the earliest moment any other
        clock could (but not within ``least_ms`` of now for those: that bound moves with every
        look); every ``least_ms`` while a forfeited seat's moves are the bot's to play."""
        state = self.tournaments.load(tournament_id).log.state
        table = state.table_of(game_id)
        if (
            table is None
            or state.settings.time_control is None
            or state.ended is not None
            or game_id in state.voided()
            or game_id in state.results
        ):
            return None
        aggregate = self.tournaments.load(tournament_id)
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
            return seat is not None and self._bot_move(aggregate, table, seat, match, match.version, None)

    def _record_missing_timeouts(self, tournament_id: str, table: Table, clock: GameClock) -> None:
        """A rule's move recorded without its ``TimedOut`` (the process stopped between the two):
        the timeout is recorded now, as it is due."""
        state = self.tournaments.load(tournament_id).log.state
        recorded = [t for t in state.timeouts if t["game_id"] == table.game_id]
        for finding in check_clock(clock, recorded, ruled_forfeit_seats(state, table)).findings:
            due = finding.due
            if due is not None and due.mover == due.seat:
                self.record_timeout(tournament_id, table, due.seat, due.version)

    def record_timeout(self, tournament_id: str, table: Table, seat: Seat, version: int) -> None:
        """Record the timeout whose rule's move the game's record has at ``version`` + 1, once, and
        only if the verifier's own clock check (``check_clock``) accepts it against the record as
        the store has it."""
        for _ in range(MAX_PLAY_ATTEMPTS):
            aggregate = self.tournaments.load(tournament_id)
            state = aggregate.log.state
            clock = self._clock(aggregate, table)
            command = clock.command_after(version)
            expired_at = None if command is None else command.expiries.get(seat)
            recorded = [t for t in state.timeouts if t["game_id"] == table.game_id]
            asked = {"seat": seat, "version": version, "expired_at": expired_at}
            check = check_clock(clock, [*recorded, asked], ruled_forfeit_seats(state, table))
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
                with self.tournaments.changing(tournament_id) as changing:
                    state = changing.log.state
                    if any(
                        t["game_id"] == table.game_id and t["seat"] == seat and t["version"] == version
                        for t in state.timeouts
                    ):
                        return  # recorded already (by another process, or before a restart)
                    data = rules.timed_out(state, table.game_id, seat, version, expired_at, self.tournaments.now())
                    changing.append(TIMED_OUT, data)
                    self.tournaments.save(changing)
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
            if game.match.version != clock.version:
                self._drop_cached_game(table.game_id)
            yield clock

    @contextmanager
    def _current_game(self, game_id: str) -> Iterator[GameAggregate]:
        """The game as the store has it now, held still in this process."""
        with self.games.reading(game_id) as game:
            if not self.games.records(game_id, after=game.match.version, through=game.match.version + 1):
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
