"""Majorities, the final scoring (§6, R59-R63, V1) and the Scoreboard."""

from __future__ import annotations

from collections.abc import Sequence

from domain.empire_builder.data import (
    MOST_CITIES,
    MOST_TEMPLES,
    PROVINCES,
    REGION_BUILDINGS,
    REGION_CITIES,
    REGION_TEMPLES,
    REGIONS,
    award_vp,
)
from domain.empire_builder.events import AwardScored
from domain.empire_builder.state import GAME_OVER, State
from domain.kernel import Scoreboard


def sole_leader(counts: Sequence[int]) -> int | None:
    """The seat holding strictly more than every other seat, or None (R46, R60: a tie or all-zero scores nothing)."""
    best = max(counts)
    if best <= 0:
        return None
    leaders = [s for s, c in enumerate(counts) if c == best]
    return leaders[0] if len(leaders) == 1 else None


def _award(award: str, region: int | None, counts: list[int], short_game: bool) -> AwardScored:
    seat = sole_leader(counts)
    vp = award_vp(award, short_game) if seat is not None else 0
    return AwardScored(award, region, {str(s): c for s, c in enumerate(counts)}, seat, vp)


def building_counts(state: State) -> tuple[dict[int, list[int]], dict[int, list[int]]]:
    """Temples and cities per region per seat, from the built pieces."""
    temples: dict[int, list[int]] = {}
    cities: dict[int, list[int]] = {}
    for province, owners in state.temples.items():
        row = temples.setdefault(PROVINCES[province].region, [0] * state.players)
        for seat in owners:
            row[seat] += 1
    for province, seat in state.cities.items():
        cities.setdefault(PROVINCES[province].region, [0] * state.players)[seat] += 1
    return temples, cities


def final_awards(state: State) -> list[AwardScored]:
    """R59: whole map cities, whole map temples, then per region 1..6 cities then temples (or V1's combined award).

    The short game lists regions 1, 5 and 6 too: R59 names every region and V2 leaves it unchanged. They hold no
    pieces, so R60 gives their awards to nobody.
    """
    short = state.short_game
    temples, cities = building_counts(state)
    zero = [0] * state.players
    awards = [
        _award(MOST_CITIES, None, [p.cities_built for p in state.seats], short),
        _award(MOST_TEMPLES, None, [p.temples_built for p in state.seats], short),
    ]
    for region in sorted(REGIONS):
        t, c = temples.get(region, zero), cities.get(region, zero)
        if state.region_scoring_variant:
            awards.append(_award(REGION_BUILDINGS, region, [a + b for a, b in zip(t, c, strict=True)], short))
        else:
            awards.append(_award(REGION_CITIES, region, list(c), short))
            awards.append(_award(REGION_TEMPLES, region, list(t), short))
    return awards


def scoreboard(state: State) -> Scoreboard:
    scores = [p.vp for p in state.seats]
    over = state.phase == GAME_OVER
    return Scoreboard(
        scores=list(scores),
        placings=[1 + sum(o > s for o in scores) for s in scores],
        winners=list(state.winners),
        final=over,
        details={
            "temples_built": [p.temples_built for p in state.seats],
            "cities_built": [p.cities_built for p in state.seats],
        },
    )
