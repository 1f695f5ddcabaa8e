"""The undealt civilizations after a fork, and provisional live scores."""

from __future__ import annotations

from domain.kernel.bots import RandomBot
from domain.kernel.chance import Chance
from domain.kernel.match import Match
from domain.peloponnes import GAME
from domain.peloponnes.data import CIVILIZATION_IDS
from domain.peloponnes.scoring import scoreboard
from tests.domain.peloponnes.helpers import seat, table
from tests.support.properties import play_recorded_game


def play_on(match: Match, bot_seed: bytes) -> None:
    bot = RandomBot(bot_seed)
    while not match.is_over:
        turn = bot.choose_seat(list(GAME.awaited(match.state)))
        match.execute(turn, bot.choose(GAME, match.state, turn))


def test_a_fork_shows_the_civilizations_its_deal_left_out() -> None:
    original, records = play_recorded_game(GAME, 3, seed=b"original")
    version = 40
    at = Match(GAME, 3, original.options, Chance(b"original"))
    for record in records[:version]:
        at.apply_record(record)
    for new_seed in (b"fork-1", b"fork-2", b"fork-3"):
        fork, _ = Match.fork(at, records[:version], new_seed, {"game_id": "x", "version": version, "fingerprint": ""})
        play_on(fork, b"fork-bot")
        dealt = {s["civilization"] for s in GAME.view(fork.state, None)["seats"]}
        shown = GAME.view(fork.state, None)["undealt_civilizations"]
        assert sorted(set(CIVILIZATION_IDS) - dealt) == shown
    dealt = {s["civilization"] for s in GAME.view(original.state, None)["seats"]}
    assert GAME.view(original.state, None)["undealt_civilizations"] == sorted(set(CIVILIZATION_IDS) - dealt)


def test_live_scores_counting_unfinished_buildings_are_provisional() -> None:
    state = table(3)
    seat(state, 0, population=9, coins=0, buildings=["A11*"])
    seat(state, 1, population=9, coins=0, buildings=["A11"])
    board = scoreboard(state)
    assert not board.final
    results = board.details["results"]
    assert results[0]["provisional"] is True and results[0]["unfinished_prestige"] > 0
    assert results[1]["provisional"] is False and results[1]["unfinished_prestige"] == 0
    assert board.details["provisional"] == [0]


def test_final_scores_are_not_marked() -> None:
    match, _ = play_recorded_game(GAME, 3, seed=b"final")
    board = scoreboard(match.state)
    assert board.final and all("provisional" not in r for r in board.details["results"])
