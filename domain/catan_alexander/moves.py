"""The legal moves of a seat (a sample where the space is large).

Everything here uses only what the seat may know: its own hand and development cards,
and public counts and board facts.
"""

from __future__ import annotations

from functools import partial
from itertools import compress
from operator import ge
from typing import TypeVar

from domain.catan_alexander.commands import (
    BankTrade,
    BuildCity,
    BuildRoad,
    BuildSettlement,
    BuyDevelopmentCard,
    CancelTrade,
    ChooseAdvisorRecipient,
    ConfirmTrade,
    Discard,
    EndTurn,
    MoveAlexander,
    MoveRobber,
    OfferTrade,
    PassBid,
    PayBid,
    PlaceBid,
    PlayKnight,
    PlayMonopoly,
    PlayRoadBuilding,
    PlayYearOfPlenty,
    RespondTrade,
    RollDice,
)
from domain.catan_alexander.data import (
    CITIES_PER_PLAYER,
    GEOMETRIES,
    GOODS,
    KNIGHT_BID_VALUE,
    MAX_BID,
    RESOURCE_INDEX,
    RESOURCES,
    SETTLEMENTS_PER_PLAYER,
    TASK_ACCEPTS,
    Geometry,
)
from domain.catan_alexander.rules import (
    TRADE_OTHERS,
    awaited,
    bid_capacity,
    founding_spots,
    holds,
    legal_road_edges,
    robber_victims,
    settlement_refusal,
    unanswered_addressees,
)
from domain.catan_alexander.state import (
    ADVISOR_CHOICE,
    ALEXANDER,
    AUCTION,
    BEFORE_ROLL,
    DEFAULT_DISCARD,
    DISCARD,
    FOUNDING_ROAD,
    FOUNDING_SETTLEMENT,
    PAYMENT,
    ROBBER,
    TRADE_BUILD,
    State,
)
from domain.kernel import Chance, Command, LegalMoves

T = TypeVar("T")

OFFER_LISTING_ODDS = 30  # the active player's listing includes a sampled trade offer 1 time in 30


class CommandCache:
    """Commands are immutable: the fixed ones of a board are built once and shared by all listings."""

    def __init__(self, geometry: Geometry) -> None:
        self.roads = [BuildRoad(edge=geometry.edge_ref(e)) for e in range(len(geometry.edges))]
        self.settlements = [BuildSettlement(vertex=name) for name in geometry.vertices]
        self.cities = [BuildCity(vertex=name) for name in geometry.vertices]
        # per hex, per set of opponents built there (a bit per seat): the moves there, victims in seat order
        self.robber_moves: list[list[tuple[Command, ...]]] = []
        for h in geometry.hexes:
            by_victim = [MoveRobber(hex=list(h), steal_from=victim) for victim in range(4)]
            nobody: tuple[Command, ...] = (MoveRobber(hex=list(h), steal_from=None),)
            self.robber_moves.append(
                [tuple(by_victim[v] for v in range(4) if mask >> v & 1) or nobody for mask in range(16)]
            )
        self.knights = [
            {victim: PlayKnight(hex=list(h), steal_from=victim) for victim in (None, 0, 1, 2, 3)}
            for h in geometry.hexes
        ]
        hexes = range(len(geometry.hexes))
        self.other_hexes = [[h for h in hexes if h != robber] for robber in hexes]  # per robber hex
        self.bank_trades = [[BankTrade(give=give, receive=receive, lots=1) for receive in GOODS] for give in GOODS]
        # per number of kinds traded (5 resources, or with gold 6), per good given: a lot of it for each other kind
        self.trades_per_kind = {
            kinds: [[trades[r] for r in range(kinds) if r != give] for give, trades in enumerate(self.bank_trades)]
            for kinds in (5, 6)
        }
        # the bank trades when the bank holds every kind, per flags of the kinds the seat can give
        # (5 flags, or with gold 6): built once per case (``trades_for_every_kind``) and shared (read-only)
        self.every_kind: dict[tuple[bool, ...], list[Command]] = {}

    def trades_for_every_kind(self, gives: tuple[bool, ...]) -> list[Command]:
        per_kind = self.trades_per_kind[len(gives)]
        listed: list[Command] = [trade for give in compress(range(len(gives)), gives) for trade in per_kind[give]]
        self.every_kind[gives] = listed
        return listed


