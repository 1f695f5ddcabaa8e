from __future__ import annotations

from domain.catalog import GAMES
from tests.kernel.fixture_game import GAME as SEALED_GUESS

# The kernel's fixture game is known to the platform only inside the tests.
GAMES.register(SEALED_GUESS)
