"""Rules file 5.7, rewards and Advisors (R28-R34)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.catan_alexander import events as ev
from domain.catan_alexander.commands import ChooseAdvisorRecipient
from domain.catan_alexander.data import SETTLEMENTS_PER_PLAYER
from domain.catan_alexander.rules.general import clockwise_from, refuse
from domain.catan_alexander.state import ADVISOR_CHOICE, TRADE_BUILD, Handdown, State
from domain.kernel import Chance, Command, Event


def reward_events(state: State, chance: Chance) -> list[Event]:
    """R28 (temple settlement, automatic) and R29 (token)."""
    auction = state.auction
    assert auction is not None and auction.high_bidder is not None
    winner = auction.high_bidder
    if auction.task == "village":
        if state.settlements[winner] >= SETTLEMENTS_PER_PLAYER:
            return [ev.TempleLeftEmpty(crossing=auction.crossing, reason="no_piece")]
        vertex = state.geometry.vertices[state.geometry.route[auction.crossing]]
        return [ev.SettlementBuilt(seat=winner, vertex=vertex, source="temple", free=True)]
    return [
        ev.TaskTokenAwarded(
            seat=winner, crossing=auction.crossing, task=auction.task, tokens_now=state.tokens_won[winner] + 1
        )
    ]


def advisor_of(state: State, seat: int, other_than: str | None = None) -> str | None:
    for card, holder in state.advisors.items():
        if holder == seat and card != other_than:
            return card
    return None


def advisor_events(state: State) -> list[Event]:
    """Pending hand-down with one recipient (R32), First Advisor taken (R31), award (R30)."""
    handdown = state.handdown
    if handdown is not None:
        if len(handdown.eligible) == 1:
            return [ev.AdvisorChanged(advisor=handdown.card, from_seat=handdown.giver, to_seat=handdown.eligible[0])]
        return []
    tokens = state.tokens_won
    most = max(tokens)  # asked after every step: nobody above the First Advisor, nobody at 3, is the usual case
    first = state.advisors.get("first")
    if first is not None and most > tokens[first]:
        for s in clockwise_from(state, state.active):
            if s != first and tokens[s] > tokens[first]:
                return [ev.AdvisorChanged(advisor="first", from_seat=first, to_seat=s)]
    free = [card for card, holder in state.advisors.items() if holder is None] if most >= 3 else []
    if free:
        for s in clockwise_from(state, state.active):
            if tokens[s] >= 3 and advisor_of(state, s) is None:
                return [ev.AdvisorChanged(advisor=free[0], from_seat=None, to_seat=s)]
    return []


def decide_choose_advisor_recipient(
    state: State, seat: int, command: ChooseAdvisorRecipient, chance: Chance
) -> list[Event]:
    handdown = state.handdown
    assert handdown is not None
    if command.seat not in handdown.eligible:
        raise refuse("E_INVALID_RECIPIENT", f"the card can go to seat(s) {handdown.eligible} only")
    return [ev.AdvisorChanged(advisor=handdown.card, from_seat=seat, to_seat=command.seat)]


def task_done(state: State) -> None:
    state.auction = None
    state.phase = TRADE_BUILD


def on_temple_left_empty(state: State, e: ev.TempleLeftEmpty) -> None:
    task_done(state)


def on_task_token_awarded(state: State, e: ev.TaskTokenAwarded) -> None:
    state.tokens_won[e.seat] = e.tokens_now
    task_done(state)


def on_advisor_changed(state: State, e: ev.AdvisorChanged) -> None:
    handdown = state.handdown
    if handdown is not None and e.advisor == handdown.card and e.from_seat == handdown.giver:
        state.handdown = None
        if state.phase == ADVISOR_CHOICE:
            state.phase = TRADE_BUILD
    elif e.advisor == "first" and e.from_seat is not None:
        previous = advisor_of(state, e.to_seat)
        if previous is not None:  # R32
            old = e.from_seat
            level = state.tokens_won[old]
            eligible = [old] + [
                s
                for s in range(state.players)
                if s not in (old, e.to_seat) and state.tokens_won[s] == level and advisor_of(state, s) is None
            ]
            state.handdown = Handdown(card=previous, giver=e.to_seat, eligible=sorted(eligible))
            if len(eligible) > 1:
                state.phase = ADVISOR_CHOICE
    state.advisors[e.advisor] = e.to_seat


DECIDERS: dict[type[Command], Callable[[State, int, Any, Chance], list[Event]]] = {
    ChooseAdvisorRecipient: decide_choose_advisor_recipient,
}


EVOLVERS: dict[type[Event], Callable[[State, Any], None]] = {
    ev.TempleLeftEmpty: on_temple_left_empty,
    ev.TaskTokenAwarded: on_task_token_awarded,
    ev.AdvisorChanged: on_advisor_changed,
}
