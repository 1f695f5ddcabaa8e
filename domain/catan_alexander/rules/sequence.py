"""Rules file 4, sequence of play: turn start, the automatic steps, ending the turn."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from domain.catan_alexander import events as ev
from domain.catan_alexander.data import RESOURCES
from domain.catan_alexander.rules.auctions import auction_close_events, auction_reopen_events
from domain.catan_alexander.rules.end import end_reason, game_ended
from domain.catan_alexander.rules.general import bundle_of, clockwise_from
from domain.catan_alexander.rules.rewards import advisor_events, reward_events
from domain.catan_alexander.rules.setup import setup_events
from domain.catan_alexander.rules.specials import special_card_events
from domain.catan_alexander.state import (
    ADVISOR_CHOICE,
    ALEXANDER,
    AUCTION_CLOSE,
    AUCTION_REOPEN,
    BEFORE_ROLL,
    GAME_OVER,
    REWARD,
    SETUP,
    TURN_START,
    State,
)
from domain.kernel import Chance, Command, Event


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


DECIDERS: dict[str, Callable[[State, int, Any, Chance], list[Event]]] = {
    "end_turn": decide_end_turn,
}


EVOLVERS: dict[str, Callable[[State, Any], None]] = {
    "TurnStarted": on_turn_started,
    "TurnEnded": on_turn_ended,
}
