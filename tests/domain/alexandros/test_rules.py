"""Tests for the numbered rules and rulings (R1-R72) and for every refusal code of section 10."""

from __future__ import annotations

import pytest

from domain.alexandros import GAME
from domain.alexandros.commands import EndTurn, LevyTaxes, MoveAlexander, OccupyProvince, RetireGovernor, TakeCard
from domain.alexandros.data import (
    BLACK_WALLS,
    IS_INTERIOR,
    POINT_SPACES,
    RED_WALLS,
    SPACE_SIDES,
    SYMBOL_SPACES,
    SYMBOLS,
    point_coord,
    side_coord,
)
from domain.alexandros.events import DisplayRefilled, ProvinceOccupied, WallBuilt
from domain.alexandros.moves import ROUTE_SAMPLES, legal_moves, listed_routes, route_count
from domain.alexandros.rules import closest_free_spaces, decide, is_free, provinces, tax_scoring
from domain.alexandros.state import ACTIONS, MOVE, OVER, TURN_OVER
from domain.kernel import Chance, RuleViolation, engine
from domain.kernel.messages import parse_command
from tests.domain.alexandros.fixtures import (
    F3_WALLS,
    add_walls,
    all_shortest_routes,
    chance,
    e5_state,
    e7_state,
    e15_state,
    fixture_f,
    hand,
    place,
    point,
    province_of,
    run,
    space,
    start_state,
    to_actions,
)
from tests.support.games import of_type, refusal

LYRE_EAST = MoveAlexander(source="display", slot=0, target=[2, 2], corner=[2, 4], path=[[0, 2], [1, 3], [2, 4]])
F3_ROUTE = [[0, 2], [1, 3], [2, 4], [3, 3]]


def lyre_south(path: list[list[int]] = F3_ROUTE) -> MoveAlexander:
    return MoveAlexander(source="display", slot=0, target=[2, 2], corner=[3, 3], path=path)


def started(players: int = 3, seed: bytes = b"setup"):
    return engine.start(GAME, players, GAME.normalize_options(players, {}), Chance(seed))


# -- setup (R12-R18) ------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_r12_to_r18_setup(players: int) -> None:
    state, events = started(players)
    kinds = [e.type for e in events]
    deal = ["CardTaken"] * players
    assert kinds == ["SupplyShuffled", *deal, "DisplayRefilled", "DisplayRefilled", "StartPlayerChosen", "TurnStarted"]
    order = events[0].order
    assert (
        events[0].reason == "setup"
        and events[0].count == 55
        and sorted(order) == sorted([s for s in SYMBOLS for _ in range(11)])
    )
    assert order == Chance(b"setup").shuffle("deck:0", [s for s in SYMBOLS for _ in range(11)])
    for seat, dealt in enumerate(events[1 : 1 + players]):
        assert (dealt.seat, dealt.source, dealt.card) == (seat, "deal", order[seat])
        assert dealt.viewers() == frozenset({seat}), "a dealt card is private to its seat"
    assert state.display == [order[players], order[players + 1]]
    assert len(state.supply) == 55 - players - 2
    assert events[-2].seat == Chance(b"setup").below("start_player", players)
    assert state.step == MOVE and state.turn == 1 and state.seat == events[-2].seat
    assert state.scores == [0] * players and state.governor_supply == [4] * players
    assert state.alexander == point([0, 2])
    assert (state.black_left, state.red_left) == (BLACK_WALLS, RED_WALLS) == (65, 10)


def test_no_options_and_bad_player_counts() -> None:
    assert GAME.normalize_options(2, {}) == {"board": "alexandros-reconstructed-v1"}
    with pytest.raises(RuleViolation) as refused:
        GAME.normalize_options(2, {"short_game": True})
    assert refused.value.code == "BAD_OPTIONS"
    for players in (1, 5):
        with pytest.raises(RuleViolation) as refused:
            started(players)
        assert refused.value.code == "BAD_PLAYER_COUNT"


# -- turn sequence (R19-R24) ---------------------------------------------------------------------------


