"""Bots playing through the application service, as the CLI's simulator and the tests use it."""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass, field
from typing import Any, Protocol

from domain.kernel.game import GameDefinition
from domain.kernel.log import COMMAND_ACCEPTED
from domain.kernel.messages import Command
from domain.kernel.seats import Seat
from infra.games.service import CreatedGame, GameService


class Mover(Protocol):
    """A random bot playing every seat, or a ``BotTable`` of a bot per seat."""

    def next_move(self, game: GameDefinition[Any], state: Any) -> tuple[Seat, Command]: ...


def play_with_bot(service: GameService, created: CreatedGame, bot: Mover, commands: int | None = None) -> list[float]:
    """Play ``created`` until it ends (or ``commands`` were sent), each seat through its own token.

    Returns how long each command took the service, in seconds.
    """
    latencies: list[float] = []
    while commands is None or len(latencies) < commands:
        with service.reading(created.game_id) as aggregate:
            match = aggregate.match
            if match.is_over:
                break
            seat, command = bot.next_move(match.game, match.state)
            version = match.version
        started = time.perf_counter()
        service.execute(
            created.game_id,
            created.tokens[seat],
            {"type": command.type, **command.to_dict()},
            expected_version=version,
        )
        latencies.append(time.perf_counter() - started)
    return latencies


@dataclass
class SimulationResults:
    """What a batch of simulated games came to, per seat and overall."""

    game: str
    players: int
    wins: list[int]  # games each seat won (a shared win counts for each winner)
    scores: list[list[float]]  # per seat, the final score of each game
    commands: list[int] = field(default_factory=list)  # accepted commands, per game
    records: list[int] = field(default_factory=list)  # records, per game
    seconds: float = 0.0

    @classmethod
    def empty(cls, game: str, players: int) -> SimulationResults:
        return cls(game, players, [0] * players, [[] for _ in range(players)])

    def add(self, service: GameService, game_id: str) -> None:
        records = service.records(game_id)
        with service.reading(game_id) as aggregate:
            board = aggregate.match.game.scoreboard(aggregate.match.state)
        for seat in board.winners:
            self.wins[seat] += 1
        for seat, score in enumerate(board.scores):
            self.scores[seat].append(float(score))
        self.commands.append(sum(r.type == COMMAND_ACCEPTED for r in records))
        self.records.append(len(records))

    @property
    def games(self) -> int:
        return len(self.records)

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": self.players,
            "games": self.games,
            "seats": [
                {
                    "seat": seat,
                    "wins": self.wins[seat],
                    "win_rate": self.wins[seat] / self.games if self.games else 0.0,
                    "score_mean": statistics.fmean(scores) if scores else 0.0,
                    "score_sd": statistics.pstdev(scores) if scores else 0.0,
                    "score_min": min(scores, default=0.0),
                    "score_max": max(scores, default=0.0),
                }
                for seat, scores in enumerate(self.scores)
            ],
            "mean_commands": statistics.fmean(self.commands) if self.commands else 0.0,
            "mean_records": statistics.fmean(self.records) if self.records else 0.0,
            "records": sum(self.records),
            "seconds": self.seconds,
            "records_per_second": sum(self.records) / self.seconds if self.seconds > 0 else 0.0,
        }
