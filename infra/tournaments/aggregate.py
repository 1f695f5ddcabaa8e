"""The tournament aggregate: one ``eventsourcing`` aggregate per tournament wrapping the pure
``TournamentLog``, like ``GameAggregate`` wraps a ``Match``.

Each log record is one library event, so the aggregate's version is the tournament's version.
The library events also keep what never reaches a client: the master seed, the hashes of the
organiser's and the players' tokens, and the seat tokens of every table's game (the tournament
acts at those seats for its players).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple, cast
from uuid import UUID, uuid5

from eventsourcing.domain import Aggregate
from eventsourcing.persistence import Mapper, Notification

from domain.kernel.log import Record
from domain.tournament.log import TournamentLog, seal
from infra.games.service import ServiceError

# A tournament's games are indexed by an aggregate whose id is derived from the game's id, so a
# game's ending finds its tournament without scanning tournaments.
TABLE_INDEX_NAMESPACE = UUID("5b6f7f84-6b0b-4c43-9d39-0d2c1f4f7a11")
# An unsalted run's tournament id is derived from its master seed, and its games' ids from the
# tournament's id and the table, so that the same seed gives the same records.
UNSALTED_RUN_NAMESPACE = UUID("0f0a3c2e-7d4b-5e61-9a8f-2b1c4d5e6f70")


class TournamentNotFound(ServiceError):
    code = "UNKNOWN_TOURNAMENT_ID"


def parse_tournament_id(tournament_id: str) -> UUID:
    try:
        return UUID(tournament_id)
    except (ValueError, AttributeError, TypeError):
        raise TournamentNotFound(f"there is no tournament {tournament_id!r}") from None


def unsalted_tournament_id(master_seed: bytes) -> UUID:
    return uuid5(UNSALTED_RUN_NAMESPACE, master_seed.hex())


def unsalted_game_id(tournament_id: UUID, round_number: int, table: int) -> UUID:
    return uuid5(tournament_id, f"table:{round_number}:{table}")


def table_index_id(game_id: str) -> UUID:
    return uuid5(TABLE_INDEX_NAMESPACE, game_id)


class TournamentAggregate(Aggregate):
    class Started(Aggregate.Created):
        master_seed: str
        organiser_token_hash: str
        record: dict[str, Any]
        # False only for an in-process run that must come out the same every time: its games get
        # ids and seeds derived from the master seed, with no secret salt.
        salted: bool = True

    class Recorded(Aggregate.Event):
        record: dict[str, Any]
        # What this record brings that must stay secret: a player's token hash, or a round's seat tokens.
        secrets: dict[str, Any]

        def apply(self, aggregate: TournamentAggregate) -> None:
            aggregate._apply(Record.from_dict(self.record), self.secrets)

    def __init__(
        self, master_seed: str, organiser_token_hash: str, record: dict[str, Any], salted: bool = True
    ) -> None:
        self.master_seed = master_seed
        self.organiser_token_hash = organiser_token_hash
        self.salted = salted
        self.player_token_hashes: list[str] = []
        self.seat_tokens: dict[str, list[str]] = {}  # game id -> each seat's token
        self.log = TournamentLog()
        self.log.apply_record(Record.from_dict(record))

    @classmethod
    def start(
        cls, tournament_id: UUID, master_seed: bytes, organiser_token_hash: str, record: Record, salted: bool = True
    ) -> TournamentAggregate:
        return cls._create(
            cls.Started,
            id=tournament_id,
            master_seed=master_seed.hex(),
            organiser_token_hash=organiser_token_hash,
            record=record.to_dict(),
            salted=salted,
        )

    @property
    def seed(self) -> bytes:
        return bytes.fromhex(self.master_seed)

    def append(self, type_: str, data: dict[str, Any], secrets: dict[str, Any] | None = None) -> Record:
        """Seal one record after the tip and record it (applied through the library event)."""
        record = seal(self.log.version + 1, type_, data, self.log.last_hash)
        self.trigger_event(self.Recorded, record=record.to_dict(), secrets=secrets or {})
        return record

    def _apply(self, record: Record, secrets: dict[str, Any]) -> None:
        self.log.apply_record(record)
        if "player_token_hash" in secrets:
            player = record.data["player"]
            if player < len(self.player_token_hashes):
                self.player_token_hashes[player] = secrets["player_token_hash"]
            else:
                self.player_token_hashes.append(secrets["player_token_hash"])
        self.seat_tokens.update(secrets.get("seat_tokens", {}))

    def player_of(self, token_hash: str) -> int | None:
        if not token_hash:  # a bot player's place: no token is theirs
            return None
        try:
            return self.player_token_hashes.index(token_hash)
        except ValueError:
            return None


class TableIndex(Aggregate):
    """Which tournament a game is a table of (its id is ``table_index_id(game_id)``)."""

    class Indexed(Aggregate.Created):
        game_id: str
        tournament_id: str

    def __init__(self, game_id: str, tournament_id: str) -> None:
        self.game_id = game_id
        self.tournament_id = tournament_id

    @classmethod
    def of(cls, game_id: str, tournament_id: str) -> TableIndex:
        return cls._create(cls.Indexed, id=table_index_id(game_id), game_id=game_id, tournament_id=tournament_id)


class LoggedRecord(NamedTuple):
    tournament_id: str
    record: Record
    notification_id: int


def logged_records(mapper: Mapper[UUID], batch: Sequence[Notification]) -> list[LoggedRecord]:
    """The tournaments' records in a batch of their notification log (the log also holds each
    table's index entry, which is no record)."""
    records: list[LoggedRecord] = []
    for notification in batch:
        event = mapper.to_domain_event(notification)
        record = getattr(event, "record", None)
        if isinstance(record, dict):
            records.append(LoggedRecord(str(event.originator_id), Record.from_dict(cast(Any, record)), notification.id))
    return records
