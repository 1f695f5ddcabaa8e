"""What the conformance suite (``tests/domain/test_conformance.py``) needs to know of Peloponnes:
its invariants, what a seat cannot know, and the scores a spectator recomputes."""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any

from domain.kernel import Chance
from domain.peloponnes.data import CAPS, TILES
from domain.peloponnes.state import State


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


def check_states(states: Iterable[State]) -> None:
    for state in states:
        check_invariants(state)


def vary_hidden(state: State, viewer: int, chance: Chance) -> State | None:
    """Hidden from everyone, so from ``viewer`` too: the order of the undrawn tiles and chits (every
    draw is at random from what is left, ``reshuffle_hidden`` has nothing to do). Nothing is hidden
    from one seat only."""
    other = copy.deepcopy(state)
    for letter, stack in other.stacks.items():
        other.stacks[letter] = chance.shuffle(f"reorder:{letter}", stack)
    other.chits = chance.shuffle("reorder:chits", other.chits)
    return other


def scores_from_public(public: list[dict[str, Any]], players: int) -> list[int]:
    """The last ``after`` of each seat and its tiles, read from public records only, give the final scores."""
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
    finals = [0] * players
    for seat in range(players):
        prestige = sum(TILES[t].prestige for t in tiles[seat]) + counters[seat]["coins"] // 3
        finals[seat] = min(prestige, 3 * counters[seat]["population"])
    ended = public[-1]["data"]
    for result in ended["results"]:
        assert result["final"] == finals[result["seat"]]
        assert result["luxury"] == counters[result["seat"]]["luxury"]
    assert sorted(result["seat"] for result in ended["results"]) == list(range(players))
    return finals
