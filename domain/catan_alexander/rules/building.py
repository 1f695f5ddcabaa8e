"""Rules file 5.9, building (R40-R44)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.catan_alexander import events as ev
from domain.catan_alexander.commands import BuildCity, BuildRoad, BuildSettlement
from domain.catan_alexander.data import (
    CITIES_PER_PLAYER,
    CITY_COST,
    RESOURCES,
    ROAD_COST,
    ROADS_PER_PLAYER,
    SETTLEMENT_COST,
    SETTLEMENTS_PER_PLAYER,
)
from domain.catan_alexander.rules.general import bundle_of, can_pay, parse_edge_ref, parse_vertex_ref, pay_cost, refuse
from domain.catan_alexander.rules.rewards import task_done
from domain.catan_alexander.rules.specials import (
    claim_special_cards,
    component_edges,
    longest_trail,
    recompute_road_lengths,
)
from domain.catan_alexander.rules.trade import use_harbour
from domain.catan_alexander.state import FOUNDING_ROAD, FOUNDING_SETTLEMENT, TURN_START, State
from domain.kernel import Chance, Command, Event


def road_refusal(state: State, seat: int, edge: int, extra: int = -1, founding_vertex: int = -1) -> str | None:
    """Why ``seat`` may not place a road on ``edge`` (None if he may); ``extra`` is a road of his
    placed just before (Road Building)."""
    if state.road_owner[edge] != -1 or edge == extra:
        return "E_OCCUPIED"
    if state.roads[seat] + (extra >= 0) >= ROADS_PER_PLAYER:
        return "E_NO_PIECE"
    geometry = state.geometry
    a, b = geometry.edges[edge]
    if founding_vertex >= 0:
        return None if founding_vertex in (a, b) else "E_NOT_CONNECTED"
    for v in (a, b):
        occupant = state.owner[v]
        if occupant == seat:
            return None
        if occupant != -1:
            continue
        for e in geometry.vertex_edges[v]:
            if state.road_owner[e] == seat or e == extra:
                return None
    return "E_NOT_CONNECTED"


ROAD_MESSAGES = {
    "E_OCCUPIED": "there is already a road on that path",
    "E_NO_PIECE": "you have no road left in your supply",
    "E_NOT_CONNECTED": "a road must touch your own building or road (not through another player's building)",
}


def legal_road_edges(state: State, seat: int, extra: int = -1) -> list[int]:
    """Free paths touching the seat's network (the only candidates for R41)."""
    geometry = state.geometry
    if state.roads[seat] + (extra >= 0) >= ROADS_PER_PLAYER:
        return []
    road_owner = state.road_owner
    owner = state.owner
    reach = set(state.buildings_of[seat])
    for e in (*state.roads_of[seat], extra) if extra >= 0 else state.roads_of[seat]:
        for v in geometry.edges[e]:
            if owner[v] == -1 or owner[v] == seat:
                reach.add(v)
    found: set[int] = set()
    for v in reach:
        for e in geometry.vertex_edges[v]:
            if road_owner[e] == -1 and e != extra:
                found.add(e)
    return sorted(found)


def decide_build_road(state: State, seat: int, command: BuildRoad, chance: Chance) -> list[Event]:
    geometry = state.geometry
    founding = state.phase == FOUNDING_ROAD
    if not founding:
        if not can_pay(state, seat, ROAD_COST):
            raise refuse("E_INSUFFICIENT", "a road costs brick + lumber")
        if state.roads[seat] >= ROADS_PER_PLAYER:
            raise refuse("E_NO_PIECE", ROAD_MESSAGES["E_NO_PIECE"])
    edge = parse_edge_ref(geometry, command.edge)
    code = road_refusal(state, seat, edge, founding_vertex=state.founding_vertex if founding else -1)
    if code is not None:
        if founding and code == "E_NOT_CONNECTED":
            raise refuse(code, "the founding road must touch the settlement just placed")
        raise refuse(code, ROAD_MESSAGES[code])
    return [ev.RoadBuilt(seat=seat, edge=geometry.edge_ref(edge), free=founding)]


def route_restricted(state: State, vertex: int) -> bool:
    """R42 (iii): an unpassed route intersection or one next to it."""
    return state.scenario and state.geometry.route_block[vertex] > state.position


def settlement_refusal(state: State, seat: int, vertex: int, founding: bool) -> str | None:
    if state.owner[vertex] != -1:
        return "E_OCCUPIED"
    # the distance rule: every neighbour empty (-1, below every seat; map runs in C, asked per candidate)
    if max(map(state.owner.__getitem__, state.geometry.vertex_adj[vertex])) != -1:
        return "E_DISTANCE_RULE"
    if founding:
        return None
    road_owner = state.road_owner
    for e in state.geometry.vertex_edges[vertex]:
        if road_owner[e] == seat:
            break
    else:
        return "E_NOT_CONNECTED"
    if route_restricted(state, vertex):
        return "E_ROUTE_RESTRICTED"
    return None


def founding_spots(state: State) -> list[int]:
    """The intersections ``settlement_refusal(..., founding=True)`` accepts, in order: those neither
    built on nor next to a building (found from the few buildings, not asked per intersection)."""
    adjacent = state.geometry.vertex_adj
    blocked: set[int] = set()
    for buildings in state.buildings_of:
        for v in buildings:
            blocked.add(v)
            blocked.update(adjacent[v])
    return [v for v in range(len(adjacent)) if v not in blocked]


