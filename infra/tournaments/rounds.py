"""A tournament's rounds: seating the next one (each table's game created with its derived
seed), following the games' notification log for their results, and the end, which reveals the
master seed."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from domain.kernel.chance import SALT_BYTES
from domain.tournament import rules
from domain.tournament.log import REVEAL_WITHHELD, ROUND_SEATED, TOURNAMENT_ENDED, TournamentState
from domain.tournament.seeds import mixed_seed, table_seed
from infra.readside.follower import log_follower
from infra.tournaments.aggregate import TableIndex, TournamentAggregate, unsalted_game_id
from infra.tournaments.results import NOTIFICATIONS_PER_READ as RESULTS_PER_READ
from infra.tournaments.results import EndedGames, ResultsTracking

if TYPE_CHECKING:
    from infra.tournaments.service import TournamentService


class Rounds:
    def __init__(self, tournaments: TournamentService) -> None:
        self.tournaments = tournaments
        self.games = tournaments.games
        self._follow_lock = threading.Lock()
        self._results = ResultsTracking(tournaments, tournaments.evict_all)
        self._results_follower = log_follower(
            self.games.recorder, EndedGames(self.games), self._results, RESULTS_PER_READ
        )

    def seat_next_round(
        self,
        tournament_id: str,
        organiser_token: str | None,
        admit_tables: Callable[[int], None] | None = None,
        manual: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """Seat the next round and create each table's game with its derived seed. ``admit_tables``
        (the API's creation limit) may refuse the round's number of games before any is created.
        ``manual`` ({tables, byes, reason}) is the organiser's own seating, checked by the rules."""
        self.tournaments.follow_results()
        with self.tournaments.changing(tournament_id) as aggregate:
            self.tournaments.check_organiser(aggregate, organiser_token)
            state = aggregate.log.state
            # Before round 1 with registration open: whoever has not checked in is withdrawn.
            self.tournaments.registration.leave_out_missed_check_ins(aggregate)
            # Before round 1: each reveal still missing is withheld, in public, and its entry
            # withdrawn; recorded with the seating or not at all.
            for withheld in rules.reveals_withheld(state, self.tournaments.now()):
                aggregate.append(REVEAL_WITHHELD, withheld)
            if manual is None:
                seating = rules.plan_round(state, aggregate.seed)
            else:
                seating = rules.manual_seating(state, manual.get("tables"), manual.get("byes"), manual.get("reason"))
            if admit_tables is not None:
                admit_tables(len(seating.tables))
            config = state.settings
            number = len(state.rounds) + 1
            mixed = mixed_seed(aggregate.seed, state.reveals)
            created = [
                self.games.create_game(
                    config.game,
                    len(players),
                    config.options,
                    table_seed(mixed, tournament_id, number, i),
                    **self._unsalted_game(aggregate, number, i),
                    keys_required=config.keys_required,
                    keys={s: state.keys[p] for s, p in enumerate(players) if p in state.keys},
                    # A bot player's seat is the server's bot seat (as POST /games with "bots").
                    bots={s: state.bots[p] for s, p in enumerate(players) if p in state.bots} or None,
                    every_seat_a_bot=True,
                )
                for i, players in enumerate(seating.tables, start=1)
            ]
            commitments = [self.games.records(g.game_id, through=1)[0].data["seed_commitment"] for g in created]
            data = rules.round_seated(state, seating, [g.game_id for g in created], self.tournaments.now(), commitments)
            aggregate.append(ROUND_SEATED, data, {"seat_tokens": {g.game_id: g.tokens for g in created}})
            self.tournaments.save(aggregate, *(TableIndex.of(g.game_id, tournament_id) for g in created))
        return data

    def end(self, tournament_id: str, organiser_token: str | None) -> dict[str, Any]:
        """End after the last round: the final standings, and the master seed revealed."""
        self.tournaments.follow_results()
        with self.tournaments.changing(tournament_id) as aggregate:
            self.tournaments.check_organiser(aggregate, organiser_token)
            state = aggregate.log.state
            data = rules.ended(state, aggregate.seed, self.tournaments.now(), self._unfinished_seeds(state))
            aggregate.append(TOURNAMENT_ENDED, data)
            self.tournaments.save(aggregate)
        return data

    def follow_results(self) -> int:
        """Record the result of every tournament game that has ended since the last look; returns
        how many were recorded. Safe to run in any number of processes at once: a result is
        recorded once per game, with the notification id it came from."""
        with self._follow_lock:
            before = self._results.recorded
            self._results_follower.catch_up()
            return self._results.recorded - before

    def _unsalted_game(self, aggregate: TournamentAggregate, round_number: int, table: int) -> dict[str, Any]:
        """An unsalted run's table: its game id derived, and no secret salt (zeros, so that the seed
        keeps its form and the verifier still reads the table's seed out of it)."""
        if aggregate.salted:
            return {}
        return {"salt": bytes(SALT_BYTES), "game_id": unsalted_game_id(aggregate.id, round_number, table)}

    def _unfinished_seeds(self, state: TournamentState) -> dict[str, str]:
        """The seed of every table's game that has not ended, to reveal with the end."""
        seeds = {}
        for table in state.tables():
            with self.games.reading(table.game_id) as game:
                if not game.match.is_over:
                    seeds[table.game_id] = game.match.chance.seed_hex
        return seeds
