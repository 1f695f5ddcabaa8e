"""The scoreboard of every game: live scores, placings and winners."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain.kernel.match import Match
from projections.base import Documents, ProjectedRecord
from projections.board import status_of
from projections.checkpoint import matches_after

SCORES = "scores"


def scoreboard_entry(game_id: str, match: Match) -> dict[str, Any]:
    scoreboard = match.game.scoreboard(match.state)
    return {
        "game_id": game_id,
        "game": match.game.id,
        "version": match.version,
        "status": status_of(match),
        "scores": scoreboard.scores,
        "placings": scoreboard.placings,
        "winners": scoreboard.winners,
        "final": scoreboard.final,
        "details": scoreboard.details,
    }


class ScoreboardProjection:
    name = "scoreboards"

    def apply(self, documents: Documents, batch: Sequence[ProjectedRecord]) -> None:
        for game_id, match in matches_after(documents, batch).items():
            documents.put(SCORES, game_id, scoreboard_entry(game_id, match))
