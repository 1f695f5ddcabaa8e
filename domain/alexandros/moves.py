"""Legal moves (rules file 10.1, "Legal-move listing"): every (source, target, corner) of a move with
its shortest routes (all when there are few, else the routes with the fewest and the most new walls
and a random sample), and for occupations one cheapest choice of governor spaces per governor count,
with every compensation a take-over allows."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache, lru_cache
from operator import itemgetter
from typing import Literal

from domain.alexandros.commands import (
    EndTurn,
    LevyTaxes,
    MoveAlexander,
    OccupyProvince,
    RetireGovernor,
    TakeCard,
)
from domain.alexandros.data import (
    DISPLAY_SLOTS,
    DIST,
    IS_INTERIOR,
    POINT_NEIGHBOURS,
    POINTS,
    SIDE_ID,
    SPACE_CORNERS,
    SPACE_SYMBOL,
    SPACES,
    SYMBOL_SPACE_IDS,
    SYMBOLS,
    point_coord,
    space_coord,
)
from domain.alexandros.rules import awaited, compensation_size
from domain.alexandros.rules.board import closest_free_spaces
from domain.alexandros.state import ACTIONS, MOVE, NO_WALL, NOBODY, State
from domain.kernel import Chance, Command, LegalMoves, Seat

# Where a moving card comes from: the open display or the mover's hand (R26).
CardSource = Literal["display", "hand"]

ROUTES_LISTED_IN_FULL = 20  # rules file 10.1: at most 20 routes when d <= 6, "small": all listed
ROUTE_SAMPLES = 2  # beyond that, this many random draws besides the fewest- and most-walls routes

Path = list[list[int]]  # a route as the points' coordinates, shared by every command that lists it

# The coordinates of every point and space, shared by all the listing's commands (commands are
# immutable: nothing changes them), so that the cached routes and destinations hold no copies.
POINT_COORDS = tuple(point_coord(p) for p in range(len(POINTS)))
SPACE_COORDS = tuple(space_coord(s) for s in range(len(SPACES)))


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
def full_listing(start: int, goal: int) -> tuple[Path, ...]:
    """Every shortest route, in coordinates; geometry only, so cached (only asked for small counts)."""
    return tuple([POINT_COORDS[p] for p in route] for route in all_routes(start, goal))


def random_route(start: int, goal: int, rng: Chance) -> list[int]:
    """One shortest route: each step goes to a neighbour one side nearer to ``goal``, chosen from
    one draw (a keyed hash per step would cost more than the rest of the listing)."""
    bits = rng.below("moves:route", 1 << 128)
    route = [start]
    here = start
    while here != goal:
        nearer = nearer_points(here, goal)
        if len(nearer) > 1:
            bits, pick = divmod(bits, len(nearer))
            here = nearer[pick]
        else:
            here = nearer[0]
        route.append(here)
    return route


@cache
def route_layers(start: int, goal: int) -> tuple[tuple[tuple[int, tuple[tuple[int, int], ...]], ...], ...]:
    """The points on shortest routes from ``start`` to ``goal``, layer by layer from the goal
    outwards, each with its (nearer point, side) steps; geometry only, so cached."""
    total = DIST[start][goal]
    layers = []
    layer = [goal]
    for _ in range(total):
        farther: dict[int, None] = {}
        for q in layer:
            for p in POINT_NEIGHBOURS[q]:
                if DIST[p][goal] == DIST[q][goal] + 1 and DIST[start][p] + DIST[p][goal] == total:
                    farther[p] = None
        layers.append(
            tuple(
                (
                    p,
                    tuple(
                        (q, SIDE_ID[(p, q)]) for q in nearer_points(p, goal) if DIST[start][q] + DIST[q][goal] == total
                    ),
                )
                for p in farther
            )
        )
        layer = list(farther)
    return tuple(layers)


def extreme_routes(walls: list[int], start: int, goal: int) -> tuple[list[int], list[int]]:
    """The shortest routes with the fewest and with the most new walls (R35: interior sides without
    a wall), by one pass over the layers of the route graph; a tie in walls goes to the smaller
    (fewest) or the larger (most) next point."""
    fewest: dict[int, tuple[int, int]] = {goal: (0, goal)}  # point -> (new walls to the goal, next point)
    most: dict[int, tuple[int, int]] = {goal: (0, goal)}
    for layer in route_layers(start, goal):
        for p, steps in layer:
            (q, side), *others = steps
            new = 1 if IS_INTERIOR[side] and walls[side] == NO_WALL else 0
            low, high = (fewest[q][0] + new, q), (most[q][0] + new, q)
            for q, side in others:
                new = 1 if IS_INTERIOR[side] and walls[side] == NO_WALL else 0
                low = min(low, (fewest[q][0] + new, q))
                high = max(high, (most[q][0] + new, q))
            fewest[p], most[p] = low, high
    return route_along(fewest, start, goal), route_along(most, start, goal)


def route_along(best: dict[int, tuple[int, int]], start: int, goal: int) -> list[int]:
    route = [start]
    while route[-1] != goal:
        route.append(best[route[-1]][1])
    return route


def listed_routes(state: State, start: int, goal: int, rng: Chance) -> tuple[list[Path], bool]:
    """The routes listed to ``goal``, as the points' coordinates, and whether they are all of
    them: every route when there are few, else the fewest- and most-walls routes and
    ``ROUTE_SAMPLES`` random draws, each once, in that order."""
    if route_count(start, goal) <= ROUTES_LISTED_IN_FULL:
        return list(full_listing(start, goal)), True
    picked = [
        *extreme_routes(state.walls, start, goal),
        *[random_route(start, goal, rng) for _ in range(ROUTE_SAMPLES)],
    ]
    return [[POINT_COORDS[p] for p in route] for route in dict.fromkeys(map(tuple, picked))], False


Destination = tuple[list[int], list[int], Path]  # a move's target, corner and path, as coordinates


@cache
def every_destination(start: int, target: int) -> tuple[Destination, ...] | None:
    """Every (target, corner, route) of a move from ``start`` to ``target`` when every corner's
    routes are listed in full, else None (walls and draws pick the routes); geometry only, so
    cached. The coordinates are shared by every command that lists them (commands are immutable)."""
    corners = SPACE_CORNERS[target]
    if any(route_count(start, corner) > ROUTES_LISTED_IN_FULL for corner in corners):
        return None
    target_coord = SPACE_COORDS[target]
    return tuple(
        (target_coord, POINT_COORDS[corner], path) for corner in corners for path in full_listing(start, corner)
    )


def destinations_of(state: State, target: int, rng: Chance) -> tuple[list[Destination], bool]:
    """Every (target, corner, listed route) of a move to ``target``, corner by corner, and whether
    every route is listed."""
    start = state.alexander
    listing: list[Destination] = []
    complete = True
    target_coord = SPACE_COORDS[target]
    for corner in SPACE_CORNERS[target]:
        routes, all_listed = listed_routes(state, start, corner, rng)
        complete = complete and all_listed
        corner_coord = POINT_COORDS[corner]
        listing += [(target_coord, corner_coord, route) for route in routes]
    return listing, complete


def move_options(
    state: State, seat: Seat, free: dict[str, list[int]]
) -> list[tuple[CardSource, int | None, str | None, str | None, str]]:
    """R26/R27: (source, slot, hand card, joker symbol, move symbol) for every usable card (``free``:
    some free spaces of each symbol, empty when it has none)."""
    options: list[tuple[CardSource, int | None, str | None, str | None, str]] = []
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


def alexander_moves(state: State, seat: Seat, rng: Chance) -> LegalMoves:
    """Every usable card with every closest target, corner and listed route. The routes depend on
    the target's symbol, not on the card, so they are listed once per symbol (in symbol order,
    so that the draws for sampled routes are the same in every process)."""
    moves = LegalMoves()
    closest = {sym: closest_free_spaces(state, sym)[1] for sym in SYMBOLS}  # asked by the cards and the targets
    options = move_options(state, seat, closest)
    destinations: dict[str, list[Destination]] = {}
    for symbol in dict.fromkeys(option[4] for option in options):
        listing = destinations[symbol] = []
        for target in closest[symbol]:
            fixed = every_destination(state.alexander, target)
            if fixed is None:
                sampled, complete = destinations_of(state, target, rng)
                listing += sampled
                moves.complete = moves.complete and complete
            else:
                listing += fixed
    for source, slot, card, joker, symbol in options:
        moves += [
            MoveAlexander(source, target, corner, path, slot, card, joker)
            for target, corner, path in destinations[symbol]
        ]
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


@lru_cache(maxsize=1024)
def compensation_choices(paid: tuple[str, ...], size: int) -> tuple[tuple[str, ...], ...]:
    """R56: every distinct choice of ``size`` of the sorted cards ``paid``; a pure function of a
    few card names that recurs turn after turn, so cached (immutable results)."""
    return tuple(tuple(choice) for choice in sub_multisets(list(paid), size))


@dataclass(frozen=True, slots=True)
class ProvinceSpaces:
    """A province's symbol spaces (id order) with what does not change while its walls stay."""

    members: tuple[tuple[int, str], ...]  # (space, symbol)
    owners_of: Callable[[list[int]], tuple[int, ...]]  # the governors list -> the owners of these spaces
    symbol_counts: dict[str, int]
    coords: dict[int, list[int]]  # each space's coordinates, shared by the listing's commands


