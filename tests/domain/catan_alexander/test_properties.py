"""Properties of Catan only (the ones every game has are in ``tests/domain/test_conformance.py``)."""

from __future__ import annotations

from domain.catan_alexander import GAME
from domain.catan_alexander.data import TOKEN_CROSSINGS
from domain.kernel.log import for_viewer
from tests.support.properties import play_recorded_game


def test_the_stacks_are_sealed_for_everybody() -> None:
    """§8: the shuffled supply stack, development deck and token order are in no seat's view."""
    _match, records = play_recorded_game(GAME, 4, {}, seed=b"sealed")
    sealed = next(r for r in records if r.type == "StacksShuffled")
    assert sealed.viewers == []
    assert sealed.public == {"sealed_for": []}
    for viewer in range(4):
        assert for_viewer(sealed, viewer, reveal_all=False)["data"] == {"sealed_for": []}
    assert len(TOKEN_CROSSINGS) == 25
