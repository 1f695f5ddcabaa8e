"""The games this server offers."""

from __future__ import annotations

from importlib import import_module

from domain.kernel.registry import GameRegistry

# Each game package exposes ``GAME``, its ``GameDefinition``.
GAME_PACKAGES = ("peloponnes", "empire_builder", "alexandros", "catan_alexander")


def _load() -> GameRegistry:
    return GameRegistry(import_module(f"domain.{name}").GAME for name in GAME_PACKAGES)


GAMES = _load()
