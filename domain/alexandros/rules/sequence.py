"""Rules file 4, sequence of play (R19-R24): who is awaited, the automatic steps, ending the turn."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.alexandros.commands import EndTurn
from domain.alexandros.data import ACTIONS_PER_TURN, SYMBOLS, WINNING_SCORE
from domain.alexandros.events import AlexanderMoveSkipped, GameEndTriggered, TurnEnded, TurnStarted
from domain.alexandros.rules.board import has_free_space
from domain.alexandros.rules.cards import refill_events
from domain.alexandros.rules.end import game_ended
from domain.alexandros.rules.setup import setup_events
from domain.alexandros.state import ACTIONS, MOVE, OVER, SETUP, TURN_OVER, State
from domain.kernel import Chance, Command, Event, Seat

# levy_taxes stays listed after a levy: the kernel refuses unlisted commands with its WRONG_PHASE (the rules
# file's WRONG_STEP), while E8 and section 10.1 name ALREADY_LEVIED for a second levy, which decide_levy raises.
ACTION_COMMANDS = ("take_card", "occupy_province", "levy_taxes", "retire_governor", "end_turn")


MOVE_COMMANDS = ("move_alexander",)


def skip_reason(state: State) -> str | None:
    """R33/R34: why the current seat cannot move Alexander, or None when it has a legal move."""
    free = {sym for sym in SYMBOLS if has_free_space(state, sym)}
    if not free:
        return "no_free_space"
    if any(card is not None for card in state.display):
        return None  # a display card is usable, as a normal move or as a joker (R33)
    hand = state.hands[state.seat]
    if any(hand[sym] > 0 for sym in free):
        return None
    return "no_usable_card"


def awaited(state: State) -> dict[Seat, tuple[str, ...]]:
    if state.step == MOVE and skip_reason(state) is None:
        return {state.seat: MOVE_COMMANDS}
    if state.step == ACTIONS and state.actions_taken < ACTIONS_PER_TURN and not someone_reached_goal(state):
        return {state.seat: ACTION_COMMANDS}
    return {}


def is_over(state: State) -> bool:
    return state.step == OVER


def someone_reached_goal(state: State) -> bool:
    return max(state.scores) >= WINNING_SCORE


def close_actions_step(state: State, chance: Chance) -> list[Event]:
    """R22/R46: refill the emptied display slots (slot 0 first), then TurnEnded; no refill when the
    game-end flag is set (R67)."""
    events: list[Event] = []
    if state.end_reason is None:
        events += refill_events(state, chance, [k for k, card in enumerate(state.display) if card is None])
    events.append(TurnEnded(seat=state.seat))
    return events


def advance(state: State, chance: Chance) -> list[Event]:
    if state.step == OVER:
        return []
    if state.step == SETUP:
        return setup_events(state, chance)
    if someone_reached_goal(state):
        return [game_ended(state, "points", chance)]  # R68: at once, remaining actions are lost
    if state.step == MOVE:
        reason = skip_reason(state)
        if reason is None:
            return []
        events: list[Event] = [AlexanderMoveSkipped(seat=state.seat, reason=reason)]
        if reason == "no_free_space" and state.end_reason is None:
            events.append(GameEndTriggered(seat=state.seat, reason=reason))  # R34, R69
        return events
    if state.step == ACTIONS:
        if state.actions_taken >= ACTIONS_PER_TURN:
            return close_actions_step(state, chance)
        return []
    if state.step == TURN_OVER:
        if state.end_reason is not None:
            return [game_ended(state, state.end_reason, chance)]  # R67, R69
        return [TurnStarted(seat=(state.seat + 1) % state.players, turn=state.turn + 1)]  # R19
    return []


def decide_end_turn(state: State, seat: Seat, command: EndTurn, chance: Chance) -> list[Event]:
    """R44: actions are optional."""
    return close_actions_step(state, chance)


def _turn_started(state: State, e: TurnStarted) -> None:
    state.seat, state.turn, state.step = e.seat, e.turn, MOVE
    state.actions_taken, state.levied = 0, False


def _skipped(state: State, e: AlexanderMoveSkipped) -> None:
    state.step = ACTIONS


def _turn_ended(state: State, e: TurnEnded) -> None:
    state.step = TURN_OVER


DECIDERS: dict[type[Command], Callable[..., list[Event]]] = {
    EndTurn: decide_end_turn,
}


EVOLVERS: dict[type[Event], Callable[[State, Any], None]] = {
    TurnStarted: _turn_started,
    AlexanderMoveSkipped: _skipped,
    TurnEnded: _turn_ended,
}
