"""Every game's definition is read from its package's one layout (docs/games.md)."""

from __future__ import annotations

import importlib

import pytest

from domain.catalog import GAME_PACKAGES, GAMES
from domain.kernel.layout import OPTIONAL_PARTS, game_of_package


@pytest.mark.parametrize("game_id", GAME_PACKAGES)
def test_each_part_of_a_game_is_the_one_its_layout_module_holds(game_id: str) -> None:
    game = GAMES.get(game_id)
    module = lambda name: importlib.import_module(f"domain.{game_id}.{name}")  # noqa: E731
    assert game.id == game_id
    assert game.initial_state is module("state").initial_state
    assert game.decide is module("rules").decide and game.awaited is module("rules").awaited
    assert game.legal_moves is module("moves").legal_moves and game.view is module("views").view
    assert game.facts is module("facts").FACTS and game.commands is module("commands").COMMANDS
    for field, module_name, name in OPTIONAL_PARTS:
        try:
            part = getattr(module(module_name), name, None)
        except ModuleNotFoundError:
            part = None
        if part is not None:
            assert getattr(game, field) is part, (game_id, field)


def test_a_package_that_leaves_the_layout_fails_with_the_part_it_lacks() -> None:
    with pytest.raises(ImportError, match=r"tests\.kernel has no module 'state'"):
        game_of_package("tests.kernel", title="Not a game", min_players=1, max_players=2)
