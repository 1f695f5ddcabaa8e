"""Legal moves (rules file 10.1, "Legal-move listing"): every (source, target, corner) of a move with
its shortest routes (all when there are few, else a random sample), and for occupations one
cheapest choice of governor spaces per governor count."""

from __future__ import annotations

from collections import Counter
from functools import cache

from domain.alexandros.commands import (
    EndTurn,
    LevyTaxes,
    MoveAlexander,
    OccupyProvince,
    RetireGovernor,
    TakeCard,
)
from domain.alexandros.data import (
    DIST,
    POINT_NEIGHBOURS,
    SPACE_CORNERS,
    SPACE_SYMBOL,
    SYMBOL_SPACE_IDS,
    SYMBOL_SPACES,
    SYMBOLS,
    point_coord,
    space_coord,
)
from domain.alexandros.rules import (
    awaited,
    closest_free_spaces,
    compensation_size,
    has_free_space,
    takeover_costs,
)
from domain.alexandros.state import ACTIONS, MOVE, NOBODY, State
from domain.kernel import Chance, Command, Seat

ROUTES_LISTED_IN_FULL = 20  # rules file 10.1: at most 20 routes when d <= 6, "small": all listed
ROUTE_SAMPLES = 2  # otherwise this many random draws (the count grows fast with the distance)


@cache
def nearer_points(here: int, goal: int) -> tuple[int, ...]:
    """The neighbours of ``here`` one side nearer to ``goal``; geometry only, so cached."""
    remaining = DIST[here][goal] - 1
    return tuple(q for q in POINT_NEIGHBOURS[here] if DIST[q][goal] == remaining)


@cache
def route_count(start: int, goal: int) -> int:
    """The number of shortest routes (R4) from ``start`` to ``goal``; geometry only, so cached."""
    if start == goal:
        return 1
    return sum(route_count(q, goal) for q in nearer_points(start, goal))


def all_routes(start: int, goal: int) -> list[list[int]]:
    if start == goal:
        return [[goal]]
    return [[start, *rest] for q in nearer_points(start, goal) for rest in all_routes(q, goal)]


def random_route(start: int, goal: int, rng: Chance) -> list[int]:
    """One shortest route: each step goes to a neighbour one side nearer to ``goal``."""
    route = [start]
    here = start
    while here != goal:
        nearer = nearer_points(here, goal)
        here = nearer[rng.below("moves:route", len(nearer))] if len(nearer) > 1 else nearer[0]
        route.append(here)
    return route


def listed_routes(start: int, goal: int, rng: Chance) -> list[list[int]]:
    if route_count(start, goal) <= ROUTES_LISTED_IN_FULL:
        return all_routes(start, goal)
    routes: list[list[int]] = []
    for _ in range(ROUTE_SAMPLES):
        route = random_route(start, goal, rng)
        if route not in routes:
            routes.append(route)
    return routes


def move_options(state: State, seat: Seat) -> list[tuple[str, int | None, str | None, str | None, str]]:
    """R26/R27: (source, slot, hand card, joker symbol, move symbol) for every usable card."""
    free = {sym: has_free_space(state, sym) for sym in SYMBOLS}
    options: list[tuple[str, int | None, str | None, str | None, str]] = []
    for slot, card in enumerate(state.display):
        if card is None:
            continue
        if free[card]:
            options.append(("display", slot, None, None, card))
        else:
            options += [("display", slot, None, sym, sym) for sym in SYMBOLS if free[sym]]
    hand = state.hands[seat]
    options += [("hand", None, sym, None, sym) for sym in SYMBOLS if hand[sym] > 0 and free[sym]]
    return options


