"""Every read model the server keeps, by name."""

from __future__ import annotations

from projections.base import Projection
from projections.board import BoardProjection
from projections.checkpoint import RecentMatches
from projections.lobby import LobbyProjection


def all_projections(recent: RecentMatches | None = None) -> list[Projection]:
    """``recent``: the board projection's matches kept between batches (its own default bounds)."""
    return [BoardProjection(recent), LobbyProjection()]


PROJECTION_NAMES = [p.name for p in all_projections()]
