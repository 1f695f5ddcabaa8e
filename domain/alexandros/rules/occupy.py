"""Rules file 5.5 and 5.6, occupy an unoccupied province or take over an occupied one (R48-R56)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from domain.alexandros.commands import OccupyProvince
from domain.alexandros.data import SPACE_SYMBOL, parse_space, space_coord
from domain.alexandros.events import ProvinceOccupied
from domain.alexandros.rules.board import province_spaces
from domain.alexandros.rules.general import require_action_left, space_field, symbol_field
from domain.alexandros.state import NOBODY, State
from domain.kernel import Chance, Command, Event, RuleViolation, Seat
from domain.kernel.errors import BAD_INPUT, BrokenInvariant


def takeover_costs(
    state: State, members: list[int], governor_spaces: set[int]
) -> tuple[list[int], list[str], list[str]]:
    """R50/R53: the governors to evict, the eviction cards (2 per governor, of its space's symbol)
    and the occupation cards (1 per symbol space without a new governor), all in space order."""
    evicted = [s for s in members if state.governors[s] != NOBODY]
    eviction_cards = [SPACE_SYMBOL[s] for s in evicted for _ in range(2)]
    occupation_cards = [SPACE_SYMBOL[s] for s in members if SPACE_SYMBOL[s] is not None and s not in governor_spaces]
    return evicted, eviction_cards, occupation_cards  # type: ignore[return-value]


def compensation_size(cards_paid: int) -> int:
    """Ruling R56: half of all cards paid in a take-over, rounded up."""
    return (cards_paid + 1) // 2


def can_pay(hand: dict[str, int], cards: list[str]) -> bool:
    return all(hand[sym] >= n for sym, n in Counter(cards).items())


def governor_spaces(command: OccupyProvince) -> list[int]:
    """R49/R11: the listed spaces, each a different symbol space."""
    if not isinstance(command.governors, list) or not command.governors:
        raise RuleViolation(BAD_INPUT, "governors must list at least one symbol space [r,c]")
    spaces = [space_field(g, "governor space") for g in command.governors]
    for s in spaces:
        if SPACE_SYMBOL[s] is None:
            raise RuleViolation(
                "NOT_SYMBOL_SPACE", f"{space_coord(s)} is an open space; governors stand on symbol spaces"
            )
    if len(set(spaces)) != len(spaces):
        raise RuleViolation("DUPLICATE_SPACE", "each governor needs a different symbol space")
    return spaces


def takeover_record(
    occupants: set[int], evicted: list[int], eviction_cards: list[str], paid: list[str], compensation: list[str]
) -> dict[str, Any] | None:
    """R52-R56: None for an occupation; for a take-over, the evicted seat, its governors, the eviction
    cards and the compensation, which must be exactly half (rounded up) of all cards paid."""
    if not evicted:
        if compensation:
            raise RuleViolation(
                "COMPENSATION_NOT_ALLOWED", "compensation is only paid when taking over an occupied province"
            )
        return None
    owed = compensation_size(len(paid))
    if len(compensation) != owed or Counter(compensation) - Counter(paid):
        raise RuleViolation(
            "BAD_COMPENSATION",
            f"give exactly {owed} of the {len(paid)} cards paid ({', '.join(paid)}) as compensation (R56)",
        )
    if len(occupants) != 1:
        raise BrokenInvariant(f"R11: a province holds governors of seats {sorted(occupants)}")
    (from_seat,) = occupants
    return {
        "from_seat": from_seat,
        "evicted": [space_coord(s) for s in evicted],
        "eviction_cards": eviction_cards,
        "compensation": compensation,
    }


def decide_occupy(state: State, seat: Seat, command: OccupyProvince, chance: Chance) -> list[Event]:
    require_action_left(state)
    if not isinstance(command.compensation, list):
        raise RuleViolation(BAD_INPUT, "compensation must be a list of symbols")
    compensation = [symbol_field(c, "compensation card") for c in command.compensation]
    spaces = governor_spaces(command)
    if len({state.province[s] for s in spaces}) > 1:
        raise RuleViolation("SPACES_IN_DIFFERENT_PROVINCES", "all governor spaces must lie in one province")
    members = province_spaces(state, spaces[0])
    occupants = {state.governors[s] for s in members} - {NOBODY}
    if seat in occupants:
        raise RuleViolation("OWN_PROVINCE", "you already occupy this province (R51)")
    if len(spaces) > state.governor_supply[seat]:
        raise RuleViolation(
            "NOT_ENOUGH_GOVERNORS", f"you have {state.governor_supply[seat]} governors in supply, not {len(spaces)}"
        )
    evicted, eviction_cards, occupation_cards = takeover_costs(state, members, set(spaces))
    paid = eviction_cards + occupation_cards
    if not can_pay(state.hands[seat], paid):
        needed = ", ".join(f"{n} {sym}" for sym, n in sorted(Counter(paid).items()))
        raise RuleViolation("NOT_ENOUGH_CARDS", f"this costs {needed}")
    return [
        ProvinceOccupied(
            seat=seat,
            province=[space_coord(s) for s in members],
            governors=[space_coord(s) for s in spaces],
            cards_paid=occupation_cards,
            takeover=takeover_record(occupants, evicted, eviction_cards, paid, compensation),
        )
    ]


def _discard_rest(state: State, paid: list[str], kept: list[str]) -> None:
    rest = list(paid)
    for card in kept:
        rest.remove(card)
    state.discard.extend(rest)


def _occupied(state: State, e: ProvinceOccupied) -> None:
    hand = state.hands[e.seat]
    paid = list(e.cards_paid)
    if e.takeover is not None:
        paid = list(e.takeover["eviction_cards"]) + paid
        from_seat = e.takeover["from_seat"]
        for coord in e.takeover["evicted"]:
            state.governors[parse_space(coord)] = NOBODY  # type: ignore[index]
            state.governor_supply[from_seat] += 1
        for card in e.takeover["compensation"]:
            state.hands[from_seat][card] += 1
        kept = list(e.takeover["compensation"])
    else:
        kept = []
    for card in paid:
        hand[card] -= 1
    _discard_rest(state, paid, kept)
    for coord in e.governors:
        state.governors[parse_space(coord)] = e.seat  # type: ignore[index]
        state.governor_supply[e.seat] -= 1
    state.actions_taken += 1
    others = [c for c in e.province if state.governors[parse_space(c)] not in (NOBODY, e.seat)]  # type: ignore[index]
    if others:
        raise BrokenInvariant(f"R11: province {e.province} holds governors of seat {e.seat} and others at {others}")


DECIDERS: dict[type[Command], Callable[..., list[Event]]] = {
    OccupyProvince: decide_occupy,
}


EVOLVERS: dict[type[Event], Callable[[State, Any], None]] = {
    ProvinceOccupied: _occupied,
}
