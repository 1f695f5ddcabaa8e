"""Every read model the server keeps, by name."""

from __future__ import annotations

from projections.base import Projection
from projections.board import BoardProjection
from projections.lobby import LobbyProjection


def all_projections() -> list[Projection]:
    return [BoardProjection(), LobbyProjection()]


PROJECTION_NAMES = [p.name for p in all_projections()]
