from __future__ import annotations

import os

from domain.catalog import GAMES
from tests.kernel.fixture_game import GAME as SEALED_GUESS

# The kernel's fixture game is known to the platform only inside the tests.
GAMES.register(SEALED_GUESS)

# The suite is one client creating hundreds of games a minute, in process and in the servers it
# starts (which inherit this), and joining as many; the tests of the limits set their own.
os.environ.setdefault("ALEXANDRIA_CREATION_RATE_LIMIT", "")
os.environ.setdefault("ALEXANDRIA_JOIN_RATE_LIMIT", "")
