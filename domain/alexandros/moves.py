"""Legal moves (rules file 10.1, "Legal-move listing"): every (source, target, corner) of a move with
its shortest routes (all when there are few, else the routes with the fewest and the most new walls
and a random sample), and for occupations one cheapest choice of governor spaces per governor count,
with every compensation a take-over allows."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
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
    IS_INTERIOR,
    POINT_NEIGHBOURS,
    SIDE_ID,
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
from domain.alexandros.state import ACTIONS, MOVE, NO_WALL, NOBODY, AlexandrosState
from domain.kernel import Chance, Command, LegalMoves, Seat

ROUTES_LISTED_IN_FULL = 20  # rules file 10.1: at most 20 routes when d <= 6, "small": all listed
ROUTE_SAMPLES = 2  # beyond that, this many random draws besides the fewest- and most-walls routes

Route = tuple[list[int], ...]  # a route as the points' coordinates, shared by every command that lists it


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


@cache
def full_listing(start: int, goal: int) -> tuple[Route, ...]:
    """Every shortest route, in coordinates; geometry only, so cached (only asked for small counts)."""
    return tuple(tuple(point_coord(p) for p in route) for route in all_routes(start, goal))


def random_route(start: int, goal: int, rng: Chance) -> list[int]:
    """One shortest route: each step goes to a neighbour one side nearer to ``goal``."""
    route = [start]
    here = start
    while here != goal:
        nearer = nearer_points(here, goal)
        here = nearer[rng.below("moves:route", len(nearer))] if len(nearer) > 1 else nearer[0]
        route.append(here)
    return route


def new_walls(walls: list[int], a: int, b: int) -> int:
    """1 when the side from ``a`` to ``b`` would get a wall (R35: interior, no wall yet)."""
    side = SIDE_ID[(a, b)]
    return 1 if IS_INTERIOR[side] and walls[side] == NO_WALL else 0


def extreme_route(walls: list[int], start: int, goal: int, most: bool) -> list[int]:
    """The shortest route with the fewest (or the most) new walls, by one pass over the points
    nearer the goal (the routes form a layered graph; ties go to the first neighbour)."""
    pick = max if most else min
    best: dict[int, tuple[int, int | None]] = {goal: (0, None)}  # point -> (walls to the goal, next point)
    layer = [goal]
    for _ in range(DIST[start][goal]):
        farther: dict[int, None] = {}
        for q in layer:
            for p in POINT_NEIGHBOURS[q]:
                if DIST[p][goal] == DIST[q][goal] + 1 and DIST[start][p] + DIST[p][goal] == DIST[start][goal]:
                    farther[p] = None
        for p in farther:
            best[p] = pick((best[q][0] + new_walls(walls, p, q), q) for q in nearer_points(p, goal) if q in best)
        layer = list(farther)
    route = [start]
    while route[-1] != goal:
        route.append(best[route[-1]][1])  # type: ignore[arg-type]
    return route


def listed_routes(state: AlexandrosState, start: int, goal: int, rng: Chance) -> tuple[tuple[Route, ...], bool]:
    """The routes listed to ``goal`` and whether they are all of them."""
    if route_count(start, goal) <= ROUTES_LISTED_IN_FULL:
        return full_listing(start, goal), True
    picked = [extreme_route(state.walls, start, goal, most=False), extreme_route(state.walls, start, goal, most=True)]
    picked += [random_route(start, goal, rng) for _ in range(ROUTE_SAMPLES)]
    routes = {tuple(route): None for route in picked}
    return tuple(tuple(point_coord(p) for p in route) for route in routes), False


def move_options(state: AlexandrosState, seat: Seat) -> list[tuple[str, int | None, str | None, str | None, str]]:
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


def alexander_moves(state: AlexandrosState, seat: Seat, rng: Chance) -> LegalMoves:
    """Every usable card with every closest target, corner and listed route. The routes depend on
    the target's symbol, not on the card, so they are listed once per symbol."""
    moves = LegalMoves()
    options = move_options(state, seat)
    destinations: dict[str, list[tuple[list[int], list[int], tuple[Route, ...]]]] = {}
    for symbol in {option[4] for option in options}:
        listing = destinations[symbol] = []
        for target in closest_free_spaces(state, symbol)[1]:
            for corner in SPACE_CORNERS[target]:
                routes, complete = listed_routes(state, state.alexander, corner, rng)
                moves.complete = moves.complete and complete
                listing.append((space_coord(target), point_coord(corner), routes))
    for source, slot, card, joker, symbol in options:
        for target_coord, corner_coord, routes in destinations[symbol]:
            moves.extend(
                MoveAlexander(
                    source=source,  # type: ignore[arg-type]
                    slot=slot,
                    card=card,
                    joker_symbol=joker,
                    target=target_coord,
                    corner=corner_coord,
                    path=list(route),
                )
                for route in routes
            )
    return moves


def sub_multisets(cards: list[str], size: int) -> Iterator[list[str]]:
    """Every distinct choice of ``size`` of ``cards`` (equal cards are not told apart), sorted."""
    counts = sorted(Counter(cards).items())

    def choose(i: int, left: int) -> Iterator[list[str]]:
        if left == 0:
            yield []
            return
        if i == len(counts):
            return
        symbol, have = counts[i]
        for take in range(min(have, left), -1, -1):
            for rest in choose(i + 1, left - take):
                yield [symbol] * take + rest

    return choose(0, size)


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


def occupation_moves(state: AlexandrosState, seat: Seat) -> list[Command]:
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
            governors = [space_coord(s) for s in spaces]
            if not eviction_cards:
                moves.append(OccupyProvince(governors=governors, compensation=[]))
                continue
            _, _, occupation_cards = takeover_costs(state, symbol_spaces, set(spaces))
            paid = eviction_cards + occupation_cards
            moves.extend(
                OccupyProvince(governors=governors, compensation=compensation)
                for compensation in sub_multisets(paid, compensation_size(len(paid)))
            )
    return moves


def action_moves(state: AlexandrosState, seat: Seat) -> list[Command]:
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


def legal_moves(state: AlexandrosState, seat: Seat, rng: Chance) -> LegalMoves:
    if seat not in awaited(state):
        return LegalMoves()
    if state.step == MOVE:
        return alexander_moves(state, seat, rng)
    if state.step == ACTIONS:
        moves = action_moves(state, seat)
        # one cheapest choice of governor spaces per count: other choices may be legal too
        return LegalMoves(moves, complete=not any(isinstance(m, OccupyProvince) for m in moves))
    return LegalMoves()
