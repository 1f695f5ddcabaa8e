"""Bots playing through the application service, as the CLI's simulator and the tests use it."""

from __future__ import annotations

import time

from domain.kernel.bots import RandomBot
from infra.service import CreatedGame, GameService


def play_with_bot(
    service: GameService, created: CreatedGame, bot: RandomBot, commands: int | None = None
) -> list[float]:
    """Play ``created`` until it ends (or ``commands`` were sent), each seat through its own token.

    Returns how long each command took the service, in seconds.
    """
    latencies: list[float] = []
    while commands is None or len(latencies) < commands:
        with service.reading(created.game_id) as aggregate:
            match = aggregate.match
            if match.is_over:
                break
            seat, command = bot.next_move(match.game, match.state)
            version = aggregate.version
        started = time.perf_counter()
        service.execute(
            created.game_id,
            created.tokens[seat],
            {"type": command.type, **command.to_dict()},
            expected_version=version,
        )
        latencies.append(time.perf_counter() - started)
    return latencies
