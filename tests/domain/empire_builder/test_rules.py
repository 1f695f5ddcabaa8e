"""The numbered rules and rulings of the rules file §3-§8, and every error code of §10.2."""

from __future__ import annotations

import json

import pytest

from domain.empire_builder import GAME
from domain.empire_builder.commands import AllocateResources, AttemptBuilds, ChooseTurnPosition, MoveArmies
from domain.empire_builder.data import ARROWS, REGIONS
from domain.empire_builder.events import (
    AllocationCommitted,
    ArmyMoved,
    BuildAttempted,
    BuildingPassed,
    CampaignStarted,
    GameEnded,
    GoalReached,
    LotDrawn,
    MovementPaid,
    MovementPassed,
    ProvinceScored,
    ReallocationsRevealed,
    RoundStarted,
    TempleBuilt,
    TurnOrderSet,
    TurnStarted,
)
from domain.empire_builder.rules import Group, group_costs
from domain.empire_builder.state import BUILD, GAME_OVER, TURNS
from domain.kernel import Chance, RuleViolation, engine
from domain.kernel.log import event_record_parts
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

# -- §3 setup ---------------------------------------------------------------------------------------


def test_options_defaults_and_refusals() -> None:
    assert GAME.normalize_options(3, {}) == {"short_game": False, "region_scoring_variant": False, "oldest_seat": 0}
    for bad in ({"oldest_seat": 3}, {"oldest_seat": -1}, {"short_game": 1}, {"walls": True}, {"oldest_seat": True}):
        with pytest.raises(RuleViolation) as refusal:
            GAME.normalize_options(3, bad)
        assert refusal.value.code == "BAD_OPTIONS"


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_setup_starts_campaign_1_with_every_seat_awaited(players: int) -> None:
    state, events = start(players)
    assert events == [CampaignStarted(1, 1, "C1", True)]
    assert GAME.awaited(state) == {s: ("allocate_resources",) for s in range(players)}
    view = GAME.view(state, 0)
    assert view["phase"] == "allocation" and all(seat["boxes"] is None for seat in view["seats"])
    assert all(p.vp == 0 and p.temples_built == 0 and p.cities_built == 0 for p in state.seats)


def test_r1_player_counts_outside_2_to_5_are_refused() -> None:
    for players in (1, 6):
        with pytest.raises(RuleViolation) as refusal:
            engine.check_player_count(GAME, players)
        assert refusal.value.code == "BAD_PLAYER_COUNT"


# -- §5.3 allocation and turn order ---------------------------------------------------------------


def test_r14_allocation_must_use_all_15_cubes() -> None:
    state, _ = start(2)
    assert refusal(GAME, state, 0, AllocateResources(1, 5, 5, 5)) == "SUM_NOT_15"
    assert refusal(GAME, state, 0, AllocateResources(0, 5, 5, 4)) == "SUM_NOT_15"
    assert refusal(GAME, state, 0, AllocateResources(-1, 6, 5, 5)) == "BAD_INPUT"  # the rules file's INVALID_FIELD
    assert run(state, 0, AllocateResources(15, 0, 0, 0)) == [AllocationCommitted(0, 15, 0, 0, 0)]


def test_r14_a_commit_cannot_be_changed() -> None:
    state, _ = start(3)
    run(state, 0, AllocateResources(0, 5, 5, 5))
    assert refusal(GAME, state, 0, AllocateResources(1, 4, 5, 5)) == "NOT_YOUR_TURN"  # the rules file's NOT_AWAITED


def test_s8_allocation_committed_is_private_and_its_public_form_is_the_seat() -> None:
    event = AllocationCommitted(2, 1, 4, 5, 5)
    _, data, viewers, public = event_record_parts(event)
    assert viewers == frozenset({2}) and public == {"seat": 2}
    assert data == {"seat": 2, "turn_order": 1, "armies": 4, "temples": 5, "cities": 5}


