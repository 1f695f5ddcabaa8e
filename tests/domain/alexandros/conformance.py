"""What the conformance suite (``tests/domain/test_conformance.py``) needs to know of Alexandros:
its invariants, what a seat cannot know (and commands whose answers must not tell it), and the
scores a spectator recomputes."""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Iterable
from typing import Any

from domain.alexandros.commands import LevyTaxes, MoveAlexander, OccupyProvince, RetireGovernor, TakeCard
from domain.alexandros.data import (
    BLACK_WALLS,
    CARDS_PER_SYMBOL,
    IS_OPEN,
    RED_WALLS,
    SIDES,
    SPACES,
    SYMBOLS,
    parse_side,
    parse_space,
    point_coord,
)
from domain.alexandros.rules import single_owner_violations
from domain.alexandros.state import BLACK, NOBODY, RED, State, label_provinces
from domain.kernel import Chance, Command

END_REASONS = {"walls", "points", "no_free_space"}


def check_invariants(state: State) -> None:
    """Cards, walls and governors are conserved; R11 holds; provinces match the walls."""
    cards = Counter(state.supply) + Counter(state.discard) + Counter(c for c in state.display if c)
    for hand in state.hands:
        cards += Counter({sym: n for sym, n in hand.items() if n})
        assert all(n >= 0 for n in hand.values())
    assert cards == Counter(dict.fromkeys(SYMBOLS, CARDS_PER_SYMBOL))
    assert state.walls.count(BLACK) + state.black_left == BLACK_WALLS
    assert state.walls.count(RED) + state.red_left == RED_WALLS
    for seat in range(state.players):
        assert state.governors.count(seat) + state.governor_supply[seat] == 4
    assert single_owner_violations(state) == []
    assert state.province == label_provinces(state.walls)


def check_states(states: Iterable[State]) -> None:
    """The invariants at every step of a game, and a game that ends for one of the reasons R67 names."""
    for state in states:
        check_invariants(state)
    assert state.step == "over" and state.end in END_REASONS


def vary_hidden(state: State, viewer: int, chance: Chance) -> State | None:
    """The same state as ``viewer`` knows it, with everything hidden from him dealt anew: the supply
    order and the other seats' hands (sizes kept). After GameEnded everything is public (see
    test_r66_an_ended_game_shows_every_hand)."""
    if state.step == "over":
        return None
    other = copy.deepcopy(state)
    others = [s for s in range(state.players) if s != viewer]
    pool = list(other.supply)
    for s in others:
        pool += [sym for sym, n in other.hands[s].items() for _ in range(n)]
    pool = chance.shuffle("redeal", pool)
    for s in others:
        size = sum(state.hands[s].values())
        counts = Counter(pool[:size])
        other.hands[s] = {sym: counts[sym] for sym in SYMBOLS}
        pool = pool[size:]
    other.supply = pool
    return other


def scores_from_public(public: list[dict[str, Any]], players: int) -> list[int]:
    """A spectator rebuilds walls and governors from public events and recomputes every levy."""
    walls = [0] * len(SIDES)
    governors = [NOBODY] * len(SPACES)
    scores = [0] * players
    ended = None
    for record in public:
        data = record["data"]
        kind = record["type"]
        if kind == "WallBuilt":
            walls[parse_side(data["side"])] = 1  # type: ignore[index]
        elif kind == "ProvinceOccupied":
            for coord in (data["takeover"] or {}).get("evicted", []):
                governors[parse_space(coord)] = NOBODY  # type: ignore[index]
            for coord in data["governors"]:
                governors[parse_space(coord)] = data["seat"]  # type: ignore[index]
        elif kind == "GovernorRetired":
            governors[parse_space(data["space"])] = NOBODY  # type: ignore[index]
        elif kind == "TaxesLevied":
            label = label_provinces(walls)
            held = Counter(label[s] for s, owner in enumerate(governors) if owner != NOBODY)
            for s, owner in enumerate(governors):
                if owner != NOBODY and held[label[s]] == 1:
                    scores[owner] += sum(IS_OPEN[t] for t in range(len(SPACES)) if label[t] == label[s])
            assert scores == data["scores"]
        elif kind == "GameEnded":
            ended = data
    assert ended is not None and ended["scores"] == scores
    best = max(scores)
    assert ended["winners"] == [s for s in range(players) if scores[s] == best]
    return scores


def probes(state: State) -> list[Command]:
    """Commands (mostly refused) whose answers must not depend on hidden information."""
    some_spaces = [[0, 5], [2, 2], [4, 12], [7, 19], [3, 13]]
    return [
        *(LevyTaxes(card=sym) for sym in SYMBOLS),
        *(OccupyProvince(governors=[coord]) for coord in some_spaces),
        *(RetireGovernor(space=coord) for coord in some_spaces),
        TakeCard(source="supply"),
        TakeCard(source="display", slot=0),
        *(
            MoveAlexander(source="hand", card=sym, target=[2, 2], corner=[2, 4], path=[point_coord(state.alexander)])
            for sym in SYMBOLS
        ),
    ]