SETTLEMENT_MESSAGES = {
    "E_OCCUPIED": "that intersection is already built on",
    "E_DISTANCE_RULE": "a neighbouring intersection holds a settlement or city (distance rule)",
    "E_NOT_CONNECTED": "a settlement must be at the end of one of your roads",
    "E_ROUTE_RESTRICTED": "no settlement on or next to a route crossing Alexander has not passed yet (R42)",
}


def decide_build_settlement(state: State, seat: int, command: BuildSettlement, chance: Chance) -> list[Event]:
    geometry = state.geometry
    founding = state.phase == FOUNDING_SETTLEMENT
    if not founding:
        if not can_pay(state, seat, SETTLEMENT_COST):
            raise refuse("E_INSUFFICIENT", "a settlement costs brick + lumber + grain + wool")
        if state.settlements[seat] >= SETTLEMENTS_PER_PLAYER:
            raise refuse("E_NO_PIECE", "you have no settlement left in your supply")
    vertex = parse_vertex_ref(geometry, command.vertex)
    code = settlement_refusal(state, seat, vertex, founding)
    if code is not None:
        raise refuse(code, SETTLEMENT_MESSAGES[code])
    out: list[Event] = [
        ev.SettlementBuilt(
            seat=seat, vertex=geometry.vertices[vertex], source="founding" if founding else "build", free=founding
        )
    ]
    if founding and state.founding_step >= state.players:
        cards = [0] * 5
        for h in geometry.vertex_hexes[vertex]:
            product = state.hex_product[h]
            if 0 <= product < 5:
                cards[product] += 1
        out.append(ev.FoundingResourcesGained(seat=seat, cards=bundle_of(cards, RESOURCES)))
    return out


def decide_build_city(state: State, seat: int, command: BuildCity, chance: Chance) -> list[Event]:
    if not can_pay(state, seat, CITY_COST):
        raise refuse("E_INSUFFICIENT", "a city costs 3 ore + 2 grain")
    if state.cities[seat] >= CITIES_PER_PLAYER:
        raise refuse("E_NO_PIECE", "you have no city left in your supply")
    vertex = parse_vertex_ref(state.geometry, command.vertex)
    if state.owner[vertex] != seat or state.level[vertex] != 1:
        raise refuse("E_NOT_OWN_SETTLEMENT", "a city replaces one of your own settlements")
    return [ev.CityBuilt(seat=seat, vertex=state.geometry.vertices[vertex])]


def on_settlement_built(state: State, e: ev.SettlementBuilt) -> None:
    geometry = state.geometry
    vertex = geometry.vertex_index[e.vertex]
    state.owner[vertex] = e.seat
    state.level[vertex] = 1
    state.buildings_of[e.seat].append(vertex)
    state.add_producer(vertex)
    state.settlements[e.seat] += 1
    use_harbour(state, e.seat, vertex)
    if e.source == "build":
        pay_cost(state, e.seat, SETTLEMENT_COST)
    elif e.source == "temple":
        task_done(state)
    else:
        state.founding_vertex = vertex
        state.phase = FOUNDING_ROAD
    # a settlement cuts another player's road that passes through it (two of his roads meet there)
    owners = [state.road_owner[x] for x in geometry.vertex_edges[vertex]]
    recompute_road_lengths(state, {s for s in owners if s not in (-1, e.seat) and owners.count(s) > 1})


def on_road_built(state: State, e: ev.RoadBuilt) -> None:
    geometry = state.geometry
    a = geometry.vertex_index[e.edge[0]]
    b = geometry.vertex_index[e.edge[1]]
    edge = geometry.edge_between(a, b)
    assert edge is not None
    state.road_owner[edge] = e.seat
    state.roads_of[e.seat].append(edge)
    state.roads[e.seat] += 1
    if state.phase == FOUNDING_ROAD:
        state.founding_step += 1
        state.founding_vertex = -1
        if state.founding_step >= 2 * state.players:
            state.phase = TURN_START
            state.active = state.players - 1  # so the next turn is seat 0's
        else:
            state.phase = FOUNDING_SETTLEMENT
            state.active = state.founding_seat()
    elif not e.free:
        pay_cost(state, e.seat, ROAD_COST)
    # a new road only extends the network it joins; the seat's other networks keep their lengths
    network = component_edges(state, e.seat, a)
    if len(network) > state.road_length[e.seat]:  # else no trail of it can be longer than the longest
        state.road_length[e.seat] = max(state.road_length[e.seat], longest_trail(state, e.seat, network))
        claim_special_cards(state)


def on_city_built(state: State, e: ev.CityBuilt) -> None:
    vertex = state.geometry.vertex_index[e.vertex]
    state.level[vertex] = 2
    state.settlements[e.seat] -= 1
    state.cities[e.seat] += 1
    pay_cost(state, e.seat, CITY_COST)


DECIDERS: dict[type[Command], Callable[[State, int, Any, Chance], list[Event]]] = {
    BuildRoad: decide_build_road,
    BuildSettlement: decide_build_settlement,
    BuildCity: decide_build_city,
}


EVOLVERS: dict[type[Event], Callable[[State, Any], None]] = {
    ev.SettlementBuilt: on_settlement_built,
    ev.RoadBuilt: on_road_built,
    ev.CityBuilt: on_city_built,
}
