"""The face-down stacks drawn again when the chance changes (a fork, a contribution)."""

from __future__ import annotations

from domain.catalog import GAMES
from domain.catan_alexander.data import TOKEN_CROSSINGS
from tests.support.properties import check_hidden_reshuffle, state_partway

GAME = GAMES.get("catan_alexander")


def test_only_the_undrawn_order_changes() -> None:
    before, event, after = check_hidden_reshuffle(GAME, state_partway(GAME, 3, seed=b"hidden"))
    assert sorted(after.dev_deck) == sorted(before.dev_deck) and after.dev_deck != before.dev_deck
    assert sorted(after.supply) == sorted(before.supply)
    assert set(after.tokens_on_board) == set(before.tokens_on_board)
    assert sorted(after.tokens_on_board.values()) == sorted(before.tokens_on_board.values())
    laid = len(TOKEN_CROSSINGS)
    assert after.token_order[laid:] == before.token_order[laid:], "tokens set aside stay set aside"
    laid_before = dict(zip(TOKEN_CROSSINGS, before.token_order, strict=False))
    for crossing, task in zip(TOKEN_CROSSINGS, after.token_order, strict=False):
        assert task == after.tokens_on_board.get(crossing, laid_before[crossing]), "a claimed token keeps its task"
    assert "dev_deck" not in event.public_form()
