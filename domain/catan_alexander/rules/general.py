"""Rules file 5.1, general (R1-R6): goods vectors, hands, paying, and the fields commands share."""

from __future__ import annotations

from collections.abc import Iterable
from operator import ge
from typing import Any

from domain.catan_alexander.data import GOLD, GOOD_INDEX, GOODS, Geometry
from domain.catan_alexander.state import State
from domain.kernel import RuleViolation
from domain.kernel.errors import BAD_INPUT

Goods = list[int]


def refuse(code: str, message: str) -> RuleViolation:
    return RuleViolation(code, message)


def bundle_of(vector: Iterable[int], names: tuple[str, ...] = GOODS) -> dict[str, int]:
    return {names[i]: count for i, count in enumerate(vector) if count}


def goods_of(bundle: dict[str, int]) -> Goods:
    vector = [0] * 6
    for name, count in bundle.items():
        vector[GOOD_INDEX[name]] += count
    return vector


def parse_bundle(bundle: Any, where: str, allow_gold: bool) -> Goods:
    """A ``{good: count}`` map as a goods vector; BAD_INPUT for unknown goods or bad counts."""
    if not isinstance(bundle, dict):
        raise refuse(BAD_INPUT, f"{where} must be a map of goods to counts")
    vector = [0] * 6
    for name, count in bundle.items():
        index = GOOD_INDEX.get(name)
        if index is None:
            raise refuse(BAD_INPUT, f"{where}: unknown good {name!r}; goods are {', '.join(GOODS)}")
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            raise refuse(BAD_INPUT, f"{where}: the count of {name} must be a whole number >= 0")
        if index == GOLD and count and not allow_gold:
            raise refuse(BAD_INPUT, f"{where}: gold is not allowed here")
        vector[index] += count
    return vector


def holds(state: State, seat: int, goods: Goods) -> bool:
    # map over the five resources (zip stops at the hand) runs in C: it is asked on every listing
    return all(map(ge, state.hands[seat], goods)) and state.gold[seat] >= goods[GOLD]


def can_pay(state: State, seat: int, cost: tuple[int, ...]) -> bool:
    hand = state.hands[seat]
    return (
        hand[0] >= cost[0] and hand[1] >= cost[1] and hand[2] >= cost[2] and hand[3] >= cost[3] and hand[4] >= cost[4]
    )


def hand_size(state: State, seat: int) -> int:
    return sum(state.hands[seat])


def parse_vertex_ref(geometry: Geometry, name: Any) -> int:
    if not isinstance(name, str):
        raise refuse(BAD_INPUT, "an intersection is written like 'N(1,2)' or 'S(1,2)'")
    vertex = geometry.vertex_index.get(name.replace(" ", ""))
    if vertex is None:
        raise refuse("E_NOT_ON_BOARD", f"{name} is not an intersection of this board")
    return vertex


def parse_edge_ref(geometry: Geometry, edge: Any) -> int:
    if not isinstance(edge, list) or len(edge) != 2 or not all(isinstance(v, str) for v in edge):
        raise refuse(BAD_INPUT, "a path is a pair of intersections, e.g. ['N(1,1)', 'S(2,0)']")
    a = geometry.vertex_index.get(edge[0].replace(" ", ""))
    b = geometry.vertex_index.get(edge[1].replace(" ", ""))
    found = geometry.edge_between(a, b) if a is not None and b is not None else None
    if found is None:
        raise refuse("E_NOT_ON_BOARD", f"{edge[0]}-{edge[1]} is not a path of this board")
    return found


def parse_hex_ref(geometry: Geometry, hex_ref: Any) -> int:
    if (
        not isinstance(hex_ref, list)
        or len(hex_ref) != 2
        or not all(isinstance(x, int) and not isinstance(x, bool) for x in hex_ref)
    ):
        raise refuse(BAD_INPUT, "a hex is written [q, r]")
    index = geometry.hex_index.get((hex_ref[0], hex_ref[1]))
    if index is None:
        raise refuse("E_NOT_LAND", f"({hex_ref[0]},{hex_ref[1]}) is not a land hex")
    return index


def hex_ref(geometry: Geometry, index: int) -> list[int]:
    q, r = geometry.hexes[index]
    return [q, r]


def clockwise_from(state: State, first: int) -> list[int]:
    return [(first + i) % state.players for i in range(state.players)]


def add_goods(state: State, seat: int, goods: dict[str, int], sign: int, bank: bool = True) -> None:
    """Move goods between a seat and the bank (sign +1: to the seat)."""
    hand = state.hands[seat]
    for name, count in goods.items():
        index = GOOD_INDEX[name]
        if index == GOLD:
            state.gold[seat] += sign * count
            if bank:
                state.gold_supply -= sign * count
        else:
            hand[index] += sign * count
            if bank:
                state.bank[index] -= sign * count


def pay_cost(state: State, seat: int, cost: tuple[int, ...]) -> None:
    hand = state.hands[seat]
    for i in range(5):
        hand[i] -= cost[i]
        state.bank[i] += cost[i]