def test_s8_own_commit_is_in_own_view_only() -> None:
    state, _ = start(3)
    run(state, 1, AllocateResources(2, 4, 5, 4))
    assert GAME.view(state, 1)["my_sealed_commit"] == {"turn_order": 2, "armies": 4, "temples": 5, "cities": 4}
    for viewer in (0, 2, None):
        view = GAME.view(state, viewer)
        assert view["my_sealed_commit"] is None
        assert view["seats"][1]["committed"] and view["seats"][1]["boxes"] is None
        assert "2, 4, 5, 4" not in json.dumps(view)


def test_r15_r23_reveal_puts_every_army_on_the_symbol() -> None:
    state, _ = start(3)
    allocate(state, {0: (0, 5, 5, 5), 1: (0, 0, 10, 5), 2: (0, 7, 4, 4)})
    assert [p.at for p in state.seats] == [{"C1": 5}, {}, {"C1": 7}]
    assert GAME.view(state, None)["seats"][2]["boxes"] == {
        "turn_order": 0,
        "armies": 7,
        "temples": 4,
        "cities": 4,
        "spent": 0,
    }


def test_r17_a_single_top_bidder_chooses_without_a_lot() -> None:
    state, _ = start(3)
    GAME.evolve(state, CampaignStarted(2, 2, "C2", False))
    for seat, vp in enumerate([3, 8, 1]):
        state.seats[seat].vp = vp
    events = allocate(state, {0: (4, 4, 4, 3), 1: (1, 5, 5, 4), 2: (0, 5, 5, 5)})
    assert not of_type(events, LotDrawn)
    assert GAME.awaited(state) == {0: ("choose_turn_position",)}
    events = run(state, 0, ChooseTurnPosition(2))
    assert TurnOrderSet(2, [1, 0, 2], {"0": 4, "1": 1}) in events, "the others by VP fill the free positions"


def test_choose_turn_position_refusals() -> None:
    state, _ = start(3)
    allocate(state, {0: (1, 4, 5, 5), 1: (0, 5, 5, 5), 2: (0, 5, 5, 5)})
    assert refusal(GAME, state, 0, ChooseTurnPosition(0)) == "POSITION_OUT_OF_RANGE"
    assert refusal(GAME, state, 0, ChooseTurnPosition(4)) == "POSITION_OUT_OF_RANGE"
    assert refusal(GAME, state, 0, ChooseTurnPosition(True)) == "BAD_INPUT"  # the rules file's INVALID_FIELD
    assert refusal(GAME, state, 1, ChooseTurnPosition(1)) == "NOT_YOUR_TURN", "not his choice (NOT_AWAITED)"
    assert refusal(GAME, state, 0, AllocateResources(0, 5, 5, 5)) == "WRONG_PHASE"


def test_r17_a_chooser_may_take_the_last_position() -> None:
    state, _ = start(2)
    GAME.evolve(state, CampaignStarted(3, 3, "C3", False))
    allocate(state, {0: (0, 5, 5, 5), 1: (1, 5, 5, 4)})
    events = run(state, 1, ChooseTurnPosition(2))
    assert TurnOrderSet(3, [0, 1], {"1": 1}) in events


def test_r17_b_lots_for_vp_ties_are_drawn_group_by_group_in_descending_vp() -> None:
    state, _ = start(5)
    GAME.evolve(state, CampaignStarted(2, 2, "C2", False))
    for seat, vp in enumerate([4, 9, 4, 9, 1]):
        state.seats[seat].vp = vp
    chance = ScriptedChance([[3, 1], [2, 0]])
    events = allocate(state, {s: (0, 5, 5, 5) for s in range(5)}, chance)
    lots = of_type(events, LotDrawn)
    assert [(lot.candidates, lot.order) for lot in lots] == [([1, 3], [3, 1]), ([0, 2], [2, 0])]
    assert TurnOrderSet(2, [3, 1, 2, 0, 4], {}) in events


