"""Every worked example of the rules file §11 (E1-E24), named after it."""

from __future__ import annotations

import pytest

from domain.empire_builder import GAME
from domain.empire_builder.commands import ChooseTurnPosition, ReallocateResources
from domain.empire_builder.events import (
    AllocationsRevealed,
    ArmyMoved,
    AwardScored,
    BuildAttempted,
    BuildAttemptFailed,
    CampaignEnded,
    CampaignStarted,
    CityFounded,
    GameEnded,
    GoalReached,
    LotDrawn,
    MovementPaid,
    ProvinceScored,
    ReallocationCommitted,
    ReallocationsRevealed,
    RoundStarted,
    TempleBuilt,
    TurnOrderSet,
    TurnPositionChosen,
    TurnStarted,
)
from domain.empire_builder.rules import Group, build_options, group_costs
from domain.empire_builder.scoring import final_awards
from domain.empire_builder.state import ALLOCATION, BUILD, State
from domain.kernel import RuleViolation
from domain.kernel.log import event_record_parts
from domain.kernel.messages import parse_command
from tests.domain.empire_builder.helpers import (
    ScriptedChance,
    allocate,
    at_evaluation,
    at_turn,
    builds,
    move,
    run,
    settle,
    start,
)
from tests.support.games import of_type, refusal, types


def scored(events: list) -> dict[str, tuple[int | None, int]]:
    return {e.province: (e.seat, e.vp) for e in of_type(events, ProvinceScored)}


def campaign_state(players: int, campaign: int, vp: list[int], **options: object) -> State:
    """A state at the allocation of ``campaign`` with the given VP."""
    state, _ = start(players, **options)
    GAME.evolve(state, CampaignStarted(campaign, campaign, f"C{campaign}", False))
    for seat, points in enumerate(vp):
        state.seats[seat].vp = points
    return state


def test_e01_first_campaign_turn_order() -> None:
    """R16, R19(a), Ruling R22; E1 is the rule book's §5.1 example."""
    state, _ = start(4)
    events = allocate(state, {0: (1, 5, 5, 4), 1: (1, 3, 6, 5), 2: (0, 4, 6, 5), 3: (0, 3, 7, 5)})
    assert isinstance(events[-1], AllocationsRevealed)
    assert not of_type(events, LotDrawn), "no lot is needed"
    assert GAME.awaited(state) == {0: ("choose_turn_position",)}
    assert GAME.view(state, None)["phase"] == "turn_order_choice"
    assert run(state, 0, ChooseTurnPosition(4)) == [TurnPositionChosen(0, 4)]
    assert refusal(GAME, state, 1, ChooseTurnPosition(4)) == "POSITION_TAKEN"
    assert refusal(GAME, state, 1, ChooseTurnPosition(5)) == "POSITION_OUT_OF_RANGE"
    run(state, 1, ChooseTurnPosition(2))
    events = run(state, 2, ChooseTurnPosition(3))
    assert events[:4] == [
        TurnPositionChosen(2, 3),
        TurnOrderSet(1, [3, 1, 2, 0], {"0": 1, "1": 1}),
        RoundStarted(1, 1),
        TurnStarted(1, 1, 3, 1),
    ]
    anita = state.seats[0]
    assert (anita.armies, anita.temples, anita.cities, anita.spent, anita.turn_order) == (5, 5, 4, 1, 0)


def test_e02_kilikia_and_kappadokia_are_not_adjacent() -> None:
    """R7, R8, R30, R36: §3.1 names Kilikia and Kappadokia as not adjacent."""
    state = at_turn(2, 2, 2, 1, boxes={1: (3, 0)}, armies={1: {"2.5": 2}})
    assert refusal(GAME, state, 1, move([("2.5", 2, ["2.6"])])) == "NO_ARROW"
    events = run(state, 1, move([("2.5", 2, ["2.4", "2.6"])], (3, 0)))
    assert events == [ArmyMoved(1, "2.5", 2, ["2.4", "2.6"], 3), MovementPaid(1, 3, 0), GoalReached(2, 2, 1, "2.6")]
    assert (state.seats[1].temples, state.seats[1].cities) == (0, 0)
    events = run(state, 1, builds())
    assert CampaignEnded(2, "goal_reached") in events


