"""A running game as a log of records: the pure core that the aggregate, the bots,
the simulator and the verifier all share."""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any

from domain.kernel import engine
from domain.kernel.chance import Chance, parse_contribution
from domain.kernel.errors import ALREADY_CONTRIBUTED, BAD_INPUT, GAME_OVER, BrokenInvariant, RuleViolation
from domain.kernel.game import GameDefinition
from domain.kernel.log import (
    COMMAND_ACCEPTED,
    GAME_CREATED,
    GENESIS,
    Record,
    RecordParts,
    canonical,
    command_record_parts,
    event_record_parts,
    make_record,
    recorded_command,
)
from domain.kernel.messages import Command, Event
from domain.kernel.names import NAME_TAKEN as NAME_TAKEN  # a join's refusal
from domain.kernel.names import check_name_free, player_name
from domain.kernel.seats import Seat
from domain.kernel.signatures import (
    ACTORS,
    BAD_SIGNATURE,
    BY_ORGANISER,
    KEY_ALREADY_SET,
    KEY_REQUIRED,
    check_signature,
    parse_public_key,
    signed_payload,
)

# A seat taken by name in a game created with open seats (a platform record, public).
SEAT_TAKEN = "SeatTaken"
# A key registered for a seat after it was taken, before its first command (public); with ``by``
# ("organiser"), a replacement player's key that takes the seat over from that record on.
SEAT_KEYED = "SeatKeyed"
# Refusals of a join (the platform's, not a game rule's).
SEATS_FULL = "SEATS_FULL"
SEAT_TAKEN_ALREADY = "SEAT_TAKEN"
MAX_NAME_LENGTH = 40
# The chance source of a replayed match: replay never draws on chance (events record outcomes),
# so it is a stand-in that a match needs to exist.
REPLAY_SEED = b"replay"