def test_r19_first_campaign_ranks_by_bid_then_armies_then_temples() -> None:
    state, _ = start(3)
    events = allocate(state, {0: (1, 4, 5, 5), 1: (1, 4, 6, 4), 2: (0, 9, 6, 0)})
    assert not of_type(events, LotDrawn)
    assert GAME.awaited(state) == {1: ("choose_turn_position",)}
    run(state, 1, ChooseTurnPosition(3))
    assert GAME.awaited(state) == {0: ("choose_turn_position",)}
    events = run(state, 0, ChooseTurnPosition(2))
    assert TurnOrderSet(1, [2, 0, 1], {"0": 1, "1": 1}) in events


def test_r19_and_r20_short_game_uses_the_first_campaign_rule_in_campaign_2_only() -> None:
    state, _ = start(2, short_game=True, oldest_seat=1)
    events = allocate(state, {0: (0, 5, 5, 5), 1: (0, 5, 5, 5)})
    assert TurnOrderSet(2, [1, 0], {}) in events


def test_r22_turn_order_cubes_are_spent_and_come_back_next_campaign() -> None:
    state, _ = start(2)
    allocate(state, {0: (3, 4, 4, 4), 1: (0, 5, 5, 5)})
    run(state, 0, ChooseTurnPosition(1))
    assert (state.seats[0].turn_order, state.seats[0].spent) == (0, 3)
    GAME.evolve(state, CampaignStarted(2, 2, "C2", False))
    assert (state.seats[0].turn_order, state.seats[0].spent, state.seats[0].at) == (0, 0, {})


# -- §5.4 reallocation ------------------------------------------------------------------------------


def test_r25_reallocation_is_skipped_without_events_when_nobody_has_cubes() -> None:
    state = at_evaluation(2, 2, 1, {0: (0, 0), 1: (0, 0)}, {0: {"C2": 1}}, [])
    events = settle(state)
    i = events.index(RoundStarted(2, 2))
    assert events[i + 1] == TurnStarted(2, 2, 0, 1)
    assert not of_type(events, ReallocationsRevealed)


def test_r24_reallocation_reveal_keeps_boxes_of_seats_not_awaited() -> None:
    state = at_evaluation(2, 2, 1, {0: (0, 3), 1: (0, 0)}, {}, [])
    settle(state)
    assert GAME.awaited(state) == {0: ("reallocate_resources",)}
    assert refusal(GAME, state, 0, AllocateResources(0, 5, 5, 5)) == "WRONG_PHASE"
    assert refusal(GAME, state, 0, GAME.command_types["reallocate_resources"](-1, 4)) == "BAD_INPUT"
    events = run(state, 0, GAME.command_types["reallocate_resources"](2, 1))
    assert events[1] == ReallocationsRevealed(
        2, 2, [{"seat": 0, "temples": 2, "cities": 1}, {"seat": 1, "temples": 0, "cities": 0}]
    )


# -- §5.5 turns ---------------------------------------------------------------------------------------


def test_r27_movement_is_skipped_without_armies_and_building_without_an_attempt() -> None:
    state = at_turn(2, 2, 1, 0, boxes={0: (3, 3)}, armies={1: {"C2": 2}})
    state.step = "done"
    state.position = -1
    events = settle(state)
    assert types(events)[:2] == ["TurnStarted", "TurnStarted"], "seat 0 has no armies and no attempt: skipped"
    assert GAME.awaited(state) == {1: ("move_armies",)}
    events = run(state, 1, move([("C2", 2, ["2.1", "2.2", "2.3"])]))
    assert GAME.awaited(state) == {1: ("attempt_builds",)}
    state2 = at_turn(2, 1, 1, 0, armies={0: {"C1": 2}})
    events = run(state2, 0, MoveArmies([], 0, 0))
    assert events[:3] == [MovementPassed(1, 1, 0), TurnStarted(1, 1, 1, 2), ProvinceScored(1, 1, "1.1", {}, None, 0)], (
        "on C1 no building attempt is possible, so the step is skipped (and seat 1 has no armies)"
    )


