"""Page cursors: where the next page of a list of games starts.

A cursor is the sort key of the last game of a page, a moment and a game id, written as
``MICROSECONDS-SINCE-1970_GAME-ID-HEX``. Every string the pattern admits is a position, so a client
can only get a cursor "wrong" in its form, which the schema (and the server) refuse; one that the
server did not give out simply names some position in the list."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from uuid import UUID

CURSOR_PATTERN = r"^[0-9]{1,17}_[0-9a-f]{32}$"
_CURSOR = re.compile(CURSOR_PATTERN)
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def encode_cursor(moment: datetime, game_id: str) -> str:
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)  # a time without a zone is UTC, like every stored time
    micros = (moment - _EPOCH) // timedelta(microseconds=1)
    return f"{micros}_{UUID(game_id).hex}"


def decode_cursor(cursor: str) -> tuple[datetime, str]:
    """The moment and game id a cursor names; ValueError when it is not in the cursor's form."""
    if not _CURSOR.match(cursor):
        raise ValueError(f"a cursor looks like 1764590400000000_{'0' * 32}")
    micros, game_hex = cursor.split("_")
    return _EPOCH + timedelta(microseconds=int(micros)), str(UUID(game_hex))


def moment_of(iso_time: str) -> datetime:
    """A stored ISO 8601 time as an aware datetime (a time without a zone is UTC, like every stored time)."""
    moment = datetime.fromisoformat(iso_time)
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
