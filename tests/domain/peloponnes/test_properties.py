"""Property tests: random bots finish every player count and solo level; replay, verification, views."""

from __future__ import annotations

import copy

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.kernel import Chance
from domain.kernel.log import for_viewer
from domain.peloponnes import GAME
from tests.domain.peloponnes.helpers import partly_played
from tests.support.properties import (
    check_legal_moves_accepted,
    check_record_verifies,
    check_replay_rebuilds,
    check_views_are_json,
    play_recorded_game,
)

PLAYER_COUNTS_AND_OPTIONS = [(1, {"solo_level": level}) for level in range(1, 6)] + [(n, {}) for n in range(2, 6)]


@settings(max_examples=15, deadline=None)
@given(seed=st.binary(min_size=1, max_size=8), setup=st.sampled_from(PLAYER_COUNTS_AND_OPTIONS))
def test_random_bots_finish_and_the_record_replays_and_verifies(seed: bytes, setup: tuple[int, dict]) -> None:
    players, options = setup
    match, records = play_recorded_game(GAME, players, options, seed=seed, bot_seed=seed + b"bot")
    assert records[-1].type == "GameEnded"
    check_replay_rebuilds(GAME, match, records)
    check_record_verifies(GAME, records)
    check_views_are_json(GAME, match.state, players)


@settings(max_examples=4, deadline=None)
@given(seed=st.binary(min_size=1, max_size=8), players=st.sampled_from([1, 3, 5]))
def test_every_listed_move_is_accepted_along_a_game(seed: bytes, players: int) -> None:
    options = {"solo_level": 4} if players == 1 else {}
    play_recorded_game(GAME, players, options, seed=seed, check_each_move=True)


@settings(max_examples=20, deadline=None)
@given(seed=st.binary(min_size=1, max_size=8), players=st.integers(min_value=2, max_value=5))
def test_final_scores_recomputed_from_public_events(seed: bytes, players: int) -> None:
    """The last ``after`` of each seat and its tiles, read from public records only, give the final scores."""
    from domain.peloponnes.data import TILES

    _match, records = play_recorded_game(GAME, players, {}, seed=seed)
    public = [for_viewer(r, None, reveal_all=False) for r in records]
    counters: dict[int, dict[str, int]] = {}
    tiles: dict[int, list[str]] = {s: [] for s in range(players)}
    for r in public:
        data = r["data"]
        if "after" in data:
            counters[data["seat"]] = data["after"]
        if r["type"] in ("BuildingPlaced", "LandPlaced"):
            tiles[data["seat"]].append(data["tile_id"])
        if r["type"] == "DisasterResolved":
            for t in data["removed_tiles"]:
                tiles[data["seat"]].remove(t)
        if r["type"] == "SupplyResolved":
            for t in data["abandoned"]:
                tiles[data["seat"]].remove(t)
    ended = public[-1]["data"]
    for result in ended["results"]:
        seat = result["seat"]
        prestige = sum(TILES[t].prestige for t in tiles[seat]) + counters[seat]["coins"] // 3
        population_points = 3 * counters[seat]["population"]
        assert result["final"] == min(prestige, population_points)
        assert result["luxury"] == counters[seat]["luxury"]


def test_views_and_moves_do_not_depend_on_the_undrawn_order() -> None:
    """Hidden information is only the order of undrawn tiles/chits: reordering what is left changes nothing."""
    state = partly_played(3, 6, seed=b"hidden")
    other = copy.deepcopy(state)
    for stack in other.stacks.values():
        stack.reverse()
    other.chits.reverse()
    for viewer in [None, 0, 1, 2]:
        assert GAME.view(state, viewer) == GAME.view(other, viewer)
    for seat in GAME.awaited(state):
        assert GAME.legal_moves(state, seat, Chance(b"m")) == GAME.legal_moves(other, seat, Chance(b"m"))
    check_legal_moves_accepted(GAME, state, next(iter(GAME.awaited(state))), Chance(b"x"))