@pytest.mark.parametrize(
    ("armies", "boxes", "awaited"),
    [
        ({"2.6": 2}, (5, 5), "attempt_builds"),  # Kilikia has no arrow out: stay is the only outcome
        ({"2.3": 1}, (0, 0), "move_armies"),  # free arrows out of Karia-Lykia
        ({"2.5": 1}, (0, 0), "attempt_builds"),  # Kappadokia's only exit costs 1 and the boxes are empty
        ({"2.5": 1}, (1, 0), "move_armies"),
        ({"2.5": 1}, (0, 1), "move_armies"),  # R32: either box pays
        ({"2.5": 1, "2.6": 1}, (0, 0), "attempt_builds"),
        ({"C2": 1, "2.6": 1}, (0, 0), "move_armies"),  # the campaign arrow is free (Ruling R12)
    ],
)
def test_r27_movement_is_skipped_when_no_army_can_pay_for_any_arrow(
    armies: dict[str, int], boxes: tuple[int, int], awaited: str
) -> None:
    state = at_turn(2, 2, 2, 0, boxes={0: boxes}, armies={0: armies, 1: {"2.1": 1}})
    assert GAME.awaited(state) == {0: (awaited,)}
    if awaited == "attempt_builds":
        assert not of_type(settle(state), MovementPassed), "a skipped step emits no event"
        assert refusal(GAME, state, 0, MoveArmies([], 0, 0)) == "WRONG_PHASE"
        assert GAME.view(state, None)["phase"] == "turn_build"


def test_r27_a_turn_with_neither_decision_is_skipped_after_turn_started() -> None:
    state = at_turn(2, 6, 1, 0, boxes={0: (0, 0)}, armies={0: {"6.6": 1}, 1: {"C6": 1}})
    state.step = "done"
    state.position = -1
    events = settle(state)
    assert types(events) == ["TurnStarted", "TurnStarted"], "Arachosia has no site and its exits cost 1 and 2"
    assert GAME.awaited(state) == {1: ("move_armies",)}


def test_r26_moving_then_building_and_empty_commands() -> None:
    state = at_turn(2, 2, 1, 0, boxes={0: (1, 1)}, armies={0: {"2.1": 1}})
    assert refusal(GAME, state, 0, builds(("2.1", "temple"))) == "WRONG_PHASE", "no building before moving"
    assert run(state, 0, MoveArmies([], 0, 0))[0] == MovementPassed(2, 1, 0)
    assert refusal(GAME, state, 0, MoveArmies([], 0, 0)) == "WRONG_PHASE", "no moving after the movement step"
    assert run(state, 0, AttemptBuilds([]))[0] == BuildingPassed(2, 1, 0)


# -- §5.6 movement ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("groups", "pay", "code"),
    [
        ([("9.9", 1, ["2.1"])], (0, 0), "UNKNOWN_LOCATION"),
        ([("C2", 1, ["2.1", "Troy"])], (0, 0), "UNKNOWN_LOCATION"),
        ([("C1", 1, ["1.1"])], (0, 0), "NOT_IN_CURRENT_REGION"),
        ([("C2", 1, ["2.1", "C2"])], (0, 0), "NOT_IN_CURRENT_REGION"),
        ([("C2", 1, ["1.1"])], (0, 0), "NOT_IN_CURRENT_REGION"),
        ([("C2", 0, ["2.1"])], (0, 0), "EMPTY_GROUP"),
        ([("C2", 1, [])], (0, 0), "EMPTY_GROUP"),
        ([("C2", 1, ["2.1", "2.2", "2.3", "2.2"])], (0, 0), "PATH_TOO_LONG"),
        ([("C2", 1, ["2.2"])], (0, 0), "NO_ARROW"),
        ([("2.1", 1, ["2.2"])], (0, 0), "NOT_ENOUGH_ARMIES"),
        ([("C2", 2, ["2.1"]), ("C2", 2, ["2.1", "2.2"])], (0, 0), "NOT_ENOUGH_ARMIES"),
        ([("C2", 1, ["2.1", "2.4", "2.5"])], (0, 0), "PAYMENT_MISMATCH"),
        ([], (1, 0), "PAYMENT_MISMATCH"),
        ([("C2", 1, ["2.1", "2.4", "2.6"])], (2, 0), "CANNOT_PAY"),
        ([("C2", -1, ["2.1"])], (0, 0), "BAD_INPUT"),
        ([("C2", 1, ["2.1"])], (-1, 1), "BAD_INPUT"),
    ],
)
def test_move_armies_refusals(groups: list, pay: tuple[int, int], code: str) -> None:
    state = at_turn(2, 2, 1, 0, boxes={0: (1, 5)}, armies={0: {"C2": 3}})
    assert refusal(GAME, state, 0, move(groups, pay)) == code


