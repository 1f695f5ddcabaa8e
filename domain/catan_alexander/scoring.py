"""Final scoring (R55-R58) and the Scoreboard."""

from __future__ import annotations

from domain.catan_alexander.rules import public_vp, total_vp
from domain.catan_alexander.state import GAME_OVER, State
from domain.kernel import Scoreboard


def scoreboard(state: State) -> Scoreboard:
    """Scores are public VP while the game runs (hidden VP cards stay hidden), totals at the end."""
    final = state.phase == GAME_OVER
    n = state.players
    scores: list[int | float] = [total_vp(state, s) if final else public_vp(state, s) for s in range(n)]
    # placing: VP first, then task tokens (R58)
    keys = [(scores[s], state.tokens_won[s]) for s in range(n)]
    placings = [1 + sum(other > keys[s] for other in keys) for s in range(n)]
    return Scoreboard(
        scores=scores,
        placings=placings,
        winners=list(state.winners) if final else [],
        final=final,
        details={"tokens": list(state.tokens_won), "end_reason": state.end_reason},
    )
