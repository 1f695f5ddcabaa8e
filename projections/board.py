"""The per-game board view: what one viewer (a seat, or a spectator) may see of a game."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain.kernel.match import Match
from domain.kernel.seats import Viewer
from projections.base import Documents, ProjectedRecord
from projections.checkpoint import MatchCheckpoints, RecentMatches, encode_match
from projections.frames import FRAMES, frame_key, has_frame


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


# -- the board read model: every game's match, its seat tokens' hashes and its replay frames ---------

SEATS = "seats"  # game id -> the seat tokens' hashes (index = seat)


class BoardProjection:
    """Keeps, per game, the match as of the last record applied (``projections.checkpoint``),
    the seat tokens' hashes, and a replay frame every ``FRAME_INTERVAL`` versions.

    Views and scoreboards are rendered from the match when they are read (and cached there),
    not here for every viewer on every write: a batch costs one replay step per record and one
    encode per game it touches (and a decode, unless the batch before left the game's match in
    ``recent``), whoever reads the game afterwards, and a game nobody watches costs no rendering."""

    name = "boards"

    def __init__(self, recent: RecentMatches | None = None) -> None:
        self.recent = recent if recent is not None else RecentMatches()

    def apply(self, documents: Documents, batch: Sequence[ProjectedRecord]) -> None:
        checkpoints = MatchCheckpoints(documents, self.recent)
        for item in batch:
            if item.token_hashes is not None:
                documents.put(SEATS, item.game_id, item.token_hashes)
            match = checkpoints.advance(item)
            if has_frame(match.version):
                documents.put(FRAMES, frame_key(item.game_id, match.version), encode_match(match))
        checkpoints.save()
