"""Rules file 4, sequence of play: who is awaited, turn start, the automatic steps, ending the turn."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from domain.catan_alexander import events as ev
from domain.catan_alexander.commands import DEV_PLAY_COMMANDS, EndTurn
from domain.catan_alexander.data import RESOURCES
from domain.catan_alexander.rules.auctions import auction_close_events, auction_reopen_events
from domain.catan_alexander.rules.end import end_reason, game_ended
from domain.catan_alexander.rules.general import bundle_of, clockwise_from
from domain.catan_alexander.rules.rewards import advisor_events, reward_events
from domain.catan_alexander.rules.setup import setup_events
from domain.catan_alexander.rules.specials import special_card_events
from domain.catan_alexander.rules.trade import withdrawals
from domain.catan_alexander.state import (
    ADVISOR_CHOICE,
    ALEXANDER,
    AUCTION,
    AUCTION_CLOSE,
    AUCTION_REOPEN,
    BEFORE_ROLL,
    DEFAULT_DISCARD,
    DISCARD,
    FOUNDING_ROAD,
    FOUNDING_SETTLEMENT,
    GAME_OVER,
    PAYMENT,
    REWARD,
    ROBBER,
    SETUP,
    TRADE_BUILD,
    TURN_START,
    State,
)
from domain.kernel import Chance, Command, Event

TRADE_ACTIVE = (
    "offer_trade",
    "respond_trade",
    "confirm_trade",
    "cancel_trade",
    "bank_trade",
    "build_road",
    "build_settlement",
    "build_city",
    "buy_development_card",
    *DEV_PLAY_COMMANDS,
    "end_turn",
)
TRADE_OTHERS = ("offer_trade", "respond_trade", "cancel_trade")
ROLL_COMMANDS = ("roll_dice", *DEV_PLAY_COMMANDS)
ALEXANDER_COMMANDS = ("move_alexander", *DEV_PLAY_COMMANDS)


# Per seat: the awaited map of a phase where that one seat acts, built once and shared (read-only).
def each_seat(kinds: tuple[str, ...]) -> tuple[dict[int, tuple[str, ...]], ...]:
    return tuple({seat: kinds} for seat in range(4))


TRADING = each_seat(TRADE_ACTIVE)
ROLLING = each_seat(ROLL_COMMANDS)
MOVING_ALEXANDER = each_seat(ALEXANDER_COMMANDS)
BIDDING = each_seat(("place_bid", "pass_bid"))
PAYING = each_seat(("pay_bid",))
DISCARDING = each_seat(("discard",))
MOVING_ROBBER = each_seat(("move_robber",))
CHOOSING_ADVISOR = each_seat(("choose_advisor_recipient",))
FOUNDING_SETTLEMENTS = each_seat(("build_settlement",))
FOUNDING_ROADS = each_seat(("build_road",))
NOBODY: dict[int, tuple[str, ...]] = {}


def awaited(state: State) -> dict[int, tuple[str, ...]]:
    phase = state.phase
    if phase == TRADE_BUILD:
        if not state.offers:
            return TRADING[state.active]
        result: dict[int, tuple[str, ...]] = {state.active: TRADE_ACTIVE}
        for seat in unanswered_addressees(state):
            result[seat] = TRADE_OTHERS
        return result
    if phase == BEFORE_ROLL:
        return ROLLING[state.active]
    if phase == ALEXANDER:
        return MOVING_ALEXANDER[state.active]
    if phase == AUCTION:
        assert state.auction is not None and state.auction.to_act is not None
        return BIDDING[state.auction.to_act]
    if phase == PAYMENT:
        assert state.auction is not None and state.auction.high_bidder is not None
        return PAYING[state.auction.high_bidder]
    if phase == DISCARD:
        return {seat: ("discard",) for seat in state.owed_discards}
    if phase == ROBBER:
        return MOVING_ROBBER[state.active]
    if phase == DEFAULT_DISCARD:
        assert state.auction is not None and state.auction.high_bidder is not None
        return DISCARDING[state.auction.high_bidder]
    if phase == ADVISOR_CHOICE:
        assert state.handdown is not None
        return CHOOSING_ADVISOR[state.handdown.giver]
    if phase == FOUNDING_SETTLEMENT:
        return FOUNDING_SETTLEMENTS[state.active]
    if phase == FOUNDING_ROAD:
        return FOUNDING_ROADS[state.active]
    return NOBODY


def unanswered_addressees(state: State) -> set[int]:
    """Other seats with an open offer they have not answered yet. The game waits for that one
    answer (so that random games exercise trades); answering again is optional, which keeps every
    offer to a finite number of awaited moves."""
    active = state.active
    return {
        seat for offer in state.offers.values() for seat in offer.to if seat != active and seat not in offer.responses
    }


def is_over(state: State) -> bool:
    return state.phase == GAME_OVER


def turn_start_events(state: State, chance: Chance) -> list[Event]:
    """R7/R8: TurnStarted, then one supply card each (clockwise from the new active seat)."""
    seat = (state.active + 1) % state.players
    out: list[Event] = [turn_started(state.turn + 1, seat)]
    if state.supply_open:
        stack = state.supply
        n = state.players
        for i, drawer in enumerate(clockwise_from(state, seat)):
            out.append(ev.SupplyCardDrawn(seat=drawer, card=RESOURCES[stack[i]]))
        left = stack[n:]
        if len(left) < n:
            counts = [0] * 5
            for card in left:
                counts[card] += 1
            out.append(ev.SupplyClosed(cards_to_bank=bundle_of(counts, RESOURCES)))
    return out


@cache
def turn_started(turn: int, seat: int) -> ev.TurnStarted:
    """Events are immutable: each (turn, seat) start is built once and shared by every game."""
    return ev.TurnStarted(turn=turn, seat=seat)


def decide_end_turn(state: State, seat: int, command: Command, chance: Chance) -> list[Event]:
    """R36e: open offers close; the next turn starts at once (§10.4), nothing comes in between."""
    out: list[Event] = (
        [ev.TradeCancelled(offer_id=i, reason="turn_ended") for i in sorted(state.offers)] if state.offers else []
    )
    out.append(TURNS_ENDED[seat])
    out.extend(turn_start_events(state, chance))
    return out


TURNS_ENDED = tuple(ev.TurnEnded(seat=seat) for seat in range(4))  # immutable, built once and shared


AUTOMATIC_STEPS: dict[str, Callable[[State, Chance], list[Event]]] = {
    TURN_START: turn_start_events,
    AUCTION_CLOSE: auction_close_events,
    AUCTION_REOPEN: auction_reopen_events,
    REWARD: reward_events,
}


def advance(state: State, chance: Chance) -> list[Event]:
    phase = state.phase
    if phase == GAME_OVER:
        return []
    if phase == SETUP:
        return setup_events(state, chance)
    events = special_card_events(state)
    if events:
        return events
    if state.scenario:
        events = advisor_events(state)
        if events:
            return events
    if phase == TRADE_BUILD and state.offers:
        events = withdrawals(state)
        if events:
            return events
    step = AUTOMATIC_STEPS.get(phase)
    if step is not None:
        return step(state, chance)
    if phase != ADVISOR_CHOICE:
        reason = end_reason(state)
        if reason is not None:
            return [game_ended(state, reason, chance)]
    return []


def on_turn_started(state: State, e: ev.TurnStarted) -> None:
    state.turn = e.turn
    state.active = e.seat
    state.roll = None
    state.phase = ALEXANDER if (state.scenario and e.turn == 1) else BEFORE_ROLL


def on_turn_ended(state: State, e: ev.TurnEnded) -> None:
    seat = e.seat
    if state.dev_new[seat]:
        state.dev_hand[seat].extend(state.dev_new[seat])
        state.dev_new[seat] = []
    state.played_dev = False
    state.phase = TURN_START


DECIDERS: dict[type[Command], Callable[[State, int, Any, Chance], list[Event]]] = {
    EndTurn: decide_end_turn,
}


EVOLVERS: dict[type[Event], Callable[[State, Any], None]] = {
    ev.TurnStarted: on_turn_started,
    ev.TurnEnded: on_turn_ended,
}