def test_r19_r22_turns_pass_clockwise_with_refill_before_turn_ended() -> None:
    state = start_state(players=3, seat=2)
    state, _ = run(state, 2, LYRE_EAST)
    state, events = run(state, 2, TakeCard(source="display", slot=1))
    assert state.actions_taken == 1
    state, events = run(state, 2, TakeCard(source="display", slot=0))
    assert [e.type for e in events] == ["CardTaken", "DisplayRefilled", "DisplayRefilled", "TurnEnded", "TurnStarted"]
    assert [e.slot for e in of_type(events, DisplayRefilled)] == [0, 1]
    assert state.seat == 0 and state.turn == 2 and state.step == MOVE


def test_r20_r25_only_the_move_in_the_move_step() -> None:
    state = start_state()
    for command in (EndTurn(), TakeCard(source="supply"), RetireGovernor(space=[2, 2]), LevyTaxes(card="lyre")):
        assert refusal(GAME, state, 0, command) == "WRONG_PHASE"
    assert refusal(GAME, state, 1, LYRE_EAST) == "NOT_YOUR_TURN"
    state, _ = run(state, 0, LYRE_EAST)
    assert refusal(GAME, state, 0, LYRE_EAST) == "WRONG_PHASE", "one move per turn"
    assert refusal(GAME, state, 1, EndTurn()) == "NOT_YOUR_TURN"


def test_r24_no_command_after_game_ended() -> None:
    state = start_state()
    state.step = OVER
    assert refusal(GAME, state, 0, LYRE_EAST) == "GAME_OVER"


def test_r43_a_refused_command_records_nothing_and_uses_no_action() -> None:
    state = to_actions(start_state())
    with pytest.raises(RuleViolation):
        run(state, 0, LevyTaxes(card="lyre"))
    assert state.actions_taken == 0


def test_r44_actions_are_optional() -> None:
    state, _ = run(start_state(), 0, LYRE_EAST)
    state, events = run(state, 0, EndTurn())
    assert [e.type for e in events] == ["TurnEnded", "TurnStarted"]


def test_no_actions_left_is_refused() -> None:
    state = to_actions(start_state(), taken=2)
    with pytest.raises(RuleViolation) as refused:
        decide(state, 0, TakeCard(source="supply"), chance())
    assert refused.value.code == "NO_ACTIONS_LEFT"
    for command in (OccupyProvince(governors=[[2, 2]]), LevyTaxes(card="lyre"), RetireGovernor(space=[2, 2])):
        with pytest.raises(RuleViolation) as refused:
            decide(state, 0, command, chance())
        assert refused.value.code == "NO_ACTIONS_LEFT"


# -- the board (R1-R11) --------------------------------------------------------------------------------


def test_r1_an_open_space_is_never_a_target() -> None:
    command = MoveAlexander(source="display", slot=0, target=[0, 1], corner=[1, 1], path=[[0, 2], [1, 1]])
    assert refusal(GAME, start_state(), 0, command) == "WRONG_SYMBOL"


def test_r2_no_wall_on_border_sides() -> None:
    state, events = run(start_state(), 0, lyre_south([[0, 2], [1, 1], [2, 2], [3, 3]]))
    assert of_type(events, WallBuilt) == [] and state.black_left == 65


def test_r3_walls_do_not_change_distances() -> None:
    state = fixture_f(display=("horse", "lyre"))
    assert closest_free_spaces(state, "horse")[0] == 2  # the same as on an empty board from v(3,11)
    bare = start_state()
    bare.alexander = point([3, 11])
    bare.governors[space([3, 10])] = 1
    assert closest_free_spaces(bare, "horse") == closest_free_spaces(state, "horse")


def test_r5_a_wall_on_a_side_or_a_governor_makes_a_space_not_free() -> None:
    state = start_state()
    lyre = space([2, 2])
    assert is_free(state, lyre)
    walled = start_state()
    add_walls(walled, [side_coord(next(s for s in SPACE_SIDES[lyre] if IS_INTERIOR[s]))])
    assert not is_free(walled, lyre)
    occupied = start_state()
    place(occupied, 1, [2, 2])
    assert not is_free(occupied, lyre)
    target = space([1, 4])
    touching = start_state()
    add_walls(touching, [[[1, 3], [2, 4]]])  # touches the corner v(2,4) of s(1,4), not one of its sides
    assert is_free(touching, target)