def test_e03_contested_temple_three_attempters() -> None:
    """R46, R49: the runner-up + 1 price; the outbid pieces return (R49)."""
    state = at_evaluation(
        3,
        2,
        1,
        boxes={0: (5, 0), 1: (3, 0), 2: (3, 0)},
        armies={0: {"2.2": 1}, 1: {"2.2": 2}, 2: {"2.2": 1}},
        attempts=[("2.2", "temple", 0), ("2.2", "temple", 1), ("2.2", "temple", 2)],
    )
    events = settle(state)
    assert ProvinceScored(2, 1, "2.2", {"0": 1, "1": 2, "2": 1}, 1, 2) in events
    assert scored(events)["2.1"] == (None, 0)
    i = events.index(TempleBuilt(2, 1, "2.2", 0, {"0": 5, "1": 3, "2": 3}, 4, 3))
    assert events[i + 1 : i + 3] == [
        BuildAttemptFailed(2, 1, "2.2", "temple", 1, "outbid"),
        BuildAttemptFailed(2, 1, "2.2", "temple", 2, "outbid"),
    ]
    assert [p.temples for p in state.seats] == [1, 3, 3]
    assert [p.temples_built for p in state.seats] == [1, 0, 0]


def test_e04_tie_for_the_most_nobody_builds() -> None:
    """R49: a tie for the most builds nothing and costs nothing; R24 reallocation then decides."""
    armies = {s: {"2.2": 1} for s in range(3)}
    state = at_evaluation(
        3,
        2,
        1,
        boxes={0: (0, 4), 1: (0, 4), 2: (0, 2)},
        armies=armies,
        attempts=[("2.2", "city", 0), ("2.2", "city", 1), ("2.2", "city", 2)],
    )
    events = settle(state)
    assert of_type(events, BuildAttemptFailed) == [BuildAttemptFailed(2, 1, "2.2", "city", s, "tie") for s in range(3)]
    assert [p.cities for p in state.seats] == [4, 4, 2]
    assert "2.2" not in state.cities
    # round 2, after reallocation: 5 against 4
    state = at_evaluation(
        3,
        2,
        2,
        boxes={0: (0, 5), 1: (0, 4), 2: (0, 0)},
        armies=armies,
        attempts=[("2.2", "city", 0), ("2.2", "city", 1)],
    )
    events = settle(state)
    assert CityFounded(2, 2, "2.2", 0, {"0": 5, "1": 4}, 5, 5) in events
    assert state.seats[0].cities == 0 and state.cities["2.2"] == 0


def test_e05_single_attempter_cannot_pay_and_never_from_the_other_box() -> None:
    """R47, R48: a single attempter pays from the matching box only."""
    state = at_evaluation(
        2,
        4,
        1,
        boxes={1: (2, 1)},
        armies={1: {"4.1": 1, "4.2": 1}},
        attempts=[("4.1", "temple", 1), ("4.2", "city", 1)],
    )
    events = settle(state)
    assert TempleBuilt(4, 1, "4.1", 1, {"1": 2}, 1, 3) in events
    assert BuildAttemptFailed(4, 1, "4.2", "city", 1, "cannot_pay") in events
    assert not of_type(events, CityFounded)
    assert (state.seats[1].temples, state.seats[1].cities) == (1, 1)
    assert state.seats[1].cities_built == 0


