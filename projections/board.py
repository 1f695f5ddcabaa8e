"""The per-game board view: what one viewer (a seat, or a spectator) may see of a game."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain.kernel.match import Match
from domain.kernel.seats import Viewer
from projections.base import Documents, ProjectedRecord
from projections.checkpoint import matches_after


def status_of(match: Match) -> str:
    """waiting (seats open to join), running or ended."""
    if match.waiting:
        return "waiting"
    return "ended" if match.is_over else "running"


def board_view(game_id: str, match: Match, viewer: Viewer) -> dict[str, Any]:
    game = match.game
    scoreboard = game.scoreboard(match.state)
    view: dict[str, Any] = {
        "game_id": game_id,
        "game": game.id,
        "players": match.players,
        "options": match.options,
        "version": match.version,
        "status": status_of(match),
        "viewer": viewer,
        "awaited": {str(seat): list(types) for seat, types in sorted(game.awaited(match.state).items())},
        "optional": {str(seat): list(types) for seat, types in sorted(game.optional(match.state).items())},
        "scoreboard": {
            "scores": scoreboard.scores,
            "placings": scoreboard.placings,
            "winners": scoreboard.winners,
            "final": scoreboard.final,
        },
        "state": game.view(match.state, viewer),
        "open_seats": match.open_seats,
        "names": {str(seat): name for seat, name in sorted(match.names.items())},
    }
    if match.is_over:
        # After the end everything is public: every seat's own view, hidden parts included.
        view["seat_views"] = [game.view(match.state, seat) for seat in range(match.players)]
    return view


# -- the board read model: the current view of every game, public and per seat ---------------------

VIEWS = "views"
SEATS = "seats"  # game id -> the seat tokens' hashes (index = seat)


def view_key(game_id: str, viewer: Viewer) -> str:
    return f"{game_id}/{'public' if viewer is None else viewer}"


class BoardProjection:
    """Stores ``board_view`` for the spectator and for each seat, as of each batch's end."""

    name = "boards"

    def apply(self, documents: Documents, batch: Sequence[ProjectedRecord]) -> None:
        for item in batch:
            if item.token_hashes is not None:
                documents.put(SEATS, item.game_id, item.token_hashes)
        for game_id, match in matches_after(documents, batch).items():
            for viewer in [None, *range(match.players)]:
                documents.put(VIEWS, view_key(game_id, viewer), board_view(game_id, match, viewer))