@lru_cache(maxsize=4096)
def province_spaces_of(spaces: tuple[int, ...]) -> ProvinceSpaces:
    """The province of these symbol spaces; a wall splits one province at a time, so the others
    come back unchanged and are cached."""
    members = tuple((s, SPACE_SYMBOL[s]) for s in spaces)
    getter = itemgetter(*spaces)
    owners_of = getter if len(spaces) > 1 else (lambda governors: (getter(governors),))
    counts: dict[str, int] = {}
    for _, sym in members:
        counts[sym] = counts.get(sym, 0) + 1  # type: ignore[index, arg-type]
    return ProvinceSpaces(members, owners_of, counts, {s: SPACE_COORDS[s] for s in spaces})  # type: ignore[arg-type]


@lru_cache(maxsize=4096)
def provinces_of_symbol_spaces(labels: tuple[int, ...]) -> tuple[ProvinceSpaces, ...]:
    """The provinces for the province labels of the symbol spaces; the same labels come back turn
    after turn (only walls change them), so the grouping is cached."""
    groups: dict[int, list[int]] = {}
    for s, label in zip(SYMBOL_SPACE_IDS, labels, strict=True):
        groups.setdefault(label, []).append(s)
    return tuple(province_spaces_of(tuple(g)) for g in groups.values())


