"""What the bots need of the Catan game: a state drawn from a seat's knowledge, and a position's value.

Hidden (§8): the other seats' resource hands and development cards, the development deck, the
scenario's face-down resource supply and the task tokens still face down on the board (with the three
set aside). The bank, hand sizes, card counts and everything on the board are public, so each unknown
group is a known multiset, dealt again from it. A seat forgets here what it could have followed from
the log (who received what): a sample never knows more than the view."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain.catan_alexander.data import (
    CARDS_PER_RESOURCE,
    CITIES_PER_PLAYER,
    CITY_COST,
    DEVELOPMENT_DECK,
    RESOURCES,
    SETTLEMENT_COST,
    SETTLEMENTS_PER_PLAYER,
    TOKEN_CROSSINGS,
    TOKEN_MIX,
)
from domain.catan_alexander.events import EVENTS, HiddenStacksReshuffled
from domain.catan_alexander.rules import evolve, total_vp
from domain.catan_alexander.rules.building import settlement_refusal
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
# A hand that pays for a city or a settlement now is worth a part of what that building brings; a
# hand some cards short, the matching part of it: cards kept toward a build are not all alike.
READY_WEIGHT = 0.3
# The best spot a seat can settle on now: a road is worth the production it opens up (a third of a
# settlement's), and a road opening nothing better is worth nothing more.
SPOT_WEIGHT = 0.02
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
    if not sample.token_order:  # the base game: no task tokens (the three set aside stay unseen to the end)
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


def cards_short(hand: Sequence[int], cost: Sequence[int]) -> int:
    """The cards a hand lacks to pay ``cost`` (before any trade)."""
    return sum(max(need - held, 0) for need, held in zip(cost, hand, strict=True))


def build_readiness(hand: Sequence[int], can_city: bool, can_settle: bool) -> float:
    """How near the hand is to a building the seat has room for: 1 when it pays for one now, falling
    with each card short (a city's five cards, a settlement's four); 0 with nowhere to build."""
    ready = 0.0
    if can_city:
        ready = max(ready, 1 - cards_short(hand, CITY_COST) / sum(CITY_COST))
    if can_settle:
        ready = max(ready, 1 - cards_short(hand, SETTLEMENT_COST) / sum(SETTLEMENT_COST))
    return ready


def spot_pips(state: State, vertex: int) -> int:
    """The pips a settlement on ``vertex`` would produce on (the robber's hex not producing)."""
    number, product = state.hex_number, state.hex_product
    return sum(PIPS[number[h]] for h in state.geometry.vertex_hexes[vertex] if product[h] >= 0 and h != state.robber)


def settling_spots(state: State, seat: Seat) -> list[int]:
    """The intersections ``seat``'s roads reach where it could build a settlement now."""
    ends = {v for e in state.roads_of[seat] for v in state.geometry.edges[e]}
    return [v for v in sorted(ends) if settlement_refusal(state, seat, v, founding=False) is None]


def best_spot_pips(state: State, spots: Sequence[int]) -> int:
    """The pips of the best of ``spots`` (a seat's ``settling_spots``)."""
    return max((spot_pips(state, v) for v in spots), default=0)


def seat_readiness(state: State, seat: Seat, spots: Sequence[int]) -> float:
    """``build_readiness`` of the seat's hand, ``spots`` its ``settling_spots``."""
    can_city = state.settlements[seat] > 0 and state.cities[seat] < CITIES_PER_PLAYER
    can_settle = state.settlements[seat] < SETTLEMENTS_PER_PLAYER and bool(spots)
    return build_readiness(state.hands[seat], can_city, can_settle)


def evaluate(state: State) -> list[float]:
    pips = production(state)
    limit = discard_limit(state)
    points: list[float] = []
    for s in range(state.players):
        cards = sum(state.hands[s])
        spots = settling_spots(state, s)  # one rule check per road end, shared by the two terms
        points.append(
            total_vp(state, s)
            + READY_WEIGHT * seat_readiness(state, s, spots)
            + SPOT_WEIGHT * best_spot_pips(state, spots)
            + PIP_WEIGHT * pips[s]
            + CARD_WEIGHT * min(cards, limit)
            - OVER_LIMIT_WEIGHT * max(cards - limit, 0)
            + DEV_WEIGHT * (len(state.dev_hand[s]) + len(state.dev_new[s]))
            + ROAD_WEIGHT * state.road_length[s]
            + GOLD_WEIGHT * state.gold[s]
        )
    return win_shares(points, SPREAD)


# -- a seat's client following its log (``GameDefinition.observe``) -------------------------------

_EVENT_TYPES = {event.type: event for event in EVENTS}
_PLAYED_CARDS = {
    "KnightPlayed": "knight",
    "RoadBuildingPlayed": "road_building",
    "YearOfPlentyPlayed": "year_of_plenty",
    "MonopolyPlayed": "monopoly",
}


def observe(state: State, event_type: str, data: dict[str, Any], whole: bool, seat: Seat) -> dict[str, Any]:
    """Stand-ins for a seat's client. The sealed stacks are their cards in sorted order; a card
    dealt, drawn or bought unseen is whatever lies on top (the seat's own is brought to the top
    first); a card stolen unseen is one the victim holds. What the seat later sees leave another
    seat (a payment, a discard, a monopoly, a played development card, a task revealed) is brought
    there first from where stand-ins lie: the face-down stacks and the other seats' hands, never
    the seat's own. Every count stays right, so ``sample_state`` deals the same unknown cards."""
    if not whole and event_type in ("StacksShuffled", HiddenStacksReshuffled.type):
        return {**data, **_stacks_as_they_lie(state, event_type == "StacksShuffled")}
    if event_type == "StartingHandDealt":
        if not whole:
            return {**data, "cards": _bundle(state.supply[: data["card_count"]])}
        for place, good in enumerate(_goods(data["cards"])):
            _resource_to_supply(state, good, place, seat)
    elif event_type == "SupplyCardDrawn":
        if not whole:
            return {**data, "card": RESOURCES[state.supply[0]]}
        _resource_to_supply(state, RESOURCES.index(data["card"]), 0, seat)
    elif event_type == "DevelopmentCardBought":
        if not whole:
            data = {**data, "card": state.dev_deck[0]}
        else:
            _card_to_deck_top(state, data["card"], seat)
    elif event_type == "CardStolen" and not whole:
        hand = state.hands[data["victim"]]
        stolen = data["stolen"]  # a steal from an empty hand takes no card
        data = {**data, "card": RESOURCES[next(g for g, count in enumerate(hand) if count > 0)] if stolen else None}
    elif event_type == "SupplyClosed":
        _supply_as_closed(state, _goods(data["cards_to_bank"]), seat)
    elif event_type == "TaskRevealed":
        _task_to_crossing(state, data["task"], data["crossing"])
    elif event_type in _PLAYED_CARDS and data["seat"] != seat:
        _card_to_hand(state, _PLAYED_CARDS[event_type], data["seat"], seat)
    _cover_hands(state, event_type, data, seat)
    return data


def _stacks_as_they_lie(state: State, setup: bool) -> dict[str, Any]:
    if not setup:  # a reshuffle keeps the stand-ins where they are
        return {
            "supply": [RESOURCES[good] for good in state.supply],
            "dev_deck": list(state.dev_deck),
            "tokens": {str(c): task for c, task in state.tokens_on_board.items()},
        }
    if not state.scenario:
        return {"supply": [], "dev_deck": sorted(DEVELOPMENT_DECK), "tokens": []}
    per_resource = CARDS_PER_RESOURCE if state.players == 4 else 15  # as setup_events lays the supply
    return {
        "supply": [r for r in RESOURCES for _ in range(per_resource)],
        "dev_deck": sorted(DEVELOPMENT_DECK),
        "tokens": sorted(TOKEN_MIX),
    }


def _goods(bundle: dict[str, int]) -> list[int]:
    return [RESOURCES.index(name) for name in RESOURCES for _ in range(bundle.get(name, 0))]


def _bundle(goods: list[int]) -> dict[str, int]:
    return {name: goods.count(g) for g, name in enumerate(RESOURCES) if g in goods}


def _resource_to_supply(state: State, good: int, place: int, seat: Seat) -> None:
    """``good`` at ``place`` of the supply, from further down the supply or from another seat's
    hand (which takes the stand-in that lay there instead)."""
    supply = state.supply
    if supply[place] == good:
        return
    if good in supply[place + 1 :]:
        at = supply.index(good, place + 1)
        supply[place], supply[at] = supply[at], supply[place]
        return
    donor = next((s for s in range(state.players) if s != seat and state.hands[s][good] > 0), None)
    if donor is not None:
        state.hands[donor][good] -= 1
        state.hands[donor][supply[place]] += 1
    supply[place] = good


def _supply_as_closed(state: State, left: list[int], seat: Seat) -> None:
    """The supply's last cards, shown as it closes, are the stand-ins that lie there: each one the
    stand-ins lack is swapped in from another seat's hand for one they have too many of."""
    for good in range(len(RESOURCES)):
        while state.supply.count(good) < left.count(good):
            extra = next((g for g in range(len(RESOURCES)) if state.supply.count(g) > left.count(g)), None)
            donor = next((s for s in range(state.players) if s != seat and state.hands[s][good] > 0), None)
            if extra is None or donor is None:
                return  # the counts are wrong: nothing to swap (a record this seat cannot follow)
            state.supply[state.supply.index(extra)] = good
            state.hands[donor][good] -= 1
            state.hands[donor][extra] += 1


def _cover_hands(state: State, event_type: str, data: dict[str, Any], seat: Seat) -> None:
    """Before an event takes cards from another seat's hand, that hand holds them: each missing
    card is swapped in from the supply or a third seat's hand, for one the hand keeps after it."""
    event_class = _EVENT_TYPES.get(event_type)
    if event_class is None:
        return
    for _ in range(sum(CARDS_PER_RESOURCE for _ in RESOURCES)):  # a bound: each round fixes one card
        after = evolve(clone_state(state), event_class.from_dict(data))
        short = next(
            ((s, g) for s in range(state.players) if s != seat for g in range(len(RESOURCES)) if after.hands[s][g] < 0),
            None,
        )
        if short is None:
            return
        owner, good = short
        spare = next((g for g in range(len(RESOURCES)) if after.hands[owner][g] > 0), None)
        if spare is None:
            return  # the hand's size is wrong: nothing to swap (a record this seat cannot follow)
        if good in state.supply:
            state.supply[state.supply.index(good)] = spare
        else:
            donor = next((s for s in range(state.players) if s not in (seat, owner) and after.hands[s][good] > 0), None)
            if donor is None:
                return
            state.hands[donor][good] -= 1
            state.hands[donor][spare] += 1
        state.hands[owner][good] += 1
        state.hands[owner][spare] -= 1


def _development_places(state: State, seat: Seat) -> list[list[str]]:
    """Where unseen development cards lie: the deck, then the other seats' cards."""
    places = [state.dev_deck]
    for other in range(state.players):
        if other != seat:
            places.extend((state.dev_hand[other], state.dev_new[other]))
    return places


def _swap_card(state: State, card: str, into: list[str], at: int, seat: Seat) -> None:
    """``card`` at ``into[at]``, swapped with where another stand-in of it lies."""
    if into[at] == card:
        return
    for place in _development_places(state, seat):
        for k, there in enumerate(place):
            if there == card and not (place is into and k <= at):
                place[k], into[at] = into[at], card
                return
    into[at] = card


def _card_to_deck_top(state: State, card: str, seat: Seat) -> None:
    _swap_card(state, card, state.dev_deck, 0, seat)


def _card_to_hand(state: State, card: str, owner: Seat, seat: Seat) -> None:
    """A development card another seat plays is in its (old) hand before it plays it."""
    hand = state.dev_hand[owner]
    if card not in hand and hand:
        _swap_card(state, card, hand, len(hand) - 1, seat)


def _task_to_crossing(state: State, task: str, crossing: int) -> None:
    """A revealed task lies on its crossing: swapped with a face-down token of that task elsewhere."""
    tokens = state.tokens_on_board
    if tokens.get(crossing, task) == task:
        return
    laid = len(TOKEN_CROSSINGS)
    other = next((c for c, there in tokens.items() if there == task and c != crossing), None)
    if other is not None:
        tokens[other] = tokens[crossing]
    else:
        aside = state.token_order[laid:]
        if task in aside:
            state.token_order[laid + aside.index(task)] = tokens[crossing]
    tokens[crossing] = task
    state.token_order[:laid] = [tokens.get(c, t) for c, t in zip(TOKEN_CROSSINGS, state.token_order, strict=False)]
