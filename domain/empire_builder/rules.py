"""decide / evolve / advance for Empire Builder. Rule numbers refer to shared/games/empire_builder.md."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from itertools import groupby
from typing import Any

from domain.empire_builder import scoring
from domain.empire_builder.commands import (
    AllocateResources,
    AttemptBuilds,
    ChooseTurnPosition,
    MoveArmies,
    ReallocateResources,
)
from domain.empire_builder.data import (
    ARROWS,
    CHEAPEST_EXIT,
    CITY,
    CITY_PIECES,
    CITY_PRICE,
    CITY_VP,
    CUBES,
    FULL_CAMPAIGNS,
    KINDS,
    LAST_ROUND,
    LOCATIONS,
    MAJORITY_VP,
    MAX_PATH,
    PROVINCES,
    REGIONS,
    SHORT_CAMPAIGNS,
    TEMPLE,
    TEMPLE_PIECES,
    TEMPLE_PRICE,
    TEMPLE_VP,
)
from domain.empire_builder.events import (
    AllocationCommitted,
    AllocationsRevealed,
    ArmyMoved,
    AwardScored,
    BuildAttempted,
    BuildAttemptFailed,
    BuildingPassed,
    CampaignEnded,
    CampaignStarted,
    CityFounded,
    GameEnded,
    GoalReached,
    LotDrawn,
    MovementPaid,
    MovementPassed,
    ProvinceScored,
    ReallocationCommitted,
    ReallocationsRevealed,
    RoundStarted,
    TempleBuilt,
    TurnOrderSet,
    TurnPositionChosen,
    TurnStarted,
)
from domain.empire_builder.state import (
    ALLOCATION,
    BUILD,
    CAMPAIGN_OVER,
    DONE,
    GAME_OVER,
    MOVE,
    REALLOCATION,
    ROUND_START,
    SETUP,
    TURN_ORDER,
    TURNS,
    Player,
    State,
)
from domain.kernel import Chance, Command, Event, RuleViolation
from domain.kernel.errors import BAD_INPUT, BAD_OPTIONS

# Lot purposes (§9)
TURN_ORDER_CHOOSER = "turn_order_chooser"
TURN_ORDER_VP_TIE = "turn_order_vp_tie"
FIRST_CAMPAIGN_TIE = "first_campaign_tie"

# Error codes (§10.2)
SUM_NOT_15 = "SUM_NOT_15"
SUM_MISMATCH = "SUM_MISMATCH"
POSITION_OUT_OF_RANGE = "POSITION_OUT_OF_RANGE"
POSITION_TAKEN = "POSITION_TAKEN"
UNKNOWN_LOCATION = "UNKNOWN_LOCATION"
NOT_IN_CURRENT_REGION = "NOT_IN_CURRENT_REGION"
EMPTY_GROUP = "EMPTY_GROUP"
PATH_TOO_LONG = "PATH_TOO_LONG"
NO_ARROW = "NO_ARROW"
NOT_ENOUGH_ARMIES = "NOT_ENOUGH_ARMIES"
PAYMENT_MISMATCH = "PAYMENT_MISMATCH"
CANNOT_PAY = "CANNOT_PAY"
UNKNOWN_PROVINCE = "UNKNOWN_PROVINCE"
NO_SITE = "NO_SITE"
NO_ARMY = "NO_ARMY"
CITY_EXISTS = "CITY_EXISTS"
DUPLICATE_ATTEMPT = "DUPLICATE_ATTEMPT"
NO_PIECE = "NO_PIECE"

OPTION_DEFAULTS: dict[str, Any] = {"short_game": False, "region_scoring_variant": False, "oldest_seat": 0}


# -- setup (§3) ----------------------------------------------------------------------------------


def normalize_options(players: int, options: dict[str, Any]) -> dict[str, Any]:
    unknown = sorted(set(options) - set(OPTION_DEFAULTS))
    if unknown:
        raise RuleViolation(BAD_OPTIONS, f"unknown option(s) {', '.join(unknown)}; known: {', '.join(OPTION_DEFAULTS)}")
    result = {**OPTION_DEFAULTS, **options}
    for flag in ("short_game", "region_scoring_variant"):
        if not isinstance(result[flag], bool):
            raise RuleViolation(BAD_OPTIONS, f"{flag} must be true or false")
    oldest = result["oldest_seat"]
    if not isinstance(oldest, int) or isinstance(oldest, bool) or not 0 <= oldest < players:
        raise RuleViolation(BAD_OPTIONS, f"oldest_seat must be a seat from 0 to {players - 1}")
    return result


def initial_state(players: int, options: dict[str, Any]) -> State:
    return State(
        players=players,
        short_game=options["short_game"],
        region_scoring_variant=options["region_scoring_variant"],
        oldest_seat=options["oldest_seat"],
        seats=[Player() for _ in range(players)],
    )


def campaigns(state: State) -> tuple[int, int]:
    """First and last campaign played (R3, V2)."""
    return SHORT_CAMPAIGNS if state.short_game else FULL_CAMPAIGNS


def is_first_campaign(state: State) -> bool:
    """Ruling R20: the first campaign actually played."""
    return state.campaign == campaigns(state)[0]


# -- who is awaited ------------------------------------------------------------------------------


def reallocation_due(state: State) -> list[int]:
    """Ruling R25: seats with temples + cities > 0 that have not yet committed."""
    return [s for s, p in enumerate(state.seats) if p.temples + p.cities > 0 and s not in state.sealed]


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


def movement_possible(state: State, seat: int) -> bool:
    """Ruling R27: the movement step offers a decision only if some army can pay for some arrow out of where it
    stands. Without armies, with armies only in dead ends (Kilikia, Karmania) or with no cube for any exit,
    staying put is the only outcome, and a decision with one outcome is not asked for (the ruling's reason)."""
    player = state.seats[seat]
    budget = player.temples + player.cities
    return any(CHEAPEST_EXIT.get(location, budget + 1) <= budget for location in player.at)


def turn_step(state: State) -> str:
    """The active seat's step after Ruling R27's skips: MOVE, BUILD, or DONE."""
    seat = state.active_seat
    if seat is None or state.step == DONE:
        return DONE
    if state.step == MOVE and movement_possible(state, seat):
        return MOVE
    return BUILD if build_options(state, seat) else DONE


def awaited(state: State) -> dict[int, tuple[str, ...]]:
    phase = state.phase
    if phase == TURNS:
        step = turn_step(state)
        if step == MOVE:
            return {state.order[state.position]: ("move_armies",)}
        if step == BUILD:
            return {state.order[state.position]: ("attempt_builds",)}
        return {}
    if phase == ALLOCATION:
        return {s: ("allocate_resources",) for s in range(state.players) if s not in state.sealed}
    if phase == REALLOCATION:
        return {s: ("reallocate_resources",) for s in reallocation_due(state)}
    if phase == TURN_ORDER and state.chooser is not None:
        return {state.chooser: ("choose_turn_position",)}
    return {}


def is_over(state: State) -> bool:
    return state.phase == GAME_OVER


# -- turn order (R16-R22) ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TurnOrderPlan:
    """Where the turn-order procedure stands: a lot to draw, a seat to choose, or the finished order."""

    lot_needed: tuple[str, list[int]] | None = None
    chooser: int | None = None
    order: list[int] | None = None


def rank_with_lots(
    seats: Iterable[int], key: Callable[[int], Any], lots: Iterator[list[int]], purpose: str
) -> tuple[list[int], tuple[str, list[int]] | None]:
    """Seats by ``key``, highest first; each group with equal keys takes the order of the next recorded lot.

    Returns the ranking, or the lot that must be drawn first (§9: one lot per group, in rank order).
    """
    ranked: list[int] = []
    for _, equal in groupby(sorted(seats, key=key, reverse=True), key=key):
        group = sorted(equal)
        if len(group) > 1:
            order = next(lots, None)
            if order is None:
                return ranked, (purpose, group)
            group = order
        ranked.extend(group)
    return ranked, None


def plan_turn_order(state: State) -> TurnOrderPlan:
    """R17-R21 from the revealed allocations, VP, the lots drawn so far and the positions chosen so far."""
    n = state.players
    seats = state.seats
    lots = iter(state.lots)
    if is_first_campaign(state):
        if not any(p.turn_order for p in seats):
            # R19(b), Ruling R21: the oldest first, then clockwise
            return TurnOrderPlan(order=[(state.oldest_seat + i) % n for i in range(n)])
        # R19(a): everybody ranks; all but the last choose, the last takes the last free position
        ranked, lot = rank_with_lots(
            range(n), lambda s: (seats[s].turn_order, seats[s].armies, seats[s].temples), lots, FIRST_CAMPAIGN_TIE
        )
        if lot is not None:
            return TurnOrderPlan(lot_needed=lot)
        choosers = ranked[:-1]
    else:
        top = max(p.turn_order for p in seats)
        choosers = []
        if top > 0:  # Ruling R18: nobody bid, nobody chooses
            tied = [s for s in range(n) if seats[s].turn_order == top]
            if len(tied) > 1:  # R17(a)
                order = next(lots, None)
                if order is None:
                    return TurnOrderPlan(lot_needed=(TURN_ORDER_CHOOSER, tied))
                tied = order
            choosers = [tied[0]]
    for seat in choosers:
        if seat not in state.chosen:
            return TurnOrderPlan(chooser=seat)
    # R17(b): the others by VP, most first; the first campaign leaves only its last-ranked seat here
    rest = [s for s in range(n) if s not in state.chosen]
    ranked_rest, lot = rank_with_lots(rest, lambda s: seats[s].vp, lots, TURN_ORDER_VP_TIE)
    if lot is not None:
        return TurnOrderPlan(lot_needed=lot)
    positions: list[int | None] = [None] * n
    for seat, position in state.chosen.items():
        positions[position - 1] = seat
    free = iter([i for i in range(n) if positions[i] is None])
    for seat in ranked_rest:
        positions[next(free)] = seat
    return TurnOrderPlan(order=[s for s in positions if s is not None])


def _replan(state: State) -> None:
    plan = plan_turn_order(state)
    state.lot_needed = plan.lot_needed
    state.chooser = plan.chooser
    state.final_order = plan.order


def _check_counts(**counts: Any) -> None:
    """§10.2 INVALID_FIELD (the platform's BAD_INPUT): the API parser checks types, but decide is also called
    directly, and a negative count is a type the parser cannot express."""
    for name, value in counts.items():
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise RuleViolation(BAD_INPUT, f"{name} must be a whole number of cubes, 0 or more")


# -- movement (R28-R37) --------------------------------------------------------------------------


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
    _check_counts(pay_temples=command.pay_temples, pay_cities=command.pay_cities)
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


# -- building attempts (R38-R44) -----------------------------------------------------------------


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


# -- sealed steps and the turn-order choice --------------------------------------------------------


def decide_allocation(state: State, seat: int, command: AllocateResources) -> list[Event]:
    """Ruling R14. The message names only the sender's own numbers (§8)."""
    counts = (command.turn_order, command.armies, command.temples, command.cities)
    _check_counts(turn_order=counts[0], armies=counts[1], temples=counts[2], cities=counts[3])
    if sum(counts) != CUBES:
        raise RuleViolation(SUM_NOT_15, f"your four boxes must hold all {CUBES} cubes; they add up to {sum(counts)}")
    return [AllocationCommitted(seat, *counts)]


def decide_reallocation(state: State, seat: int, command: ReallocateResources) -> list[Event]:
    """R24. The total is public (§8), so naming it reveals nothing."""
    _check_counts(temples=command.temples, cities=command.cities)
    player = state.seats[seat]
    total = player.temples + player.cities
    if command.temples + command.cities != total:
        raise RuleViolation(
            SUM_MISMATCH, f"temples + cities must stay {total}; you sent {command.temples + command.cities}"
        )
    return [ReallocationCommitted(seat, command.temples, command.cities)]


def decide_position(state: State, seat: int, command: ChooseTurnPosition) -> list[Event]:
    position = command.position
    if not isinstance(position, int) or isinstance(position, bool):
        raise RuleViolation(BAD_INPUT, "position must be a whole number")
    if not 1 <= position <= state.players:
        raise RuleViolation(POSITION_OUT_OF_RANGE, f"a position is from 1 to {state.players}")
    if position in state.chosen.values():
        raise RuleViolation(POSITION_TAKEN, f"position {position} is already taken")
    return [TurnPositionChosen(seat, position)]


_DECIDERS: dict[type[Command], Callable[[State, int, Any], list[Event]]] = {
    AllocateResources: decide_allocation,
    ReallocateResources: decide_reallocation,
    ChooseTurnPosition: decide_position,
    MoveArmies: decide_move,
    AttemptBuilds: decide_builds,
}


def decide(state: State, seat: int, command: Command, chance: Chance) -> list[Event]:
    decider = _DECIDERS.get(type(command))
    if decider is None:
        raise RuleViolation(BAD_INPUT, f"{command.type} is not a command of this game")
    return decider(state, seat, command)


# -- evaluation (R45-R54) and the round's end (R55) -------------------------------------------------


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


def end_of_round(state: State) -> Event:
    """R55: the campaign ends after a round in which the goal was entered, or after round 3."""
    if state.goal_reached:
        return CampaignEnded(state.campaign, "goal_reached")
    if state.round >= LAST_ROUND:
        return CampaignEnded(state.campaign, "round_limit")
    return RoundStarted(state.campaign, state.round + 1)


def campaign_start(state: State, campaign: int) -> CampaignStarted:
    return CampaignStarted(campaign, campaign, REGIONS[campaign].symbol, campaign == campaigns(state)[0])


def game_end(state: State, chance: Chance) -> list[Event]:
    """R57-R62: the final awards, then GameEnded with the seed."""
    awards = scoring.final_awards(state)
    scores = [p.vp for p in state.seats]
    for award in awards:
        if award.seat is not None:
            scores[award.seat] += award.vp
    best = max(scores)
    winners = [s for s, v in enumerate(scores) if v == best]  # Ruling R62: a shared victory
    return [*awards, GameEnded({str(s): v for s, v in enumerate(scores)}, winners, chance.seed_hex)]


# -- advance: the automatic steps ------------------------------------------------------------------


def advance(state: State, chance: Chance) -> list[Event]:
    phase = state.phase
    if phase == TURNS:
        if turn_step(state) != DONE:
            return []
        if state.position + 1 < len(state.order):
            nxt = state.position + 1
            return [TurnStarted(state.campaign, state.round, state.order[nxt], nxt + 1)]
        return [*evaluate_round(state), end_of_round(state)]
    if phase == ALLOCATION:
        if len(state.sealed) < state.players:
            return []
        allocations = [
            dict(zip(("seat", "turn_order", "armies", "temples", "cities"), (s, *state.sealed[s]), strict=True))
            for s in range(state.players)
        ]
        return [AllocationsRevealed(state.campaign, allocations)]
    if phase == TURN_ORDER:
        if state.lot_needed is not None:
            purpose, candidates = state.lot_needed
            return [LotDrawn(purpose, state.campaign, candidates, chance.shuffle(purpose, candidates))]
        if state.final_order is not None:
            spent = {str(s): p.turn_order for s, p in enumerate(state.seats) if p.turn_order}
            return [TurnOrderSet(state.campaign, list(state.final_order), spent)]
        return []
    if phase == REALLOCATION:
        if reallocation_due(state):
            return []
        boxes = []
        for s, p in enumerate(state.seats):
            temples, cities = state.sealed.get(s, (p.temples, p.cities))
            boxes.append({"seat": s, "temples": temples, "cities": cities})
        return [ReallocationsRevealed(state.campaign, state.round, boxes)]
    if phase == ROUND_START:
        return [RoundStarted(state.campaign, state.round + 1)]
    if phase == SETUP:
        return [campaign_start(state, campaigns(state)[0])]
    if phase == CAMPAIGN_OVER:
        if state.campaign >= campaigns(state)[1]:
            return game_end(state, chance)
        return [campaign_start(state, state.campaign + 1)]
    return []


# -- evolve ----------------------------------------------------------------------------------------


def _campaign_started(state: State, e: CampaignStarted) -> None:
    """R13: cubes back, armies off the map, buildings stay."""
    state.campaign = e.campaign
    state.round = 0
    state.phase = ALLOCATION
    state.sealed = {}
    state.order = []
    state.position = -1
    state.step = DONE
    state.goal_reached = False  # the goal of the campaign before is no concern of this one
    for p in state.seats:
        p.turn_order = p.armies = p.temples = p.cities = p.spent = 0
        p.at = {}


def _allocation_committed(state: State, e: AllocationCommitted) -> None:
    state.sealed[e.seat] = (e.turn_order, e.armies, e.temples, e.cities)


def _allocations_revealed(state: State, e: AllocationsRevealed) -> None:
    """R15; Ruling R23: the armies stand on the campaign symbol from now on."""
    symbol = REGIONS[state.campaign].symbol
    for a in e.allocations:
        p = state.seats[a["seat"]]
        p.turn_order, p.armies, p.temples, p.cities = a["turn_order"], a["armies"], a["temples"], a["cities"]
        p.at = {symbol: p.armies} if p.armies else {}
    state.sealed = {}
    state.phase = TURN_ORDER
    state.lots = []
    state.chosen = {}
    _replan(state)


def _lot_drawn(state: State, e: LotDrawn) -> None:
    if state.phase == TURN_ORDER:
        state.lots.append(list(e.order))
        _replan(state)


def _turn_position_chosen(state: State, e: TurnPositionChosen) -> None:
    state.chosen[e.seat] = e.position
    _replan(state)


def _turn_order_set(state: State, e: TurnOrderSet) -> None:
    """Ruling R22: the turn-order cubes are spent."""
    state.order = list(e.order)
    for seat, cubes in e.spent.items():
        p = state.seats[int(seat)]
        p.turn_order -= cubes
        p.spent += cubes
    state.lots = []
    state.chosen = {}
    state.lot_needed = state.chooser = state.final_order = None
    state.phase = ROUND_START
    state.round = 0


def _round_started(state: State, e: RoundStarted) -> None:
    state.round = e.round
    state.goal_reached = False
    state.attempts = []
    state.sealed = {}
    state.position = -1
    state.step = DONE
    state.phase = REALLOCATION if e.round >= 2 and reallocation_due(state) else TURNS


def _reallocation_committed(state: State, e: ReallocationCommitted) -> None:
    state.sealed[e.seat] = (e.temples, e.cities)


def _reallocations_revealed(state: State, e: ReallocationsRevealed) -> None:
    for box in e.boxes:
        p = state.seats[box["seat"]]
        p.temples, p.cities = box["temples"], box["cities"]
    state.sealed = {}
    state.phase = TURNS


def _turn_started(state: State, e: TurnStarted) -> None:
    state.position = e.position - 1
    state.step = MOVE


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


def _build_attempted(state: State, e: BuildAttempted) -> None:
    state.attempts.append((e.province, e.kind, e.seat))
    state.step = DONE


def _building_passed(state: State, e: BuildingPassed) -> None:
    state.step = DONE


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


def _campaign_ended(state: State, e: CampaignEnded) -> None:
    state.phase = CAMPAIGN_OVER
    state.position = -1
    state.step = DONE
    state.attempts = []  # the last round's attempts were evaluated just before (R45): none is open


def _award_scored(state: State, e: AwardScored) -> None:
    if e.seat is not None:
        state.seats[e.seat].vp += e.vp


def _game_ended(state: State, e: GameEnded) -> None:
    state.phase = GAME_OVER
    state.winners = list(e.winners)


def _nothing(state: State, e: Event) -> None:
    """Events that only record an outcome (BuildAttemptFailed: the piece simply stays in supply)."""


_EVOLVERS: dict[type[Event], Callable[[State, Any], None]] = {
    CampaignStarted: _campaign_started,
    AllocationCommitted: _allocation_committed,
    AllocationsRevealed: _allocations_revealed,
    LotDrawn: _lot_drawn,
    TurnPositionChosen: _turn_position_chosen,
    TurnOrderSet: _turn_order_set,
    RoundStarted: _round_started,
    ReallocationCommitted: _reallocation_committed,
    ReallocationsRevealed: _reallocations_revealed,
    TurnStarted: _turn_started,
    ArmyMoved: _army_moved,
    MovementPaid: _movement_paid,
    GoalReached: _goal_reached,
    MovementPassed: _movement_passed,
    BuildAttempted: _build_attempted,
    BuildingPassed: _building_passed,
    ProvinceScored: _province_scored,
    TempleBuilt: _temple_built,
    CityFounded: _city_founded,
    BuildAttemptFailed: _nothing,
    CampaignEnded: _campaign_ended,
    AwardScored: _award_scored,
    GameEnded: _game_ended,
}


def evolve(state: State, event: Event) -> State:
    _EVOLVERS[type(event)](state, event)
    return state