def test_e06_contested_city_runner_up_at_zero_and_tie_at_zero() -> None:
    """Rulings R43 and R51: a 0-cube runner-up sets a price of 1; a tie at 0 builds nothing."""
    armies = {0: {"4.3": 1}, 2: {"4.3": 1}}
    state = at_evaluation(3, 4, 2, {0: (0, 1), 2: (0, 0)}, armies, [("4.3", "city", 0), ("4.3", "city", 2)])
    events = settle(state)
    assert CityFounded(4, 2, "4.3", 0, {"0": 1, "2": 0}, 1, 5) in events
    assert BuildAttemptFailed(4, 2, "4.3", "city", 2, "outbid") in events
    state = at_evaluation(3, 4, 2, {0: (0, 0), 2: (0, 0)}, armies, [("4.3", "city", 0), ("4.3", "city", 2)])
    events = settle(state)
    assert not of_type(events, CityFounded)
    assert {e.reason for e in of_type(events, BuildAttemptFailed)} == {"tie"}


def test_e07_evaluation_order_drains_a_box() -> None:
    """Ruling R50: counts are read when each province is resolved, after earlier payments."""
    state = at_evaluation(
        3,
        2,
        1,
        boxes={0: (4, 0), 1: (2, 0), 2: (2, 0)},
        armies={0: {"2.1": 1, "2.4": 1}, 1: {"2.1": 1}, 2: {"2.4": 1}},
        attempts=[("2.1", "temple", 0), ("2.1", "temple", 1), ("2.4", "temple", 0), ("2.4", "temple", 2)],
    )
    events = settle(state)
    assert TempleBuilt(2, 1, "2.1", 0, {"0": 4, "1": 2}, 3, 3) in events
    assert TempleBuilt(2, 1, "2.4", 2, {"0": 1, "2": 2}, 2, 3) in events
    assert BuildAttemptFailed(2, 1, "2.4", "temple", 0, "outbid") in events
    assert [p.temples for p in state.seats] == [1, 2, 0]


def test_e08_a_group_moves_together_then_splits() -> None:
    """R33, Rulings R34 and R35: a shared prefix is paid once; the payment split must match exactly."""
    state = at_turn(2, 2, 1, 0, boxes={0: (3, 2)}, armies={0: {"C2": 4}})
    groups = [("C2", 2, ["2.1", "2.4", "2.6"]), ("C2", 2, ["2.1", "2.4", "2.5"])]
    assert refusal(GAME, state, 0, move(groups, (1, 1))) == "PAYMENT_MISMATCH"
    assert refusal(GAME, state, 0, move(groups, (0, 3))) == "CANNOT_PAY"
    events = run(state, 0, move(groups, (1, 2)))
    assert events == [
        ArmyMoved(0, "C2", 2, ["2.1", "2.4", "2.6"], 2),
        ArmyMoved(0, "C2", 2, ["2.1", "2.4", "2.5"], 1),
        MovementPaid(0, 1, 2),
        GoalReached(2, 1, 0, "2.6"),
    ]
    assert (state.seats[0].temples, state.seats[0].cities) == (2, 0)
    assert state.goal_reached
    assert {("2.6", "city"), ("2.5", "city")} <= set(build_options(state, 0))


def test_e09_separate_groups_pay_separately() -> None:
    """R33, Ruling R34: groups from different start locations pay separately."""
    state = at_turn(2, 2, 2, 1, boxes={1: (5, 0)}, armies={1: {"2.1": 1, "2.2": 1}})
    events = run(state, 1, move([("2.1", 1, ["2.4", "2.6"]), ("2.2", 1, ["2.4", "2.6"])], (5, 0)))
    assert [e.cost for e in of_type(events, ArmyMoved)] == [2, 3]
    assert (state.seats[1].temples, state.seats[1].cities) == (0, 0)
    assert group_costs([Group("2.1", 2, ("2.4", "2.6"))]) == [2]


