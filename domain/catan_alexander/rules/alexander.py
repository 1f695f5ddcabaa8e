"""Rules file 5.4, Alexander's move (R15-R19)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.catan_alexander import events as ev
from domain.catan_alexander.commands import MoveAlexander
from domain.catan_alexander.rules.auctions import open_auction
from domain.catan_alexander.state import TRADE_BUILD, State
from domain.kernel import Chance, Command, Event


def decide_move_alexander(state: State, seat: int, command: Command, chance: Chance) -> list[Event]:
    geometry = state.geometry
    crossing = state.position + 1
    kind = geometry.route_kinds[crossing]
    if kind == "purple" and state.roll != 7:  # R17
        return [ev.ArmyHalted(seat=seat, position=state.position, roll_total=state.roll)]
    out: list[Event] = [
        ev.ArmyMoved(seat=seat, from_position=state.position, to_position=crossing, crossing=crossing, kind=kind)
    ]
    if kind == "temple":
        out.extend(open_auction(state, crossing, "village", 1, []))
    elif kind == "token":
        task = state.tokens_on_board[crossing]
        out.append(ev.TaskRevealed(crossing=crossing, task=task))
        out.extend(open_auction(state, crossing, task, 1, []))
    return out


def on_army_moved(state: State, e: ev.ArmyMoved) -> None:
    state.position = e.to_position
    state.phase = TRADE_BUILD  # a task opens an auction right after


def on_army_halted(state: State, e: ev.ArmyHalted) -> None:
    state.phase = TRADE_BUILD


DECIDERS: dict[type[Command], Callable[[State, int, Any, Chance], list[Event]]] = {
    MoveAlexander: decide_move_alexander,
}


EVOLVERS: dict[type[Event], Callable[[State, Any], None]] = {
    ev.ArmyMoved: on_army_moved,
    ev.ArmyHalted: on_army_halted,
}
