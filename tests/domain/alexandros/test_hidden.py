"""The face-down supply drawn again when the chance changes (a fork, a contribution)."""

from __future__ import annotations

import copy

from domain.catalog import GAMES
from domain.kernel import Chance
from tests.support.properties import play_recorded_game

GAME = GAMES.get("alexandros")


def test_only_the_supply_order_changes() -> None:
    played, records = play_recorded_game(GAME, 3, seed=b"hidden")
    state = GAME.initial_state(3, played.options)
    for record in records[: len(records) // 3]:
        if record.type in GAME.event_types:
            state = GAME.evolve(state, played.event_of(record))
    before = copy.deepcopy(state)
    (event,) = GAME.reshuffle_hidden(state, Chance(b"new"))
    after = GAME.evolve(state, event)
    assert sorted(after.supply) == sorted(before.supply) and after.supply != before.supply
    assert after.discard == before.discard and after.reshuffles == before.reshuffles
    assert event.public_form() == {"reason": "reseed", "count": len(before.supply)}
    assert event.viewers() == frozenset()
