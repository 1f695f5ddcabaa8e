"""What a tournament shows: its state with every result in, its records, a player's page and
table, a table's names, and the bundle the verifier checks."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from domain.kernel.log import GAME_ENDED, Record, for_viewer
from domain.kernel.seats import Seat
from domain.tournament.log import Table, TournamentState
from domain.tournament.verification import BUNDLE_FORMAT
from infra.games.service import Forbidden, GameNotFound, token_hash
from infra.tournaments.aggregate import TournamentAggregate, parse_tournament_id

if TYPE_CHECKING:
    from infra.tournaments.service import TournamentService


class Reading:
    def __init__(self, tournaments: TournamentService) -> None:
        self.tournaments = tournaments
        self.games = tournaments.games

    def state(self, tournament_id: str) -> TournamentState:
        """The tournament now, with every ended game's result in."""
        self.tournaments.follow_results()
        return self.tournaments.load(tournament_id).log.state

    def records(self, tournament_id: str, after: int = 0) -> list[Record]:
        """The tournament's records after position ``after`` (each record is one stored event)."""
        uuid = parse_tournament_id(tournament_id)
        return [
            Record.from_dict(cast(Any, event).record) for event in self.tournaments.events.get(uuid, gt=after or None)
        ]

    def seat_of(self, tournament_id: str, game_id: str, token: str | None) -> tuple[TournamentAggregate, Table, Seat]:
        """The table and seat the bearer's player was given in one of the tournament's games."""
        aggregate = self.tournaments.load(tournament_id)
        player = self.tournaments.player_for_token(aggregate, token)
        table = aggregate.log.state.table_of(game_id)
        if table is None:
            raise GameNotFound(f"game {game_id!r} is no table of tournament {tournament_id}")
        if player not in table.players:
            raise Forbidden(f"player {player} does not play game {game_id}")
        return aggregate, table, table.players.index(player)

    def table_names(self, game_id: str) -> dict[str, str]:
        """A tournament table's players by seat (the names they registered with); none for other games."""
        tournament_id = self.tournaments.tournament_of(game_id)
        if tournament_id is None:
            return {}
        state = self.tournaments.state(tournament_id)
        table = state.table_of(game_id)
        return {} if table is None else {str(seat): state.names[player] for seat, player in enumerate(table.players)}

    def player_at_table(self, game_id: str, token: str | None) -> tuple[str, Seat] | None:
        """The tournament and the seat of a player token's bearer at one of its tables' games, so
        the player's own token works at ``/games/{id}`` for their table; None: the game is no
        table, or the token is no player's at it."""
        if token is None:
            return None
        tournament_id = self.tournaments.tournament_of(game_id)
        if tournament_id is None:
            return None
        aggregate = self.tournaments.load(tournament_id)
        player = aggregate.player_of(token_hash(token))
        table = aggregate.log.state.table_of(game_id)
        if player is None or table is None or player not in table.players:
            return None
        return tournament_id, table.players.index(player)

    def player_page(self, tournament_id: str, token: str | None) -> dict[str, Any]:
        """What the bearer player needs to play: this round's table and seat (or their bye), the
        game's status and whether it awaits them, and every table they have had."""
        state = self.tournaments.state(tournament_id)
        aggregate = self.tournaments.load(tournament_id)
        player = self.tournaments.player_for_token(aggregate, token)
        number = len(state.rounds)
        tables = [self._table_for(state, t, player) for t in state.tables() if player in t.players]
        current = next((t for t in tables if t["round"] == number), None)
        return {
            "player": player,
            "name": state.names[player],
            "registered_by": state.registered_by.get(player),
            "withdrawn": player in state.withdrawn,
            # check-in: asked (the organiser opened it), open (it still takes check-ins), checked_in
            "check_in": {
                "asked": state.check_in_open,
                "open": state.check_in_taken,
                "checked_in": player in state.checked_in,
            },
            "round": number or None,
            "table": current,
            "bye": bool(number) and player in state.byes[number - 1],
            "your_turn": current is not None and current["your_turn"],
            "tables": tables,
        }

    def _table_for(self, state: TournamentState, table: Table, player: int) -> dict[str, Any]:
        """One of a player's tables as their page shows it: ``status`` is ``running``, ``ended``
        or ``voided``; ``your_turn``: the game awaits the player's seat (never a forfeited one)."""
        seat = table.players.index(player)
        with self.games.reading(table.game_id) as game:
            match = game.match
            version = match.version
            awaited = set() if match.is_over else set(match.game.awaited(match.state))
        voided = table.game_id in state.voided()
        status = "voided" if voided else "ended" if match.is_over or table.game_id in state.results else "running"
        playing = status == "running" and state.ended is None and player not in state.forfeited(table.game_id)
        return {
            "round": table.round,
            "table": table.table,
            "game_id": table.game_id,
            "seat": seat,
            "players": [{"player": p, "name": state.names[p]} for p in table.players],
            "status": status,
            "version": version,
            "your_turn": playing and seat in awaited,
        }

    def bundle(self, tournament_id: str) -> dict[str, Any]:
        """The tournament's log and every table's game record: what ``alexandria tournament verify``
        checks. Hidden data of a game is revealed only once that game has ended."""
        state = self.tournaments.state(tournament_id)
        games: dict[str, list[dict[str, Any]]] = {}
        for table in state.tables():
            records = self.games.records(table.game_id)
            # After the end every game's seed is public (TournamentEnded reveals those of the games
            # that never ended), so nothing of a voided game is secret any more.
            over = state.ended is not None or (bool(records) and records[-1].type == GAME_ENDED)
            games[table.game_id] = [for_viewer(r, None, reveal_all=over) for r in records]
        tournament = [for_viewer(r, None, reveal_all=True) for r in self.records(tournament_id)]
        return {
            "format": BUNDLE_FORMAT,
            "tournament_id": tournament_id,
            "fingerprint": tournament[-1]["hash"],
            "tournament": tournament,
            "games": games,
        }
