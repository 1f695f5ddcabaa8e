"""A running game as a log of records: the pure core that the aggregate, the bots,
the simulator and the verifier all share."""

from __future__ import annotations

from typing import Any

from domain.kernel import engine
from domain.kernel.chance import Chance
from domain.kernel.errors import BAD_INPUT, RuleViolation
from domain.kernel.game import GameDefinition
from domain.kernel.log import (
    COMMAND_ACCEPTED,
    GAME_CREATED,
    GENESIS,
    Record,
    RecordParts,
    command_record_parts,
    event_record_parts,
    make_record,
)
from domain.kernel.messages import Command, Event
from domain.kernel.seats import Seat

# A seat taken by name in a game created with open seats (a platform record, public).
SEAT_TAKEN = "SeatTaken"
# Refusals of a join (the platform's, not a game rule's).
SEATS_FULL = "SEATS_FULL"
SEAT_TAKEN_ALREADY = "SEAT_TAKEN"
NAME_TAKEN = "NAME_TAKEN"
MAX_NAME_LENGTH = 40


class Match:
    """One game instance: its state, its chance source and the tip of its hash chain.

    ``execute`` decides and applies a command and returns the new records; ``apply_record``
    replays a stored record. Both leave the match at the same state for the same log.
    """

    def __init__(self, game: GameDefinition[Any], players: int, options: dict[str, Any], chance: Chance) -> None:
        self.game = game
        self.players = players
        self.options = options
        self.chance = chance
        self.state: Any = game.initial_state(players, options)
        self.version = 0
        self.last_hash = GENESIS
        self.command_positions: dict[str, int] = {}  # client command id -> its CommandAccepted position
        self.forked_from: dict[str, Any] | None = None
        # Open seats: players join by name, and the game starts when the last seat is taken.
        self.waiting = False  # created with open seats, some still open: no setup has happened yet
        self.names: dict[Seat, str] = {}

    # -- creating ---------------------------------------------------------------------------------

    @classmethod
    def create(
        cls,
        game: GameDefinition[Any],
        players: int,
        options: dict[str, Any] | None,
        seed: bytes,
        open_seats: bool = False,
    ) -> tuple[Match, list[Record]]:
        """A new game. With ``open_seats`` it waits for every seat to be taken (``take_seat``)
        before it starts; otherwise it starts at once."""
        engine.check_player_count(game, players)
        normalized = game.normalize_options(players, dict(options or {}))
        match = cls(game, players, normalized, Chance(seed))
        match.waiting = open_seats
        created: RecordParts = (GAME_CREATED, match.created_data(), None, None)
        if open_seats:
            return match, match._seal_batch([created], {})
        return match, match._seal_batch([created, *match._start()], {})

    def _start(self) -> list[RecordParts]:
        """The one point where a game starts: the setup, and its first draws on chance."""
        self.state, events = engine.start(self.game, self.players, self.options, self.chance)
        self.waiting = False
        return list(map(event_record_parts, events))

    @property
    def open_seats(self) -> list[Seat]:
        return [seat for seat in range(self.players) if seat not in self.names] if self.waiting else []

    def take_seat(self, name: str, seat: Seat | None = None) -> tuple[Seat, list[Record]]:
        """Seat ``name`` (at ``seat``, or the first open one); the last seat taken starts the game.

        Raises ``RuleViolation`` and changes nothing when the join is refused."""
        if not self.waiting:
            raise RuleViolation(SEATS_FULL, "this game has no open seats")
        if not isinstance(name, str) or not name.strip() or len(name.strip()) > MAX_NAME_LENGTH:
            raise RuleViolation(BAD_INPUT, f"name must be 1 to {MAX_NAME_LENGTH} characters")
        name = name.strip()
        if name.casefold() in {n.casefold() for n in self.names.values()}:
            raise RuleViolation(NAME_TAKEN, f"{name!r} already sits at this game; choose another name")
        if seat is None:
            seat = self.open_seats[0]
        elif seat not in self.open_seats:
            open_list = ", ".join(map(str, self.open_seats))
            raise RuleViolation(SEAT_TAKEN_ALREADY, f"seat {seat} is not open; the open seats are {open_list}")
        counters_before = dict(self.chance.counters)
        self.names[seat] = name
        parts: list[RecordParts] = [(SEAT_TAKEN, {"seat": seat, "name": name}, None, None)]
        if not self.open_seats:
            parts += self._start()
        return seat, self._seal_batch(parts, counters_before)

    @classmethod
    def fork(
        cls, at: Match, history: list[Record], seed: bytes, forked_from: dict[str, Any]
    ) -> tuple[Match, list[Record]]:
        """A new game that starts as ``at`` (the source at version ``len(history)``) with a new seed.

        The history is copied onto the new chain (client command ids dropped, private data
        re-committed under the new seed); the chance counters carry on.
        """
        match = cls(at.game, at.players, at.options, Chance(seed, at.chance.counters))
        match.forked_from = forked_from
        match.names = dict(at.names)
        parts: list[RecordParts] = [(GAME_CREATED, match.created_data(), None, None)]
        for record in history[1:]:
            data = {**record.data, "command_id": None} if record.type == COMMAND_ACCEPTED else record.data
            viewers = frozenset(record.viewers) if record.viewers is not None else None
            parts.append((record.type, data, viewers, record.public))
        records = match._seal_batch(parts, {})
        match.state = at.state
        return match, records

    def created_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "game": self.game.id,
            "players": self.players,
            "options": self.options,
            "seed_commitment": self.chance.commitment,
        }
        if self.forked_from is not None:
            data["forked_from"] = self.forked_from
        if self.waiting:
            data["open_seats"] = True
        return data

    # -- playing ----------------------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return bool(self.game.is_over(self.state))

    def execute(self, seat: Seat, command: Command, command_id: str | None = None) -> list[Record]:
        """Decide and apply ``command`` for ``seat``; raises ``RuleViolation`` and changes nothing if refused."""
        counters_before = dict(self.chance.counters)
        try:
            state, events = engine.execute(self.game, self.state, seat, command, self.chance)
        except RuleViolation:
            # A refusal records nothing, so it must not move the chance streams either: the
            # next draw has to be the one a replay of the log would make.
            self.chance.counters = counters_before
            raise
        self.state = state
        records = self._seal_batch(
            [command_record_parts(seat, command, command_id), *map(event_record_parts, events)], counters_before
        )
        if command_id is not None:
            self.command_positions[command_id] = records[0].position
        return records

    def _seal_batch(self, parts: list[RecordParts], counters_before: dict[str, int]) -> list[Record]:
        """Seal a command's (or the creation's) records; when the batch drew on chance, its last
        record carries the counters, so a game reloaded from its log draws on from there."""
        changed = self.chance.counters != counters_before
        last = len(parts) - 1
        return [self._seal(*p, counters_changed=changed and i == last) for i, p in enumerate(parts)]

    def _seal(
        self,
        type_: str,
        data: dict[str, Any],
        viewers: frozenset[Seat] | None,
        public: dict[str, Any] | None,
        counters_changed: bool = False,
    ) -> Record:
        counters = dict(self.chance.counters) if counters_changed else None
        record = make_record(
            position=self.version + 1,
            type_=type_,
            data=data,
            prev=self.last_hash,
            chance=self.chance,
            viewers=viewers,
            public=public,
            counters=counters,
        )
        self.version = record.position
        self.last_hash = record.hash
        return record

    # -- replaying --------------------------------------------------------------------------------

    def apply_record(self, record: Record) -> None:
        """Replay one stored record (no rule runs: events record outcomes)."""
        if record.type == COMMAND_ACCEPTED:
            command_id = record.data.get("command_id")
            if command_id is not None:
                self.command_positions[command_id] = record.position
        elif record.type == GAME_CREATED:
            self.waiting = bool(record.data.get("open_seats"))
        elif record.type == SEAT_TAKEN:
            self.names[record.data["seat"]] = record.data["name"]
            if len(self.names) == self.players:
                self.waiting = False
        else:
            event_type = self.game.event_types[record.type]
            self.state = self.game.evolve(self.state, event_type.from_dict(record.data))
        if record.chance is not None:
            self.chance.counters = dict(record.chance)
        self.version = record.position
        self.last_hash = record.hash

    def event_of(self, record: Record) -> Event:
        return self.game.event_types[record.type].from_dict(record.data)