CACHES = {board: CommandCache(geometry) for board, geometry in GEOMETRIES.items()}
new_listing = partial(list.__new__, LegalMoves)  # an empty LegalMoves without a call to __init__
ROLL = RollDice()
MOVE_ALEXANDER = MoveAlexander()
END_TURN = EndTurn()
PASS_BID = PassBid()
BUY_CARD = BuyDevelopmentCard()
MONOPOLIES = [PlayMonopoly(resource=r) for r in RESOURCES]
BIDS = [PlaceBid(amount=a) for a in range(MAX_BID + 1)]


def clocked(state: State) -> set[int]:
    """The seats whose tournament clocks run: the awaited ones, except that answering a trade offer
    runs no clock. The offer is the active player's, whose own clock runs all the while (and who may
    confirm, cancel or end the turn, which closes every offer), so the wait for answers is bounded
    by the offerer's time and no addressee can be flagged for another player's offer."""
    if state.phase == TRADE_BUILD:
        return {state.active}
    return set(awaited(state))


# Per (players, active seat): every other seat may negotiate (§4.1), built once and shared (read-only).
NEGOTIATORS: dict[tuple[int, int], dict[int, tuple[str, ...]]] = {
    (n, active): {seat: TRADE_OTHERS for seat in range(n) if seat != active} for n in (3, 4) for active in range(n)
}


def optional(state: State) -> dict[int, tuple[str, ...]]:
    """§4.1 TRADE_BUILD: the other seats may counter-offer, answer and cancel their own offers at
    any time without being waited for (an unanswered offer makes its addressee awaited instead)."""
    if state.phase != TRADE_BUILD:
        return {}
    negotiators = NEGOTIATORS[(state.players, state.active)]
    if not state.offers:
        return negotiators
    waiting = unanswered_addressees(state)
    return {seat: types for seat, types in negotiators.items() if seat not in waiting}


def legal_moves(state: State, seat: int, chance: Chance) -> list[Command]:
    """The listing and whether it is complete: trade offers, bids (R22: up to 999), payments,
    discards and the targets of knights, road building and Year of Plenty are samples. A plain
    list (the roll without development cards, the most frequent listing after the trade phase's)
    is complete."""
    phase = state.phase
    if phase == TRADE_BUILD:  # the most frequent case first; other seats negotiate, awaited or not
        if seat == state.active:
            return trade_build_moves(state, seat, chance)
        if 0 <= seat < state.players:  # every seat may offer, and offers are sampled
            return LegalMoves(negotiation_moves(state, seat, Sampler(chance)), complete=False)
        return LegalMoves()
    if phase in (BEFORE_ROLL, ALEXANDER):
        if seat != state.active:
            return LegalMoves()  # nothing to list
        first = ROLL if phase == BEFORE_ROLL else MOVE_ALEXANDER
        hand = state.dev_hand[seat]
        if state.played_dev or PLAYABLE_CARDS.isdisjoint(hand):  # none, or victory points only
            return [first]
        moves = new_listing()
        moves.complete = SAMPLED_DEV_CARDS.isdisjoint(hand)
        moves.append(first)
        moves += dev_card_moves(state, seat, Sampler(chance))
        return moves
    if seat not in awaited(state):
        return LegalMoves()  # nothing to list
    if phase == ROBBER:
        return LegalMoves(robber_moves(state, seat))
    if phase == DISCARD:
        return LegalMoves(discard_moves(state, seat, state.owed_discards[seat], Sampler(chance)), complete=False)
    if phase == AUCTION:
        assert state.auction is not None
        complete = state.auction.high_bid >= MAX_BID  # only pass_bid is left
        return LegalMoves(auction_moves(state, seat, Sampler(chance)), complete=complete)
    if phase == PAYMENT:
        return LegalMoves(payment_moves(state, seat, Sampler(chance)), complete=False)
    if phase == DEFAULT_DISCARD:
        return LegalMoves(discard_moves(state, seat, state.default_owed, Sampler(chance)), complete=False)
    if phase == ADVISOR_CHOICE:
        assert state.handdown is not None
        return LegalMoves(ChooseAdvisorRecipient(seat=s) for s in state.handdown.eligible)
    if phase == FOUNDING_SETTLEMENT:
        settlements = CACHES[state.board].settlements
        return LegalMoves([settlements[v] for v in founding_spots(state)])
    if phase == FOUNDING_ROAD:
        roads = CACHES[state.board].roads
        road_owner = state.road_owner
        return LegalMoves(roads[e] for e in state.geometry.vertex_edges[state.founding_vertex] if road_owner[e] == -1)
    return LegalMoves()


