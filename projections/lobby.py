"""The game list (lobby): game, players, status, version and last activity of every game."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain.kernel.log import GAME_CREATED, GAME_ENDED, Record
from domain.kernel.match import SEAT_TAKEN
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