def test_r6_every_space_around_alexander_is_not_free() -> None:
    state = start_state()
    state.alexander = point([2, 4])
    assert all(not is_free(state, s) for s in POINT_SPACES[point([2, 4])])
    assert space([1, 4]) in POINT_SPACES[point([2, 4])]


def test_r7_a_coastal_symbol_space_can_be_free() -> None:
    assert is_free(start_state(), space([2, 2]))  # the lyre of fig. 1-3 lies on the coast


def test_r8_r9_the_whole_board_is_one_province_and_can_be_occupied() -> None:
    state = to_actions(start_state())
    assert len(provinces(state)) == 1
    state.hands[0] = dict.fromkeys(SYMBOLS, 11)
    governors = [[0, 5], [1, 1], [1, 4], [2, 2]]
    state, events = run(state, 0, OccupyProvince(governors=governors))
    assert len(of_type(events, ProvinceOccupied)[0].cards_paid) == 46
    assert len(of_type(events, ProvinceOccupied)[0].province) == 190


def test_r10_a_single_enclosed_symbol_space_is_worth_nothing() -> None:
    state = to_actions(start_state())
    add_walls(state, [side_coord(s) for s in SPACE_SIDES[space([4, 12])]])
    assert province_of(state, [4, 12]) == [[4, 12]]
    state.hands[0] = hand(soldier=1)
    state, _ = run(state, 0, OccupyProvince(governors=[[4, 12]]))
    assert tax_scoring(state, 0)[0] == [0, 0]
    assert tax_scoring(state, 0)[1] == [{"seat": 0, "governor": [4, 12], "value": 0}]


# -- moving (R25-R34) ---------------------------------------------------------------------------------


def test_r26_move_refusals_in_order() -> None:
    state = start_state(display=(None, "horse"), hands={0: hand(temple=1)})
    assert refusal(GAME, state, 0, LYRE_EAST) == "EMPTY_SLOT"
    by_hand = MoveAlexander(source="hand", card="lyre", target=[2, 2], corner=[2, 4], path=[[0, 2], [1, 3], [2, 4]])
    assert refusal(GAME, state, 0, by_hand) == "CARD_NOT_IN_HAND"
    joker_hand = MoveAlexander(
        source="hand", card="temple", joker_symbol="lyre", target=[2, 2], corner=[2, 4], path=[[0, 2], [1, 3], [2, 4]]
    )
    assert refusal(GAME, state, 0, joker_hand) == "JOKER_NOT_ALLOWED"


def test_r28_r29_corner_must_belong_to_the_target() -> None:
    command = MoveAlexander(source="display", slot=0, target=[2, 2], corner=[1, 3], path=[[0, 2], [1, 3]])
    assert refusal(GAME, start_state(), 0, command) == "CORNER_NOT_ON_TARGET"


def test_r30_path_must_start_at_alexander_and_follow_sides() -> None:
    wrong_start = lyre_south([[1, 3], [2, 4], [3, 3]])
    assert refusal(GAME, start_state(), 0, wrong_start) == "PATH_INVALID"
    jump = lyre_south([[0, 2], [2, 4], [3, 3]])
    assert refusal(GAME, start_state(), 0, jump) == "PATH_INVALID"
    assert refusal(GAME, start_state(), 0, lyre_south([])) == "PATH_INVALID"


def test_r31_shortest_in_sides_not_fewest_new_walls() -> None:
    _, events = run(start_state(), 0, lyre_south(F3_ROUTE))
    assert len(of_type(events, WallBuilt)) == 3, "a 3-wall route is legal although a 0-wall route exists"


def test_r33_event_order_refill_before_walls() -> None:
    state = start_state()
    state.black_left = 1
    _, events = run(state, 0, lyre_south(F3_ROUTE))
    assert [e.type for e in events] == [
        "AlexanderMoved",
        "DisplayRefilled",
        "WallBuilt",
        "WallBuilt",
        "WallBuilt",
        "GameEndTriggered",
    ]


