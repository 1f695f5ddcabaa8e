"""The organiser's rulings: an adjudication recorded as a compensating record (a void closes
the game where it stands; a replaced player's running games are re-keyed)."""

from __future__ import annotations

import secrets
from contextlib import ExitStack
from typing import TYPE_CHECKING, Any

from domain.kernel.seats import Seat
from domain.tournament import rules
from domain.tournament.log import ADJUDICATED, FORFEIT_GAME, REPLACE_PLAYER, VOID_GAME, Table, TournamentState
from infra.games.aggregate import GameAggregate
from infra.games.service import Invalid, token_hash

if TYPE_CHECKING:
    from infra.tournaments.service import TournamentService


class Rulings:
    def __init__(self, tournaments: TournamentService) -> None:
        self.tournaments = tournaments
        self.games = tournaments.games

    def adjudicate(self, tournament_id: str, organiser_token: str | None, request: dict[str, Any]) -> dict[str, Any]:
        """An organiser's ruling as a compensating record. Replacing a player issues a new player token."""
        self.tournaments.follow_results()
        if not isinstance(request, dict):
            raise Invalid("an adjudication is a JSON object {kind, reason, ...}")
        with self.tournaments.changing(tournament_id) as aggregate, ExitStack() as closing:
            self.tournaments.check_organiser(aggregate, organiser_token)
            game_id = request.get("game_id")
            if request.get("kind") == VOID_GAME and isinstance(game_id, str) and aggregate.log.state.table_of(game_id):
                # A void closes the game where it stands: its lock is held until the void is saved,
                # so no command lands between the game's tip being read and the void recorded.
                closing.enter_context(self.games.reading(game_id))
            data = rules.adjudicated(aggregate.log.state, request, self.tournaments.now(), self._game_tip)
            extra: dict[str, Any] = {}
            token = None
            running: list[tuple[GameAggregate, Seat]] = []
            if data["kind"] == REPLACE_PLAYER:
                token = secrets.token_urlsafe(24)
                extra["player_token_hash"] = token_hash(token)
                if "public_key" in data:  # held still until re-keyed: the old key signs nothing more
                    running = [
                        (closing.enter_context(self.games.reading(table.game_id)), table.players.index(data["player"]))
                        for table in running_tables_of(aggregate.log.state, data["player"])
                    ]
            record = aggregate.append(ADJUDICATED, data, extra)
            self.tournaments.save(aggregate)
            for game, seat in running:
                if not game.match.is_over and game.match.keys.get(seat) != data["public_key"]:
                    self.games.rekey_seat(str(game.id), seat, data["public_key"])
        answer = {"version": record.position, "adjudication": data}
        if token is not None:
            answer["player_token"] = token
        return answer

    def _game_tip(self, game_id: str) -> tuple[int, str]:
        """A game's version and last hash now (a void closes the game there)."""
        with self.games.reading(game_id) as game:
            return game.match.version, game.match.last_hash


def running_tables_of(state: TournamentState, player: int) -> list[Table]:
    """The tables ``player`` sits at whose game has no result and is not void: still being played."""
    done = set(state.results) | state.voided()
    return [t for t in state.tables() if player in t.players and t.game_id not in done]


def ruled_forfeit_seats(state: TournamentState, table: Table) -> list[tuple[int, Seat]]:
    """The seats of a table forfeited by an organiser's ruling, with when (from then on the bot
    plays them, with no timeout)."""
    return [
        (a["at"], table.players.index(a["player"]))
        for a in state.adjudications
        if a["kind"] == FORFEIT_GAME and a["game_id"] == table.game_id and a["player"] in table.players
    ]