AT_SYMBOL_SPACES = itemgetter(*SYMBOL_SPACE_IDS)  # a list over all spaces -> its values on the symbol spaces


def eviction_costs(province: ProvinceSpaces, owners: tuple[int, ...]) -> tuple[list[str], dict[str, int]]:
    """R53: two cards of its space's symbol per evicted governor, in space order, and the cards
    needed in all (the occupation's one per symbol space besides)."""
    eviction_cards: list[str] = []
    need = dict(province.symbol_counts)
    for (_, sym), owner in zip(province.members, owners, strict=True):
        if owner != NOBODY:
            eviction_cards += (sym, sym)
            need[sym] += 2
    return eviction_cards, need


def forced_governors(
    province: ProvinceSpaces, need: dict[str, int], hand: dict[str, int], most: int
) -> list[int] | None:
    """R50: the spaces that must get a governor because the hand is short of their symbol (the
    first such spaces in id order), or None when even ``most`` governors leave it short."""
    short = {sym: n - hand[sym] for sym, n in need.items() if n > hand[sym]}
    if not short:
        return []
    if sum(short.values()) > most:
        return None
    chosen: list[int] = []
    for s, sym in province.members:
        if short.get(sym, 0) > 0:
            short[sym] -= 1
            chosen.append(s)
    return None if any(short.values()) else chosen


NO_CARDS: list[str] = []  # the compensation of an occupation without take-over, shared (commands are immutable)


def province_occupations(
    province: ProvinceSpaces, chosen: list[int], most: int, eviction_cards: list[str]
) -> list[Command]:
    """One occupation per governor count: the forced spaces, then the remaining ones in id order;
    a take-over with every compensation (R56) of the cards it pays."""
    members = province.members
    coords = province.coords
    rest = [s for s, _ in members if s not in chosen]
    moves: list[Command] = []
    for count in range(max(1, len(chosen)), most + 1):
        spaces = sorted(chosen + rest[: count - len(chosen)])
        governors = [coords[s] for s in spaces]
        if not eviction_cards:
            moves.append(OccupyProvince(governors, NO_CARDS))
            continue
        paid = eviction_cards + [sym for s, sym in members if s not in spaces]
        choices = compensation_choices(tuple(sorted(paid)), compensation_size(len(paid)))
        moves += [OccupyProvince(governors, list(compensation)) for compensation in choices]
    return moves


