"""Rules file 5.7, levy taxes (R57-R60)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.alexandros.commands import LevyTaxes
from domain.alexandros.data import IS_OPEN, SYMBOL_SPACES, space_coord
from domain.alexandros.events import TaxesLevied
from domain.alexandros.rules.general import require_action_left, symbol_field
from domain.alexandros.state import NOBODY, State
from domain.kernel import Chance, Command, Event, RuleViolation, Seat


def tax_scoring(state: State, levier: Seat) -> tuple[list[int], list[dict[str, Any]]]:
    """R58: every province with exactly one governor pays its value to that governor's owner;
    seats score from the levier on, clockwise."""
    governors_in: dict[int, list[int]] = {}
    for s, owner in enumerate(state.governors):
        if owner != NOBODY:
            governors_in.setdefault(state.province[s], []).append(s)
    singles = {label: spaces[0] for label, spaces in governors_in.items() if len(spaces) == 1}
    values = dict.fromkeys(singles, 0)
    for s, label in enumerate(state.province):
        if label in values and IS_OPEN[s]:
            values[label] += 1
    points = [0] * state.players
    scored: list[dict[str, Any]] = []
    by_seat: dict[int, list[tuple[int, int]]] = {}
    for label, governor in singles.items():
        by_seat.setdefault(state.governors[governor], []).append((governor, values[label]))
    for k in range(state.players):
        owner = (levier + k) % state.players
        for governor, value in sorted(by_seat.get(owner, [])):
            points[owner] += value
            scored.append({"seat": owner, "governor": space_coord(governor), "value": value})
    return points, scored


def decide_levy(state: State, seat: Seat, command: LevyTaxes, chance: Chance) -> list[Event]:
    card = symbol_field(command.card, "card")  # a malformed field first, as for every command
    require_action_left(state)
    if state.levied:
        raise RuleViolation("ALREADY_LEVIED", "taxes are levied at most once per turn (R43)")
    if state.hands[seat][card] == 0:
        raise RuleViolation("CARD_NOT_IN_HAND", f"you hold no {card} card")
    if not any(state.governors[s] == seat for s in SYMBOL_SPACES[card]):
        raise RuleViolation("NO_MATCHING_GOVERNOR", f"none of your governors stands on a {card} space (R57)")
    points, scored = tax_scoring(state, seat)
    scores = [score + gain for score, gain in zip(state.scores, points, strict=True)]
    return [TaxesLevied(seat=seat, card=card, points=points, scores=scores, scored=scored)]


def _levied(state: State, e: TaxesLevied) -> None:
    state.hands[e.seat][e.card] -= 1
    state.discard.append(e.card)
    state.scores = list(e.scores)
    state.levied = True
    state.actions_taken += 1


DECIDERS: dict[type[Command], Callable[..., list[Event]]] = {
    LevyTaxes: decide_levy,
}


EVOLVERS: dict[type[Event], Callable[[State, Any], None]] = {
    TaxesLevied: _levied,
}
