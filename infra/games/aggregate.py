"""The game aggregate: one ``eventsourcing`` aggregate per game instance, wrapping the pure
``Match`` at the persistence edge.

What one act records is one library event: ``Started`` for ``GameCreated`` (with the secret seed
and the hashes of the seat tokens, which stay in the store and never reach a client), then a
``Played`` with all the records of each command (the creation's setup, a key's registration),
and ``SeatJoined`` for a seat taken by name. So a command is one stored event, one row and one
notification, however many records it makes. The game's version is the number of its records
(``match.version``); the aggregate's ``version`` counts stored events, and ``ends`` maps one to
the other. Games stored before, with one ``Recorded`` event per record, load as they are.
"""

from __future__ import annotations

import base64
import pickle
from bisect import bisect_left
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any, Protocol, cast
from uuid import UUID

import orjson
from eventsourcing.domain import Aggregate
from eventsourcing.persistence import JSONTranscoder, Mapper, Notification, StoredEvent, Transcoding
from eventsourcing.utils import get_topic

from domain.catalog import GAMES
from domain.kernel.chance import Chance
from domain.kernel.log import Record
from domain.kernel.match import Match
from domain.kernel.messages import Command
from domain.kernel.seats import Seat


class GameAggregate(Aggregate):
    class Started(Aggregate.Created):
        game: str
        players: int
        options: dict[str, Any]
        seed: str
        token_hashes: list[str | None]  # None: an open seat
        record: dict[str, Any]

    class Played(Aggregate.Event):
        """The records of one act, in order: a command and its consequences."""

        records: list[dict[str, Any]]

        def apply(self, aggregate: GameAggregate) -> None:
            if not aggregate._applying_live:
                for record in self.records:
                    aggregate.match.apply_record(Record.from_dict(record))
            aggregate.stored_ends().append(self.records[-1]["position"])

    class Recorded(Aggregate.Event):
        """One record (games stored before ``Played``)."""

        record: dict[str, Any]

        def apply(self, aggregate: GameAggregate) -> None:
            if not aggregate._applying_live:
                aggregate.match.apply_record(Record.from_dict(self.record))
            aggregate.stored_ends().append(self.record["position"])

    class SeatJoined(Aggregate.Event):
        """A seat taken by name: its log record, and every seat's token hash so far (the read
        side takes the list as it is, like the creation's)."""

        record: dict[str, Any]
        token_hashes: list[str | None]

        def apply(self, aggregate: GameAggregate) -> None:
            aggregate.token_hashes = list(self.token_hashes)
            if not aggregate._applying_live:
                aggregate.match.apply_record(Record.from_dict(self.record))
            aggregate.stored_ends().append(self.record["position"])

    _applying_live = False  # set while ``execute`` records what the match already applied

    def __init__(
        self,
        game: str,
        players: int,
        options: dict[str, Any],
        seed: str,
        token_hashes: list[str | None],
        record: dict[str, Any],
    ) -> None:
        self.token_hashes = token_hashes
        self.match = Match(GAMES.get(game), players, options, Chance.from_hex(seed))
        self.match.forked_from = record["data"].get("forked_from")
        self.match.apply_record(Record.from_dict(record))
        # The game's version after each stored event: ends[v - 1] for the aggregate's version v.
        self.ends: list[int] = [record["position"]]

    def stored_ends(self) -> list[int]:
        """``ends``, made for a snapshot taken before it was kept (when every stored event
        held one record, so the versions were the same)."""
        if "ends" not in self.__dict__:
            self.ends = list(range(1, self.version + 1))
        return self.ends

    def stored_version_holding(self, position: int) -> int:
        """The aggregate's version whose stored event holds the game's record at ``position``
        (one past the last when no record is there yet)."""
        return bisect_left(self.stored_ends(), position) + 1

    def ends_stored_event(self, position: int) -> bool:
        """Whether the game's record at ``position`` is the last of its stored event: a command's
        records (its automatic consequences with it) are stored together, so a version inside
        them is a state halfway through, where no move is made."""
        ends = self.stored_ends()
        at = bisect_left(ends, position)
        return at < len(ends) and ends[at] == position

    @classmethod
    def start(cls, game_id: UUID, match: Match, token_hashes: list[str | None], records: list[Record]) -> GameAggregate:
        """A new game from the creation records of ``match`` (``GameCreated`` and the setup)."""
        aggregate = cls._create(
            cls.Started,
            id=game_id,
            game=match.game.id,
            players=match.players,
            options=match.options,
            seed=match.chance.seed_hex,
            token_hashes=token_hashes,
            record=records[0].to_dict(),
        )
        if len(records) > 1:  # the aggregate's own match applies them: it is not ``match``
            aggregate.trigger_event(cls.Played, records=[record.to_dict() for record in records[1:]])
        return aggregate

    def played(self, records: list[Record]) -> None:
        """Record what the match has applied already, as one stored event (none for no records)."""
        if records:
            with self._applied_by_the_match():
                self.trigger_event(self.Played, records=[record.to_dict() for record in records])

    def seat_of(self, token_hash: str) -> Seat | None:
        try:
            return self.token_hashes.index(token_hash)
        except ValueError:
            return None

    def join(
        self, name: str, seat: Seat | None, token_hash: str | None, public_key: str | None = None
    ) -> tuple[Seat, list[Record]]:
        """Take an open seat (keyed with ``public_key``); raises ``RuleViolation`` (nothing changed)
        when refused. No token hash: a seat the server's bot plays (nobody can send as it)."""
        seat, records = self.match.take_seat(name, seat, public_key, str(self.id) if public_key else None)
        hashes = [token_hash if s == seat else h for s, h in enumerate(self.token_hashes)]
        with self._applied_by_the_match():
            self.trigger_event(self.SeatJoined, record=records[0].to_dict(), token_hashes=hashes)
        self.played(records[1:])
        return seat, records

    def register_key(self, seat: Seat, public_key: str, by: str | None = None) -> list[Record]:
        """Key a taken seat before its first command (or, ``by`` the organiser, re-key it for a
        replacement player); raises ``RuleViolation`` (nothing changed) when refused."""
        records = self.match.register_key(seat, public_key, str(self.id), by)
        self.played(records)
        return records

    def execute(
        self,
        seat: Seat,
        command: Command,
        command_id: str | None,
        contribution: str | None = None,
        at: int | None = None,
        signature: str | None = None,
        by: str | None = None,
    ) -> list[Record]:
        """Decide and apply; raises ``RuleViolation`` (nothing changed) when refused."""
        records = self.match.execute(seat, command, command_id, contribution, at, signature, by)
        self.played(records)
        return records

    @contextmanager
    def _applied_by_the_match(self) -> Iterator[None]:
        """While the events of records the match has applied already are triggered: their
        ``apply`` leaves the match as it is."""
        self._applying_live = True
        try:
            yield
        finally:
            del self._applying_live


