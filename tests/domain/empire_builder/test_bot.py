"""The Empire Builder bots' view of a position: what the evaluation weighs."""

from __future__ import annotations

from domain.empire_builder import GAME
from domain.empire_builder.bot import evaluate
from domain.empire_builder.commands import AllocateResources
from domain.empire_builder.state import ALLOCATION
from domain.kernel import Chance, engine
from domain.kernel.sampling import clone_state
from tests.domain.empire_builder.helpers import allocate, start


def test_temple_and_city_cubes_are_worth_nothing_without_an_army_to_use_them() -> None:
    state, _ = start(3)
    with_army, without = clone_state(state), clone_state(state)
    allocate(with_army, {0: (0, 1, 7, 7), 1: (5, 5, 5, 0), 2: (5, 5, 5, 0)})
    allocate(without, {0: (1, 0, 7, 7), 1: (5, 5, 5, 0), 2: (5, 5, 5, 0)})
    assert evaluate(with_army)[0] > evaluate(without)[0]
    # without an army, 14 cubes of money are worth no more than none at all
    idle = clone_state(state)
    allocate(idle, {0: (15, 0, 0, 0), 1: (5, 5, 5, 0), 2: (5, 5, 5, 0)})
    assert evaluate(without)[0] == evaluate(idle)[0]


def test_a_sealed_allocation_is_judged_by_the_boxes_it_will_fill() -> None:
    state, _ = start(3)
    assert state.phase == ALLOCATION
    armed, bare = clone_state(state), clone_state(state)
    chance = Chance(b"sealed")
    for sample, split in ((armed, (0, 5, 5, 5)), (bare, (0, 0, 10, 5))):
        engine.execute(GAME, sample, 0, AllocateResources(*split), chance)
        assert sample.phase == ALLOCATION and 0 in sample.sealed  # sealed, not yet revealed
    assert evaluate(armed)[0] > evaluate(bare)[0]