def test_r33_refill_after_the_move_reshuffles_when_needed() -> None:
    state = start_state(supply=[])
    state.discard = ["temple", "temple"]
    state, events = run(state, 0, LYRE_EAST)
    assert [e.type for e in events[:3]] == ["AlexanderMoved", "SupplyShuffled", "DisplayRefilled"]
    assert state.display[0] == "temple" and state.supply == ["temple"]


def test_r34_no_free_space_skips_the_move_and_ends_the_game_after_the_turn() -> None:
    state = start_state()
    state.step = TURN_OVER
    state.seat = 1
    for spaces in SYMBOL_SPACES.values():
        for s in spaces:
            state.governors[s] = 9  # a stand-in blocker: nothing is free
    events: list = []
    state = engine.settle(GAME, state, chance(), events)
    assert [e.type for e in events] == ["TurnStarted", "AlexanderMoveSkipped", "GameEndTriggered"]
    assert events[1].reason == "no_free_space" and events[2].reason == "no_free_space"
    assert state.step == ACTIONS
    state, events = run(state, 0, EndTurn())
    assert [e.type for e in events] == ["TurnEnded", "GameEnded"] and events[-1].reason == "no_free_space"


# -- walls (R35-R41) -------------------------------------------------------------------------------------


def test_r39_red_walls_run_out_and_the_rest_of_the_route_stays_unwalled() -> None:
    state = start_state()
    state.black_left, state.red_left = 0, 1
    state, events = run(state, 0, lyre_south(F3_ROUTE))
    walls = of_type(events, WallBuilt)
    assert [(w.side, w.color, w.red_left) for w in walls] == [([[0, 2], [1, 3]], "red", 0)]
    assert state.end_reason == "walls"


def test_r36_r41_a_split_part_without_governors_is_free_to_occupy() -> None:
    state = fixture_f(display=("soldier", "horse"))
    state.hands[2] = hand(lyre=1)
    state, _ = run(
        state,
        2,
        MoveAlexander(source="display", slot=0, target=[4, 12], corner=[5, 13], path=[[3, 11], [4, 12], [5, 13]]),
    )
    assert province_of(state, [3, 14]) != province_of(state, [3, 10])
    state, events = run(state, 2, OccupyProvince(governors=[[3, 14]]))
    assert of_type(events, ProvinceOccupied)[0].takeover is None


# -- occupying (R48-R56) ----------------------------------------------------------------------------------


def test_r49_r50_occupy_refusals() -> None:
    state = to_actions(fixture_f())
    assert refusal(GAME, state, 2, OccupyProvince(governors=[])) == "BAD_INPUT"
    assert refusal(GAME, state, 2, OccupyProvince(governors=[[3, 14], [3, 14]])) == "DUPLICATE_SPACE"
    state.governor_supply[2] = 1
    assert refusal(GAME, state, 2, OccupyProvince(governors=[[3, 14], [4, 12]])) == "NOT_ENOUGH_GOVERNORS"
    y_free = to_actions(fixture_f())
    y_free.governors[space([6, 18])] = y_free.governors[space([7, 19])] = -1
    y_free.governor_supply[0] = 3
    y_free.hands[2] = hand(horse=1, soldier=1, amphora=1)
    command = OccupyProvince(governors=[[6, 23]], compensation=["horse"])
    assert refusal(GAME, y_free, 2, command) == "COMPENSATION_NOT_ALLOWED"
    y_free.hands[2] = hand(horse=1, soldier=1)
    assert refusal(GAME, y_free, 2, OccupyProvince(governors=[[6, 23]])) == "NOT_ENOUGH_CARDS"


def test_r55_a_takeover_that_cannot_be_paid_changes_nothing() -> None:
    state = to_actions(fixture_f())
    state.hands[2] = hand(horse=2, lyre=1)
    before = (list(state.governors), [dict(h) for h in state.hands])
    assert refusal(GAME, state, 2, OccupyProvince(governors=[[4, 12]], compensation=["horse", "horse"])) == (
        "NOT_ENOUGH_CARDS"
    )
    assert (state.governors, state.hands) == before