SAMPLED_DEV_CARDS = frozenset({"knight", "road_building", "year_of_plenty"})
PLAYABLE_CARDS = SAMPLED_DEV_CARDS | {"monopoly"}  # victory point cards are never played


# -- pieces of the listing ---------------------------------------------------------------------


class Sampler:
    """Sampling for one listing: a single draw from the caller's chance source seeds a small
    xorshift generator (a keyed hash per sampled item would cost more than the listing)."""

    __slots__ = ("_chance", "_x")

    def __init__(self, chance: Chance) -> None:
        self._chance = chance
        self._x = 0

    def below(self, n: int) -> int:
        x = self._x
        if x == 0:
            x = self._chance.below("moves", 2**64 - 1) + 1
        x ^= (x << 13) & 0xFFFFFFFFFFFFFFFF
        x ^= x >> 7
        x ^= (x << 17) & 0xFFFFFFFFFFFFFFFF
        self._x = x
        return x % n

    def choice(self, items: list[T]) -> T:
        return items[self.below(len(items))]


def pick(rng: Sampler, items: list[T], k: int) -> list[T]:
    """Up to ``k`` distinct items."""
    pool = list(items)
    chosen: list[T] = []
    for _ in range(min(k, len(pool))):
        chosen.append(pool.pop(rng.below(len(pool))))
    return chosen


def random_cards(hand: list[int], count: int, rng: Sampler) -> dict[str, int]:
    """``count`` cards drawn at random from a resource hand, as a bundle: ``pick`` from the hand's
    cards laid out in resource order, counted per resource instead of laid out."""
    left = list(hand)
    size = sum(left)
    bundle: dict[str, int] = {}
    for _ in range(min(count, size)):
        index = rng.below(size)
        card = 0
        while index >= left[card]:
            index -= left[card]
            card += 1
        left[card] -= 1
        size -= 1
        name = RESOURCES[card]
        bundle[name] = bundle.get(name, 0) + 1
    return bundle


def discard_moves(state: State, seat: int, owed: int, rng: Sampler) -> list[Command]:
    hand = state.hands[seat]
    moves: list[Command] = []
    seen: set[tuple[tuple[str, int], ...]] = set()
    for _ in range(3):
        bundle = random_cards(hand, owed, rng)
        key = tuple(sorted(bundle.items()))
        if key not in seen:
            seen.add(key)
            moves.append(Discard(cards=bundle))
    return moves


def robber_moves(state: State, seat: int) -> list[Command]:
    """R14: every hex but the robber's, with each opponent who has a building there, or nobody."""
    geometry = state.geometry
    vertex_hexes = geometry.vertex_hexes
    victims = [0] * len(geometry.hexes)  # per hex: a bit per opponent with a building on it
    for other, buildings in enumerate(state.buildings_of):
        if other != seat:
            bit = 1 << other
            for v in buildings:
                for h in vertex_hexes[v]:
                    victims[h] |= bit
    robber, listed = state.robber, CACHES[state.board].robber_moves
    return [move for h, on_hex in enumerate(victims) if h != robber for move in listed[h][on_hex]]


