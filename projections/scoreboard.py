"""The scoreboard of a game: live scores, placings and winners (rendered from the board read
model's match when read)."""

from __future__ import annotations

from typing import Any

from domain.kernel.match import Match
from projections.board import status_of


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