def test_e10_the_three_province_limit_counts_the_entry_move() -> None:
    """R29 with Ruling R12: the free campaign arrow counts toward the 3 provinces; R8: the sea route costs 3."""
    state = at_turn(3, 2, 1, 2, boxes={2: (4, 2)}, armies={2: {"C2": 3}})
    assert refusal(GAME, state, 2, move([("C2", 3, ["2.1", "2.2", "2.3", "2.6"])])) == "PATH_TOO_LONG"
    assert refusal(GAME, state, 2, move([("C2", 4, ["2.1"])])) == "NOT_ENOUGH_ARMIES"
    events = run(state, 2, move([("C2", 3, ["2.1", "2.2", "2.3"])]))
    assert events[0] == ArmyMoved(2, "C2", 3, ["2.1", "2.2", "2.3"], 0)
    assert not of_type(events, MovementPaid)
    state = at_turn(3, 2, 2, 2, boxes={2: (4, 2)}, armies={2: {"2.3": 3}})
    events = run(state, 2, move([("2.3", 1, ["2.6"])], (3, 0)))
    assert events[:3] == [ArmyMoved(2, "2.3", 1, ["2.6"], 3), MovementPaid(2, 3, 0), GoalReached(2, 2, 2, "2.6")]


def test_e11_the_campaign_ends_early_and_the_round_still_finishes() -> None:
    """R37, R55(a), R13: the round finishes after the goal; the next campaign starts afresh."""
    state = at_turn(
        3,
        3,
        1,
        1,
        boxes={1: (4, 4), 0: (6, 3), 2: (3, 4)},
        armies={1: {"C3": 2}, 0: {"C3": 4}, 2: {"C3": 5}},
        order=[1, 0, 2],
    )
    events = run(state, 1, move([("C3", 2, ["3.1", "3.3", "3.5"])], (2, 0)))
    assert isinstance(events[-1], GoalReached)
    events = run(state, 1, builds(("3.5", "temple"), ("3.5", "city")))
    assert events[-1] == TurnStarted(3, 1, 0, 2), "the round goes on after the goal was reached"
    run(state, 0, move([("C3", 4, ["3.1", "3.2"])]))
    run(state, 0, builds(("3.2", "temple")))
    run(state, 2, move([("C3", 3, ["3.1", "3.3"]), ("C3", 2, ["3.1"])], (1, 0)))
    vp_before = [p.vp for p in state.seats]
    events = run(state, 2, builds(("3.1", "city"), ("3.3", "city")))
    assert scored(events) == {
        "3.1": (2, 2),
        "3.2": (0, 2),
        "3.3": (2, 2),
        "3.4": (None, 0),
        "3.5": (1, 2),
    }
    assert CityFounded(3, 1, "3.1", 2, {"2": 4}, 2, 5) in events
    assert TempleBuilt(3, 1, "3.2", 0, {"0": 6}, 1, 3) in events
    assert CityFounded(3, 1, "3.3", 2, {"2": 2}, 2, 5) in events
    assert TempleBuilt(3, 1, "3.5", 1, {"1": 2}, 1, 3) in events
    assert CityFounded(3, 1, "3.5", 1, {"1": 4}, 2, 5) in events
    assert CampaignEnded(3, "goal_reached") in events
    assert CampaignStarted(4, 4, "C4", False) in events
    gained = [p.vp - before for p, before in zip(state.seats, vp_before, strict=True)]
    assert gained == [5, 10, 14]
    assert state.phase == ALLOCATION and set(GAME.awaited(state)) == {0, 1, 2}
    assert all(p.at == {} and p.armies == 0 for p in state.seats)
    assert state.cities == {"3.1": 2, "3.3": 2, "3.5": 1} and state.temples == {"3.2": [0], "3.5": [1]}, "R13"