def command_key(seat: Seat, command_id: str) -> str:
    """Command ids are scoped per seat: a seat never learns which ids another seat used."""
    return f"{seat}:{command_id}"


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
        self.seed_commitment = chance.commitment
        self.state: Any = game.initial_state(players, options)
        self.version = 0
        self.last_hash = GENESIS
        self.command_positions: dict[str, int] = {}  # command_key(seat, id) -> its CommandAccepted position
        self.forked_from: dict[str, Any] | None = None
        # Open seats: players join by name, and the game starts when the last seat is taken.
        self.waiting = False  # created with open seats, some still open: no setup has happened yet
        self.names: dict[Seat, str] = {}
        # Seat keys (base64url Ed25519 public keys): a keyed seat signs each command over this id.
        self.keys: dict[Seat, str] = {}
        self.game_id: str | None = None
        self.keys_required = False  # every seat must be taken with a key
        self.acted: set[Seat] = set()  # seats that have sent a command in this game (not a fork's copies)
        # The last command admitted (seat, command, version): the service admits a command before it
        # executes it, and the turn checked then is not checked again at the same version.
        self._admitted: tuple[Seat, Command, int] | None = None
        # The last command admitted with its signature checked (seat, command, version signed, command
        # id, contribution, signature): ``execute`` does not check the same signature a second time.
        self._signed_admission: tuple[Seat, Command, int, str | None, str | None, str | None] | None = None

    # -- creating ---------------------------------------------------------------------------------

    @classmethod
    def create(
        cls,
        game: GameDefinition[Any],
        players: int,
        options: dict[str, Any] | None,
        seed: bytes,
        open_seats: bool = False,
        keys_required: bool = False,
    ) -> tuple[Match, list[Record]]:
        """A new game. With ``open_seats`` it waits for every seat to be taken (``take_seat``)
        before it starts; otherwise it starts at once. With ``keys_required`` every seat must be
        taken with a key (open seats), or keyed (``register_key``) before its first command, so that
        every command of the game is signed by its seat."""
        engine.check_player_count(game, players)
        normalized = game.normalize_options(players, dict(options or {}))
        match = cls(game, players, normalized, Chance(seed))
        match.waiting = open_seats
        match.keys_required = keys_required
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

    def take_seat(
        self, name: str, seat: Seat | None = None, public_key: str | None = None, game_id: str | None = None
    ) -> tuple[Seat, list[Record]]:
        """Seat ``name`` (at ``seat``, or the first open one); the last seat taken starts the game.
        With a ``public_key`` the seat is keyed: the record holds the key and the ``game_id`` its
        signatures are made over, so that the record alone is enough to check them.

        Raises ``RuleViolation`` and changes nothing when the join is refused."""
        if not self.waiting:
            raise RuleViolation(SEATS_FULL, "this game has no open seats")
        if public_key is not None:
            public_key = parse_public_key(public_key)
            self._check_game_id(game_id)
        elif self.keys_required:
            raise RuleViolation(KEY_REQUIRED, "this game requires a key for every seat: join with a public_key")
        name = player_name(name, MAX_NAME_LENGTH)
        check_name_free(name, self.names.values())
        if seat is None:
            seat = self.open_seats[0]
        elif seat not in self.open_seats:
            open_list = ", ".join(map(str, self.open_seats))
            raise RuleViolation(SEAT_TAKEN_ALREADY, f"seat {seat} is not open; the open seats are {open_list}")
        counters_before = dict(self.chance.counters)
        self.names[seat] = name
        taken: dict[str, Any] = {"seat": seat, "name": name}
        if public_key is not None:
            self.keys[seat], self.game_id = public_key, game_id
            taken |= {"public_key": public_key, "game_id": game_id}
        parts: list[RecordParts] = [(SEAT_TAKEN, taken, None, None)]
        if not self.open_seats:
            parts += self._start()
        return seat, self._seal_batch(parts, counters_before)

    def register_key(self, seat: Seat, public_key: str, game_id: str, by: str | None = None) -> list[Record]:
        """Key ``seat`` after it was taken: once, and before its first command, so that all of the
        seat's commands are signed or none. Raises ``RuleViolation`` and changes nothing if refused.

        With ``by="organiser"`` it is the organiser's act, not the seat's: a replacement player takes
        the seat over in a running game, with their own key, which signs the seat's commands from
        this record on (the earlier key, if any, no longer does)."""
        public_key = parse_public_key(public_key)
        self._check_game_id(game_id)
        if self.is_over:
            raise RuleViolation(GAME_OVER, "the game has ended: a key now would sign nothing")
        if not 0 <= seat < self.players or (self.waiting and seat not in self.names):
            raise RuleViolation(BAD_INPUT, f"seat {seat} is not a taken seat of this game")
        if by is not None:
            return self._rekey_by_organiser(seat, public_key, game_id, by)
        if seat in self.keys:
            raise RuleViolation(KEY_ALREADY_SET, f"seat {seat} already has a key; a seat's key cannot change")
        if seat in self.acted:
            raise RuleViolation(
                KEY_ALREADY_SET, f"seat {seat} has already sent commands unsigned; a key comes before the first one"
            )
        self.keys[seat], self.game_id = public_key, game_id
        data = {"seat": seat, "public_key": public_key, "game_id": game_id}
        return self._seal_batch([(SEAT_KEYED, data, None, None)], dict(self.chance.counters))

    def _rekey_by_organiser(self, seat: Seat, public_key: str, game_id: str, by: str) -> list[Record]:
        if by != BY_ORGANISER:
            raise RuleViolation(BAD_INPUT, f"only the organiser re-keys a seat (by {BY_ORGANISER!r}), not {by!r}")
        if self.keys.get(seat) == public_key:
            raise RuleViolation(KEY_ALREADY_SET, f"seat {seat} is keyed with this key already")
        self.keys[seat], self.game_id = public_key, game_id
        data = {"seat": seat, "public_key": public_key, "game_id": game_id, "by": by}
        return self._seal_batch([(SEAT_KEYED, data, None, None)], dict(self.chance.counters))

    def _check_game_id(self, game_id: str | None) -> None:
        if not isinstance(game_id, str) or not game_id:
            raise RuleViolation(BAD_SIGNATURE, "a keyed seat's record names the game id its signatures are over")
        if self.game_id is not None and game_id != self.game_id:
            raise RuleViolation(BAD_SIGNATURE, f"this game's keyed seats sign over game id {self.game_id}")

    @classmethod
    def fork(cls, origin: Match, history: list[Record], seed: bytes, origin_game_id: str) -> tuple[Match, list[Record]]:
        """A new game that starts as ``origin`` (an ended game, at version ``len(history)``) with a
        new seed: the copied history, then the hidden stacks put in a new order drawn from the new
        seed (the original's revealed log shows its order, so a fork must not inherit it)."""
        chance = Chance(seed, origin.chance.counters)
        match, records = cls.fork_copy(origin, history, chance, origin_game_id, chance.commitment)
        return match, records + match.reshuffle_batch()

    @classmethod
    def fork_copy(
        cls, origin: Match, history: list[Record], chance: Chance, origin_game_id: str, seed_commitment: str
    ) -> tuple[Match, list[Record]]:
        """``GameCreated`` of the fork and the copied history, without the reshuffle.

        The copies are public (the original has ended: everything in it is public) and keep each
        record's type, data and chance counters, so anyone can re-execute them with the original's
        revealed seed (which ``forked_from`` carries with the original's ``GameCreated``) and
        check that they are the original's first ``version`` records (``fingerprint``).
        """
        match = cls(origin.game, origin.players, origin.options, chance)
        match.seed_commitment = seed_commitment
        match.names = dict(origin.names)
        match.forked_from = {
            "game_id": origin_game_id,
            "version": len(history),
            "fingerprint": history[-1].hash,
            "created": history[0].data,
            "seed": origin.chance.seed_hex,
        }
        records = [match._seal(GAME_CREATED, match.created_data(), None, None)]
        records += [match._seal(r.type, r.data, None, None, r.chance) for r in history[1:]]
        match.state = copy.deepcopy(origin.state)
        return match, records

    def created_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "game": self.game.id,
            "players": self.players,
            "options": self.options,
            "seed_commitment": self.seed_commitment,
        }
        if self.forked_from is not None:
            data["forked_from"] = self.forked_from
        if self.waiting:
            data["open_seats"] = True
        if self.keys_required:
            data["keys_required"] = True
        return data

    @property
    def copied_through(self) -> int:
        """The last position copied from the original game (0 unless this is a fork): those
        records belong to the original's chance and command ids, not to this game's."""
        return int(self.forked_from["version"]) if self.forked_from is not None else 0

    # -- playing ----------------------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return bool(self.game.is_over(self.state))

    def admit(self, seat: Seat, payload: Any) -> Command:
        """The command client JSON asks for, or the first refusal in the shared order (``engine.admit``)."""
        command = engine.admit(self.game, self.state, seat, payload)
        self._admitted = (seat, command, self.version)
        return command

    def admit_signed(
        self,
        seat: Seat,
        payload: dict[str, Any],
        command_id: str | None,
        contribution: str | None,
        signature: str | None,
        expected_version: int | None,
    ) -> Command:
        """``admit`` for a seat's request, its signature checked first (``check_signed``: before any
        rule sees the command). A signed command must be sent with every field as it is recorded: the
        record holds the parsed command, and the signature must be over what the record holds."""
        checked = self.check_signed(seat, payload, command_id, contribution, signature, expected_version)
        command = self.admit(seat, payload)
        if checked is not None and recorded_command(command) != payload:
            raise RuleViolation(
                BAD_SIGNATURE,
                f"a signed command must be sent (and signed) with every field as it is recorded: "
                f"{canonical(recorded_command(command))}",
            )
        if expected_version is not None:
            self._signed_admission = (seat, command, expected_version, command_id, contribution, checked)
        return command

    def _turn_checked(self, seat: Seat, command: Command) -> bool:
        """Whether ``admit`` checked this very command's turn at the current version."""
        admitted = self._admitted
        return admitted is not None and admitted[1] is command and admitted[0] == seat and admitted[2] == self.version

    def check_signed(
        self,
        seat: Seat,
        command: dict[str, Any],
        command_id: str | None,
        contribution: str | None,
        signature: str | None,
        expected_version: int | None,
    ) -> str | None:
        """The command's signature once it is valid for ``seat`` at ``expected_version`` (None for a
        seat without a key, which may not sign: nobody could check it); else
        ``RuleViolation(BAD_SIGNATURE)``. ``command`` is the command as signed (its type and fields).

        ``command_id`` and ``expected_version`` are required of a keyed seat: signed, they make each
        signature good for one command of one game at one version, never to be replayed."""
        key = self.keys.get(seat)
        if key is None and self.keys_required:
            raise RuleViolation(
                BAD_SIGNATURE, f"this game requires keys: register seat {seat}'s key (POST .../key) before it acts"
            )
        if key is None:
            if signature is not None:
                raise RuleViolation(BAD_SIGNATURE, f"seat {seat} has no key, so its commands carry no signature")
            return None
        if command_id is None or expected_version is None:
            raise RuleViolation(
                BAD_SIGNATURE, f"seat {seat} has a key: its commands need a command_id and expected_version"
            )
        if self.game_id is None:
            raise BrokenInvariant("a seat key is only ever recorded with its game id")
        payload = signed_payload(self.game_id, seat, expected_version, command_id, command, contribution)
        return check_signature(key, signature, payload, seat)

    def command_position(self, seat: Seat, command_id: str) -> int | None:
        return self.command_positions.get(command_key(seat, command_id))

    def execute(
        self,
        seat: Seat,
        command: Command,
        command_id: str | None = None,
        contribution: str | None = None,
        at: int | None = None,
        signature: str | None = None,
        by: str | None = None,
    ) -> list[Record]:
        """Decide and apply ``command`` for ``seat``; raises ``RuleViolation`` and changes nothing if refused.

        A keyed seat's command must carry its ``signature`` (``check_signed``), checked before any rule.
        A command ``by`` the server or the organiser (``ACTORS``: a clock rule's move, a forfeited
        seat's) is no act of the seat: it carries no signature and its record says whose it was.

        With a ``contribution`` (once per seat), the seat's entropy is mixed into the chance before
        the command is decided, and the hidden stacks are put in a new order drawn from it. ``at``
        stamps the command with the server's time (clocked tournament games).
        """
        counters_before = dict(self.chance.counters)
        reshuffled: list[Event] = []
        saved_state = None
        if contribution is not None:
            contribution = parse_contribution(contribution)
        if by is None:
            if self._signed_admission != (seat, command, self.version, command_id, contribution, signature):
                signature = self.check_signed(
                    seat, recorded_command(command), command_id, contribution, signature, self.version
                )
        elif by not in ACTORS or signature is not None or contribution is not None:
            raise RuleViolation(
                BAD_SIGNATURE,
                f"a command by {by!r} is the act of one of {', '.join(ACTORS)}, unsigned, contributing nothing",
            )
        if contribution is not None and self.chance.contributed(seat):
            raise RuleViolation(ALREADY_CONTRIBUTED, f"seat {seat} has already contributed chance to this game")
        # The turn is checked once, before a contribution reshuffles anything.
        if not self._turn_checked(seat, command):
            engine.check_turn(self.game, self.state, seat, command.type)
        if contribution is not None:
            saved_state = copy.deepcopy(self.state)
            self.chance.contribute(seat, contribution)
            reshuffled = self._reshuffle()
        try:
            state, events = engine.decide_and_apply(self.game, self.state, seat, command, self.chance)
        except RuleViolation:
            # A refusal records nothing, so it must not move the chance streams either: the
            # next draw has to be the one a replay of the log would make.
            self.chance.counters = counters_before
            if saved_state is not None:
                self.chance.withdraw_last()
                self.state = saved_state
            raise
        self.state = state
        records = self._seal_batch(
            [
                command_record_parts(seat, command, command_id, contribution, at, signature, by),
                *map(event_record_parts, reshuffled),
                *map(event_record_parts, events),
            ],
            counters_before,
        )
        if command_id is not None:
            self.command_positions[command_key(seat, command_id)] = records[0].position
        self.acted.add(seat)
        return records

    def reshuffle_batch(self) -> list[Record]:
        counters_before = dict(self.chance.counters)
        events = self._reshuffle()
        return self._seal_batch(list(map(event_record_parts, events)), counters_before) if events else []

    def _reshuffle(self) -> list[Event]:
        events = self.game.reshuffle_hidden(self.state, self.chance)
        for event in events:
            self.state = self.game.evolve(self.state, event)
        return events

    def _seal_batch(self, parts: list[RecordParts], counters_before: dict[str, int]) -> list[Record]:
        """Seal a command's (or the creation's) records; when the batch drew on chance, its last
        record carries the counters, so a game reloaded from its log draws on from there."""
        changed = self.chance.counters != counters_before
        last = len(parts) - 1
        return [
            self._seal(*p, counters=dict(self.chance.counters) if changed and i == last else None)
            for i, p in enumerate(parts)
        ]

    def _seal(
        self,
        type_: str,
        data: dict[str, Any],
        viewers: frozenset[Seat] | None,
        public: dict[str, Any] | None,
        counters: dict[str, int] | None = None,
    ) -> Record:
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

    @classmethod
    def replay(
        cls, game: GameDefinition[Any], players: int, options: dict[str, Any], records: Iterable[Record] = ()
    ) -> Match:
        """The match that the stored ``records`` (from the first) leave; more may be applied after
        with ``apply_record``. Its chance source is a stand-in (``REPLAY_SEED``)."""
        match = cls(game, players, options, Chance(REPLAY_SEED))
        for record in records:
            match.apply_record(record)
        return match

    def apply_record(self, record: Record) -> None:
        """Replay one stored record (no rule runs: events record outcomes)."""
        if record.type == COMMAND_ACCEPTED:
            if record.position > self.copied_through:
                seat = record.data["seat"]
                self.acted.add(seat)
                command_id = record.data.get("command_id")
                if command_id is not None:
                    self.command_positions[command_key(seat, command_id)] = record.position
                contribution = record.data.get("contribution")
                if contribution is not None:
                    self.chance.contribute(seat, contribution)
        elif record.type == GAME_CREATED:
            self.forked_from = record.data.get("forked_from")
            self.seed_commitment = record.data["seed_commitment"]
            self.waiting = bool(record.data.get("open_seats"))
            self.keys_required = bool(record.data.get("keys_required"))
        elif record.type == SEAT_TAKEN:  # a fork's copies too: the fork keeps the names
            self.names[record.data["seat"]] = record.data["name"]
            if "public_key" in record.data and record.position > self.copied_through:  # not the keys: new seats
                self.keys[record.data["seat"]] = record.data["public_key"]
                self.game_id = record.data["game_id"]
            if len(self.names) == self.players:
                self.waiting = False
        elif record.type == SEAT_KEYED:
            if record.position > self.copied_through:
                self.keys[record.data["seat"]] = record.data["public_key"]
                self.game_id = record.data["game_id"]
        else:
            event_type = self.game.event_types[record.type]
            self.state = self.game.evolve(self.state, event_type.from_dict(record.data))
        if record.chance is not None:
            self.chance.counters = dict(record.chance)
        self.version = record.position
        self.last_hash = record.hash

    def event_of(self, record: Record) -> Event:
        return self.game.event_types[record.type].from_dict(record.data)
