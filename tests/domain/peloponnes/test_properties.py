"""Property tests: random bots finish every player count and solo level; replay, verification, hidden
information and scores from public events."""

from __future__ import annotations

import copy

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.kernel import Chance
from domain.kernel.log import for_viewer
from domain.peloponnes import GAME
from domain.peloponnes.data import CAPS, TILES
from domain.peloponnes.state import State
from tests.domain.peloponnes.helpers import partly_played
from tests.support.properties import (
    check_legal_moves_accepted,
    check_record_verifies,
    check_replay_rebuilds,
    check_views_are_json,
    play_recorded_game,
    states_along,
)

SETUPS = [(1, {"solo_level": level}) for level in range(1, 6)] + [(n, {}) for n in range(2, 6)]


def check_invariants(state: State) -> None:
    """R1 (bounds and caps), every tile in exactly one place, pending seats are seats."""
    for s in state.seats:
        counters = s.counters()
        assert min(counters.values()) >= 0, counters
        assert all(counters[good] <= cap for good, cap in CAPS.items()), counters
    places = [t for stack in state.stacks.values() for t in stack]
    places += [slot.tile_id for slot in state.display] + list(state.box)
    for s in state.seats:
        places += [b.tile_id for b in s.buildings] + list(s.lands) + ([s.won] if s.won else [])
    assert sorted(places) == sorted(TILES), "a tile is lost or in two places"
    assert len(state.chits) + len(state.box_chits) + sum(state.chits_on_tile.values()) == 16
    assert set(state.pending) <= set(range(state.players))


@settings(max_examples=60, deadline=None)
@given(seed=st.binary(min_size=1, max_size=8), setup=st.sampled_from(SETUPS))
def test_random_bots_finish_and_the_record_replays_and_verifies(seed: bytes, setup: tuple[int, dict]) -> None:
    players, options = setup
    match, records = play_recorded_game(GAME, players, options, seed=seed, bot_seed=seed + b"bot")
    assert records[-1].type == "GameEnded"
    check_replay_rebuilds(GAME, match, records)
    check_record_verifies(GAME, records)
    check_views_are_json(GAME, match.state, players)
    for state in states_along(GAME, match, records):
        check_invariants(state)


@settings(max_examples=12, deadline=None)
@given(seed=st.binary(min_size=1, max_size=8), setup=st.sampled_from(SETUPS))
def test_every_listed_move_is_accepted_along_a_game(seed: bytes, setup: tuple[int, dict]) -> None:
    players, options = setup
    play_recorded_game(GAME, players, options, seed=seed, check_each_move=True)


@settings(max_examples=30, deadline=None)
@given(seed=st.binary(min_size=1, max_size=8), setup=st.sampled_from(SETUPS))
def test_final_scores_recomputed_from_public_events(seed: bytes, setup: tuple[int, dict]) -> None:
    """The last ``after`` of each seat and its tiles, read from public records only, give the final scores."""
    players, options = setup
    _match, records = play_recorded_game(GAME, players, options, seed=seed)
    public = [for_viewer(r, None, reveal_all=False) for r in records]
    counters: dict[int, dict[str, int]] = {}
    tiles: dict[int, list[str]] = {s: [] for s in range(players)}
    for r in public:
        data = r["data"]
        if "after" in data:
            counters[data["seat"]] = data["after"]
        if r["type"] in ("BuildingPlaced", "LandPlaced"):
            tiles[data["seat"]].append(data["tile_id"])
        elif r["type"] == "DisasterResolved":
            for t in data["removed_tiles"]:
                tiles[data["seat"]].remove(t)
        elif r["type"] == "SupplyResolved":
            for t in data["abandoned"]:
                tiles[data["seat"]].remove(t)
    ended = public[-1]["data"]
    for result in ended["results"]:
        seat = result["seat"]
        prestige = sum(TILES[t].prestige for t in tiles[seat]) + counters[seat]["coins"] // 3
        population_points = 3 * counters[seat]["population"]
        assert result["final"] == min(prestige, population_points)
        assert result["luxury"] == counters[seat]["luxury"]


@settings(max_examples=30, deadline=None)
@given(
    seed=st.binary(min_size=1, max_size=8),
    setup=st.sampled_from(SETUPS),
    commands=st.integers(min_value=0, max_value=80),
    reorder=st.randoms(use_true_random=False),
)
def test_views_and_moves_do_not_depend_on_the_undrawn_order(
    seed: bytes, setup: tuple[int, dict], commands: int, reorder: object
) -> None:
    """Hidden from everyone: the order of undrawn tiles and chits. Reordering what is left changes no view
    and no legal move of any seat."""
    players, options = setup
    state = partly_played(players, commands, seed=seed, options=options)
    other = copy.deepcopy(state)
    for stack in other.stacks.values():
        reorder.shuffle(stack)  # type: ignore[attr-defined]
    reorder.shuffle(other.chits)  # type: ignore[attr-defined]
    for viewer in [None, *range(players)]:
        assert GAME.view(state, viewer) == GAME.view(other, viewer)
    for seat in GAME.awaited(state):
        assert GAME.legal_moves(state, seat, Chance(b"m")) == GAME.legal_moves(other, seat, Chance(b"m"))
        check_legal_moves_accepted(GAME, state, seat, Chance(seed))
