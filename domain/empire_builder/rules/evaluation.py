"""Rules file 5.8, evaluation of a round (R45-R54)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.empire_builder import scoring
from domain.empire_builder.data import CITY, CITY_PRICE, CITY_VP, MAJORITY_VP, REGIONS, TEMPLE, TEMPLE_PRICE, TEMPLE_VP
from domain.empire_builder.events import BuildAttemptFailed, CityFounded, ProvinceScored, TempleBuilt
from domain.empire_builder.state import State
from domain.kernel import Event


def resolve_building(state: State, province: str, kind: str, attempters: list[int], boxes: list[int]) -> list[Event]:
    """R47-R49 with Ruling R50/R51: ``boxes`` holds the counts as they stand now and is paid from here."""
    campaign, round_ = state.campaign, state.round
    bids = {str(s): boxes[s] for s in attempters}
    built, price, vp = (TempleBuilt, TEMPLE_PRICE, TEMPLE_VP) if kind == TEMPLE else (CityFounded, CITY_PRICE, CITY_VP)
    if len(attempters) == 1:
        (seat,) = attempters
        if boxes[seat] < price:
            return [BuildAttemptFailed(campaign, round_, province, kind, seat, "cannot_pay")]
        boxes[seat] -= price
        return [built(campaign, round_, province, seat, bids, price, vp)]
    counts = sorted((boxes[s] for s in attempters), reverse=True)
    if counts[0] == counts[1]:
        return [BuildAttemptFailed(campaign, round_, province, kind, s, "tie") for s in attempters]
    winner = next(s for s in attempters if boxes[s] == counts[0])
    paid = counts[1] + 1
    boxes[winner] -= paid
    events: list[Event] = [built(campaign, round_, province, winner, bids, paid, vp)]
    events.extend(BuildAttemptFailed(campaign, round_, province, kind, s, "outbid") for s in attempters if s != winner)
    return events


def evaluate_round(state: State) -> list[Event]:
    """Ruling R45: the region's provinces in number order: majority (R46), temple, then city (R52)."""
    temples = [p.temples for p in state.seats]
    cities = [p.cities for p in state.seats]
    events: list[Event] = []
    for province in REGIONS[state.campaign].provinces:
        counts = [p.at.get(province, 0) for p in state.seats]
        leader = scoring.sole_leader(counts)
        armies = {str(s): c for s, c in enumerate(counts) if c}
        vp = MAJORITY_VP if leader is not None else 0
        events.append(ProvinceScored(state.campaign, state.round, province, armies, leader, vp))
        for kind, boxes in ((TEMPLE, temples), (CITY, cities)):
            attempters = sorted(s for p, k, s in state.attempts if p == province and k == kind)
            if attempters:
                events.extend(resolve_building(state, province, kind, attempters, boxes))
    return events


def _province_scored(state: State, e: ProvinceScored) -> None:
    if e.seat is not None:
        state.seats[e.seat].vp += e.vp


def _temple_built(state: State, e: TempleBuilt) -> None:
    """R47/R49: paid from the temples box only."""
    p = state.seats[e.seat]
    p.temples -= e.paid
    p.spent += e.paid
    p.vp += e.vp
    p.temples_built += 1
    state.temples.setdefault(e.province, []).append(e.seat)


def _city_founded(state: State, e: CityFounded) -> None:
    """R48/R49: paid from the cities box only; R53: the site's one city."""
    p = state.seats[e.seat]
    p.cities -= e.paid
    p.spent += e.paid
    p.vp += e.vp
    p.cities_built += 1
    state.cities[e.province] = e.seat


def _nothing(state: State, e: Event) -> None:
    """Events that only record an outcome (BuildAttemptFailed: the piece simply stays in supply)."""


EVOLVERS: dict[type[Event], Callable[[State, Any], None]] = {
    ProvinceScored: _province_scored,
    TempleBuilt: _temple_built,
    CityFounded: _city_founded,
    BuildAttemptFailed: _nothing,
}
