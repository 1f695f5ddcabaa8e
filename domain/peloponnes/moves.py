"""Legal moves (rules file 10.2): every move listed here is accepted by ``decide``.

Everything in Peloponnes is public, so a seat's moves depend only on the public state. Subsets of tiles
(supply completions, disaster keeps) are listed in full while small and sampled with ``rng`` otherwise.
"""

from __future__ import annotations

from itertools import combinations, product

from domain.kernel import Chance, Command, LegalMoves
from domain.peloponnes.commands import (
    ChooseIncome,
    ChooseSoloSetup,
    MoveBid,
    PassTurn,
    PlaceBid,
    PlaceBuilding,
    ResolveDisaster,
    ResolveSupply,
    WithdrawBid,
)
from domain.peloponnes.data import CHOICE_RESOURCES, CIVILIZATION_IDS, GOODS, SOLO_LEVELS, TILES
from domain.peloponnes.rules import (
    awaited,
    choice_tiles,
    completion_cost,
    feed_limit,
    free_tile_price,
    luxury_for_goods,
    max_bid,
    move_targets,
    outbid_minimum,
    unfinished,
)
from domain.peloponnes.state import AUCTION, DISASTER, State

# Beyond this many candidate tiles, subsets are sampled instead of listed.
FULL_SUBSETS_UP_TO = 7
SAMPLED_SUBSETS = 24


def legal_moves(state: State, seat: int, rng: Chance) -> LegalMoves:
    """Complete except where subsets of more than ``FULL_SUBSETS_UP_TO`` tiles are sampled."""
    allowed = awaited(state).get(seat, ())
    if not allowed:
        return LegalMoves()
    moves = listed_moves(state, seat, allowed[0], rng)
    sampled = (
        allowed[0] in ("resolve_supply", "resolve_disaster")
        and len(subset_candidates(state, seat)) > FULL_SUBSETS_UP_TO
        and subset_limit(state, seat) > 0
    )
    return LegalMoves(moves, complete=not sampled)


def listed_moves(state: State, seat: int, kind: str, rng: Chance) -> list[Command]:
    if kind == "place_bid":
        return bids(state, seat)
    if kind == "move_bid":
        return [*(MoveBid(t) for t in move_targets(state, seat)), WithdrawBid()]
    if kind == "place_building":
        return [PlaceBuilding("build"), PlaceBuilding("mark")]
    if kind == "choose_income":
        return income_choices(state, seat)
    if kind == "resolve_supply":
        return supply_choices(state, seat, rng)
    if kind == "resolve_disaster":
        return disaster_choices(state, seat, rng)
    if kind == "choose_solo_setup":
        return solo_setups(state)
    return []


def bids(state: State, seat: int) -> list[Command]:
    s = state.seats[seat]
    top = max_bid(s)
    moves: list[Command] = [PassTurn()]
    for slot in state.display:
        if state.is_solo:
            price = free_tile_price(slot)
            if price <= top:
                moves.append(PlaceBid(slot.tile_id, price))
        elif slot.row == AUCTION:
            least = TILES[slot.tile_id].min_bid if slot.bidder is None else outbid_minimum(state, seat, slot)
            moves.extend(PlaceBid(slot.tile_id, amount) for amount in range(max(1, least), top + 1))
        elif slot.bidder is None and free_tile_price(slot) <= top:
            moves.append(PlaceBid(slot.tile_id, free_tile_price(slot)))
    return moves


def income_choices(state: State, seat: int) -> list[Command]:
    tiles = choice_tiles(state.seats[seat])
    return [
        ChooseIncome([{"tile_id": t, "resource": r} for t, r in zip(tiles, picked, strict=True)])
        for picked in product(CHOICE_RESOURCES, repeat=len(tiles))
    ]


def _subsets(items: list[str], largest: int, rng: Chance, purpose: str) -> list[list[str]]:
    largest = min(largest, len(items))
    if len(items) <= FULL_SUBSETS_UP_TO:
        return [list(c) for size in range(largest + 1) for c in combinations(items, size)]
    picked = {(): None, tuple(items[:largest]): None}
    for _ in range(SAMPLED_SUBSETS):
        size = rng.below(purpose, largest + 1)
        picked[tuple(sorted(rng.sample(purpose, items, size)))] = None
    return [list(c) for c in picked]


def subset_candidates(state: State, seat: int) -> list[str]:
    """The tiles whose subsets a supply or disaster decision chooses from."""
    s = state.seats[seat]
    if state.phase == DISASTER:
        return [b.tile_id for b in s.buildings] if state.strike == "earthquake" else list(s.lands)
    return [
        t
        for t in unfinished(s)
        if luxury_for_goods(s.wood, s.stone, TILES[t].cost_wood, TILES[t].cost_stone) <= s.luxury
    ]


def subset_limit(state: State, seat: int) -> int:
    """How many of those tiles the decision may name at most."""
    s = state.seats[seat]
    if state.phase != DISASTER:
        return len(subset_candidates(state, seat))
    return min(s.wood, s.stone) if state.strike == "earthquake" else min(s.food, s.coins)


def supply_choices(state: State, seat: int, rng: Chance) -> list[Command]:
    s = state.seats[seat]
    moves: list[Command] = []
    candidates = subset_candidates(state, seat)
    subsets = _subsets(candidates, len(candidates), rng, "moves:supply")
    for fed in range(feed_limit(s) + 1):
        luxury_left = s.luxury - 2 * fed
        for subset in subsets:
            wood, stone = completion_cost(subset)
            if luxury_for_goods(s.wood, s.stone, wood, stone) <= luxury_left:
                moves.append(ResolveSupply(fed, subset))
    return moves


def disaster_choices(state: State, seat: int, rng: Chance) -> list[Command]:
    keeps = _subsets(subset_candidates(state, seat), subset_limit(state, seat), rng, "moves:disaster")
    return [ResolveDisaster(keep) for keep in keeps]


def solo_setups(state: State) -> list[Command]:
    assert state.solo_level is not None
    count = SOLO_LEVELS[state.solo_level].extra_incomes
    return [ChooseSoloSetup(civ, list(extras)) for civ in CIVILIZATION_IDS for extras in combinations(GOODS, count)]
