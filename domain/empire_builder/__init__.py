"""Alexander the Great - the Empire Builder (Hofstätter & Keusch, Phalanx 2005), 2-5 players.

Rules: docs/empire_builder/rules.md. The map (board.json) is a reconstruction (§2.4).
"""

from __future__ import annotations

from domain.empire_builder.state import State
from domain.kernel.game import GameDefinition
from domain.kernel.layout import game_of_package

GAME: GameDefinition[State] = game_of_package(
    __name__, title="Alexander the Great - the Empire Builder", min_players=2, max_players=5
)