def test_e12_the_campaign_ends_after_round_3() -> None:
    """R55(b), R56: the campaign ends after round 3, or after the round the goal is entered."""
    state = at_evaluation(2, 5, 3, {}, {0: {"5.2": 1}}, [])
    events = settle(state)
    assert CampaignEnded(5, "round_limit") in events
    assert CampaignStarted(6, 6, "C6", False) in events
    state = at_evaluation(2, 5, 2, {}, {0: {"5.5": 1}}, [])
    state.goal_reached = True
    events = settle(state)
    assert CampaignEnded(5, "goal_reached") in events
    assert not of_type(events, RoundStarted), "no round 3 and no reallocation"
    state = at_evaluation(2, 5, 2, {0: (1, 1)}, {0: {"5.2": 1}}, [])
    events = settle(state)
    assert events[-1] == RoundStarted(5, 3)


def test_e13_later_campaign_chooser_lot_and_vp_lot() -> None:
    """R17(a), R17(b), §9: the chooser lot, then a VP lot."""
    state = campaign_state(4, 3, [20, 14, 14, 9])
    chance = ScriptedChance([[3, 2], [2, 1]])
    events = allocate(state, {0: (0, 5, 5, 5), 1: (2, 5, 4, 4), 2: (3, 4, 4, 4), 3: (3, 4, 4, 4)}, chance)
    assert events[-1] == LotDrawn("turn_order_chooser", 3, [2, 3], [3, 2])
    assert GAME.awaited(state) == {3: ("choose_turn_position",)}
    events = run(state, 3, ChooseTurnPosition(1), chance)
    assert events[:3] == [
        TurnPositionChosen(3, 1),
        LotDrawn("turn_order_vp_tie", 3, [1, 2], [2, 1]),
        TurnOrderSet(3, [3, 0, 2, 1], {"1": 2, "2": 3, "3": 3}),
    ]


def test_e14_nobody_bids_in_a_later_campaign() -> None:
    """Ruling R18: nobody bid, so the whole order goes by VP."""
    state = campaign_state(3, 2, [5, 9, 5])
    chance = ScriptedChance([[2, 0]])
    events = allocate(state, {s: (0, 5, 5, 5) for s in range(3)}, chance)
    assert not of_type(events, TurnPositionChosen)
    i = events.index(LotDrawn("turn_order_vp_tie", 2, [0, 2], [2, 0]))
    assert events[i + 1] == TurnOrderSet(2, [1, 2, 0], {})


def test_e15_first_campaign_nobody_bids() -> None:
    """R19(b), Ruling R21: the oldest seat first, then clockwise."""
    state, _ = start(4, oldest_seat=2)
    events = allocate(state, {s: (0, 5, 5, 5) for s in range(4)})
    assert not of_type(events, LotDrawn)
    assert TurnOrderSet(1, [2, 3, 0, 1], {}) in events


def test_e16_first_campaign_tie_down_to_the_temples_box_and_a_lot() -> None:
    """R19(a): ranked by turn_order, armies, temples, then a lot."""
    state, _ = start(3)
    chance = ScriptedChance([[2, 1]])
    events = allocate(state, {0: (2, 4, 5, 4), 1: (2, 4, 6, 3), 2: (2, 4, 6, 3)}, chance)
    assert events[-1] == LotDrawn("first_campaign_tie", 1, [1, 2], [2, 1])
    assert GAME.awaited(state) == {2: ("choose_turn_position",)}
    run(state, 2, ChooseTurnPosition(2))
    assert GAME.awaited(state) == {1: ("choose_turn_position",)}
    events = run(state, 1, ChooseTurnPosition(1))
    assert TurnOrderSet(1, [1, 2, 0], {"0": 2, "1": 2, "2": 2}) in events


