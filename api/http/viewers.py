"""Who the bearer of a token is at a game: a seat, a spectator (no token), or a tournament
player at their own table. A tournament player's own token works at ``/games/{id}`` for their
table: read as their seat there, and their commands go through the tournament (its clock,
forfeits and rulings: ``api/http/commands.py``)."""

from __future__ import annotations

from typing import Any

from domain.kernel.bots import bot_of_seat_name
from domain.kernel.seats import Viewer
from infra.games.aggregate import GameAggregate
from infra.games.service import GameService, Unauthorized
from infra.readside.reader import ReadSide
from infra.tournaments.service import TournamentService


def game_is_over(service: GameService, game_id: str) -> bool:
    with service.reading(game_id) as aggregate:
        return aggregate.match.is_over


def current_version(service: GameService, game_id: str) -> int:
    with service.reading(game_id) as aggregate:
        return aggregate.match.version


def player_seat(tournaments: TournamentService, game_id: str, token: str | None) -> Viewer:
    at_table = tournaments.player_at_table(game_id, token)
    if at_table is None:
        raise Unauthorized("this token is not a seat token of this game (nor a player token of this table)")
    return at_table[1]


def bearer_seat(
    service: GameService, tournaments: TournamentService, game_id: str, aggregate: GameAggregate, token: str | None
) -> Viewer:
    """The bearer's seat by the event store (the game's own aggregate)."""
    try:
        return service.seat_for_token(aggregate, token)
    except Unauthorized:
        return player_seat(tournaments, game_id, token)


def viewer_of(
    service: GameService, tournaments: TournamentService, game_id: str, token: str | None
) -> tuple[Viewer, bool]:
    """The bearer's seat, and whether the game is over (then its whole record is public)."""
    with service.reading(game_id) as aggregate:
        return bearer_seat(service, tournaments, game_id, aggregate, token), aggregate.match.is_over


def bearer_viewer(reads: ReadSide, tournaments: TournamentService, game_id: str, token: str | None) -> Viewer:
    """The bearer's seat by the read side."""
    try:
        return reads.viewer(game_id, token)
    except Unauthorized:
        return player_seat(tournaments, game_id, token)


def named(
    tournaments: TournamentService, board: dict[str, Any], game_id: str, names: dict[str, str] | None = None
) -> dict[str, Any]:
    """A view of a tournament table's game names its tournament and its players (the names they
    registered with), so that a client opened on the game alone knows it is a table."""
    tournament_id = tournaments.tournament_of(game_id)
    if tournament_id is None:
        return board
    board = {**board, "tournament": tournament_id}
    if board.get("names") and not any(bot_of_seat_name(n) for n in board["names"].values()):
        return board  # (a tournament's table is named by its players only where a bot player sits)
    names = tournaments.table_names(game_id) if names is None else names
    return {**board, "names": names} if names else board
