"""Rules file 5.3, roll, production, seven and robber (R10-R14)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.catan_alexander import events as ev
from domain.catan_alexander.commands import Discard, MoveRobber, RollDice
from domain.catan_alexander.data import (
    BASE_DISCARD_LIMIT,
    GOLD,
    GOODS,
    RESOURCE_INDEX,
    RESOURCES,
    SCENARIO_DISCARD_LIMIT,
)
from domain.catan_alexander.rules.general import (
    Goods,
    add_goods,
    bundle_of,
    hand_size,
    hex_ref,
    holds,
    parse_bundle,
    parse_hex_ref,
    refuse,
)
from domain.catan_alexander.state import ALEXANDER, AUCTION_REOPEN, DISCARD, ROBBER, TRADE_BUILD, State
from domain.kernel import Chance, Command, Event


def after_roll_phase(state: State) -> str:
    return ALEXANDER if state.scenario else TRADE_BUILD


def discard_limit(state: State) -> int:
    return SCENARIO_DISCARD_LIMIT if state.scenario else BASE_DISCARD_LIMIT


def produce(state: State, total: int) -> ev.ResourcesProduced:
    """R11 production with the R12 bank-shortage rule per product (gold included)."""
    owner = state.owner
    level = state.level
    robber = state.robber
    owed: dict[int, int] = {}  # seat * 8 + good -> units (in (seat, good) order when sorted)
    for h, product, v in state.producers[total]:
        if h != robber:
            seat = owner[v]
            if seat >= 0:
                key = seat * 8 + product
                owed[key] = owed.get(key, 0) + level[v]
    short: dict[int, int] = {}  # good the bank cannot pay in full -> what its single receiver takes (0: none)
    floor = min(min(state.bank), state.gold_supply) if state.scenario else min(state.bank)
    if sum(owed.values()) > floor:  # the bank may be short of a good (else it pays every good in full)
        needed: dict[int, int] = {}  # good -> units owed to all
        for key, units in owed.items():
            needed[key & 7] = needed.get(key & 7, 0) + units
        for good, units in needed.items():
            available = state.gold_supply if good == GOLD else state.bank[good]
            if available < units:
                receivers = [key for key in owed if key & 7 == good]
                short[good] = available if len(receivers) == 1 else 0  # blocked: nobody receives any of it
    gains: dict[str, dict[str, int]] = {}
    for key in sorted(owed):  # seat by seat, goods in order
        count = short.get(key & 7, owed[key]) if short else owed[key]
        if count:
            seat_gains = gains.get(SEAT_KEYS[key >> 3])
            if seat_gains is None:
                gains[SEAT_KEYS[key >> 3]] = {GOODS[key & 7]: count}
            else:
                seat_gains[GOODS[key & 7]] = count
    withheld = [GOODS[good] for good in sorted(short) if not short[good]] if short else []
    return ev.ResourcesProduced(gains=gains, withheld=withheld)


SEAT_KEYS = ("0", "1", "2", "3")  # seat-keyed maps in events (JSON)
SEAT_OF_KEY = {key: seat for seat, key in enumerate(SEAT_KEYS)}


# per seat, per outcome of the draw: the roll (events are immutable, so these are built once and shared)
ROLLS = tuple(
    tuple(ev.DiceRolled(seat=seat, die1=o // 6 + 1, die2=o % 6 + 1, total=o // 6 + o % 6 + 2) for o in range(36))
    for seat in range(4)
)


def decide_roll_dice(state: State, seat: int, command: Command, chance: Chance) -> list[Event]:
    # both dice from one draw of the turn's dice stream (36 equally likely outcomes o):
    # die1 = o // 6 + 1, die2 = o % 6 + 1
    rolled = ROLLS[seat][chance.below(f"dice:{state.turn}", 36)]
    total = rolled.total
    out: list[Event] = [rolled]
    if total != 7:
        out.append(produce(state, total))
        return out
    limit = discard_limit(state)
    owed = {str(s): hand_size(state, s) // 2 for s in range(state.players) if hand_size(state, s) > limit}
    if owed:
        out.append(ev.DiscardsRequired(owed=owed))
    return out


def check_discard(state: State, seat: int, cards: Any, owed: int) -> Goods:
    goods = parse_bundle(cards, "cards", allow_gold=False)
    if sum(goods) != owed:
        raise refuse("E_WRONG_COUNT", f"you must discard exactly {owed} resource cards")
    if not holds(state, seat, goods):
        raise refuse("E_INSUFFICIENT", "you do not hold those cards")
    return goods


def decide_discard(state: State, seat: int, command: Discard, chance: Chance) -> list[Event]:
    if state.phase == DISCARD:
        owed = state.owed_discards.get(seat, 0)
        reason = "seven"
    else:
        owed = state.default_owed
        reason = "default"
    goods = check_discard(state, seat, command.cards, owed)
    return [ev.CardsDiscarded(seat=seat, cards=bundle_of(goods), reason=reason)]


def robber_events(state: State, seat: int, hex_value: Any, steal_from: Any, cause: str, chance: Chance) -> list[Event]:
    """R14: move the robber to another land hex and steal one random resource card."""
    geometry = state.geometry
    target = parse_hex_ref(geometry, hex_value)
    if target == state.robber:
        raise refuse("E_ROBBER_SAME_HEX", "the robber must move to a different hex")
    victims = robber_victims(state, seat, target)
    if steal_from is None:
        if victims:
            raise refuse("E_INVALID_VICTIM", "choose a player to steal from among those with a building there")
    else:
        if (
            not isinstance(steal_from, int)
            or isinstance(steal_from, bool)
            or not 0 <= steal_from < state.players
            or steal_from not in victims
        ):
            raise refuse("E_INVALID_VICTIM", "that player has no settlement or city on this hex (or is you)")
    out: list[Event] = [ev.RobberMoved(seat=seat, hex=hex_ref(geometry, target), cause=cause)]
    if steal_from is not None:
        victim_hand = state.hands[steal_from]
        count = sum(victim_hand)
        if count == 0:
            out.append(ev.CardStolen(thief=seat, victim=steal_from, card=None, stolen=False))
        else:
            index = chance.below(f"steal:{state.steals + 1}", count)
            card = 0
            while index >= victim_hand[card]:
                index -= victim_hand[card]
                card += 1
            out.append(ev.CardStolen(thief=seat, victim=steal_from, card=RESOURCES[card], stolen=True))
    return out


def robber_victims(state: State, seat: int, target: int) -> list[int]:
    owner = state.owner
    found = {owner[v] for v in state.geometry.hex_vertices[target]}
    found.discard(-1)  # nobody built there
    found.discard(seat)
    return sorted(found)


def decide_move_robber(state: State, seat: int, command: MoveRobber, chance: Chance) -> list[Event]:
    return robber_events(state, seat, command.hex, command.steal_from, "seven", chance)


def on_dice_rolled(state: State, e: ev.DiceRolled) -> None:
    state.roll = e.total
    if e.total == 7:
        state.phase = ROBBER


def on_resources_produced(state: State, e: ev.ResourcesProduced) -> None:
    for seat, gains in e.gains.items():
        add_goods(state, SEAT_OF_KEY[seat], gains, +1)
    state.phase = after_roll_phase(state)


def on_discards_required(state: State, e: ev.DiscardsRequired) -> None:
    state.owed_discards = {int(s): n for s, n in e.owed.items()}
    state.phase = DISCARD


def on_cards_discarded(state: State, e: ev.CardsDiscarded) -> None:
    add_goods(state, e.seat, e.cards, -1)
    if e.reason == "seven":
        del state.owed_discards[e.seat]
        if not state.owed_discards:
            state.phase = ROBBER
    else:
        state.default_owed = 0
        state.phase = AUCTION_REOPEN


def on_robber_moved(state: State, e: ev.RobberMoved) -> None:
    state.robber = state.geometry.hex_index[(e.hex[0], e.hex[1])]
    if e.cause == "seven":
        state.phase = after_roll_phase(state)


def on_card_stolen(state: State, e: ev.CardStolen) -> None:
    if e.card is not None:
        index = RESOURCE_INDEX[e.card]
        state.hands[e.victim][index] -= 1
        state.hands[e.thief][index] += 1
        state.steals += 1


DECIDERS: dict[type[Command], Callable[[State, int, Any, Chance], list[Event]]] = {
    RollDice: decide_roll_dice,
    Discard: decide_discard,
    MoveRobber: decide_move_robber,
}


EVOLVERS: dict[type[Event], Callable[[State, Any], None]] = {
    ev.DiceRolled: on_dice_rolled,
    ev.ResourcesProduced: on_resources_produced,
    ev.DiscardsRequired: on_discards_required,
    ev.CardsDiscarded: on_cards_discarded,
    ev.RobberMoved: on_robber_moved,
    ev.CardStolen: on_card_stolen,
}
