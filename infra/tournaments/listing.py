"""The tournament list: a read model of every tournament's public facts (``projections.lobby.
tournament_entry``), kept in the read-model store beside the game lobby and built by following the
tournaments' notification log.

It is caught up when it is read: a reader applies the records after the stored position and
commits the entries together with the new position (compare-and-set, as the projector's batches
do), so any number of API processes may read it at once, none applies a record twice, and a
tournament is listed as soon as the request that created it has returned. Like every read model
it can be rebuilt from the event store: a reset store starts again from the first record."""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Sequence
from typing import Any, cast

from eventsourcing.persistence import Notification

from infra.games.service import Invalid
from infra.readside.follower import DocumentBatch, ReadModelPosition, log_follower
from infra.readside.readmodels import Cursor, ReadModelStore, json_text
from infra.tournaments.aggregate import logged_records
from infra.tournaments.service import TournamentService
from projections.lobby import TOURNAMENT_STATUSES, TOURNAMENTS_LISTED, tournament_entry

TOURNAMENT_LIST = "tournament-list"  # the read model's name in the store (its own position)
NOTIFICATIONS_PER_READ = 500
LIST_LIMIT, LIST_MAX_LIMIT = 50, 200
MAX_COMMIT_ATTEMPTS = 20

# A cursor: the sequence (the notification id of its creation) of the last tournament of a page.
CURSOR_PATTERN = r"^[0-9]{1,18}$"


class TournamentList:
    def __init__(self, tournaments: TournamentService, store: ReadModelStore) -> None:
        self.tournaments = tournaments
        self.store = store
        self._lock = threading.Lock()
        self._sorted: tuple[int, list[dict[str, Any]]] | None = None  # (position, entries newest first)
        self._follower = log_follower(
            tournaments.recorder, self, ReadModelPosition(store, TOURNAMENT_LIST), NOTIFICATIONS_PER_READ
        )

    def catch_up(self) -> None:
        """Apply every tournament record after the stored position."""
        with self._lock:
            # A batch another process committed first is read again from where that one left the list.
            self._follower.catch_up(attempts=MAX_COMMIT_ATTEMPTS)

    def apply(self, start: Cursor, batch: Sequence[Notification]) -> DocumentBatch:
        """The entries of the tournaments ``batch`` has records of."""
        entries: dict[str, dict[str, Any]] = {}
        for logged in logged_records(self.tournaments.mapper, batch):
            tournament_id = logged.tournament_id
            entry = entries.get(tournament_id) or self._stored(tournament_id)
            entries[tournament_id] = tournament_entry(entry, tournament_id, logged.record, logged.notification_id)
        return DocumentBatch({(TOURNAMENTS_LISTED, t): json_text(e) for t, e in entries.items()})

    def _stored(self, tournament_id: str) -> dict[str, Any] | None:
        text = self.store.get(TOURNAMENT_LIST, TOURNAMENTS_LISTED, tournament_id)
        return None if text is None else cast(dict[str, Any], json.loads(text))

    def _entries(self) -> list[dict[str, Any]]:
        position = self.store.position(TOURNAMENT_LIST)
        cached = self._sorted
        if cached is not None and cached[0] == position:
            return cached[1]
        entries = [json.loads(text) for text in self.store.get_all(TOURNAMENT_LIST, TOURNAMENTS_LISTED).values()]
        entries.sort(key=lambda e: e["sequence"], reverse=True)
        self._sorted = (position, entries)
        return entries

    def page(
        self,
        status: str | None = None,
        game: str | None = None,
        name: str | None = None,
        limit: int = LIST_LIMIT,
        cursor: str | None = None,
    ) -> tuple[list[dict[str, Any]], str | None]:
        """One page of the list, newest first, and the cursor of the next page (None: the last).
        ``name`` matches a part of the name, in any case. The order never changes (a tournament
        keeps its place), so paging through never skips or repeats one."""
        if status is not None and status not in TOURNAMENT_STATUSES:
            raise Invalid(f"status must be one of {', '.join(TOURNAMENT_STATUSES)}, not {status!r}")
        if not 1 <= limit <= LIST_MAX_LIMIT:
            raise Invalid(f"limit must be between 1 and {LIST_MAX_LIMIT}")
        if cursor is not None and not re.fullmatch(CURSOR_PATTERN, cursor):
            raise Invalid("cursor is not in the form of the next_cursor this server gives (digits)")
        after = int(cursor) if cursor is not None else None
        self.catch_up()
        wanted = name.casefold() if name else None
        page: list[dict[str, Any]] = []
        for entry in self._entries():
            if after is not None and entry["sequence"] >= after:
                continue
            if (
                (status is None or entry["status"] == status)
                and (game is None or entry["game"] == game)
                and (wanted is None or wanted in (entry["name"] or "").casefold())
            ):
                if len(page) == limit:
                    return page, str(page[-1]["sequence"])
                page.append(entry)
        return page, None
