"""R70-R72: no final scoring; the score track is the result, ties share the win."""

from __future__ import annotations

from domain.alexandros.rules import final_winners
from domain.alexandros.state import OVER, State
from domain.kernel import Scoreboard


def scoreboard(state: State) -> Scoreboard:
    scores = list(state.scores)
    final = state.step == OVER
    return Scoreboard(
        scores=list(scores),
        placings=[1 + sum(other > mine for other in scores) for mine in scores],
        winners=final_winners(scores) if final else [],
        final=final,
        details={"end": state.end, "black_left": state.black_left, "red_left": state.red_left},
    )