def test_e17_reallocation_in_round_2() -> None:
    """R24, Ruling R25, §8: the sealed reallocation of temples and cities."""
    state = at_evaluation(3, 1, 1, {0: (2, 3), 1: (0, 0), 2: (1, 4)}, {}, [])
    events = settle(state)
    assert events[-1] == RoundStarted(1, 2)
    assert GAME.awaited(state) == {0: ("reallocate_resources",), 2: ("reallocate_resources",)}
    (committed,) = run(state, 0, ReallocateResources(4, 1))
    assert committed == ReallocationCommitted(0, 4, 1)
    assert event_record_parts(committed)[3] == {"seat": 0}, "the public form is the seat alone"
    assert refusal(GAME, state, 2, ReallocateResources(5, 1)) == "SUM_MISMATCH"
    assert refusal(GAME, state, 1, ReallocateResources(0, 0)) == "NOT_YOUR_TURN"  # the rules file's NOT_AWAITED
    events = run(state, 2, ReallocateResources(5, 0))
    assert events[1] == ReallocationsRevealed(
        1,
        2,
        [
            {"seat": 0, "temples": 4, "cities": 1},
            {"seat": 1, "temples": 0, "cities": 0},
            {"seat": 2, "temples": 5, "cities": 0},
        ],
    )
    with pytest.raises(RuleViolation) as bad:
        parse_command(GAME.command_types, {"type": "reallocate_resources", "temples": 1, "cities": 1, "armies": 3})
    assert bad.value.code == "BAD_INPUT"


def test_e18_temples_again_in_later_rounds_a_city_only_once() -> None:
    """R40, R41, R53, R54: temples may be added in later rounds; a city site takes one city."""
    armies = {0: {"4.2": 1}, 1: {"4.2": 1}, 2: {"4.2": 1}}
    state = at_evaluation(
        3, 4, 1, {0: (3, 0), 1: (0, 2), 2: (1, 0)}, armies, [("4.2", "temple", 0), ("4.2", "city", 1)]
    )
    events = settle(state)
    assert TempleBuilt(4, 1, "4.2", 0, {"0": 3}, 1, 3) in events
    assert CityFounded(4, 1, "4.2", 1, {"1": 2}, 2, 5) in events
    state2 = at_evaluation(3, 4, 2, {0: (2, 0), 1: (0, 0), 2: (1, 0)}, armies, [("4.2", "temple", 0)])
    state2.temples, state2.cities = state.temples, state.cities
    state2.seats[0].temples_built, state2.seats[1].cities_built = 1, 1
    vp = state2.seats[0].vp
    events = settle(state2)
    assert TempleBuilt(4, 2, "4.2", 0, {"0": 2}, 1, 3) in events
    assert state2.temples["4.2"] == [0, 0]
    assert state2.seats[0].vp - vp == 3, "the first temple is not scored again (and 1-1-1 armies score nothing)"
    turn = at_turn(3, 4, 2, 2, boxes={2: (1, 0)}, armies=armies)
    turn.cities = dict(state2.cities)
    turn.step = BUILD
    assert refusal(GAME, turn, 2, builds(("4.2", "city"))) == "CITY_EXISTS"
    state3 = at_evaluation(3, 4, 3, {0: (1, 0), 2: (1, 0)}, armies, [("4.2", "temple", 0), ("4.2", "temple", 2)])
    state3.temples = {"4.2": [0, 0]}
    events = settle(state3)
    assert not of_type(events, TempleBuilt)
    assert state3.temples["4.2"] == [0, 0]


def test_e19_province_majority_armies_on_the_symbol_do_not_count() -> None:
    """R46, Ruling R23: armies on the campaign symbol are in no province."""
    armies = {0: {"1.1": 1, "1.2": 3}, 1: {"1.2": 2, "1.4": 2, "C1": 4}, 2: {"1.2": 3}}
    state = at_evaluation(3, 1, 1, {}, armies, [])
    events = settle(state)
    expected = {"1.1": (0, 2), "1.2": (None, 0), "1.3": (None, 0), "1.4": (1, 2), "1.5": (None, 0), "1.6": (None, 0)}
    assert scored(events) == expected
    state = at_evaluation(3, 1, 2, {}, armies, [])
    assert scored(settle(state)) == expected


