"""Rules file 5.11, Longest Road and Largest Army (R52-R54)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from domain.catan_alexander import events as ev
from domain.catan_alexander.data import LARGEST_ARMY_MIN, LONGEST_ROAD_MIN
from domain.catan_alexander.state import State
from domain.kernel import Event


def road_length(state: State, seat: int) -> int:
    """R52: the longest trail of own roads, not passing through another player's building."""
    best = 0
    remaining = set(state.roads_of[seat])
    edges = state.geometry.edges
    while remaining:
        network = component_edges(state, seat, edges[min(remaining)][0])
        remaining -= network
        best = max(best, longest_trail(state, seat, network))
    return best


def longest_trail(state: State, seat: int, network: set[int]) -> int:
    """R52 within one connected network of the seat's roads: a depth-first search over trails,
    each trail's used roads kept as a bit mask (networks have at most 15 roads)."""
    edges = state.geometry.edges
    owner = state.owner
    degree: dict[int, int] = {}  # intersection -> roads of the network there
    for e in network:
        a, b = edges[e]
        degree[a] = degree.get(a, 0) + 1
        degree[b] = degree.get(b, 0) + 1
    blocked = {v for v in degree if owner[v] not in (-1, seat)}  # another player's building
    inside = any(degree[v] > 1 for v in blocked)  # such a building splits the network
    # A longest trail can be taken to start where it cannot be extended backwards: at an
    # intersection with an odd number of the roads, or at another player's building.
    starts = [v for v, count in degree.items() if count % 2 or v in blocked]
    if len(starts) <= 2 and not inside:
        # Euler: a connected network with at most two odd intersections and no other player's
        # building inside it is a single trail over all its roads (the usual case, found cheaply)
        return len(network)
    exits: dict[int, list[tuple[int, int]]] = {}  # intersection -> (road bit, other end)
    for i, e in enumerate(network):
        a, b = edges[e]
        exits.setdefault(a, []).append((1 << i, b))
        exits.setdefault(b, []).append((1 << i, a))
    total = len(network)
    if total == len(exits) - 1 and not inside:
        return tree_diameter(exits)
    best = 0
    stack = [(v, 0, 0) for v in starts or [next(iter(exits))]]
    while stack:
        vertex, used, length = stack.pop()
        if length > best:
            best = length
            if best == total:
                break
        if length and vertex in blocked:
            continue  # a trail may end at another player's building, never pass through it
        for bit, other in exits[vertex]:
            if not used & bit:
                stack.append((other, used | bit, length + 1))
    return best


def tree_diameter(exits: dict[int, list[tuple[int, int]]]) -> int:
    """The longest trail of a network without a cycle (and no other player's building inside it) is
    its longest path: the farthest intersection from any one, then the farthest from that (two
    breadth-first passes instead of a search over every trail)."""

    def farthest(start: int) -> tuple[int, int]:
        distance = {start: 0}
        frontier = [start]
        last = start
        while frontier:
            following = []
            for v in frontier:
                for _, other in exits[v]:
                    if other not in distance:
                        distance[other] = distance[v] + 1
                        following.append(other)
                        last = other
            frontier = following
        return last, distance[last]

    end, _ = farthest(next(iter(exits)))
    return farthest(end)[1]


def component_edges(state: State, seat: int, start: int) -> set[int]:
    """The seat's roads connected to ``start`` (through any intersection)."""
    vertex_edges, edges = state.geometry.vertex_edges, state.geometry.edges
    road_owner = state.road_owner
    found: set[int] = set()
    stack = [start]
    seen = {start}
    while stack:
        v = stack.pop()
        for e in vertex_edges[v]:
            if road_owner[e] == seat and e not in found:
                found.add(e)
                a, b = edges[e]
                other = b if a == v else a
                if other not in seen:
                    seen.add(other)
                    stack.append(other)
    return found


def special_card_holder(holder: int | None, values: list[int], threshold: int) -> int | None:
    """R53: the holder keeps the card while he has the highest value; a sole leader takes it."""
    best = max(values)
    if holder is not None and values[holder] >= threshold and values[holder] == best:
        return holder
    if best >= threshold and values.count(best) == 1:
        return values.index(best)
    return None


def claim_special_cards(state: State) -> None:
    """R53, asked whenever a road length or an army changes: who is entitled to each card now.
    The automatic step ``special_card_events`` hands a card over while its claim is not its holder
    (once it has, the claim asked again names the new holder: ``special_card_holder`` keeps a card
    with a holder who has the highest value, so nothing is left to settle)."""
    state.road_claim = special_card_holder(state.longest_road, state.road_length, LONGEST_ROAD_MIN)
    state.army_claim = special_card_holder(state.largest_army, state.army, LARGEST_ARMY_MIN)


def special_card_events(state: State) -> list[Event]:
    """R53: the card whose claim is not its holder changes hands, Longest Road first."""
    if state.road_claim != state.longest_road:
        holder, lengths = state.road_claim, state.road_length
        return [ev.LongestRoadChanged(holder=holder, length=lengths[holder] if holder is not None else max(lengths))]
    if state.army_claim != state.largest_army:
        holder, army = state.army_claim, state.army
        return [ev.LargestArmyChanged(holder=holder, size=army[holder] if holder is not None else max(army))]
    return []


def recompute_road_lengths(state: State, seats: Iterable[int]) -> None:
    for s in seats:
        state.road_length[s] = road_length(state, s)
    claim_special_cards(state)


def on_longest_road_changed(state: State, e: ev.LongestRoadChanged) -> None:
    state.longest_road = e.holder


def on_largest_army_changed(state: State, e: ev.LargestArmyChanged) -> None:
    state.largest_army = e.holder


EVOLVERS: dict[type[Event], Callable[[State, Any], None]] = {
    ev.LongestRoadChanged: on_longest_road_changed,
    ev.LargestArmyChanged: on_largest_army_changed,
}
