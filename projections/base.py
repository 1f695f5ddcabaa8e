"""What a projection is: a name and how a batch of records, in notification order, changes its
documents.

Projections are pure: they read and write documents through ``Documents`` and never see how
or where the documents are stored. The runner in ``infra`` gives them one batch at a time and
stores the documents they wrote together with the batch's last notification id, atomically.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from domain.kernel.log import Record


@dataclass(frozen=True, slots=True)
class ProjectedRecord:
    """One record of one game as the notification log delivers it."""

    game_id: str
    record: Record
    notification_id: int
    timestamp: str  # ISO 8601, when the record was stored
    # The seat tokens' hashes, on a game's first record only: the read side checks bearer tokens
    # against them without loading the game from the event store.
    token_hashes: list[str] | None = None


class Documents(Protocol):
    """A projection's documents: JSON values addressed by (collection, key)."""

    def get(self, collection: str, key: str) -> Any | None: ...

    def put(self, collection: str, key: str, value: Any) -> None: ...


class Projection(Protocol):
    name: str

    def apply(self, documents: Documents, batch: Sequence[ProjectedRecord]) -> None:
        """Apply ``batch`` (in notification order, never seen before) to ``documents``."""
        ...
