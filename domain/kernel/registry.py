"""Game ids to their definitions."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from domain.kernel.errors import RuleViolation
from domain.kernel.game import GameDefinition

UNKNOWN_GAME = "UNKNOWN_GAME"


class GameRegistry:
    def __init__(self, games: Iterable[GameDefinition[Any]]) -> None:
        self._games = {g.id: g for g in games}

    def register(self, game: GameDefinition[Any]) -> None:
        self._games[game.id] = game

    def get(self, game_id: str) -> GameDefinition[Any]:
        try:
            return self._games[game_id]
        except KeyError:
            known = ", ".join(sorted(self._games))
            raise RuleViolation(UNKNOWN_GAME, f"there is no game {game_id!r}; the games are: {known}") from None

    def __contains__(self, game_id: object) -> bool:
        return game_id in self._games

    def ids(self) -> list[str]:
        return sorted(self._games)

    def all(self) -> list[GameDefinition[Any]]:
        return [self._games[i] for i in self.ids()]
