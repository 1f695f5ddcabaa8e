"""Rules file 5.1, moving Alexander (R25-R34)."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

from domain.alexandros.commands import MoveAlexander
from domain.alexandros.data import DIST, SIDE_ID, SPACE_CORNERS, SPACE_SYMBOL, parse_point, point_coord, space_coord
from domain.alexandros.events import AlexanderMoved
from domain.alexandros.rules.board import closest_free_spaces, has_free_space, is_free
from domain.alexandros.rules.cards import refill_events
from domain.alexandros.rules.general import point_field, slot_field, space_field, symbol_field
from domain.alexandros.rules.walls import walls_for_route
from domain.alexandros.state import ACTIONS, State
from domain.kernel import Chance, Command, Event, RuleViolation, Seat
from domain.kernel.errors import BAD_INPUT


def move_symbol(state: State, seat: Seat, command: MoveAlexander) -> tuple[str, str, str]:
    """R26/R27: the card used, the move symbol and ``via`` (display, joker or hand)."""
    if command.source == "display":
        return display_move_symbol(state, command)
    if command.source == "hand":
        return hand_move_symbol(state, seat, command)
    raise RuleViolation(BAD_INPUT, f"source must be 'display' or 'hand', not {command.source!r}")


def display_move_symbol(state: State, command: MoveAlexander) -> tuple[str, str, str]:
    """R26 a/b: a face-up card gives its own symbol, or any symbol as a joker when its own has no free space."""
    slot = slot_field(command.slot)
    if command.card is not None:
        raise RuleViolation(BAD_INPUT, "card is only given with source 'hand'; a display card is chosen by slot")
    joker = None if command.joker_symbol is None else symbol_field(command.joker_symbol, "joker_symbol")
    card = state.display[slot]
    if card is None:
        raise RuleViolation("EMPTY_SLOT", f"display slot {slot} is empty")
    if joker is None:
        if not has_free_space(state, card):
            raise RuleViolation(
                "NO_FREE_SPACE", f"no {card} space is free; name a joker_symbol to use this card as a joker (R26 b)"
            )
        return card, card, "display"
    if has_free_space(state, card):
        raise RuleViolation("JOKER_NOT_ALLOWED", f"a {card} space is free, so this card is not a joker")
    if not has_free_space(state, joker):
        raise RuleViolation("NO_FREE_SPACE", f"no {joker} space is free")
    return card, joker, "joker"


def hand_move_symbol(state: State, seat: Seat, command: MoveAlexander) -> tuple[str, str, str]:
    """R26 c: the exceptional move discards a hand card, which is never a joker."""
    if command.slot is not None:
        raise RuleViolation(BAD_INPUT, "slot is only given with source 'display'")
    card = symbol_field(command.card, "card")
    if command.joker_symbol is not None:
        symbol_field(command.joker_symbol, "joker_symbol")
    if state.hands[seat][card] == 0:
        raise RuleViolation("CARD_NOT_IN_HAND", f"you hold no {card} card")
    if command.joker_symbol is not None:
        raise RuleViolation("JOKER_NOT_ALLOWED", "a hand card can never be a joker (R26)")
    if not has_free_space(state, card):
        raise RuleViolation("NO_FREE_SPACE", f"no {card} space is free")
    return card, card, "hand"


def check_route(state: State, corner: int, path: list[int]) -> None:
    """R30/R31: a chain of sides from Alexander's point to the corner, shortest in sides."""
    if not path or path[0] != state.alexander:
        raise RuleViolation("PATH_INVALID", f"the path must start at Alexander's point {point_coord(state.alexander)}")
    if path[-1] != corner:
        raise RuleViolation("PATH_INVALID", f"the path must end at the chosen corner {point_coord(corner)}")
    for a, b in itertools.pairwise(path):
        if (a, b) not in SIDE_ID:
            raise RuleViolation("PATH_INVALID", f"{point_coord(a)} to {point_coord(b)} is not a side of the board")
    distance = DIST[state.alexander][corner]
    if len(path) - 1 > distance:
        raise RuleViolation(
            "PATH_NOT_SHORTEST", f"the path has {len(path) - 1} sides; a shortest route to that corner has {distance}"
        )


def decide_move(state: State, seat: Seat, command: MoveAlexander, chance: Chance) -> list[Event]:
    target = space_field(command.target, "target")
    corner = point_field(command.corner, "corner")
    if not isinstance(command.path, list):
        raise RuleViolation(BAD_INPUT, "path must be a list of points [i,x]")
    path = [point_field(p, "path point") for p in command.path]
    card, symbol, via = move_symbol(state, seat, command)
    if SPACE_SYMBOL[target] != symbol:
        raise RuleViolation("WRONG_SYMBOL", f"{space_coord(target)} does not show a {symbol}")
    if not is_free(state, target):
        raise RuleViolation(
            "TARGET_NOT_FREE", f"{space_coord(target)} is not free (a wall, a governor or Alexander touches it)"
        )
    distance, closest = closest_free_spaces(state, symbol)
    if target not in closest:
        nearest = ", ".join(str(space_coord(s)) for s in closest)
        raise RuleViolation("NOT_CLOSEST", f"the closest free {symbol} spaces are at distance {distance}: {nearest}")
    if corner not in SPACE_CORNERS[target]:
        raise RuleViolation("CORNER_NOT_ON_TARGET", f"{point_coord(corner)} is not a corner of {space_coord(target)}")
    check_route(state, corner, path)
    slot = command.slot if via != "hand" else None
    events: list[Event] = [
        AlexanderMoved(
            seat=seat,
            via=via,
            slot=slot,
            card=card,
            symbol=symbol,
            from_=point_coord(state.alexander),
            target=space_coord(target),
            to=point_coord(corner),
            distance=distance,
            path=[point_coord(p) for p in path],
        )
    ]
    if slot is not None:  # R33: the slot emptied by the move is refilled at once
        events += refill_events(state, chance, [slot])
    events += walls_for_route(state, seat, path)
    return events


def _moved(state: State, e: AlexanderMoved) -> None:
    if e.via == "hand":
        state.hands[e.seat][e.card] -= 1
        state.discard.append(e.card)
    else:
        state.display[e.slot] = None  # type: ignore[index]
        state.hands[e.seat][e.card] += 1
    state.alexander = parse_point(e.to)  # type: ignore[assignment]
    state.step = ACTIONS


DECIDERS: dict[type[Command], Callable[..., list[Event]]] = {
    MoveAlexander: decide_move,
}


EVOLVERS: dict[type[Event], Callable[[State, Any], None]] = {
    AlexanderMoved: _moved,
}
