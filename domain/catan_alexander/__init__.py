"""Catan historical scenario "Alexander the Great" on complete base Catan (3-4 players), with
the standard base game as the option ``board = "base"``."""

from __future__ import annotations

from domain.catan_alexander.state import State
from domain.kernel.game import GameDefinition
from domain.kernel.layout import game_of_package

GAME: GameDefinition[State] = game_of_package(
    __name__, title="Catan: Alexander the Great (historical scenario)", min_players=3, max_players=4
)
