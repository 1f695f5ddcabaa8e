"""Building Peloponnes states for the tests."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any, TypeVar

from domain.kernel import Chance, Command, Event, RuleViolation, engine
from domain.peloponnes import GAME
from domain.peloponnes.state import AUCTION, BIDDING, CONQUEST, DISASTER, PLACEMENT, SUPPLY, Building, Slot, State

E = TypeVar("E", bound=Event)


class TopOfPile(Chance):
    """Every tile and chit draw takes the first of what is left, so a test lays out the order of a stack
    (``state.stacks``) or of the chit pile (``state.chits``) from the top."""

    def below(self, purpose: str, n: int) -> int:
        if purpose.startswith("stack:") or purpose == "disasters":
            self.counters[purpose] = self.counters.get(purpose, 0) + 1
            return 0
        return super().below(purpose, n)


def table(players: int = 3, round_: int = 1, civs: list[str] | None = None, order: list[int] | None = None) -> State:
    """A game in round ``round_`` with civilizations dealt and every counter at 0 (tests set what they need)."""
    state = GAME.initial_state(players, {"solo_level": 1} if players == 1 else {})
    for seat, civ in enumerate(civs or ["messene", "patras", "arkadia", "korinth", "sparta"][:players]):
        state.seats[seat].civilization = civ
    state.turn_order = list(order) if order is not None else list(range(players))
    state.round = round_
    state.auction_slots = min(players, 5)
    return state


def seat(state: State, index: int, **fields: Any) -> None:
    """Set counters and rows of a seat; ``buildings`` as tile ids, marked ones as "B01*"."""
    s = state.seats[index]
    for name, value in fields.items():
        if name == "buildings":
            s.buildings = [Building(t.rstrip("*"), t.endswith("*")) for t in value]
        else:
            setattr(s, name, value)


def bidding(state: State, auction: Sequence[str], conquest: Sequence[str] = ()) -> State:
    """The display laid out and the bidding begun (turn_order[0] to act)."""
    state.display = [Slot(t, AUCTION) for t in auction] + [Slot(t, CONQUEST) for t in conquest]
    for slot in state.display:
        stack = state.stacks[slot.tile_id[0]]
        if slot.tile_id in stack:
            stack.remove(slot.tile_id)
    state.auction_slots = len(auction)
    state.phase = BIDDING
    state.turn_index = 0
    return state


def run(state: State, seat_: int, command: Command, chance: Chance | None = None) -> tuple[State, list[Event]]:
    """Execute a command on a copy of ``state`` (the original stays usable for other tries)."""
    return engine.execute(GAME, copy.deepcopy(state), seat_, command, chance or Chance(b"run"))


def refused(state: State, seat_: int, command: Command) -> str:
    """The error code of a refused command."""
    try:
        run(state, seat_, command)
    except RuleViolation as violation:
        return violation.code
    raise AssertionError(f"{command} was accepted")


def settle(state: State, chance: Chance | None = None) -> tuple[State, list[Event]]:
    events: list[Event] = []
    state = engine.settle(GAME, copy.deepcopy(state), chance or Chance(b"settle"), events)
    return state, events


def placing(state: State, awards: dict[int, str]) -> State:
    """Step d about to run with these tiles won."""
    for s, tile_id in awards.items():
        state.seats[s].won = tile_id
    state.phase = PLACEMENT
    state.pending = [s for s in state.turn_order if s in awards]
    return state


def striking(state: State, disaster: str) -> State:
    """``disaster`` has just struck (the round's first chit)."""
    state.phase = DISASTER
    state.strike = disaster
    state.draws = 1
    state.pending = list(state.turn_order)
    return state


def supplying(state: State, trigger: str = "tile") -> State:
    """A supply round has just started."""
    state.phase = SUPPLY
    state.supply_trigger = trigger
    state.pending = list(state.turn_order)
    return state
