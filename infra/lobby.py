"""The in-process lobby: follows the service's notification log on demand."""

from __future__ import annotations

import threading
from typing import Any

from domain.kernel.log import Record
from infra.service import GameService
from projections.lobby import lobby_entry


class InProcessLobby:
    def __init__(self, service: GameService) -> None:
        self.service = service
        self.position = 0
        self.entries: dict[str, dict[str, Any]] = {}
        self._lock = threading.Lock()

    def catch_up(self) -> None:
        with self._lock:
            while True:
                notifications = self.service.recorder.select_notifications(start=self.position + 1, limit=500)
                if not notifications:
                    return
                for notification in notifications:
                    event = self.service.mapper.to_domain_event(notification)
                    game_id = str(event.originator_id)
                    record = Record.from_dict(event.record)
                    self.entries[game_id] = lobby_entry(
                        self.entries.get(game_id), game_id, record, event.timestamp.isoformat()
                    )
                    self.position = notification.id

    def list(self, game: str | None = None, status: str | None = None) -> list[dict[str, Any]]:
        self.catch_up()
        return sorted(
            (
                e
                for e in self.entries.values()
                if (game is None or e["game"] == game) and (status is None or e["status"] == status)
            ),
            key=lambda e: e["last_activity"],
            reverse=True,
        )