def test_move_armies_checks_run_in_the_listed_order_over_all_groups() -> None:
    state = at_turn(2, 2, 1, 0, boxes={0: (1, 5)}, armies={0: {"C2": 3}})
    too_long = ("C2", 1, ["2.1", "2.2", "2.3", "2.2"])
    assert refusal(GAME, state, 0, move([too_long, ("Pella", 1, ["2.1"])])) == "UNKNOWN_LOCATION"
    assert refusal(GAME, state, 0, move([too_long, ("C2", 0, ["2.1"])])) == "EMPTY_GROUP"
    assert refusal(GAME, state, 0, move([("C2", 9, ["2.2"])])) == "NO_ARROW"


def test_move_armies_malformed_groups_are_bad_input() -> None:
    state = at_turn(2, 2, 1, 0, boxes={0: (1, 5)}, armies={0: {"C2": 3}})
    for groups in (
        [{"from": "C2", "count": 1}],
        ["C2"],
        [{"from": 2, "count": 1, "path": []}],
        [{"from": "C2", "count": "1", "path": ["2.1"]}],
        [{"from": "C2", "count": 1, "path": "2.1"}],
    ):
        assert refusal(GAME, state, 0, MoveArmies(groups, 0, 0)) == "BAD_INPUT"


def test_r12_the_campaign_arrow_is_free_and_counts_as_a_move() -> None:
    for k, region in REGIONS.items():
        assert ARROWS[region.symbol] == {f"{k}.1": 0}
    state = at_turn(2, 4, 1, 0, armies={0: {"C4": 2}})
    assert refusal(GAME, state, 0, move([("C4", 1, ["4.1", "4.2", "4.1", "4.2"])])) == "PATH_TOO_LONG"
    events = run(state, 0, move([("C4", 1, ["4.1", "4.2", "4.3"])]))
    assert events[0] == ArmyMoved(0, "C4", 1, ["4.1", "4.2", "4.3"], 0)
    assert not of_type(events, MovementPaid)


def test_r32_movement_is_paid_from_both_boxes_and_spent() -> None:
    state = at_turn(2, 2, 2, 0, boxes={0: (1, 1)}, armies={0: {"2.4": 2}})
    assert refusal(GAME, state, 0, move([("2.4", 2, ["2.6"])], (2, 0))) == "CANNOT_PAY"
    events = run(state, 0, move([("2.4", 2, ["2.6"])], (1, 1)))
    assert MovementPaid(0, 1, 1) in events
    player = state.seats[0]
    assert (player.temples, player.cities, player.spent, player.armies) == (0, 0, 2, 2), "armies never pay"


def test_r31_paths_may_revisit_and_armies_may_stay() -> None:
    state = at_turn(2, 2, 1, 0, armies={0: {"C2": 3}})
    events = run(state, 0, move([("C2", 1, ["2.1", "2.2", "2.1"])]))
    assert events[0] == ArmyMoved(0, "C2", 1, ["2.1", "2.2", "2.1"], 0)
    assert state.seats[0].at == {"C2": 2, "2.1": 1}, "armies not in a group stay where they are"


