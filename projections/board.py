"""The per-game board view: what one viewer (a seat, or a spectator) may see of a game."""

from __future__ import annotations

from typing import Any

from domain.kernel.match import Match
from domain.kernel.seats import Viewer


def status_of(match: Match) -> str:
    return "ended" if match.is_over else "running"


def board_view(game_id: str, match: Match, viewer: Viewer) -> dict[str, Any]:
    game = match.game
    scoreboard = game.scoreboard(match.state)
    return {
        "game_id": game_id,
        "game": game.id,
        "players": match.players,
        "options": match.options,
        "version": match.version,
        "status": status_of(match),
        "viewer": viewer,
        "awaited": {str(seat): list(types) for seat, types in sorted(game.awaited(match.state).items())},
        "scoreboard": {
            "scores": scoreboard.scores,
            "placings": scoreboard.placings,
            "winners": scoreboard.winners,
            "final": scoreboard.final,
        },
        "state": game.view(match.state, viewer),
    }
