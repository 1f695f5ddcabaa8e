"""Every read model the server keeps, by name."""

from __future__ import annotations

from projections.base import Projection
from projections.board import BoardProjection
from projections.frames import FramesProjection
from projections.lobby import LobbyProjection
from projections.scoreboard import ScoreboardProjection


def all_projections() -> list[Projection]:
    return [BoardProjection(), ScoreboardProjection(), LobbyProjection(), FramesProjection()]


PROJECTION_NAMES = [p.name for p in all_projections()]