# -- taxes and retiring (R57-R62) ---------------------------------------------------------------------------


def test_r57_levy_needs_the_card_in_hand() -> None:
    state = to_actions(fixture_f(seat=0))
    assert refusal(GAME, state, 0, LevyTaxes(card="lyre")) == "CARD_NOT_IN_HAND"
    assert refusal(GAME, state, 0, LevyTaxes(card="gold")) == "BAD_INPUT"
    state.hands[0] = hand(lyre=1)
    state, _ = run(state, 0, LevyTaxes(card="lyre"))
    assert state.discard == ["lyre"] and state.levied


def test_r61_retiring_frees_the_province() -> None:
    state = to_actions(fixture_f())
    state.seat = 1
    state, events = run(state, 1, RetireGovernor(space=[3, 10]))
    assert events[0].to_dict() == {"seat": 1, "space": [3, 10]}
    assert state.governor_supply[1] == 4 and state.governors[space([3, 10])] == -1


def test_r63_no_hand_limit() -> None:
    state = to_actions(start_state())
    state.hands[0] = dict.fromkeys(SYMBOLS, 6)
    state, _ = run(state, 0, TakeCard(source="supply"))
    state, _ = run(state, 0, TakeCard(source="display", slot=0))
    assert sum(state.hands[0].values()) == 32


# -- hidden information (R66, section 8) --------------------------------------------------------------------


def test_r66_hands_are_hidden_and_their_sizes_public() -> None:
    state = start_state(hands={0: hand(lyre=2), 1: hand(temple=1)})
    own, other, spectator = GAME.view(state, 0), GAME.view(state, 1), GAME.view(state, None)
    assert own["hand"]["lyre"] == 2 and other["hand"] == hand(temple=1)
    assert "hand" not in spectator and spectator["hand_sizes"] == [2, 1]
    assert "supply" not in spectator and spectator["supply_count"] == len(state.supply)


def test_r66_an_ended_game_shows_every_hand_and_the_supply() -> None:
    state = start_state(hands={0: hand(lyre=2), 1: hand(temple=1)})
    assert "hands" not in GAME.view(state, None) and "supply" not in GAME.view(state, 1)
    state.step = OVER
    for viewer in (None, 0, 1):
        seen = GAME.view(state, viewer)
        assert seen["hands"] == [hand(lyre=2), hand(temple=1)]
        assert seen["supply"] == state.supply


def test_supply_draw_is_private_display_take_public() -> None:
    state = to_actions(start_state())
    state, events = run(state, 0, TakeCard(source="supply"))
    assert events[0].viewers() == frozenset({0}) and events[0].public_form() == {
        "seat": 0,
        "source": "supply",
        "slot": None,
    }


# -- input checks -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "command",
    [
        MoveAlexander(source="display", slot=2, target=[2, 2], corner=[2, 4], path=[[0, 2]]),
        MoveAlexander(source="display", slot=0, target=[0, 0], corner=[2, 4], path=[[0, 2]]),
        MoveAlexander(source="display", slot=0, target=[2, 2], corner=[0, 1], path=[[0, 2]]),
        MoveAlexander(source="display", slot=0, target=[2, 2], corner=[2, 4], path=[[0, 2], [99, 1]]),
        MoveAlexander(source="display", slot=0, card="lyre", target=[2, 2], corner=[2, 4], path=[[0, 2]]),
        MoveAlexander(source="display", slot=0, joker_symbol="gold", target=[2, 2], corner=[2, 4], path=[[0, 2]]),
        MoveAlexander(source="hand", card="gold", target=[2, 2], corner=[2, 4], path=[[0, 2]]),
        MoveAlexander(source="hand", slot=0, card="lyre", target=[2, 2], corner=[2, 4], path=[[0, 2]]),
    ],
)
def test_bad_input_for_move(command: MoveAlexander) -> None:
    assert refusal(GAME, start_state(), 0, command) == "BAD_INPUT"