# A province of one symbol space: its governor pays for it (R50: no card), or a take-over pays the
# two eviction cards of its symbol (R53) and gives one of them back (R56); built once, shared.
OCCUPY_ALONE = {s: OccupyProvince([SPACE_COORDS[s]], NO_CARDS) for s in SYMBOL_SPACE_IDS}
TAKE_OVER_ALONE = {s: OccupyProvince([SPACE_COORDS[s]], [SPACE_SYMBOL[s]]) for s in SYMBOL_SPACE_IDS}  # type: ignore[list-item]


def occupation_moves(state: State, seat: Seat) -> list[Command]:
    """R48-R56, one cheapest choice per governor count for every province the seat can pay for,
    with every compensation a take-over allows. Governors stand only on symbol spaces, so a
    province is represented by its symbol spaces.

    Each governor saves one card of its space's symbol, so for a count of governors they go
    first where the hand is short, then on the remaining spaces in id order; the total number of
    cards is the same for every choice of a count."""
    moves: list[Command] = []
    hand = state.hands[seat]
    supply = state.governor_supply[seat]
    if supply == 0:
        return moves
    hand_size = sum(hand.values())
    governors_at = state.governors
    for province in provinces_of_symbol_spaces(AT_SYMBOL_SPACES(state.province)):
        members = province.members
        size = len(members)
        if size == 1:  # most provinces late in the game: no choice of spaces to make
            space, symbol = members[0]
            owner = governors_at[space]
            if owner == NOBODY:
                moves.append(OCCUPY_ALONE[space])
            elif owner != seat and hand[symbol] >= 2:
                moves.append(TAKE_OVER_ALONE[space])
            continue
        most = supply if supply < size else size
        if size - most > hand_size:
            continue  # even the most governors leave more to pay than the hand holds
        owners = province.owners_of(governors_at)
        if seat in owners:
            continue
        eviction_cards: list[str] = []
        need = province.symbol_counts
        evicted = size - owners.count(NOBODY)
        if evicted:
            if size + 2 * evicted - most > hand_size:
                continue  # with the eviction cards (R53), even the most governors leave too much to pay
            eviction_cards, need = eviction_costs(province, owners)
        chosen = forced_governors(province, need, hand, most)
        if chosen is not None:
            moves += province_occupations(province, chosen, most, eviction_cards)
    return moves


END_TURN = EndTurn()
TAKE_DISPLAY = tuple(TakeCard(source="display", slot=k) for k in range(DISPLAY_SLOTS))
TAKE_SUPPLY = TakeCard(source="supply")
LEVIES = {sym: LevyTaxes(card=sym) for sym in SYMBOLS}
RETIREMENTS = {s: RetireGovernor(space=SPACE_COORDS[s]) for s in SYMBOL_SPACE_IDS}  # governors stand on symbol spaces


def action_moves(state: State, seat: Seat) -> list[Command]:
    """Every action but the occupations. Commands are immutable, so the fixed ones are built once
    and shared by every listing."""
    moves: list[Command] = [END_TURN]
    moves += [TAKE_DISPLAY[k] for k, card in enumerate(state.display) if card is not None]
    if state.supply or state.discard:
        moves.append(TAKE_SUPPLY)
    governors = state.governors
    own = [s for s in SYMBOL_SPACE_IDS if governors[s] == seat] if seat in governors else []
    if not state.levied and own:
        hand = state.hands[seat]
        governed = {SPACE_SYMBOL[s] for s in own}
        moves += [LEVIES[sym] for sym in SYMBOLS if hand[sym] > 0 and sym in governed]
    moves += [RETIREMENTS[s] for s in own]
    return moves


def legal_moves(state: State, seat: Seat, rng: Chance) -> LegalMoves:
    if seat != state.seat:
        return LegalMoves()
    if state.step == MOVE:  # a seat without a usable card or free space gets no option (R33, R34)
        return alexander_moves(state, seat, rng)
    if state.step == ACTIONS and seat in awaited(state):
        moves = LegalMoves(action_moves(state, seat))
        occupations = occupation_moves(state, seat)
        moves += occupations
        moves.complete = not occupations  # one cheapest choice of governor spaces per count: others may be legal
        return moves
    return LegalMoves()
