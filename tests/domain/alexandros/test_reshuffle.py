"""The face-down supply drawn again when the chance changes (a fork, a contribution)."""

from __future__ import annotations

from domain.catalog import GAMES
from tests.support.properties import check_hidden_reshuffle, state_partway

GAME = GAMES.get("alexandros")


def test_only_the_supply_order_changes() -> None:
    before, event, after = check_hidden_reshuffle(GAME, state_partway(GAME, 3, seed=b"hidden"))
    assert sorted(after.supply) == sorted(before.supply) and after.supply != before.supply
    assert after.discard == before.discard and after.reshuffles == before.reshuffles
    assert event.public_form() == {"reason": "reseed", "count": len(before.supply)}
