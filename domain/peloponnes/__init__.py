"""Peloponnes (Bernd Eisenstein, Irongames 2009), 1-5 players. Rules: docs/peloponnes/rules.md."""

from __future__ import annotations

from domain.kernel.game import GameDefinition
from domain.kernel.layout import game_of_package
from domain.peloponnes.state import State

GAME: GameDefinition[State] = game_of_package(__name__, title="Peloponnes", min_players=1, max_players=5)
