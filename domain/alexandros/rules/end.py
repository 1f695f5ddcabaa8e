"""Rules file 6, end of game and scoring (R67-R72)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.alexandros.events import GameEnded, GameEndTriggered
from domain.alexandros.state import OVER, State
from domain.kernel import Chance, Event


def final_winners(scores: list[int]) -> list[int]:
    """R70/R71: the most points win; ties share the win."""
    best = max(scores)
    return [s for s, v in enumerate(scores) if v == best]


def game_ended(state: State, reason: str, chance: Chance) -> GameEnded:
    return GameEnded(
        reason=reason, scores=list(state.scores), winners=final_winners(state.scores), seed=chance.seed_hex
    )


def _end_triggered(state: State, e: GameEndTriggered) -> None:
    state.end_reason = e.reason


def _ended(state: State, e: GameEnded) -> None:
    state.step = OVER
    state.end = e.reason
    state.winners = list(e.winners)


EVOLVERS: dict[type[Event], Callable[[State, Any], None]] = {
    GameEndTriggered: _end_triggered,
    GameEnded: _ended,
}