def alexander_moves(state: State, seat: Seat, rng: Chance) -> list[Command]:
    moves: list[Command] = []
    closest = {sym: closest_free_spaces(state, sym)[1] for sym in SYMBOLS}
    for source, slot, card, joker, symbol in move_options(state, seat):
        for target in closest[symbol]:
            for corner in SPACE_CORNERS[target]:
                for route in listed_routes(state.alexander, corner, rng):
                    moves.append(
                        MoveAlexander(
                            source=source,  # type: ignore[arg-type]
                            slot=slot,
                            card=card,
                            joker_symbol=joker,
                            target=space_coord(target),
                            corner=point_coord(corner),
                            path=[point_coord(p) for p in route],
                        )
                    )
    return moves


def cheapest_governor_spaces(
    symbol_spaces: list[int], need: Counter[str], hand: dict[str, int], count: int
) -> list[int] | None:
    """``count`` governor spaces so that the hand pays the rest (R50), or None when no choice can.

    Each governor saves one card of its space's symbol, so governors go first where the hand is
    short; the total number of cards is the same for every choice."""
    short = {sym: max(0, need[sym] - hand[sym]) for sym in need}
    chosen: list[int] = []
    for s in symbol_spaces:
        sym = SPACE_SYMBOL[s]
        if short.get(sym, 0) > 0:  # type: ignore[arg-type]
            short[sym] -= 1  # type: ignore[index]
            chosen.append(s)
    if any(short.values()) or len(chosen) > count:
        return None
    rest = [s for s in symbol_spaces if s not in chosen]
    return sorted(chosen + rest[: count - len(chosen)])


def occupation_moves(state: State, seat: Seat) -> list[Command]:
    """R48-R56, one cheapest choice per governor count for every province the seat can pay for.
    Governors stand only on symbol spaces, so a province is represented by its symbol spaces."""
    moves: list[Command] = []
    hand = state.hands[seat]
    supply = state.governor_supply[seat]
    if supply == 0:
        return moves
    hand_size = sum(hand.values())
    by_province: dict[int, list[int]] = {}
    for s in SYMBOL_SPACE_IDS:
        by_province.setdefault(state.province[s], []).append(s)
    for symbol_spaces in by_province.values():
        holders = [state.governors[s] for s in symbol_spaces if state.governors[s] != NOBODY]
        if seat in holders:
            continue
        if 2 * len(holders) + len(symbol_spaces) - min(supply, len(symbol_spaces)) > hand_size:
            continue  # even the most governors leave more to pay than the hand holds
        _, eviction_cards, all_cards = takeover_costs(state, symbol_spaces, set())
        need = Counter(eviction_cards) + Counter(all_cards)
        for count in range(1, min(supply, len(symbol_spaces)) + 1):
            spaces = cheapest_governor_spaces(symbol_spaces, need, hand, count)
            if spaces is None:
                continue
            compensation: list[str] = []
            if eviction_cards:
                _, _, occupation_cards = takeover_costs(state, symbol_spaces, set(spaces))
                paid = eviction_cards + occupation_cards
                compensation = paid[: compensation_size(len(paid))]
            moves.append(OccupyProvince(governors=[space_coord(s) for s in spaces], compensation=compensation))
    return moves


def action_moves(state: State, seat: Seat) -> list[Command]:
    moves: list[Command] = [EndTurn()]
    moves += [TakeCard(source="display", slot=k) for k, card in enumerate(state.display) if card is not None]
    if state.supply or state.discard:
        moves.append(TakeCard(source="supply"))
    hand = state.hands[seat]
    if not state.levied:
        moves += [
            LevyTaxes(card=sym)
            for sym in SYMBOLS
            if hand[sym] > 0 and any(state.governors[s] == seat for s in SYMBOL_SPACES[sym])
        ]
    moves += [RetireGovernor(space=space_coord(s)) for s, owner in enumerate(state.governors) if owner == seat]
    moves += occupation_moves(state, seat)
    return moves


def legal_moves(state: State, seat: Seat, rng: Chance) -> list[Command]:
    if seat not in awaited(state):
        return []
    if state.step == MOVE:
        return alexander_moves(state, seat, rng)
    if state.step == ACTIONS:
        return action_moves(state, seat)
    return []
