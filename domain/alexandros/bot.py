"""What the bots need of Alexandros: a state drawn from a seat's knowledge, and a position's value.

Hidden (R66): the other seats' hands and the order of the face-down supply. Hand sizes, the display
and the discard pile are public, so the unseen cards are a known multiset: dealt again from it."""

from __future__ import annotations

from typing import Any

from domain.alexandros.data import CARDS_PER_SYMBOL, SYMBOLS
from domain.alexandros.rules.taxes import tax_scoring
from domain.alexandros.state import ACTIONS, State, empty_hand
from domain.kernel import Chance, Seat
from domain.kernel.sampling import clone_state, deal, win_shares

# A levy's worth of points decides a lot; a card is about half a point of future taxes or governors.
SPREAD = 8.0
TAX_WEIGHT = 0.6
CARD_WEIGHT = 0.5
# A move is answered by the next seats' turns: their walls cut provinces, their levies score, their
# take-overs evict. The search plays this many turns after its own greedily before it judges a
# position. The last turns decide a game, and what they bring (the last walls cutting provinces, the
# last levies, who lays the red walls and so has the last turn, R67) is more than the evaluation sees:
# within this many black walls of the end (some three turns at about 2.7 walls a turn) it plays up to
# this many.
NEXT_TURNS = 2
ENDGAME_WALLS = 8
ENDGAME_TURNS = 4


def sample_state(state: State, seat: Seat, chance: Chance) -> State:
    sample = clone_state(state)
    others = [s for s in range(state.players) if s != seat]
    *hands, supply = deal(chance, "sample:alexandros", unseen_cards(state, seat), [hand_size(state, o) for o in others])
    for other, cards in zip(others, hands, strict=True):
        hand = empty_hand()
        for card in cards:
            hand[card] += 1
        sample.hands[other] = hand
    sample.supply = supply
    return sample


def unseen_cards(state: State, seat: Seat) -> list[str]:
    """The cards ``seat`` has not seen: the whole deck but the display, the discard pile and its hand
    (what lies in the supply and the other hands, worked out from public things only)."""
    left = {symbol: CARDS_PER_SYMBOL for symbol in SYMBOLS}
    for card in [*state.discard, *(c for c in state.display if c is not None)]:
        left[card] -= 1
    for symbol, count in state.hands[seat].items():
        left[symbol] -= count
    return [symbol for symbol in SYMBOLS for _ in range(left[symbol])]


def hand_size(state: State, seat: Seat) -> int:
    return sum(state.hands[seat].values())


def evaluate(state: State) -> list[float]:
    """The score, what a levy would bring now (the provinces a seat holds alone), and the cards in hand."""
    taxes, _ = tax_scoring(state, state.seat)
    points = [
        state.scores[s] + TAX_WEIGHT * taxes[s] + CARD_WEIGHT * sum(state.hands[s].values())
        for s in range(state.players)
    ]
    return win_shares(points, SPREAD)


def turn_underway(state: State) -> Seat | None:
    """The seat taking its actions (R42): its move is made, and what it does next (occupy, levy) is
    what the move was for, so the position is judged once its actions are done."""
    return state.seat if state.step == ACTIONS else None


def greedy_turns(state: State) -> int:
    """The next seats' turns, and near the end (R37: the black walls running out) the turns to the end:
    played greedily after the search's tree (its own turn), so that a move is judged by how it is
    answered, and near the end by how the game ends, rather than estimated."""
    return ENDGAME_TURNS if state.black_left <= ENDGAME_WALLS else NEXT_TURNS


def observe(state: State, event_type: str, data: dict[str, Any], whole: bool, seat: Seat) -> dict[str, Any]:
    """Stand-ins for a seat's client: the face-down supply is some cards of the right number, a card
    drawn unseen is whatever lies on top, and a card the seat sees leave the supply (its own draw, a
    display refill) is brought to the top first. The others' hands may come to hold cards they have
    not (a payment shows a card the stand-in did not give them): their sizes are right, and
    ``sample_state`` deals their contents again from the unseen cards alone."""
    if event_type == "SupplyShuffled" and not whole:
        if data["reason"] == "setup":
            order = sorted(symbol for symbol in SYMBOLS for _ in range(CARDS_PER_SYMBOL))
        elif data["reason"] == "reshuffle":
            order = sorted(state.discard)
        else:
            order = sorted(state.supply)
        return {**data, "order": order}
    if event_type == "CardTaken" and data["source"] != "display":
        if not whole:
            return {**data, "card": state.supply[0]}
        _to_top(state.supply, data["card"])
    if event_type == "DisplayRefilled":
        _to_top(state.supply, data["card"])
    return data


def _to_top(supply: list[str], card: str) -> None:
    """A seen card on top of the stand-ins (or in the place of the top one: other hands' stand-ins may
    have taken them all, as only ``sample_state``'s count of the unseen cards is exact)."""
    if card in supply:
        at = supply.index(card)
        supply[0], supply[at] = supply[at], supply[0]
    else:
        supply[0] = card
