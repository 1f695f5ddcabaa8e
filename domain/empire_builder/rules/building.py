"""Rules file 5.7, building attempts (R38-R44)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.empire_builder.commands import AttemptBuilds
from domain.empire_builder.data import CITY, CITY_PIECES, KINDS, PROVINCES, REGIONS, TEMPLE, TEMPLE_PIECES
from domain.empire_builder.events import BuildAttempted, BuildingPassed
from domain.empire_builder.rules.movement import NOT_IN_CURRENT_REGION
from domain.empire_builder.state import DONE, State
from domain.kernel import Command, Event, RuleViolation
from domain.kernel.errors import BAD_INPUT

UNKNOWN_PROVINCE = "UNKNOWN_PROVINCE"


NO_SITE = "NO_SITE"


NO_ARMY = "NO_ARMY"


CITY_EXISTS = "CITY_EXISTS"


DUPLICATE_ATTEMPT = "DUPLICATE_ATTEMPT"


NO_PIECE = "NO_PIECE"


def build_options(state: State, seat: int) -> list[tuple[str, str]]:
    """Every single attempt R38-R42 allow the seat now: (province, kind)."""
    player = state.seats[seat]
    options = []
    temples_left = player.temples_built < TEMPLE_PIECES
    cities_left = player.cities_built < CITY_PIECES
    for province_id in REGIONS[state.campaign].provinces:
        if not player.at.get(province_id):
            continue
        province = PROVINCES[province_id]
        if province.temple_site and temples_left:
            options.append((province_id, TEMPLE))
        if province.city_site and cities_left and province_id not in state.cities:
            options.append((province_id, CITY))
    return options


def decide_builds(state: State, seat: int, command: AttemptBuilds) -> list[Event]:
    if not isinstance(command.attempts, list):
        raise RuleViolation(BAD_INPUT, "attempts must be a list")
    attempts: list[tuple[str, str]] = []
    for i, raw in enumerate(command.attempts):
        if not isinstance(raw, dict) or set(raw) != {"province", "kind"} or not isinstance(raw["province"], str):
            raise RuleViolation(BAD_INPUT, f"attempts[{i}] must be an object with exactly the fields province, kind")
        if raw["kind"] not in KINDS:
            raise RuleViolation(BAD_INPUT, f'attempts[{i}].kind must be "temple" or "city"')
        attempts.append((raw["province"], raw["kind"]))
    region = state.campaign
    player = state.seats[seat]
    for province, _ in attempts:
        if province not in PROVINCES:
            raise RuleViolation(UNKNOWN_PROVINCE, f"{province!r} is not a province id")
    for province, _ in attempts:
        if PROVINCES[province].region != region:
            raise RuleViolation(NOT_IN_CURRENT_REGION, f"{province} is not in region {region} (R38)")
    for province, kind in attempts:
        site = PROVINCES[province].temple_site if kind == TEMPLE else PROVINCES[province].city_site
        if not site:
            raise RuleViolation(NO_SITE, f"{province} shows no {kind} symbol (R10)")
    for province, _ in attempts:
        if not player.at.get(province):
            raise RuleViolation(NO_ARMY, f"you have no army in {province} (R38)")
    for province, kind in attempts:
        if kind == CITY and province in state.cities:
            raise RuleViolation(CITY_EXISTS, f"{province} already has a city (R40)")
    if len(set(attempts)) != len(attempts):
        raise RuleViolation(DUPLICATE_ATTEMPT, "at most one temple and one city attempt per province (Ruling R39)")
    for kind, left in ((TEMPLE, TEMPLE_PIECES - player.temples_built), (CITY, CITY_PIECES - player.cities_built)):
        wanted = sum(1 for _, k in attempts if k == kind)
        if wanted > left:
            raise RuleViolation(NO_PIECE, f"you have {left} {kind} piece(s) left, not {wanted} (Ruling R42)")
    if not attempts:
        return [BuildingPassed(state.campaign, state.round, seat)]
    return [BuildAttempted(seat, province, kind) for province, kind in attempts]


def _build_attempted(state: State, e: BuildAttempted) -> None:
    state.attempts.append((e.province, e.kind, e.seat))
    state.step = DONE


def _building_passed(state: State, e: BuildingPassed) -> None:
    state.step = DONE


DECIDERS: dict[type[Command], Callable[[State, int, Any], list[Event]]] = {
    AttemptBuilds: decide_builds,
}


EVOLVERS: dict[type[Event], Callable[[State, Any], None]] = {
    BuildAttempted: _build_attempted,
    BuildingPassed: _building_passed,
}
