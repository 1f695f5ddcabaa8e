"""The games this server offers: every game package under ``domain/`` that exposes ``GAME``."""

from __future__ import annotations

from importlib import import_module
from pathlib import Path

from domain.kernel.registry import GameRegistry

GAME_PACKAGES = ("peloponnes", "empire_builder", "alexandros", "catan_alexander")


def _load() -> GameRegistry:
    here = Path(__file__).parent
    present = [name for name in GAME_PACKAGES if (here / name / "__init__.py").exists()]
    return GameRegistry(import_module(f"domain.{name}").GAME for name in present)


GAMES = _load()