class StoredGameEvent(Protocol):
    """What every event of the aggregate has: when it was stored."""

    timestamp: datetime


def may_hold(mapper: Mapper[UUID], notification: Notification, record_type: str) -> bool:
    """Whether a stored game event may hold a record of ``record_type``. Its JSON names each
    record's type as it is, so most need not be decoded to tell; a store that compresses or
    encrypts what it keeps cannot be read so, and every event may then hold one."""
    if mapper.compressor is not None or mapper.cipher is not None:
        return True
    return f'"{record_type}"'.encode() in notification.state


def records_of(event: object) -> list[Record]:
    """The log records a stored game event carries, in order."""
    if isinstance(event, GameAggregate.Played):
        return [Record.from_dict(record) for record in event.records]
    return [Record.from_dict(cast(GameAggregate.Recorded, event).record)]


class StoredJSONTranscoder(JSONTranscoder):
    """The library's JSON transcoder, decoding with orjson: what every reader of the store does
    most (the projectors, the analytics, a game loaded from its events) is decode stored events,
    and the standard decoder calls back into Python for every object it makes.

    The text and the values are the same as the standard decoder's: a value of a registered type
    (``{"_type_": name, "_data_": ...}``) is revived from the innermost out, as its object hook
    does, and a stored event whose values orjson would not give back as they are (an integer of 19
    digits or more, which orjson reads as a float; anything orjson refuses) is decoded by the
    standard decoder. Encoding is the library's, unchanged."""

    def decode(self, data: bytes) -> Any:
        if _LONG_NUMBER not in data.translate(_DIGITS):
            try:
                value = orjson.loads(data)
            except orjson.JSONDecodeError:
                pass
            else:
                return self._revived(value, data.count(b'"_type_"'))
        return super().decode(data)

    def encode_with_orjson(self, value: dict[str, Any]) -> bytes | None:
        """``value`` as the library's encoding of it would decode, written by orjson: for a value
        whose only values of a registered type are datetimes, and whose others are plain JSON
        (``GameMapper``); None if orjson refuses it (an integer beyond 64 bits)."""
        try:
            return orjson.dumps(value, default=self._encode_obj, option=orjson.OPT_PASSTHROUGH_DATETIME)
        except TypeError:
            return None

    def _revived(self, value: Any, typed: int) -> Any:
        """``value`` with its registered types revived. Events keep them at the top (an event's
        timestamp): the whole tree is walked only when more are marked than are found there."""
        if typed == 0:
            return value
        if type(value) is dict:
            marked = {key: item for key, item in value.items() if _marked(item)}
            if len(marked) == typed:
                for key, item in marked.items():
                    value[key] = self._decode_obj(item)
                return value
        return self._revived_everywhere(value)

    def _revived_everywhere(self, value: Any) -> Any:
        if type(value) is list:
            return [self._revived_everywhere(item) for item in value]
        if type(value) is dict:
            return self._decode_obj({key: self._revived_everywhere(item) for key, item in value.items()})
        return value


