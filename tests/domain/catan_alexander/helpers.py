"""Building Catan "Alexander the Great" states for the tests."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from domain.catan_alexander import GAME
from domain.catan_alexander.commands import PassBid, PlaceBid
from domain.catan_alexander.data import RESOURCE_INDEX
from domain.catan_alexander.rules import recompute_road_lengths, use_harbour
from domain.catan_alexander.state import State
from domain.kernel import Chance, Command, Event, RuleViolation, engine


class Loaded(Chance):
    """Dice come from ``dice`` in order; steals pick index ``steal_index``; everything else is seeded."""

    def __init__(self, dice: list[int] | None = None, steal_index: int = 0, seed: bytes = b"loaded") -> None:
        super().__init__(seed)
        self.dice = list(dice or [])
        self.steal_index = steal_index

    def below(self, purpose: str, n: int) -> int:
        if purpose.startswith("dice:") and self.dice:
            self.counters[purpose] = self.counters.get(purpose, 0) + 1
            first, second = self.dice.pop(0), self.dice.pop(0)
            return (first - 1) * 6 + second - 1
        if purpose.startswith("steal:"):
            self.counters[purpose] = self.counters.get(purpose, 0) + 1
            return min(self.steal_index, n - 1)
        return super().below(purpose, n)


def start_events(players: int = 4, options: dict[str, Any] | None = None, seed: bytes = b"seed") -> list[Event]:
    chance = Chance(seed)
    _, events = engine.start(GAME, players, GAME.normalize_options(players, dict(options or {})), chance)
    return events


def run(state: State, seat: int, command: Command, chance: Chance | None = None) -> list[Event]:
    """Execute ``command`` for ``seat`` (in place) and return the events."""
    new_state, events = engine.execute(GAME, state, seat, command, chance or Chance(b"run"))
    assert new_state is state
    return events


def refused(state: State, seat: int, command: Command, code: str, chance: Chance | None = None) -> None:
    """``command`` is refused with ``code`` and changes nothing."""
    before = repr(state)
    with pytest.raises(RuleViolation) as caught:
        run(state, seat, command, chance)
    assert caught.value.code == code, caught.value
    assert repr(state) == before, "a refused command changed the state"


def bids(state: State, moves: list[tuple[int, int | None]]) -> list[Event]:
    """Run (seat, amount) bids in order; None passes."""
    out: list[Event] = []
    for seat, amount in moves:
        out += run(state, seat, PassBid() if amount is None else PlaceBid(amount=amount))
    return out


def set_hand(state: State, seat: int, gold: int | None = None, **cards: int) -> None:
    """Give ``seat`` exactly these resource cards (and gold if given)."""
    state.hands[seat] = [0] * 5
    for name, count in cards.items():
        state.hands[seat][RESOURCE_INDEX[name]] = count
    if gold is not None:
        state.gold[seat] = gold


def set_bank(state: State, gold: int | None = None, **cards: int) -> None:
    state.bank = [0] * 5
    for name, count in cards.items():
        state.bank[RESOURCE_INDEX[name]] = count
    if gold is not None:
        state.gold_supply = gold


def build(state: State, seat: int, vertex: str, city: bool = False) -> None:
    """Put a settlement (or city) of ``seat`` on ``vertex`` without paying."""
    v = state.geometry.vertex_index[vertex]
    state.owner[v] = seat
    state.level[v] = 2 if city else 1
    state.buildings_of[seat].append(v)
    state.add_producer(v)
    use_harbour(state, seat, v)
    if city:
        state.cities[seat] += 1
    else:
        state.settlements[seat] += 1
    recompute_road_lengths(state, range(state.players))


def road(state: State, seat: int, a: str, b: str) -> None:
    geometry = state.geometry
    edge = geometry.edge_between(geometry.vertex_index[a], geometry.vertex_index[b])
    assert edge is not None, f"{a}-{b} is not a path"
    state.road_owner[edge] = seat
    state.roads_of[seat].append(edge)
    state.roads[seat] += 1
    recompute_road_lengths(state, range(state.players))


def road_chain(state: State, seat: int, vertices: list[str]) -> None:
    for a, b in itertools.pairwise(vertices):
        road(state, seat, a, b)


def turn(state: State, seat: int, phase: str, number: int = 5, roll: int | None = None) -> None:
    state.active = seat
    state.phase = phase
    state.turn = number
    state.roll = roll
