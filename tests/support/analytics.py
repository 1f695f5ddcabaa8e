"""Small simulated stores for the analytics tests: a few games of each kind, played by bots
through the application service."""

from __future__ import annotations

from pathlib import Path

from domain.kernel.bots import RandomBot
from infra.bootstrap import build_service
from infra.games.service import CreatedGame, GameService
from infra.games.simulation import play_with_bot
from infra.settings import Settings

FOUR_GAMES = [("peloponnes", 3), ("empire_builder", 3), ("alexandros", 3), ("catan_alexander", 3)]


def database_url(directory: Path) -> str:
    return f"sqlite:///{directory}/events.sqlite"


def simulated_store(
    directory: Path, games_each: int = 2, running: int = 1
) -> tuple[GameService, list[CreatedGame], list[CreatedGame]]:
    """``games_each`` ended games of each game, and ``running`` Catan games still running."""
    service = build_service(Settings(database_url=database_url(directory)))
    ended = []
    for game, players in FOUR_GAMES:
        for number in range(games_each):
            created = service.create_game(game, players, None, f"{game}-{number}".encode())
            play_with_bot(service, created, RandomBot(f"bot-{game}-{number}".encode()))
            ended.append(created)
    still = []
    for number in range(running):
        created = service.create_game("catan_alexander", 4, None, f"running-{number}".encode())
        play_with_bot(service, created, RandomBot(f"bot-running-{number}".encode()), commands=30)
        still.append(created)
    return service, ended, still