def test_r30_armies_left_on_the_symbol_enter_in_a_later_round() -> None:
    state = at_turn(2, 2, 2, 0, armies={0: {"C2": 1, "2.3": 1}})
    events = run(state, 0, move([("C2", 1, ["2.1"]), ("2.3", 1, ["2.2"])]))
    assert [e.from_ for e in of_type(events, ArmyMoved)] == ["C2", "2.3"]


def test_r33_r34_shared_prefixes_are_paid_once_per_start_location() -> None:
    assert group_costs([Group("2.4", 1, ("2.6",)), Group("2.4", 1, ("2.6",))]) == [2, 0]
    assert group_costs([Group("2.4", 1, ("2.5", "2.4")), Group("2.4", 1, ("2.5",))]) == [2, 0]
    assert group_costs([Group("2.4", 1, ("2.5",)), Group("2.2", 1, ("2.4", "2.5"))]) == [1, 2]
    # the same arrow crossed at a different point of the path is another prefix
    assert group_costs([Group("2.2", 1, ("2.4", "2.2")), Group("2.2", 1, ("2.1", "2.2", "2.4"))]) == [2, 1]


def test_r36_goal_reached_only_for_the_campaigns_first_entry() -> None:
    state = at_turn(2, 2, 1, 0, boxes={0: (2, 0), 1: (2, 0)}, armies={0: {"2.4": 1}, 1: {"2.4": 1}})
    events = run(state, 0, move([("2.4", 1, ["2.6"])], (2, 0)))
    assert isinstance(events[-1], GoalReached)
    run(state, 0, AttemptBuilds([]))
    events = run(state, 1, move([("2.4", 1, ["2.6"])], (2, 0)))
    assert not of_type(events, GoalReached)


def test_r37_the_round_is_completed_after_the_goal() -> None:
    state = at_turn(3, 4, 1, 0, boxes={0: (1, 0)}, armies={0: {"4.3": 1}, 1: {"4.1": 1}, 2: {"4.1": 1}})
    run(state, 0, move([("4.3", 1, ["4.5"])], (1, 0)))
    events = run(state, 0, AttemptBuilds([]))
    assert events[-1] == TurnStarted(4, 1, 1, 2)
    run(state, 1, MoveArmies([], 0, 0))
    events = run(state, 1, AttemptBuilds([]))
    assert events[-1] == TurnStarted(4, 1, 2, 3)


# -- §5.7 building attempts -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("attempts", "code"),
    [
        ([("C2", "temple")], "UNKNOWN_PROVINCE"),
        ([("9.1", "temple")], "UNKNOWN_PROVINCE"),
        ([("3.2", "temple")], "NOT_IN_CURRENT_REGION"),
        ([("2.4", "city")], "NO_SITE"),
        ([("2.3", "city")], "NO_ARMY"),
        ([("2.2", "city")], "CITY_EXISTS"),
        ([("2.4", "temple"), ("2.4", "temple")], "DUPLICATE_ATTEMPT"),
    ],
)
def test_attempt_builds_refusals(attempts: list[tuple[str, str]], code: str) -> None:
    state = at_turn(2, 2, 1, 0, armies={0: {"2.2": 1, "2.4": 1}, 1: {"2.3": 1}})
    state.cities["2.2"] = 1
    state.step = BUILD
    assert refusal(GAME, state, 0, builds(*attempts)) == code


def test_attempt_builds_malformed_entries_are_bad_input() -> None:
    state = at_turn(2, 2, 1, 0, armies={0: {"2.2": 1}})
    state.step = BUILD
    for attempts in ([{"province": "2.2"}], [{"province": "2.2", "kind": "wall"}], ["2.2"]):
        assert refusal(GAME, state, 0, AttemptBuilds(attempts)) == "BAD_INPUT"


