"""Rules file 5.12 and 6, game end and scoring."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.kernel import Chance, Event
from domain.peloponnes import scoring
from domain.peloponnes.data import SOLO_LEVELS
from domain.peloponnes.events import GameEnded
from domain.peloponnes.state import ENDED, State


def final_scoring(state: State, chance: Chance) -> list[Event]:
    results, winners = scoring.final_results(state)
    solo = None
    if state.solo_level is not None:
        target = SOLO_LEVELS[state.solo_level].target
        solo = {"level": state.solo_level, "target": target, "reached": results[0]["final"] >= target}
    return [GameEnded(results, winners, chance.seed_hex, solo)]


def _game_ended(state: State, e: GameEnded) -> None:
    state.phase = ENDED
    state.results = [dict(r) for r in e.results]
    state.winners = list(e.winners)
    state.seed = e.seed


EVOLVERS: dict[type[Event], Callable[[State, Any], None]] = {
    GameEnded: _game_ended,
}
