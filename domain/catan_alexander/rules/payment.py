"""Rules file 5.6, payment and default (R25-R27)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.catan_alexander import events as ev
from domain.catan_alexander.commands import PayBid
from domain.catan_alexander.data import GOODS, KNIGHT_BID_VALUE, RESOURCE_INDEX, TASK_ACCEPTS
from domain.catan_alexander.rules.general import add_goods, bundle_of, holds, parse_bundle, refuse
from domain.catan_alexander.rules.specials import claim_special_cards
from domain.catan_alexander.state import AUCTION_REOPEN, DEFAULT_DISCARD, REWARD, State
from domain.kernel import Chance, Command, Event
from domain.kernel.errors import BAD_INPUT


def bid_capacity(state: State, seat: int, task: str) -> tuple[int, int]:
    """(value of accepted cards and gold, played knights usable) for R26."""
    hand = state.hands[seat]
    cards = sum(hand[RESOURCE_INDEX[g]] for g in TASK_ACCEPTS[task] if g != "gold")
    knights = state.army[seat] if task == "battle" else 0
    return cards + state.gold[seat], knights


def can_honour(state: State, seat: int, task: str, amount: int) -> bool:
    """R26: payable iff some c in 0..k has 0 <= bid - 3c <= a + g."""
    items, knights = bid_capacity(state, seat, task)
    return any(0 <= amount - KNIGHT_BID_VALUE * c <= items for c in range(knights + 1))


def decide_pay_bid(state: State, seat: int, command: PayBid, chance: Chance) -> list[Event]:
    """R25: exact payment in accepted goods, gold and (battle only) played knights."""
    auction = state.auction
    assert auction is not None
    goods = parse_bundle(command.items, "items", allow_gold=True)
    knights = command.knights
    if not isinstance(knights, int) or isinstance(knights, bool) or knights < 0:
        raise refuse(BAD_INPUT, "knights must be a whole number >= 0")
    accepted = TASK_ACCEPTS[auction.task]
    if any(goods[i] and GOODS[i] not in accepted for i in range(6)):
        raise refuse("E_NOT_ACCEPTED", f"the {auction.task} task accepts only {', '.join(accepted)}")
    if knights and auction.task != "battle":
        raise refuse("E_NOT_ACCEPTED", "knights count only in a battle")
    if not holds(state, seat, goods):
        raise refuse("E_INSUFFICIENT", "you do not hold those items")
    if knights > state.army[seat]:
        raise refuse("E_NOT_ENOUGH_KNIGHTS", "only your played knights can be paid")
    value = sum(goods) + KNIGHT_BID_VALUE * knights
    if value != auction.high_bid:
        raise refuse("E_WRONG_AMOUNT", f"the payment is worth {value}; it must be exactly {auction.high_bid}")
    return [ev.BidPaid(seat=seat, items=bundle_of(goods), knights=knights)]


def on_bid_defaulted(state: State, e: ev.BidDefaulted) -> None:
    auction = state.auction
    assert auction is not None
    auction.excluded.append(e.seat)
    if e.owed_discard:
        state.default_owed = e.owed_discard
        state.phase = DEFAULT_DISCARD
    else:
        state.phase = AUCTION_REOPEN


def on_bid_paid(state: State, e: ev.BidPaid) -> None:
    add_goods(state, e.seat, e.items, -1)
    if e.knights:
        state.army[e.seat] -= e.knights
        claim_special_cards(state)
        state.dev_deck.extend(["knight"] * e.knights)  # R25: under the deck
    state.phase = REWARD


DECIDERS: dict[type[Command], Callable[[State, int, Any, Chance], list[Event]]] = {
    PayBid: decide_pay_bid,
}


EVOLVERS: dict[type[Event], Callable[[State, Any], None]] = {
    ev.BidPaid: on_bid_paid,
    ev.BidDefaulted: on_bid_defaulted,
}