def test_r44_attempts_are_public_and_are_decided_only_at_the_evaluation() -> None:
    state = at_turn(2, 2, 1, 0, boxes={0: (1, 0)}, armies={0: {"2.1": 1}, 1: {"C2": 1}})
    run(state, 0, MoveArmies([], 0, 0))
    attempted = run(state, 0, builds(("2.1", "temple")))[0]
    assert attempted == BuildAttempted(0, "2.1", "temple")
    assert event_record_parts(attempted)[2] is None, "public"
    assert GAME.view(state, 1)["provinces"][0]["attempts"] == [{"kind": "temple", "seat": 0}]
    assert state.temples == {} and state.seats[0].temples == 1, "nothing is paid or built yet"
    events = run(state, 1, MoveArmies([], 0, 0))
    assert TempleBuilt(2, 1, "2.1", 0, {"0": 1}, 1, 3) in events
    assert state.temples == {"2.1": [0]} and state.seats[0].temples == 0


def test_r42_no_piece_for_cities_and_r41_r43_temple_with_empty_box_where_own_temple_stands() -> None:
    state = at_turn(2, 2, 1, 0, boxes={0: (0, 0)}, armies={0: {"2.2": 1, "2.3": 1}})
    state.step = BUILD
    state.seats[0].cities_built = 7
    state.temples["2.2"] = [0]
    assert refusal(GAME, state, 0, builds(("2.2", "city"), ("2.3", "city"))) == "NO_PIECE"
    events = run(state, 0, builds(("2.2", "temple"), ("2.2", "city")))
    assert types(events)[:2] == ["BuildAttempted", "BuildAttempted"]


def test_r42_no_piece_left_means_no_attempt_is_offered() -> None:
    state = at_turn(2, 2, 1, 0, armies={0: {"2.1": 1}})
    state.seats[0].temples_built = 10
    events = run(state, 0, MoveArmies([], 0, 0))
    assert events[1] == TurnStarted(2, 1, 1, 2), "no building step for seat 0"


# -- §5.8 evaluation ------------------------------------------------------------------------------


def test_r9_r45_r46_every_province_is_scored_in_number_order_even_when_empty() -> None:
    state = at_evaluation(2, 6, 1, {}, {0: {"6.7": 2}, 1: {"6.7": 1, "6.1": 1}}, [])
    events = settle(state)
    scored = of_type(events, ProvinceScored)
    assert [e.province for e in scored] == [f"6.{n}" for n in range(1, 8)]
    assert scored[0] == ProvinceScored(6, 1, "6.1", {"1": 1}, 1, 2)
    assert scored[6] == ProvinceScored(6, 1, "6.7", {"0": 2, "1": 1}, 0, 2)
    assert scored[1] == ProvinceScored(6, 1, "6.2", {}, None, 0)


def test_r54_buildings_score_only_in_the_round_they_are_built() -> None:
    state = at_evaluation(2, 2, 1, {0: (1, 0)}, {0: {"2.1": 1}, 1: {"2.1": 1}}, [])
    state.temples["2.1"] = [0]
    state.seats[0].temples_built = 1
    events = settle(state)
    assert not of_type(events, ProvinceScored)[0].vp
    assert state.seats[0].vp == 0


# -- §6 the end -----------------------------------------------------------------------------------


def test_r57_r58_r62_game_ends_after_campaign_6_and_ties_share_the_victory() -> None:
    state = at_evaluation(2, 6, 3, {}, {}, [])
    state.seats[0].vp = state.seats[1].vp = 30
    events = settle(state)
    assert types(events)[-1] == "GameEnded"
    ended = events[-1]
    assert isinstance(ended, GameEnded)
    assert ended.winners == [0, 1] and ended.scores == {"0": 30, "1": 30}
    assert ended.seed == Chance(b"test").seed_hex
    assert state.phase == GAME_OVER and GAME.is_over(state) and GAME.awaited(state) == {}
    board = GAME.scoreboard(state)
    assert board.final and board.winners == [0, 1] and board.placings == [1, 1]
    assert refusal(GAME, state, 0, MoveArmies([], 0, 0)) == "GAME_OVER"


