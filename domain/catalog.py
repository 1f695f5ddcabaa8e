"""The games this server offers: every game package under ``domain/`` that exposes ``GAME``."""

from __future__ import annotations

from importlib import import_module
from pathlib import Path

from domain.kernel.game import GameDefinition
from domain.kernel.registry import GameRegistry

GAME_PACKAGES = ("peloponnes", "empire_builder", "alexandros", "catan_alexander")


def _load() -> GameRegistry:
    here = Path(__file__).parent
    games: list[GameDefinition] = []
    for name in GAME_PACKAGES:
        if (here / name / "__init__.py").exists():
            # A package still being written may not expose GAME yet; tests/test_catalog.py
            # insists that all four do.
            game = getattr(import_module(f"domain.{name}"), "GAME", None)
            if game is not None:
                games.append(game)
    return GameRegistry(games)


GAMES = _load()