def test_bad_input_for_actions() -> None:
    state = to_actions(start_state())
    assert refusal(GAME, state, 0, TakeCard(source="display", slot=None)) == "BAD_INPUT"
    assert refusal(GAME, state, 0, TakeCard(source="supply", slot=1)) == "BAD_INPUT"
    assert refusal(GAME, state, 0, RetireGovernor(space=[0, 0])) == "BAD_INPUT"
    assert refusal(GAME, state, 0, OccupyProvince(governors=[[2, 2]], compensation=["gold"])) == "BAD_INPUT"


def test_commands_parse_from_json() -> None:
    payload = {
        "type": "move_alexander",
        "source": "display",
        "slot": 0,
        "joker_symbol": None,
        "target": [2, 2],
        "corner": [2, 4],
        "path": [[0, 2], [1, 3], [2, 4]],
    }
    assert parse_command(GAME.command_types, payload) == LYRE_EAST
    assert parse_command(GAME.command_types, {"type": "end_turn"}) == EndTurn()


def test_f3_walls_fixture_builds_p3() -> None:
    state = start_state()
    add_walls(state, F3_WALLS)
    assert province_of(state, [2, 2]) == [[0, 1], [1, 1], [1, 2], [2, 2]]


def test_r65_reshuffle_between_two_refills_keeps_every_card() -> None:
    """The last supply card fills slot 0; only then is the discard pile shuffled for slot 1."""
    state = to_actions(start_state(display=(None, None), supply=["lyre"]))
    state.discard = ["horse", "temple"]
    state, events = run(state, 0, EndTurn())
    assert [e.type for e in events[:3]] == ["DisplayRefilled", "SupplyShuffled", "DisplayRefilled"]
    assert state.display[0] == "lyre" and state.display[1] == events[1].order[0]
    assert sorted([*state.display, *state.supply]) == ["horse", "lyre", "temple"]


# -- legal-move listing (section 10.1) -------------------------------------------------------------------


def test_legal_moves_list_every_joker_symbol_with_a_free_space() -> None:
    moves = legal_moves(e15_state(), 0, chance())
    jokers = {m.joker_symbol for m in moves if m.source == "display" and m.slot == 0}
    assert jokers == {"temple", "amphora", "horse", "soldier"}
    assert not [m for m in moves if m.source == "hand"], "the only hand card is a lyre, which has no free space"
    assert {m.joker_symbol for m in moves if m.slot == 1} == {None}


def test_legal_moves_list_one_cheapest_occupation_per_governor_count() -> None:
    state, _ = e5_state(hand(lyre=1, temple=1))
    occupations = [m for m in legal_moves(state, 2, chance()) if isinstance(m, OccupyProvince)]
    assert sorted(len(m.governors) for m in occupations) == [1, 2]
    assert all({tuple(g) for g in m.governors} <= {(3, 14), (4, 12)} for m in occupations)


def test_legal_moves_offer_a_payable_takeover_with_compensation() -> None:
    state = e7_state(hand(horse=3, soldier=2, temple=1))
    takeovers = [m for m in legal_moves(state, 2, chance()) if isinstance(m, OccupyProvince) and m.compensation]
    assert takeovers, "the E7 take-over is payable"
    for move in takeovers:
        run(e7_state(hand(horse=3, soldier=2, temple=1)), 2, move)


def test_legal_moves_list_every_shortest_route_when_there_are_at_most_20() -> None:
    south = [m.path for m in legal_moves(start_state(), 0, chance()) if m.slot == 0 and m.corner == [3, 3]]
    assert sorted(south) == sorted(all_shortest_routes([0, 2], [3, 3]))
    start, far = point([0, 2]), point([0, 18])
    assert route_count(start, far) == len(all_shortest_routes([0, 2], [0, 18])) == 30
    sample, complete = listed_routes(start_state(), start, far, chance())
    assert 2 <= len(sample) <= ROUTE_SAMPLES + 2 and not complete  # the fewest and most walls, and draws
    assert all(list(route) in all_shortest_routes([0, 2], [0, 18]) for route in sample)


def coords(route: list[int]) -> list[list[int]]:
    return [point_coord(p) for p in route]


def test_nobody_but_the_current_seat_has_legal_moves() -> None:
    state = start_state(players=3)
    assert legal_moves(state, 1, chance()) == [] and legal_moves(state, 0, chance())
