"""Rules file 5.10, development cards (R45-R51)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.catan_alexander import events as ev
from domain.catan_alexander.commands import (
    BuyDevelopmentCard,
    PlayKnight,
    PlayMonopoly,
    PlayRoadBuilding,
    PlayYearOfPlenty,
)
from domain.catan_alexander.data import DEVELOPMENT_COST, RESOURCE_INDEX, RESOURCES
from domain.catan_alexander.rules.building import ROAD_MESSAGES, legal_road_edges, road_refusal
from domain.catan_alexander.rules.general import add_goods, bundle_of, can_pay, parse_edge_ref, pay_cost, refuse
from domain.catan_alexander.rules.roll import robber_events
from domain.catan_alexander.rules.specials import claim_special_cards
from domain.catan_alexander.state import State
from domain.kernel import Chance, Command, Event
from domain.kernel.errors import BAD_INPUT


def decide_buy_development_card(state: State, seat: int, command: Command, chance: Chance) -> list[Event]:
    if not can_pay(state, seat, DEVELOPMENT_COST):
        raise refuse("E_INSUFFICIENT", "a development card costs ore + grain + wool")
    if not state.dev_deck:
        raise refuse("E_DECK_EMPTY", "the development deck is empty")
    return [ev.DevelopmentCardBought(seat=seat, card=state.dev_deck[0])]


def check_card_playable(state: State, seat: int, card: str) -> None:
    """R46: own card bought before this turn, one card per turn."""
    if card not in state.dev_hand[seat]:
        raise refuse("E_NO_CARD", f"you have no {card.replace('_', ' ')} card bought before this turn")
    if state.played_dev:
        raise refuse("E_CARD_LIMIT", "you have already played a development card this turn")


def decide_play_knight(state: State, seat: int, command: PlayKnight, chance: Chance) -> list[Event]:
    check_card_playable(state, seat, "knight")
    moved = robber_events(state, seat, command.hex, command.steal_from, "knight", chance)
    return [ev.KnightPlayed(seat=seat), *moved]


def decide_play_road_building(state: State, seat: int, command: PlayRoadBuilding, chance: Chance) -> list[Event]:
    """R48 and Ruling R48: two free roads, or one when no second can be placed."""
    check_card_playable(state, seat, "road_building")
    geometry = state.geometry
    if not legal_road_edges(state, seat):
        raise refuse("E_NO_LEGAL_ROAD", "no road can be placed at all")
    edges_in = command.edges
    if not isinstance(edges_in, list) or not 1 <= len(edges_in) <= 2:
        raise refuse("E_WRONG_COUNT", "name one or two paths")
    placed: list[int] = []
    for raw in edges_in:
        edge = parse_edge_ref(geometry, raw)
        code = road_refusal(state, seat, edge, extra=placed[0] if placed else -1)
        if code is not None:
            raise refuse(code, ROAD_MESSAGES[code])
        placed.append(edge)
    if len(placed) == 1 and legal_road_edges(state, seat, extra=placed[0]):
        raise refuse("E_WRONG_COUNT", "a second road can be placed, so name two paths")
    return [
        ev.RoadBuildingPlayed(seat=seat),
        *(ev.RoadBuilt(seat=seat, edge=geometry.edge_ref(e), free=True) for e in placed),
    ]


def decide_play_year_of_plenty(state: State, seat: int, command: PlayYearOfPlenty, chance: Chance) -> list[Event]:
    """R49 and Ruling R49: two cards from the bank piles, one if only one is left."""
    check_card_playable(state, seat, "year_of_plenty")
    names = command.resources
    if not isinstance(names, list) or not all(isinstance(r, str) and r in RESOURCE_INDEX for r in names):
        raise refuse(BAD_INPUT, f"name resources among {', '.join(RESOURCES)} (never gold)")
    in_bank = sum(state.bank)
    if in_bank == 0:
        raise refuse("E_BANK_EMPTY", "the bank piles are empty")
    wanted = 2 if in_bank >= 2 else 1
    if len(names) != wanted:
        raise refuse("E_WRONG_COUNT", f"name exactly {wanted} resource card(s)")
    taken = [0] * 5
    for r in names:
        taken[RESOURCE_INDEX[r]] += 1
    if any(taken[i] > state.bank[i] for i in range(5)):
        raise refuse("E_BANK_EMPTY", "the bank does not hold those cards")
    return [ev.YearOfPlentyPlayed(seat=seat, taken=bundle_of(taken, RESOURCES))]


def decide_play_monopoly(state: State, seat: int, command: PlayMonopoly, chance: Chance) -> list[Event]:
    check_card_playable(state, seat, "monopoly")
    if command.resource not in RESOURCE_INDEX:
        raise refuse(BAD_INPUT, f"name one of {', '.join(RESOURCES)} (never gold)")
    index = RESOURCE_INDEX[command.resource]
    taken = {str(s): state.hands[s][index] for s in range(state.players) if s != seat}
    return [ev.MonopolyPlayed(seat=seat, resource=command.resource, taken=taken)]


def on_development_card_bought(state: State, e: ev.DevelopmentCardBought) -> None:
    pay_cost(state, e.seat, DEVELOPMENT_COST)
    del state.dev_deck[0]
    state.dev_new[e.seat].append(e.card)


def play_card(state: State, seat: int, card: str) -> None:
    state.dev_hand[seat].remove(card)
    state.played_dev = True


def on_knight_played(state: State, e: ev.KnightPlayed) -> None:
    play_card(state, e.seat, "knight")
    state.army[e.seat] += 1
    claim_special_cards(state)


def on_road_building_played(state: State, e: ev.RoadBuildingPlayed) -> None:
    play_card(state, e.seat, "road_building")


def on_year_of_plenty_played(state: State, e: ev.YearOfPlentyPlayed) -> None:
    play_card(state, e.seat, "year_of_plenty")
    add_goods(state, e.seat, e.taken, +1)


def on_monopoly_played(state: State, e: ev.MonopolyPlayed) -> None:
    play_card(state, e.seat, "monopoly")
    index = RESOURCE_INDEX[e.resource]
    for seat, count in e.taken.items():
        state.hands[int(seat)][index] -= count
        state.hands[e.seat][index] += count


DECIDERS: dict[type[Command], Callable[[State, int, Any, Chance], list[Event]]] = {
    BuyDevelopmentCard: decide_buy_development_card,
    PlayKnight: decide_play_knight,
    PlayRoadBuilding: decide_play_road_building,
    PlayYearOfPlenty: decide_play_year_of_plenty,
    PlayMonopoly: decide_play_monopoly,
}


EVOLVERS: dict[type[Event], Callable[[State, Any], None]] = {
    ev.DevelopmentCardBought: on_development_card_bought,
    ev.KnightPlayed: on_knight_played,
    ev.RoadBuildingPlayed: on_road_building_played,
    ev.YearOfPlentyPlayed: on_year_of_plenty_played,
    ev.MonopolyPlayed: on_monopoly_played,
}
