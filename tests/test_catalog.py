from __future__ import annotations

from domain.catalog import GAME_PACKAGES, GAMES


def test_all_four_games_are_registered() -> None:
    assert set(GAME_PACKAGES) <= set(GAMES.ids())


def test_player_counts_match_the_architecture() -> None:
    expected = {"empire_builder": (2, 5), "peloponnes": (1, 5), "catan_alexander": (3, 4), "alexandros": (2, 4)}
    for game_id, (low, high) in expected.items():
        if game_id in GAMES:
            game = GAMES.get(game_id)
            assert (game.min_players, game.max_players) == (low, high)
