"""The games this server offers: every game package under ``domain/`` named in ``GAME_PACKAGES``,
whose ``GAME`` is its definition. A package is imported the first time its game is asked for, so
that a server imports only the games it serves (a restart reads a game in a fraction of the time
importing all four takes)."""

from __future__ import annotations

from importlib import import_module
from pathlib import Path
from typing import Any

from domain.kernel.game import GameDefinition
from domain.kernel.registry import GameRegistry, Loader

GAME_PACKAGES = ("peloponnes", "empire_builder", "alexandros", "catan_alexander")
"""Each package's name is its game id."""


def _loader(name: str) -> Loader:
    def load() -> GameDefinition[Any]:
        game: GameDefinition[Any] = import_module(f"domain.{name}").GAME
        return game

    return load


def _registry() -> GameRegistry:
    here = Path(__file__).parent
    # A package still being written is left out until it exists; tests/test_catalog.py insists
    # that all four do and that each one's GAME is the game its name says.
    return GameRegistry(
        loaders={name: _loader(name) for name in GAME_PACKAGES if (here / name / "__init__.py").exists()}
    )


GAMES = _registry()
"""Game ids to their definitions."""