def dev_card_moves(state: State, seat: int, rng: Sampler) -> list[Command]:
    if state.played_dev:
        return []
    cards = set(state.dev_hand[seat])
    if not cards:
        return []
    moves: list[Command] = []
    if "knight" in cards:
        cache = CACHES[state.board]
        for h in pick(rng, cache.other_hexes[state.robber], 2):
            victims = robber_victims(state, seat, h)
            moves.append(cache.knights[h][rng.choice(victims) if victims else None])
    if "road_building" in cards:
        first_options = legal_road_edges(state, seat)
        geometry = state.geometry
        for first in pick(rng, first_options, 2):
            seconds = legal_road_edges(state, seat, extra=first)
            if seconds:
                second = rng.choice(seconds)
                moves.append(PlayRoadBuilding(edges=[geometry.edge_ref(first), geometry.edge_ref(second)]))
            else:
                moves.append(PlayRoadBuilding(edges=[geometry.edge_ref(first)]))
    if "year_of_plenty" in cards:
        pool = [i for i in range(5) for _ in range(min(2, state.bank[i]))]
        if pool:
            wanted = 2 if sum(state.bank) >= 2 else 1
            for _ in range(2):
                picked = pick(rng, pool, wanted)
                moves.append(PlayYearOfPlenty(resources=[RESOURCES[i] for i in sorted(picked)]))
    if "monopoly" in cards:
        moves.extend(MONOPOLIES)
    return moves


def auction_moves(state: State, seat: int, rng: Sampler) -> list[Command]:
    """Pass, the smallest raises the seat could pay, and a bluff: Ruling R22 does not check bids
    against holdings, so the smallest raise it could not pay is listed too (R26 handles it)."""
    auction = state.auction
    assert auction is not None
    items, knights = bid_capacity(state, seat, auction.task)
    capacity = items + KNIGHT_BID_VALUE * knights
    low = auction.high_bid + 1
    moves: list[Command] = [PASS_BID]
    moves.extend(BIDS[a] for a in range(low, min(low + 2, capacity, MAX_BID) + 1))
    bluff = max(low, capacity + 1)
    if bluff <= MAX_BID:
        moves.append(BIDS[bluff])
    return moves


def payment_moves(state: State, seat: int, rng: Sampler) -> list[Command]:
    """A few exact payments of the winning bid (R25)."""
    auction = state.auction
    assert auction is not None
    amount = auction.high_bid
    accepted = [g for g in TASK_ACCEPTS[auction.task]]
    moves: list[Command] = []
    seen: set[tuple[tuple[tuple[str, int], ...], int]] = set()
    hand = state.hands[seat]
    _, knight_count = bid_capacity(state, seat, auction.task)
    for _ in range(4):
        knight_options = [c for c in range(knight_count + 1) if amount - KNIGHT_BID_VALUE * c >= 0]
        knights = rng.choice(knight_options)
        rest = amount - KNIGHT_BID_VALUE * knights
        pool = [g for g in accepted for _ in range(state.gold[seat] if g == "gold" else hand[RESOURCE_INDEX[g]])]
        if len(pool) < rest:
            continue
        items: dict[str, int] = {}
        for g in pick(rng, pool, rest):
            items[g] = items.get(g, 0) + 1
        key = (tuple(sorted(items.items())), knights)
        if key not in seen:
            seen.add(key)
            moves.append(PayBid(items=items, knights=knights))
    if not moves:  # R26 guarantees one exists: fill greedily with the most knights possible
        for knights in range(knight_count, -1, -1):
            rest = amount - KNIGHT_BID_VALUE * knights
            if rest < 0:
                continue
            items = {}
            for g in accepted:
                have = state.gold[seat] if g == "gold" else hand[RESOURCE_INDEX[g]]
                take = min(have, rest)
                if take:
                    items[g] = take
                    rest -= take
            if rest == 0:
                moves.append(PayBid(items=items, knights=knights))
                break
    return moves


def holdings_vector(state: State, seat: int) -> list[int]:
    return [*state.hands[seat], state.gold[seat] if state.scenario else 0]


def sample_offers(state: State, seat: int, rng: Sampler, count: int) -> list[Command]:
    """Random one-for-one offers of something the seat holds."""
    mine = holdings_vector(state, seat)
    held = [g for g in range(6) if mine[g]]
    if not held:
        return []
    kinds = 6 if state.scenario else 5
    moves: list[Command] = []
    for _ in range(count):
        give = rng.choice(held)
        receive = rng.choice([g for g in range(kinds) if g != give])
        moves.append(OfferTrade(give={GOODS[give]: 1}, receive={GOODS[receive]: 1}, to=None))
    return moves