class GameMapper(Mapper[UUID]):
    """The library's mapper, but for what it maps most: a played event (a command's records) is
    written by orjson, in 3 us for a Peloponnes command's six records where the standard encoder
    takes 24 us.

    The records are plain JSON by construction: each was hashed in canonical JSON, a private one's
    data digested in it too (``domain.kernel.log.canonical``), which takes nothing else: no
    non-finite number, no value of another type. So the stored text decodes to the very values the
    standard encoder's would (the timestamp as the library's transcoding writes it); a record with
    an integer beyond 64 bits, which orjson refuses, goes the library's way."""

    transcoder: StoredJSONTranscoder

    def to_stored_event(self, domain_event: Any) -> StoredEvent:
        if type(domain_event) is not GameAggregate.Played:
            return super().to_stored_event(domain_event)
        played = {"timestamp": domain_event.timestamp, "records": domain_event.records}
        state = self.transcoder.encode_with_orjson(played)
        if state is None:
            return super().to_stored_event(domain_event)
        if self.compressor:
            state = self.compressor.compress(state)
        if self.cipher:
            state = self.cipher.encrypt(state)
        return StoredEvent(
            originator_id=domain_event.originator_id,
            originator_version=domain_event.originator_version,
            topic=PLAYED_TOPIC,
            state=state,
        )


PLAYED_TOPIC = get_topic(GameAggregate.Played)


def _marked(value: Any) -> bool:
    """A registered type's value whose data holds no other."""
    return (
        type(value) is dict
        and len(value) == 2
        and "_type_" in value
        and "_data_" in value
        and type(value["_data_"]) not in (dict, list)
    )


# Digits that may make an integer beyond 64 bits (they may be in a string too: then the standard
# decoder, slower, is used for nothing), found by marking every digit (a table lookup a byte, at C
# speed: a regular expression backtracks over every run of digits in the hashes).
_DIGITS = bytes(ord("0") if byte in b"0123456789" else ord(" ") for byte in range(256))
_LONG_NUMBER = b"0" * 19


class MatchTranscoding(Transcoding):
    """Snapshots keep the match as plain fields plus the pickled game state (our own store only)."""

    type = Match
    name = "alexandria_match"

    def encode(self, obj: Match) -> dict[str, Any]:
        return {
            "game": obj.game.id,
            "players": obj.players,
            "options": obj.options,
            "seed": obj.chance.seed_hex,
            "counters": obj.chance.counters,
            "contributions": obj.chance.contributions,
            "state": base64.b64encode(pickle.dumps(obj.state, protocol=pickle.HIGHEST_PROTOCOL)).decode(),
            "version": obj.version,
            "last_hash": obj.last_hash,
            "seat_command_positions": obj.command_positions,
            "forked_from": obj.forked_from,
            "waiting": obj.waiting,
            "names": {str(seat): name for seat, name in obj.names.items()},
            "keys": {str(seat): key for seat, key in obj.keys.items()},
            "game_id": obj.game_id,
            "keys_required": obj.keys_required,
            "acted": sorted(obj.acted),
        }

    def decode(self, data: dict[str, Any]) -> Match:
        chance = Chance.from_hex(data["seed"], data["counters"], [tuple(c) for c in data.get("contributions", [])])
        match = Match(GAMES.get(data["game"]), data["players"], data["options"], chance)
        match.state = pickle.loads(base64.b64decode(data["state"]))
        match.version = data["version"]
        match.last_hash = data["last_hash"]
        # Snapshots from before command ids were scoped per seat hold none: their ids stay unknown.
        match.command_positions = data.get("seat_command_positions", {})
        match.forked_from = data["forked_from"]
        match.waiting = data.get("waiting", False)
        match.names = {int(seat): name for seat, name in data.get("names", {}).items()}
        match.keys = {int(seat): key for seat, key in data.get("keys", {}).items()}
        match.game_id = data.get("game_id")
        match.keys_required = data.get("keys_required", False)
        match.acted = set(data.get("acted", []))
        match.seed_commitment = match.chance.commitment
        return match