def test_r60_nobody_wins_an_award_with_zero_buildings() -> None:
    state = at_evaluation(3, 6, 3, {}, {}, [])
    events = settle(state)
    awards = [e for e in events if e.type == "AwardScored"]
    assert len(awards) == 2 + 2 * 6
    assert all(a.seat is None and a.vp == 0 for a in awards)


def test_scoreboard_while_playing_is_not_final() -> None:
    state = at_turn(3, 2, 1, 0)
    for seat, vp in enumerate([4, 9, 4]):
        state.seats[seat].vp = vp
    board = GAME.scoreboard(state)
    assert (board.final, board.scores, board.placings, board.winners) == (False, [4, 9, 4], [2, 1, 2], [])


def test_view_in_turns_names_the_step() -> None:
    state = at_turn(2, 2, 1, 1, armies={1: {"C2": 1}})
    view = GAME.view(state, 0)
    assert view["phase"] == "turn_move" and view["active_seat"] == 1 and view["awaited"] == {"1": ["move_armies"]}
    assert state.phase == TURNS


def test_army_moved_is_recorded_with_the_field_from() -> None:
    event = ArmyMoved(0, "C2", 2, ["2.1"], 0)
    _, data, viewers, _ = event_record_parts(event)
    assert viewers is None
    assert data == {"seat": 0, "from": "C2", "count": 2, "path": ["2.1"], "cost": 0}
    assert ArmyMoved.from_dict(json.loads(json.dumps(data))) == event


def test_view_shows_the_current_region_as_a_board() -> None:
    state = at_turn(2, 2, 1, 0, armies={0: {"2.2": 2}, 1: {"2.2": 1, "C2": 1}})
    state.attempts = [("2.2", "temple", 1)]
    state.cities["2.3"] = 0
    provinces = GAME.view(state, None)["provinces"]
    assert [p["province"] for p in provinces] == ["2.1", "2.2", "2.3", "2.4", "2.5", "2.6"]
    assert provinces[1] == {
        "province": "2.2",
        "name": "Lydia-Ionia",
        "temple_site": True,
        "city_site": True,
        "armies": {"0": 2, "1": 1},
        "temples": [],
        "city": None,
        "attempts": [{"kind": "temple", "seat": 1}],
    }
    assert provinces[2]["city"] == 0


def test_r2_each_seat_starts_with_10_temples_and_8_cities_in_supply() -> None:
    state, _ = start(5)
    for seat in GAME.view(state, None)["seats"]:
        assert (seat["temples_in_supply"], seat["cities_in_supply"]) == (10, 8)


def test_r16_the_turn_order_holds_for_every_round_of_the_campaign() -> None:
    state = at_evaluation(3, 2, 1, {}, {s: {"C2": 1} for s in range(3)}, [])
    state.order = [2, 0, 1]
    state.position = 2
    events = settle(state)
    assert events[-1] == TurnStarted(2, 2, 2, 1)


def test_r45_r52_majority_then_temple_then_city_and_one_seat_may_win_both() -> None:
    state = at_evaluation(
        2,
        5,
        1,
        {0: (2, 3), 1: (1, 2)},
        {0: {"5.3": 1}, 1: {"5.3": 1}},
        [("5.3", "city", 1), ("5.3", "temple", 1), ("5.3", "city", 0), ("5.3", "temple", 0)],
    )
    events = settle(state)
    at = next(i for i, e in enumerate(events) if isinstance(e, ProvinceScored) and e.province == "5.3")
    assert types(events)[at : at + 5] == [
        "ProvinceScored",
        "TempleBuilt",
        "BuildAttemptFailed",
        "CityFounded",
        "BuildAttemptFailed",
    ]
    assert [(e.type, getattr(e, "seat", None)) for e in events[at + 1 : at + 4 : 2]] == [
        ("TempleBuilt", 0),
        ("CityFounded", 0),
    ]