def response_moves(state: State, seat: int) -> list[Command]:
    """Answers to the offers addressed to the seat: a first answer, or a change of answer (R36b)."""
    moves: list[Command] = []
    for offer in state.offers.values():
        if seat not in offer.to:
            continue
        answer = offer.responses.get(seat)
        if answer is not False:
            moves.append(RespondTrade(offer_id=offer.offer_id, accept=False))
        # An open counter-offer's maker holds his side (R36f closes it otherwise), so the active
        # player's acceptance, which executes at once (R36c), is never refused for his hand.
        if answer is not True and holds(state, seat, offer.receive):
            moves.append(RespondTrade(offer_id=offer.offer_id, accept=True))
    return moves


def negotiation_moves(state: State, seat: int, rng: Sampler) -> list[Command]:
    """A non-active seat in TRADE_BUILD: answers, cancellations of its own offers, and a sampled
    counter-offer to the active player."""
    moves = response_moves(state, seat)
    moves.extend(CancelTrade(offer_id=o.offer_id) for o in state.offers.values() if o.maker == seat)
    moves.extend(sample_offers(state, seat, rng, 1))
    return moves


def trade_build_moves(state: State, seat: int, chance: Chance) -> LegalMoves:
    """The active seat's listing, incomplete (offers are sampled); its samples (development cards,
    an offer now and then) share one ``Sampler``, made only when the listing samples."""
    cache = CACHES[state.board]
    moves = new_listing()  # built in place (a LegalMoves made from a list would copy it)
    moves.complete = False
    moves.append(END_TURN)
    hand = state.hands[seat]
    brick, grain, lumber, ore, wool = hand
    if brick and lumber:
        moves.extend(map(cache.roads.__getitem__, legal_road_edges(state, seat)))
        if grain and wool and state.settlements[seat] < SETTLEMENTS_PER_PLAYER:
            edges = state.geometry.edges
            ends = {v for e in state.roads_of[seat] for v in edges[e]}
            for v in sorted(ends):
                if settlement_refusal(state, seat, v, founding=False) is None:
                    moves.append(cache.settlements[v])
    if ore >= 3 and grain >= 2 and state.cities[seat] < CITIES_PER_PLAYER:
        moves.extend(cache.cities[v] for v in state.buildings_of[seat] if state.level[v] == 1)
    if ore and grain and wool and state.dev_deck:
        moves.append(BUY_CARD)
    moves += bank_trade_moves(state, seat, hand, cache)
    # The offer space is huge: one sampled offer is listed now and then, so that bots negotiate but
    # also play on. Whether it is listed depends on public counters and the seat's own hand (a keyed
    # draw here would cost more than the rest of the listing).
    offer_listed = (state.turn * 31 + state.next_offer_id * 7 + sum(hand)) % OFFER_LISTING_ODDS == 0
    cards_listed = not state.played_dev and not PLAYABLE_CARDS.isdisjoint(state.dev_hand[seat])
    rng = Sampler(chance) if cards_listed or offer_listed else None
    if cards_listed and rng is not None:
        moves.extend(dev_card_moves(state, seat, rng))
    if state.offers:
        moves.extend(response_moves(state, seat))
        for offer in state.offers.values():
            if offer.maker == seat:
                moves.append(CancelTrade(offer_id=offer.offer_id))
                if holds(state, seat, offer.give):  # an acceptance stands while its partner can pay (R36f)
                    for partner, answer in offer.responses.items():
                        if answer:
                            moves.append(ConfirmTrade(offer_id=offer.offer_id, partner=partner))
    if offer_listed and rng is not None:
        moves.extend(sample_offers(state, seat, rng, 1))
    return moves


def bank_trade_moves(state: State, seat: int, hand: list[int], cache: CommandCache) -> list[Command]:
    holdings = [*hand, state.gold[seat]] if state.scenario else hand
    gives = tuple(map(ge, holdings, state.trade_rates[seat]))  # per kind: the seat holds its rate
    if True not in gives:
        return []
    available = [*state.bank, state.gold_supply] if state.scenario else state.bank
    if min(available):  # the usual case: the bank holds every kind
        listed = cache.every_kind.get(gives)
        return listed if listed is not None else cache.trades_for_every_kind(gives)
    moves: list[Command] = []
    for give in compress(range(len(holdings)), gives):
        trades = cache.bank_trades[give]
        moves += [trades[receive] for receive, count in enumerate(available) if count and receive != give]
    return moves
