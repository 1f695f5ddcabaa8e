from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from domain.kernel.errors import RuleViolation
from domain.kernel.game import GameDefinition

UNKNOWN_GAME = "UNKNOWN_GAME"

Loader = Callable[[], GameDefinition[Any]]


class GameRegistry:
    """Game ids to their definitions. A game is registered either as its definition or as a
    loader, called the first time the game is asked for (``get``, ``all``): a process imports
    only the games it plays, while ``ids`` and ``in`` answer without loading any."""

    def __init__(self, games: Iterable[GameDefinition[Any]] = (), loaders: Mapping[str, Loader] | None = None) -> None:
        self._games = {g.id: g for g in games}
        self._loaders = {game_id: loader for game_id, loader in (loaders or {}).items() if game_id not in self._games}

    def register(self, game: GameDefinition[Any]) -> None:
        self._games[game.id] = game
        self._loaders.pop(game.id, None)

    def get(self, game_id: str) -> GameDefinition[Any]:
        game = self._games.get(game_id)
        if game is not None:
            return game
        loader = self._loaders.get(game_id)
        if loader is None:
            known = ", ".join(self.ids())
            raise RuleViolation(UNKNOWN_GAME, f"there is no game {game_id!r}; the games are: {known}")
        game = loader()
        if game.id != game_id:
            raise ValueError(f"the game registered as {game_id!r} calls itself {game.id!r}")
        # Two threads loading the same game at once get the same definition (the module's).
        self._games[game_id] = game
        return game

    def __contains__(self, game_id: object) -> bool:
        return game_id in self._games or game_id in self._loaders

    def ids(self) -> list[str]:
        return sorted({*self._games, *self._loaders})

    def all(self) -> list[GameDefinition[Any]]:
        return [self.get(i) for i in self.ids()]
