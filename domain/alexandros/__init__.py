"""Alexandros (Leo Colovini, 2003), 2-4 players: rules in ``docs/alexandros/rules.md``."""

from __future__ import annotations

from domain.alexandros.state import State
from domain.kernel.game import GameDefinition
from domain.kernel.layout import game_of_package

GAME: GameDefinition[State] = game_of_package(__name__, title="Alexandros", min_players=2, max_players=4)
