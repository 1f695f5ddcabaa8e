"""What the bots need of Alexandros: a state drawn from a seat's knowledge, and a position's value.

Hidden (R66): the other seats' hands and the order of the face-down supply. Hand sizes, the display
and the discard pile are public, so the unknown cards are a known multiset: dealt again from it."""

from __future__ import annotations

from domain.alexandros.rules.taxes import tax_scoring
from domain.alexandros.state import AlexandrosState, empty_hand
from domain.kernel import Chance, Seat
from domain.kernel.sampling import clone_state, deal, win_shares

# A levy's worth of points decides a lot; a card is about half a point of future taxes or governors.
SPREAD = 8.0
TAX_WEIGHT = 0.6
CARD_WEIGHT = 0.5


def sample_state(state: AlexandrosState, seat: Seat, chance: Chance) -> AlexandrosState:
    sample = clone_state(state)
    others = [s for s in range(state.players) if s != seat]
    pool = list(state.supply)
    for other in others:
        for symbol, count in state.hands[other].items():
            pool.extend([symbol] * count)
    sizes = [sum(state.hands[other].values()) for other in others]
    *hands, supply = deal(chance, "sample:alexandros", pool, sizes)
    for other, cards in zip(others, hands, strict=True):
        hand = empty_hand()
        for card in cards:
            hand[card] += 1
        sample.hands[other] = hand
    sample.supply = supply
    return sample


def evaluate(state: AlexandrosState) -> list[float]:
    """The score, what a levy would bring now (the provinces a seat holds alone), and the cards in hand."""
    taxes, _ = tax_scoring(state, state.seat)
    points = [
        state.scores[s] + TAX_WEIGHT * taxes[s] + CARD_WEIGHT * sum(state.hands[s].values())
        for s in range(state.players)
    ]
    return win_shares(points, SPREAD)