E20_TEMPLES = {1: (2, 1, 0), 2: (3, 3, 1), 3: (1, 2, 1), 4: (1, 1, 2), 5: (1, 1, 0), 6: (0, 0, 1)}
E20_CITIES = {1: (1, 0, 1), 2: (1, 0, 2), 3: (0, 1, 1), 4: (1, 1, 1), 5: (0, 1, 0), 6: (1, 0, 1)}


def with_buildings(state: State, regions: range) -> State:
    """Place E20's pieces: temples on the region's temple sites, one city per city site."""
    from domain.empire_builder.data import PROVINCES, REGIONS

    for region in regions:
        temple_site = next(p for p in REGIONS[region].provinces if PROVINCES[p].temple_site)
        city_sites = iter([p for p in REGIONS[region].provinces if PROVINCES[p].city_site])
        for seat, count in enumerate(E20_TEMPLES[region]):
            state.temples.setdefault(temple_site, []).extend([seat] * count)
            state.seats[seat].temples_built += count
        for seat, count in enumerate(E20_CITIES[region]):
            for _ in range(count):
                state.cities[next(city_sites)] = seat
            state.seats[seat].cities_built += count
    return state


def totals(awards: list[AwardScored], players: int) -> list[int]:
    gained = [0] * players
    for award in awards:
        if award.seat is not None:
            gained[award.seat] += award.vp
    return gained


def test_e20_final_scoring_with_ties_standard_and_variant() -> None:
    """R59, R60, V1: the final awards and their ties."""
    state = with_buildings(start(3)[0], range(1, 7))
    awards = final_awards(state)
    assert (awards[0].award, awards[0].seat, awards[0].vp) == ("most_cities", 2, 10)
    assert (awards[1].award, awards[1].seat, awards[1].vp) == ("most_temples", None, 0)
    region_cities = {a.region: a.seat for a in awards if a.award == "region_cities"}
    region_temples = {a.region: a.seat for a in awards if a.award == "region_temples"}
    assert region_cities == {1: None, 2: 2, 3: None, 4: None, 5: 1, 6: None}
    assert region_temples == {1: 0, 2: None, 3: 1, 4: 2, 5: None, 6: 2}
    assert [a.award for a in awards[2:4]] == ["region_cities", "region_temples"], "cities before temples"
    assert totals(awards, 3) == [5, 10, 25]
    state = with_buildings(start(3, region_scoring_variant=True)[0], range(1, 7))
    awards = final_awards(state)
    assert [(a.award, a.seat, a.vp) for a in awards[:2]] == [("most_cities", 2, 10), ("most_temples", None, 0)]
    assert [a.award for a in awards[2:]] == ["region_buildings"] * 6, "V1 replaces both region awards"
    assert {a.region: a.seat for a in awards if a.award == "region_buildings"} == {1: 0, 2: 0, 3: 1, 4: 2, 5: 1, 6: 2}
    assert {a.vp for a in awards[2:]} == {5}
    assert totals(awards, 3) == [10, 10, 20]


