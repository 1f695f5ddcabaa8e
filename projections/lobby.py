"""The game list (lobby): game, players, status, version and last activity of every game; and the
tournament list: each tournament's name, game, players, rounds and status."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from domain.kernel.log import GAME_CREATED, GAME_ENDED, Record
from domain.kernel.match import SEAT_TAKEN
from domain.tournament.log import (
    LATE_ENTRY,
    PLAYER_REGISTERED,
    PLAYER_WITHDRAWN,
    REGISTRATION_CLOSED,
    REVEAL_WITHHELD,
    ROUND_SEATED,
    TOURNAMENT_CREATED,
    TOURNAMENT_ENDED,
)
from projections.base import Documents, ProjectedRecord


def lobby_entry(entry: dict[str, Any] | None, game_id: str, record: Record, timestamp: str) -> dict[str, Any]:
    """The lobby entry of ``game_id`` after ``record`` (stored at ``timestamp``, ISO 8601)."""
    if record.type == GAME_CREATED:
        entry = {
            "game_id": game_id,
            "game": record.data["game"],
            "players": record.data["players"],
            "options": record.data["options"],
            "created_at": timestamp,
            "forked_from": record.data.get("forked_from"),
            "status": "waiting" if record.data.get("open_seats") else "running",
            "open_seats": list(range(record.data["players"])) if record.data.get("open_seats") else [],
            "names": {},
        }
    assert entry is not None, f"{game_id}: a record before GameCreated"
    if record.type == SEAT_TAKEN:
        seat = record.data["seat"]
        open_seats = [s for s in entry.get("open_seats", []) if s != seat]
        names = {**entry.get("names", {}), str(seat): record.data["name"]}
        entry = {**entry, "open_seats": open_seats, "names": names}
        if not open_seats:
            entry["status"] = "running"
    entry = {**entry, "version": record.position, "last_activity": timestamp}
    if record.type == GAME_ENDED:
        entry["status"] = "ended"
    return entry


GAMES_LISTED = "games"


class LobbyProjection:
    name = "lobby"

    def apply(self, documents: Documents, batch: Sequence[ProjectedRecord]) -> None:
        entries: dict[str, dict[str, Any]] = {}
        for item in batch:
            entry = entries.get(item.game_id) or documents.get(GAMES_LISTED, item.game_id)
            entries[item.game_id] = lobby_entry(entry, item.game_id, item.record, item.timestamp)
        for game_id, entry in entries.items():
            documents.put(GAMES_LISTED, game_id, entry)


# -- tournaments ------------------------------------------------------------------------------------

TOURNAMENTS_LISTED = "tournaments"
TOURNAMENT_STATUSES = ("registering", "running", "ended")


def _iso_ms(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, tz=UTC).isoformat()


def tournament_entry(
    entry: dict[str, Any] | None, tournament_id: str, record: Record, notification_id: int
) -> dict[str, Any]:
    """The tournament list's entry of ``tournament_id`` after ``record`` (its public facts only):
    name, game, format, players (withdrawn among them), the rounds seated of the rounds planned,
    status (``registering`` until round 1 is seated, ``running``, ``ended``); ``sequence`` is the
    notification id of its creation, the list's order (a later tournament always comes later)."""
    data = record.data
    if record.type == TOURNAMENT_CREATED:
        config = data["config"]
        entry = {
            "tournament_id": tournament_id,
            "sequence": notification_id,
            "name": data.get("name"),
            "game": config["game"],
            "format": config["format"],
            "table_size": config["table_size"],
            "rounds": config["rounds"],
            "rounds_seated": 0,
            "players": 0,
            "withdrawn": 0,
            "registration_closed": False,
            "status": "registering",
            "created_at": _iso_ms(data["at"]),
            "ended_at": None,
        }
    assert entry is not None, f"{tournament_id}: a record before TournamentCreated"
    entry = {**entry, "version": record.position}
    if record.type in (PLAYER_REGISTERED, LATE_ENTRY):
        entry["players"] += 1
    elif record.type in (PLAYER_WITHDRAWN, REVEAL_WITHHELD):
        entry["withdrawn"] += 1
    elif record.type == REGISTRATION_CLOSED:
        entry["registration_closed"] = True
    elif record.type == ROUND_SEATED:
        entry.update(rounds_seated=data["round"], status="running", registration_closed=True)
    elif record.type == TOURNAMENT_ENDED:
        entry.update(status="ended", ended_at=_iso_ms(data["at"]))
    return entry
