"""Rules file 6, end of game and scoring (R57-R62)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.empire_builder import scoring
from domain.empire_builder.events import AwardScored, GameEnded
from domain.empire_builder.state import GAME_OVER, State
from domain.kernel import Chance, Event


def game_end(state: State, chance: Chance) -> list[Event]:
    """R57-R62: the final awards, then GameEnded with the seed."""
    awards = scoring.final_awards(state)
    scores = [p.vp for p in state.seats]
    for award in awards:
        if award.seat is not None:
            scores[award.seat] += award.vp
    best = max(scores)
    winners = [s for s, v in enumerate(scores) if v == best]  # Ruling R62: a shared victory
    return [*awards, GameEnded({str(s): v for s, v in enumerate(scores)}, winners, chance.seed_hex)]


def _award_scored(state: State, e: AwardScored) -> None:
    if e.seat is not None:
        state.seats[e.seat].vp += e.vp


def _game_ended(state: State, e: GameEnded) -> None:
    state.phase = GAME_OVER
    state.winners = list(e.winners)


EVOLVERS: dict[type[Event], Callable[[State, Any], None]] = {
    AwardScored: _award_scored,
    GameEnded: _game_ended,
}
