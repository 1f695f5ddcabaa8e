"""Building Empire Builder states for the tests."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from domain.empire_builder import GAME
from domain.empire_builder.commands import AllocateResources, AttemptBuilds, MoveArmies
from domain.empire_builder.state import MOVE, TURNS, State, initial_state
from domain.kernel import Chance, Command, Event, RuleViolation, engine


class ScriptedChance(Chance):
    """A chance source whose lots come out as scripted (``orders``), so tests can state the lot's result."""

    def __init__(self, orders: Iterable[list[int]] = (), seed: bytes = b"scripted") -> None:
        super().__init__(seed)
        self.orders = [list(o) for o in orders]

    def shuffle(self, purpose: str, items: Any) -> list[Any]:
        if self.orders:
            order = self.orders.pop(0)
            assert sorted(order) == sorted(items), f"scripted lot {order} does not fit {list(items)}"
            return order
        return super().shuffle(purpose, items)


def start(players: int, chance: Chance | None = None, **options: Any) -> tuple[State, list[Event]]:
    return engine.start(GAME, players, GAME.normalize_options(players, options), chance or Chance(b"test"))


def run(state: State, seat: int, command: Command, chance: Chance | None = None) -> list[Event]:
    """Execute ``command`` in place (``state`` is changed) and return the events."""
    _, events = engine.execute(GAME, state, seat, command, chance or Chance(b"test"))
    return events


def refused(state: State, seat: int, command: Command) -> str:
    """The refusal code; the state must be left unchanged."""
    import copy

    before = copy.deepcopy(state)
    try:
        engine.execute(GAME, state, seat, command, Chance(b"test"))
    except RuleViolation as violation:
        assert state == before, "a refused command changed the state"
        return violation.code
    raise AssertionError(f"{command} was accepted")


def settle(state: State, chance: Chance | None = None) -> list[Event]:
    """Run the automatic steps due now (e.g. the evaluation after the last turn) in place; return their events."""
    events: list[Event] = []
    engine.settle(GAME, state, chance or Chance(b"test"), events)
    return events


def allocate(state: State, splits: dict[int, tuple[int, int, int, int]], chance: Chance | None = None) -> list[Event]:
    events: list[Event] = []
    for seat, split in splits.items():
        events += run(state, seat, AllocateResources(*split), chance)
    return events


def at_turn(
    players: int,
    campaign: int,
    round_: int,
    active: int,
    boxes: dict[int, tuple[int, int]] | None = None,
    armies: dict[int, dict[str, int]] | None = None,
    order: list[int] | None = None,
    **options: Any,
) -> State:
    """A state in ``campaign``/``round_`` with ``active`` about to move; boxes are (temples, cities)."""
    state = initial_state(players, GAME.normalize_options(players, options))
    state.phase = TURNS
    state.campaign = campaign
    state.round = round_
    state.order = order or list(range(players))
    state.position = state.order.index(active)
    state.step = MOVE
    for seat, (temples, cities) in (boxes or {}).items():
        state.seats[seat].temples, state.seats[seat].cities = temples, cities
    for seat, where in (armies or {}).items():
        state.seats[seat].at = dict(where)
        state.seats[seat].armies = sum(where.values())
    return state


def at_evaluation(
    players: int,
    campaign: int,
    round_: int,
    boxes: dict[int, tuple[int, int]],
    armies: dict[int, dict[str, int]],
    attempts: list[tuple[str, str, int]],
    **options: Any,
) -> State:
    """The last seat's turn just ended: the next ``advance`` runs the evaluation."""
    state = at_turn(players, campaign, round_, players - 1, boxes, armies, **options)
    state.step = "done"
    state.attempts = list(attempts)
    return state


def move(groups: list[tuple[str, int, list[str]]], pay: tuple[int, int] = (0, 0)) -> MoveArmies:
    return MoveArmies([{"from": f, "count": c, "path": list(p)} for f, c, p in groups], *pay)


def builds(*attempts: tuple[str, str]) -> AttemptBuilds:
    return AttemptBuilds([{"province": p, "kind": k} for p, k in attempts])
