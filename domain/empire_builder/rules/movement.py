"""Rules file 5.6, movement (R26-R37)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from domain.empire_builder.commands import MoveArmies
from domain.empire_builder.data import ARROWS, CHEAPEST_EXIT, LOCATIONS, MAX_PATH, REGIONS
from domain.empire_builder.events import ArmyMoved, GoalReached, MovementPaid, MovementPassed
from domain.empire_builder.rules.general import check_counts
from domain.empire_builder.state import BUILD, State
from domain.kernel import Command, Event, RuleViolation
from domain.kernel.errors import BAD_INPUT

UNKNOWN_LOCATION = "UNKNOWN_LOCATION"


NOT_IN_CURRENT_REGION = "NOT_IN_CURRENT_REGION"


EMPTY_GROUP = "EMPTY_GROUP"


PATH_TOO_LONG = "PATH_TOO_LONG"


NO_ARROW = "NO_ARROW"


NOT_ENOUGH_ARMIES = "NOT_ENOUGH_ARMIES"


PAYMENT_MISMATCH = "PAYMENT_MISMATCH"


CANNOT_PAY = "CANNOT_PAY"


def movement_possible(state: State, seat: int) -> bool:
    """Ruling R27: the movement step offers a decision only if some army can pay for some arrow out of where it
    stands. Without armies, with armies only in dead ends (Kilikia, Karmania) or with no cube for any exit,
    staying put is the only outcome, and a decision with one outcome is not asked for (the ruling's reason)."""
    player = state.seats[seat]
    budget = player.temples + player.cities
    return any(CHEAPEST_EXIT.get(location, budget + 1) <= budget for location in player.at)


@dataclass(frozen=True, slots=True)
class Group:
    origin: str
    count: int
    path: tuple[str, ...]


def _parse_group(raw: Any, index: int) -> Group:
    where = f"groups[{index}]"
    if not isinstance(raw, dict) or set(raw) != {"from", "count", "path"}:
        raise RuleViolation(BAD_INPUT, f"{where} must be an object with exactly the fields from, count, path")
    origin, count, path = raw["from"], raw["count"], raw["path"]
    if not isinstance(origin, str):
        raise RuleViolation(BAD_INPUT, f'{where}.from must be a location id such as "C2" or "2.4"')
    if not isinstance(count, int) or isinstance(count, bool) or count < 0:
        raise RuleViolation(BAD_INPUT, f"{where}.count must be a whole number of armies (at least 1)")
    if not isinstance(path, list) or not all(isinstance(p, str) for p in path):
        raise RuleViolation(BAD_INPUT, f"{where}.path must be a list of province ids")
    return Group(origin, count, tuple(path))


def group_costs(groups: Iterable[Group]) -> list[int]:
    """Ruling R34: each distinct (start, path prefix) pays its last arrow once, charged to the first group using it."""
    charged: set[tuple[str, tuple[str, ...]]] = set()
    costs = []
    for group in groups:
        cost = 0
        here = group.origin
        for j, step in enumerate(group.path):
            prefix = (group.origin, group.path[: j + 1])
            if prefix not in charged:
                charged.add(prefix)
                cost += ARROWS[here][step]
            here = step
        costs.append(cost)
    return costs


def check_groups(state: State, seat: int, groups: list[Group]) -> None:
    """The path and army checks of ``move_armies``, in the order of §10.2 (each over all groups)."""
    region = REGIONS[state.campaign]
    for g in groups:
        for location in (g.origin, *g.path):
            if location not in LOCATIONS:
                raise RuleViolation(UNKNOWN_LOCATION, f"{location!r} is not a location on the map")
    in_region = set(region.provinces)
    for g in groups:
        if g.origin != region.symbol and g.origin not in in_region:
            raise RuleViolation(
                NOT_IN_CURRENT_REGION,
                f"armies move only from {region.symbol} or a province of region {region.number}",
            )
        for step in g.path:
            if step not in in_region:
                raise RuleViolation(NOT_IN_CURRENT_REGION, f"{step} is not a province of region {region.number}")
    for g in groups:
        if g.count < 1 or not g.path:
            raise RuleViolation(EMPTY_GROUP, "every group moves at least 1 army along a path of at least 1 province")
    for g in groups:
        if len(g.path) > MAX_PATH:
            raise RuleViolation(PATH_TOO_LONG, f"an army moves at most {MAX_PATH} provinces per round (R29)")
    for g in groups:
        here = g.origin
        for step in g.path:
            if step not in ARROWS.get(here, {}):
                raise RuleViolation(NO_ARROW, f"no arrow leads from {here} into {step} (R7)")
            here = step
    moving: dict[str, int] = {}
    for g in groups:
        moving[g.origin] = moving.get(g.origin, 0) + g.count
    standing = state.seats[seat].at
    for origin, count in moving.items():
        if count > standing.get(origin, 0):
            raise RuleViolation(
                NOT_ENOUGH_ARMIES, f"you have {standing.get(origin, 0)} armies in {origin}, not {count}"
            )


def decide_move(state: State, seat: int, command: MoveArmies) -> list[Event]:
    if not isinstance(command.groups, list):
        raise RuleViolation(BAD_INPUT, "groups must be a list")
    check_counts(pay_temples=command.pay_temples, pay_cities=command.pay_cities)
    groups = [_parse_group(raw, i) for i, raw in enumerate(command.groups)]
    check_groups(state, seat, groups)
    costs = group_costs(groups)
    total = sum(costs)
    if command.pay_temples + command.pay_cities != total:
        raise RuleViolation(
            PAYMENT_MISMATCH,
            f"this movement costs {total}; pay_temples + pay_cities is {command.pay_temples + command.pay_cities}",
        )
    player = state.seats[seat]
    if command.pay_temples > player.temples or command.pay_cities > player.cities:
        raise RuleViolation(CANNOT_PAY, f"your boxes hold temples {player.temples} and cities {player.cities} (R32)")
    if not groups:
        return [MovementPassed(state.campaign, state.round, seat)]
    events: list[Event] = [
        ArmyMoved(seat, g.origin, g.count, list(g.path), cost) for g, cost in zip(groups, costs, strict=True)
    ]
    if total:
        events.append(MovementPaid(seat, command.pay_temples, command.pay_cities))
    goal = REGIONS[state.campaign].goal
    if not state.goal_reached and any(goal in g.path for g in groups):  # Ruling R36
        events.append(GoalReached(state.campaign, state.round, seat, goal))
    return events


def _army_moved(state: State, e: ArmyMoved) -> None:
    at = state.seats[e.seat].at
    left = at[e.from_] - e.count
    if left:
        at[e.from_] = left
    else:
        del at[e.from_]
    end = e.path[-1]
    at[end] = at.get(end, 0) + e.count
    state.step = BUILD


def _movement_paid(state: State, e: MovementPaid) -> None:
    p = state.seats[e.seat]
    p.temples -= e.temples
    p.cities -= e.cities
    p.spent += e.temples + e.cities
    state.step = BUILD


def _goal_reached(state: State, e: GoalReached) -> None:
    state.goal_reached = True


def _movement_passed(state: State, e: MovementPassed) -> None:
    state.step = BUILD


DECIDERS: dict[type[Command], Callable[[State, int, Any], list[Event]]] = {
    MoveArmies: decide_move,
}


EVOLVERS: dict[type[Event], Callable[[State, Any], None]] = {
    ArmyMoved: _army_moved,
    MovementPaid: _movement_paid,
    GoalReached: _goal_reached,
    MovementPassed: _movement_passed,
}
