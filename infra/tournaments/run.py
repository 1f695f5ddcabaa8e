"""A whole tournament played by bots through the tournament service, as the CLI's
``tournament run``, the tests and the benchmark use it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from domain.kernel.bots import RandomBot
from domain.kernel.errors import NOT_YOUR_TURN, RuleViolation
from domain.tournament.log import Table
from infra.games.service import Conflict, StaleVersion
from infra.tournaments.service import TournamentService

# Called after each command a bot sends (a test's fake clock moves on here).
AfterMove = Callable[[Table, int], None]
RUN_EPOCH_MS = 1_767_225_600_000  # 2026-01-01T00:00:00Z


class SteppingClock:
    """The server's time for a run that must come out the same every time (``tournament run``):
    a fixed start, and one millisecond more at every reading, so the stamps never depend on how
    fast the machine is."""

    def __init__(self, start: int = RUN_EPOCH_MS) -> None:
        self.ms = start

    def __call__(self) -> int:
        self.ms += 1
        return self.ms


@dataclass
class PlayedTournament:
    tournament_id: str
    organiser_token: str
    player_tokens: list[str]
    commands: int


def run_tournament(
    tournaments: TournamentService,
    game: str,
    players: int,
    settings: dict[str, Any] | None = None,
    master_seed: bytes | None = None,
    on_game_done: Callable[[Table], None] | None = None,
    after_move: AfterMove | None = None,
    end: bool = True,
) -> PlayedTournament:
    """Create a tournament, register ``players`` bots, play every round, and end it. A given
    ``master_seed`` is used as it is (unsalted: the tournament's and its games' ids and seeds are
    derived from it), so with a ``SteppingClock`` the same seed gives the same records every time."""
    created = tournaments.create(game, settings, master_seed, salted=master_seed is None)
    tid, organiser = created.tournament_id, created.organiser_token
    tokens = [tournaments.register(tid, organiser, f"bot-{i + 1:02d}").token for i in range(players)]
    played = PlayedTournament(tid, organiser, tokens, 0)
    rounds = tournaments.load(tid).log.state.settings.rounds
    for _ in range(rounds):
        seated = tournaments.seat_next_round(tid, organiser)
        for entry in seated["tables"]:
            table = Table(seated["round"], entry["table"], entry["game_id"], entry["players"])
            bot = RandomBot(f"{tid}:bot:{table.round}:{table.table}".encode())
            played.commands += play_table(tournaments, tid, table, tokens, bot, after_move)
            if on_game_done is not None:
                on_game_done(table)
    if end:
        tournaments.end(tid, organiser)
    return played


def play_table(
    tournaments: TournamentService,
    tournament_id: str,
    table: Table,
    player_tokens: list[str],
    bot: RandomBot,
    after_move: AfterMove | None = None,
) -> int:
    """Play one table's game to its end, each seat through its player's token; the number of commands sent."""
    games = tournaments.games
    clocked = tournaments.load(tournament_id).log.state.settings.time_control is not None
    sent = 0
    while True:
        if clocked:
            tournaments.enforce_clock(tournament_id, table.game_id)
        with games.reading(table.game_id) as aggregate:
            match = aggregate.match
            if match.is_over:
                return sent
            seat, command = bot.next_move(match.game, match.state)
            version = match.version
        player = table.players[seat]
        try:
            tournaments.play(
                tournament_id,
                table.game_id,
                player_tokens[player],
                {"type": command.type, **command.to_dict()},
                expected_version=version,
            )
        except (StaleVersion, Conflict):
            continue  # the clock rule moved first (or the seat is the bot's now): look again
        except RuleViolation as refusal:
            if refusal.code != NOT_YOUR_TURN:
                raise
            continue
        sent += 1
        if after_move is not None:
            after_move(table, seat)
