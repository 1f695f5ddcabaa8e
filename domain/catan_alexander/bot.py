"""What the bots need of the Catan game: a state drawn from a seat's knowledge, and a position's value.

Hidden (§8): the other seats' resource hands and development cards, the development deck, the
scenario's face-down resource supply and the task tokens still face down on the board (with the three
set aside). The bank, hand sizes, card counts and everything on the board are public, so each unknown
group is a known multiset, dealt again from it. A seat forgets here what it could have followed from
the log (who received what): a sample never knows more than the view."""

from __future__ import annotations

from domain.catan_alexander.data import RESOURCES, TOKEN_CROSSINGS
from domain.catan_alexander.rules import total_vp
from domain.catan_alexander.rules.roll import discard_limit
from domain.catan_alexander.state import State
from domain.kernel import Chance, Seat
from domain.kernel.sampling import clone_state, deal, win_shares

SPREAD = 1.5
PIP_WEIGHT = 0.06  # a settlement on three good numbers (about 11 pips) is worth some 0.7 VP of future
CARD_WEIGHT = 0.08
OVER_LIMIT_WEIGHT = 0.1  # each card beyond the discard limit, at risk of a seven
DEV_WEIGHT = 0.3
ROAD_WEIGHT = 0.05
GOLD_WEIGHT = 0.08
PIPS = [0, 0, 1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1]  # ways to roll each total with two dice, of 36


def sample_state(state: State, seat: Seat, chance: Chance) -> State:
    sample = clone_state(state)
    others = [s for s in range(state.players) if s != seat]
    _deal_resources(sample, others, chance)
    _deal_development(sample, others, chance)
    _deal_tokens(sample, chance)
    return sample


def _deal_resources(sample: State, others: list[int], chance: Chance) -> None:
    pool = list(sample.supply)
    for other in others:
        for good, count in enumerate(sample.hands[other]):
            pool.extend([good] * count)
    *hands, supply = deal(chance, "sample:resources", pool, [sum(sample.hands[o]) for o in others])
    for other, cards in zip(others, hands, strict=True):
        vector = [0] * len(RESOURCES)
        for good in cards:
            vector[good] += 1
        sample.hands[other] = vector
    sample.supply = supply


def _deal_development(sample: State, others: list[int], chance: Chance) -> None:
    pool = list(sample.dev_deck)
    sizes: list[int] = []
    for other in others:
        pool.extend(sample.dev_hand[other])
        pool.extend(sample.dev_new[other])
        sizes.extend((len(sample.dev_hand[other]), len(sample.dev_new[other])))
    *piles, deck = deal(chance, "sample:development", pool, sizes)
    for k, other in enumerate(others):
        sample.dev_hand[other], sample.dev_new[other] = piles[2 * k], piles[2 * k + 1]
    sample.dev_deck = deck


def _deal_tokens(sample: State, chance: Chance) -> None:
    if not sample.tokens_on_board:
        return
    laid = len(TOKEN_CROSSINGS)
    crossings = sorted(sample.tokens_on_board)
    pool = [sample.tokens_on_board[c] for c in crossings] + sample.token_order[laid:]
    on_board, set_aside = deal(chance, "sample:tokens", pool, [len(crossings)])
    sample.tokens_on_board = dict(zip(crossings, on_board, strict=True))
    # as hidden.on_hidden_stacks_reshuffled keeps it: the task of each token crossing, then those set aside
    sample.token_order = [
        sample.tokens_on_board.get(c, task) for c, task in zip(TOKEN_CROSSINGS, sample.token_order, strict=False)
    ] + set_aside


def production(state: State) -> list[int]:
    """Each seat's pips: the ways of rolling a number its buildings produce on, a city counting twice."""
    pips = [0] * state.players
    owner, level, robber = state.owner, state.level, state.robber
    for total, producers in enumerate(state.producers):
        if total < len(PIPS):
            for h, _product, v in producers:
                if h != robber and owner[v] >= 0:
                    pips[owner[v]] += PIPS[total] * level[v]
    return pips


def evaluate(state: State) -> list[float]:
    pips = production(state)
    limit = discard_limit(state)
    points: list[float] = []
    for s in range(state.players):
        cards = sum(state.hands[s])
        points.append(
            total_vp(state, s)
            + PIP_WEIGHT * pips[s]
            + CARD_WEIGHT * min(cards, limit)
            - OVER_LIMIT_WEIGHT * max(cards - limit, 0)
            + DEV_WEIGHT * (len(state.dev_hand[s]) + len(state.dev_new[s]))
            + ROAD_WEIGHT * state.road_length[s]
            + GOLD_WEIGHT * state.gold[s]
        )
    return win_shares(points, SPREAD)
