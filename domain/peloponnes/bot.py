"""What the bots need of Peloponnes: a position's value. Nothing in the state is hidden (undrawn tiles
and chits are kept as what is left, each draw picks from it), so the default ``sample_state``, a copy,
already holds only what every seat knows; the future draws come from the bot's own chance."""

from __future__ import annotations

from domain.kernel.sampling import win_shares
from domain.peloponnes.data import ROUNDS
from domain.peloponnes.scoring import seat_result
from domain.peloponnes.state import State

SPREAD = 3.0
# A bid shows its worth only once the round's tiles are awarded, and feeding only at the supply round:
# the search plays on some 30 random commands (most of a game) before it evaluates.
PLAYOUT_DEPTH = 30
# The lower of prestige and population points scores; the higher one is what the next tiles can lift it to.
HIGHER_WEIGHT = 0.3
GOODS_WEIGHT = 0.3  # wood, stone and food pay for buildings and feed the supply rounds: less so as the end nears
LUXURY_WEIGHT = 0.3  # the last tie-break, and coins' worth later


def evaluate(state: State) -> list[float]:
    goods_weight = GOODS_WEIGHT * max(ROUNDS - state.round, 0) / ROUNDS
    points: list[float] = []
    for seat, s in enumerate(state.seats):
        result = seat_result(seat, s)
        points.append(
            result["final"]
            + HIGHER_WEIGHT * (result["higher"] - result["final"])
            + goods_weight * (s.wood + s.stone + s.food)
            + LUXURY_WEIGHT * s.luxury
        )
    return win_shares(points, SPREAD)