def test_e21_short_game_start_end_and_halving() -> None:
    """V2, Ruling R20, R58, R61, Ruling R63: the short game."""
    state, events = start(3, short_game=True)
    assert events == [CampaignStarted(2, 2, "C2", True)]
    events = allocate(state, {s: (0, 5, 5, 5) for s in range(3)})
    assert TurnOrderSet(2, [0, 1, 2], {}) in events, "R19(b), the first-campaign rule, in campaign 2"
    state = at_evaluation(3, 4, 1, {}, {0: {"4.5": 1}}, [], short_game=True)
    state.goal_reached = True
    with_buildings(state, range(2, 5))
    vp = [p.vp for p in state.seats]
    events = settle(state)
    assert CampaignEnded(4, "goal_reached") in events and isinstance(events[-1], GameEnded)
    awards = of_type(events, AwardScored)
    assert [(a.award, a.seat, a.vp) for a in awards[:2]] == [("most_cities", 2, 5), ("most_temples", 1, 7)]
    # R59 names regions 1..6 and V2 leaves that unchanged: the unplayed regions 1, 5, 6 go to nobody (R60)
    assert {a.region: a.seat for a in awards if a.award == "region_temples"} == {
        1: None,
        2: None,
        3: 1,
        4: 2,
        5: None,
        6: None,
    }
    assert {a.region: a.seat for a in awards if a.award == "region_cities"} == {
        1: None,
        2: 2,
        3: None,
        4: None,
        5: None,
        6: None,
    }
    assert [a.region for a in awards[2:]] == [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6], (
        "cities then temples, region by region"
    )
    assert totals(awards, 3) == [0, 9, 9]
    assert [p.vp - v for p, v in zip(state.seats, vp, strict=True)] == [2 + 0, 9, 9]  # seat 0 also held 4.5
    state = at_evaluation(3, 4, 3, {}, {}, [], short_game=True, region_scoring_variant=True)
    with_buildings(state, range(2, 5))
    events = settle(state)
    assert CampaignEnded(4, "round_limit") in events
    combined = {a.region: (a.seat, a.vp) for a in of_type(events, AwardScored) if a.award == "region_buildings"}
    assert combined == {1: (None, 0), 2: (0, 2), 3: (1, 2), 4: (2, 2), 5: (None, 0), 6: (None, 0)}, "Ruling R63"


def test_e22_building_refusals() -> None:
    """R38, R10, Ruling R39, R40, Ruling R42: the building refusals."""
    state = at_turn(2, 2, 1, 0, armies={0: {"2.1": 2, "2.2": 1}})
    state.step = BUILD
    state.seats[0].temples_built = 9
    assert refusal(GAME, state, 0, builds(("2.3", "city"))) == "NO_ARMY"
    assert refusal(GAME, state, 0, builds(("2.1", "city"))) == "NO_SITE"
    assert refusal(GAME, state, 0, builds(("2.2", "temple"), ("2.2", "temple"))) == "DUPLICATE_ATTEMPT"
    assert refusal(GAME, state, 0, builds(("2.1", "temple"), ("2.2", "temple"))) == "NO_PIECE"
    events = run(state, 0, builds(("2.2", "temple"), ("2.2", "city")))
    assert events[:2] == [BuildAttempted(0, "2.2", "temple"), BuildAttempted(0, "2.2", "city")]


def test_e23_passing_through_the_goal() -> None:
    """Ruling R36: passing through the goal is entering it."""
    state = at_turn(3, 3, 2, 2, boxes={2: (3, 1)}, armies={2: {"3.3": 1}})
    events = run(state, 2, move([("3.3", 1, ["3.5", "3.4"])], (3, 0)))
    assert types(events) == ["ArmyMoved", "MovementPaid", "GoalReached"]
    assert events[-1] == GoalReached(3, 2, 2, "3.5")
    assert state.seats[2].at == {"3.4": 1}
    assert build_options(state, 2) == [("3.4", "temple")]
    assert refusal(GAME, state, 2, builds(("3.5", "temple"))) == "NO_ARMY"
    events = run(state, 2, builds(("3.4", "temple")))
    assert CampaignEnded(3, "goal_reached") in events


def test_e24_movement_needs_cubes_in_temples_or_cities() -> None:
    """R32: movement is paid from temples and/or cities only."""
    state = at_turn(2, 5, 1, 0, boxes={0: (0, 1)}, armies={0: {"C5": 3}})
    assert refusal(GAME, state, 0, move([("C5", 3, ["5.1", "5.4"])], (0, 1))) == "PAYMENT_MISMATCH"
    assert refusal(GAME, state, 0, move([("C5", 3, ["5.1", "5.4"])], (0, 2))) == "CANNOT_PAY"
    events = run(state, 0, move([("C5", 3, ["5.1", "5.2", "5.4"])], (0, 1)))
    assert events[:2] == [ArmyMoved(0, "C5", 3, ["5.1", "5.2", "5.4"], 1), MovementPaid(0, 0, 1)]
