from __future__ import annotations

import subprocess
import sys

from domain.catalog import GAME_PACKAGES, GAMES


def test_all_four_games_are_registered() -> None:
    assert set(GAME_PACKAGES) <= set(GAMES.ids())
    assert [game.id for game in GAMES.all()] == GAMES.ids()  # each package's GAME is the game its name says


def test_player_counts_match_the_architecture() -> None:
    expected = {"empire_builder": (2, 5), "peloponnes": (1, 5), "catan_alexander": (3, 4), "alexandros": (2, 4)}
    for game_id, (low, high) in expected.items():
        if game_id in GAMES:
            game = GAMES.get(game_id)
            assert (game.min_players, game.max_players) == (low, high)


def test_a_game_is_imported_when_it_is_first_asked_for() -> None:
    probe = (
        "import sys\n"
        "from domain.catalog import GAMES\n"
        "assert 'peloponnes' in GAMES and len(GAMES.ids()) >= 4\n"
        "assert not [m for m in sys.modules if m.startswith(('domain.peloponnes', 'domain.alexandros'))]\n"
        "assert GAMES.get('peloponnes').id == 'peloponnes'\n"
        "assert 'domain.peloponnes' in sys.modules and 'domain.alexandros' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", probe], check=True)
