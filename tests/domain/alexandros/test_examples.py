"""Every worked example of rules file section 11, one test each, asserting the stated outcomes."""

from __future__ import annotations

import itertools

from domain.alexandros import GAME
from domain.alexandros.commands import EndTurn, LevyTaxes, OccupyProvince, RetireGovernor, TakeCard
from domain.alexandros.data import DIST, SPACE_CORNERS, SPACE_SYMBOL, point_coord, space_coord
from domain.alexandros.events import (
    AlexanderMoved,
    DisplayRefilled,
    GameEndTriggered,
    ProvinceOccupied,
    SupplyShuffled,
    TaxesLevied,
    WallBuilt,
)
from domain.alexandros.moves import legal_moves
from domain.alexandros.rules import closest_free_spaces, is_free, province_value, provinces, tax_scoring
from domain.alexandros.state import ACTIONS, MOVE, OVER, TURN_OVER, empty_hand
from domain.kernel import engine
from tests.domain.alexandros.fixtures import (
    F3_WALLS,
    FIG4_RING,
    add_walls,
    all_shortest_routes,
    chance,
    e5_state,
    e7_state,
    e15_state,
    fig4_state,
    fixture_f,
    hand,
    move,
    place,
    point,
    province_of,
    run,
    space,
    start_state,
    to_actions,
)
from tests.support.games import of_type, refusal


def walls_of(events: list) -> list[list[list[int]]]:
    return [e.side for e in of_type(events, WallBuilt)]


def test_fixture_f_provinces_and_values() -> None:
    state = fixture_f()
    assert (state.black_left, state.red_left) == (42, 10)
    groups = sorted(provinces(state).values(), key=len)
    assert [len(g) for g in groups] == [4, 12, 14, 160]
    p3, y, x, rest = groups
    assert [space_coord(s) for s in p3] == [[0, 1], [1, 1], [1, 2], [2, 2]]
    assert [space_coord(s) for s in x] == [[r, c] for r in (3, 4) for c in range(8, 15)]
    assert [space_coord(s) for s in y] == [[r, c] for r in (6, 7) for c in range(18, 24)]
    symbols = {name: [space_coord(s) for s in g if SPACE_SYMBOL[s]] for name, g in (("x", x), ("y", y))}
    assert symbols == {"x": [[3, 10], [3, 14], [4, 12]], "y": [[6, 18], [6, 23], [7, 19], [7, 21]]}
    assert [province_value(g) for g in (p3, x, y, rest)] == [2, 11, 8, 119]


# -- 11.1 the rule book's figures -----------------------------------------------------------------------


def test_f1_nearest_space() -> None:
    state = start_state()
    alexander = point([0, 2])
    assert closest_free_spaces(state, "lyre") == (2, [space([2, 2])])
    assert [DIST[alexander][c] for c in SPACE_CORNERS[space([2, 2])]] == [2, 2, 3]
    assert closest_free_spaces(state, "horse") == (2, [space([0, 5])])
    far_horse = move(1, [3, 5], [3, 5], [[0, 2], [1, 3], [2, 4], [3, 5]])
    assert refusal(GAME, state, 0, far_horse) == "NOT_CLOSEST"


def test_f2_east_corner_unique_route() -> None:
    state = start_state()
    assert all_shortest_routes([0, 2], [2, 4]) == [[[0, 2], [1, 3], [2, 4]]]
    longer = move(0, [2, 2], [2, 4], [[0, 2], [0, 4], [1, 3], [2, 4]])
    assert refusal(GAME, state, 0, longer) == "PATH_NOT_SHORTEST"
    supply_top = state.supply[0]
    state, events = run(state, 0, move(0, [2, 2], [2, 4], [[0, 2], [1, 3], [2, 4]]))
    assert state.hands[0]["lyre"] == 1
    assert of_type(events, DisplayRefilled)[0].card == supply_top == state.display[0]
    assert walls_of(events) == [[[0, 2], [1, 3]], [[1, 3], [2, 4]]]
    assert state.black_left == 63


def test_f3_south_corner_three_routes() -> None:
    routes = all_shortest_routes([0, 2], [3, 3])
    assert sorted(routes) == sorted(
        [
            [[0, 2], [1, 3], [2, 4], [3, 3]],
            [[0, 2], [1, 1], [2, 2], [3, 3]],
            [[0, 2], [1, 3], [2, 2], [3, 3]],
        ]
    )
    for route in routes:
        state, events = run(start_state(), 0, move(0, [2, 2], [3, 3], route))
        if route == [[0, 2], [1, 3], [2, 4], [3, 3]]:
            assert len(walls_of(events)) == 3
            p3 = province_of(state, [1, 1])
            assert p3 == [[0, 1], [1, 1], [1, 2], [2, 2]]
            assert province_value([space(s) for s in p3]) == 2, "2 symbol and 2 open spaces"
            assert len(province_of(state, [5, 10])) == 186
        elif route[1] == [1, 1]:
            assert walls_of(events) == [] and len(provinces(state)) == 1
        else:
            assert len(walls_of(events)) == 2
            assert province_of(state, [1, 1]) == [[0, 1], [1, 1]]
            assert province_value([space([0, 1]), space([1, 1])]) == 1


# Fig. 4-6 come from the unknown printed board; FIG4_RING/FIG4_CHAIN rebuild their situation here so
# that every outcome the rules file states for them is asserted on this board.
FIG4_SOLDIERS = [[1, 7], [3, 3], [4, 12]]
FIG5_ROUTE = [[4, 8], [5, 9], [5, 11], [5, 13]]
FIG6_ROUTE = [[4, 8], [3, 7], [2, 8]]


def test_f4_three_equally_near_soldier_spaces_offer_nine_corners() -> None:
    state = fig4_state()
    assert closest_free_spaces(state, "soldier") == (2, [space(s) for s in FIG4_SOLDIERS])
    choices = {(tuple(m.target), tuple(m.corner)) for m in legal_moves(state, 0, chance()) if m.slot == 0}
    corners = {(tuple(t), tuple(point_coord(c))) for t in FIG4_SOLDIERS for c in SPACE_CORNERS[space(t)]}
    assert choices == corners and len(corners) == 9
    for target, corner in sorted(corners):
        route = all_shortest_routes([4, 8], list(corner))[0]
        moved, _ = run(fig4_state(), 0, move(0, list(target), list(corner), route))
        assert moved.alexander == point(list(corner))
    farther = move(0, [1, 15], [1, 15], [[4, 8]])
    assert refusal(GAME, state, 0, farther) == "NOT_CLOSEST"


def test_f5_three_routes_the_chosen_one_encloses_the_largest_province() -> None:
    routes = all_shortest_routes([4, 8], [5, 13])
    assert len(routes) == 3 and FIG5_ROUTE in routes
    enclosed = {}
    for route in routes:
        before = fig4_state()
        assert len(province_of(before, [4, 12])) > 100, "the chain alone encloses nothing"
        state, events = run(before, 0, move(0, [4, 12], [5, 13], route))
        built = walls_of(events)
        enclosed[str(route)] = province_of(state, [4, 12])
        if route == FIG5_ROUTE:
            assert built == [[a, b] for a, b in itertools.pairwise(route)], "no existing wall on the chosen route"
        else:
            assert route[:2] == [[4, 8], [4, 10]] and [[4, 8], [4, 10]] in FIG4_RING, "partly along a wall"
            assert built == [[a, b] for a, b in itertools.pairwise(route[1:])], "only the remaining two"
    sizes = sorted((len(p), r) for r, p in enclosed.items())
    assert [size for size, _ in sizes] == [6, 8, 10] and sizes[-1][1] == str(FIG5_ROUTE)
    assert enclosed[str(FIG5_ROUTE)] == [
        [3, 10],
        [3, 11],
        [3, 12],
        [3, 13],
        [4, 8],
        [4, 9],
        [4, 10],
        [4, 11],
        [4, 12],
        [4, 13],
    ]


def test_f6_northernmost_space_route_entirely_along_existing_walls() -> None:
    northernmost = min(FIG4_SOLDIERS)
    assert northernmost == [1, 7]
    routes = all_shortest_routes([4, 8], [2, 8])
    assert len(routes) == 2 and FIG6_ROUTE in routes
    ring = province_of(fig4_state(), [2, 9])
    assert ring == [[2, 7], [2, 8], [2, 9], [3, 7], [3, 8], [3, 9]]
    state, events = run(fig4_state(), 0, move(0, northernmost, [2, 8], FIG6_ROUTE))
    assert walls_of(events) == [] and state.alexander == point([2, 8])
    assert province_of(state, [2, 9]) == ring
    (other,) = [r for r in routes if r != FIG6_ROUTE]
    state, events = run(fig4_state(), 0, move(0, northernmost, [2, 8], other))
    assert len(walls_of(events)) == 2
    assert province_of(state, [2, 7]) == [[2, 7], [3, 7]], "the other route splits the existing province in two"
    assert province_of(state, [2, 9]) == [[2, 8], [2, 9], [3, 8], [3, 9]]


# -- 11.2 own examples ------------------------------------------------------------------------------------


def test_e1_exceptional_move_target_tie_farther_corner_route_along_edge() -> None:
    state = start_state(hands={0: hand(soldier=1)})
    assert closest_free_spaces(state, "soldier") == (3, [space([1, 7]), space([3, 3])])
    corners = {tuple(m.corner) for m in legal_moves(state, 0, chance()) if m.source == "hand"}
    assert corners == {(1, 7), (1, 9), (2, 8), (3, 3), (3, 5), (4, 4)}
    assert refusal(GAME, state, 0, move(0, [1, 7], [1, 9], [[0, 2]], joker_symbol="soldier")) == "JOKER_NOT_ALLOWED"
    assert (
        refusal(GAME, state, 0, move(None, [1, 4], [1, 5], [[0, 2], [0, 4], [1, 5]], card="soldier")) == "WRONG_SYMBOL"
    )
    bad_end = move(None, [1, 7], [1, 9], [[0, 2], [0, 4], [1, 5], [1, 7]], card="soldier")
    assert refusal(GAME, state, 0, bad_end) == "PATH_INVALID"
    path = [[0, 2], [0, 4], [0, 6], [0, 8], [1, 9]]
    state, events = run(state, 0, move(None, [1, 7], [1, 9], path, card="soldier"))
    assert DIST[point([0, 2])][point([1, 9])] == 4
    assert walls_of(events) == []
    assert state.discard == ["soldier"]
    assert state.display == ["lyre", "horse"]
    assert state.hands[0] == empty_hand()
    moved = of_type(events, AlexanderMoved)[0].to_dict()
    expected = {"via": "hand", "card": "soldier", "symbol": "soldier", "from": [0, 2], "target": [1, 7]}
    assert {k: moved[k] for k in expected} == expected
    assert moved["to"] == [1, 9] and moved["distance"] == 3


def e2_state():
    state, _ = run(start_state(), 0, move(0, [2, 2], [2, 4], [[0, 2], [1, 3], [2, 4]]))
    state, _ = run(state, 0, EndTurn())
    state.display = ["temple", "amphora"]
    return state


def test_e2_alexander_blocks_spaces_walls_touching_a_corner_do_not() -> None:
    state = e2_state()
    assert state.seat == 1 and state.step == MOVE and state.alexander == point([2, 4])
    assert refusal(GAME, state, 1, move(0, [1, 4], [1, 5], [[2, 4], [1, 5]])) == "TARGET_NOT_FREE"
    assert closest_free_spaces(state, "temple") == (3, [space([2, 9])])
    assert closest_free_spaces(state, "amphora") == (1, [space([1, 1]), space([2, 6])])


def test_e3_route_partly_along_existing_walls() -> None:
    state = fixture_f()
    assert closest_free_spaces(state, "soldier") == (1, [space([4, 12])])
    state, events = run(state, 2, move(0, [4, 12], [4, 14], [[3, 11], [3, 13], [4, 14]]))
    walls = of_type(events, WallBuilt)
    assert [w.side for w in walls] == [[[3, 13], [4, 14]]]
    assert walls[0].color == "black" and walls[0].black_left == 41
    assert len(provinces(state)) == 4
    other = fixture_f()
    _, events = run(other, 2, move(0, [4, 12], [4, 14], [[3, 11], [4, 12], [4, 14]]))
    assert len(walls_of(events)) == 2


def test_e4_route_entirely_along_walls_and_coast() -> None:
    state = fixture_f(display=("horse", "lyre"))
    assert closest_free_spaces(state, "horse") == (2, [space([3, 5])])
    assert DIST[point([3, 11])][point([4, 6])] == 3
    routes = all_shortest_routes([3, 11], [4, 6])
    assert len(routes) == 3
    new_walls = {}
    for route in routes:
        trial = fixture_f(display=("horse", "lyre"))
        trial, events = run(trial, 2, move(0, [3, 5], [4, 6], route))
        new_walls[str(route)] = (walls_of(events), trial)
    assert new_walls[str([[3, 11], [3, 9], [4, 8], [4, 6]])][0] == []
    assert len(new_walls[str([[3, 11], [3, 9], [3, 7], [4, 6]])][0]) == 2
    inside, split = new_walls[str([[3, 11], [4, 10], [4, 8], [4, 6]])]
    assert inside == [[[3, 11], [4, 10]], [[4, 8], [4, 10]]]
    assert province_of(split, [3, 8]) == [[3, 8], [3, 9]]
    rest = province_of(split, [3, 10])
    assert len(rest) == 12 and sum(1 for s in rest if s not in ([3, 10], [3, 14], [4, 12])) == 9
    assert split.governors[space([3, 10])] == 1


X_W = [[3, 8], [3, 9], [3, 10], [4, 8], [4, 9], [4, 10], [4, 11]]
X_E = [[3, 11], [3, 12], [3, 13], [3, 14], [4, 12], [4, 13], [4, 14]]


def test_e5_splitting_an_occupied_province() -> None:
    state, events = e5_state()
    walls = of_type(events, WallBuilt)
    assert [w.side for w in walls] == [[[3, 11], [4, 12]], [[4, 12], [5, 13]]]
    assert state.black_left == 40
    assert province_of(state, [3, 10]) == X_W
    assert province_of(state, [3, 14]) == X_E
    assert province_value([space(s) for s in X_W]) == 6 and state.governors[space([3, 10])] == 1
    assert province_value([space(s) for s in X_E]) == 5
    assert all(state.governors[space(s)] == -1 for s in X_E), "X_e is unoccupied"
    assert tax_scoring(fixture_f(), 2)[0][1] == 11
    assert tax_scoring(state, 2)[0][1] == 6, "seat 1's tax value falls from 11 to 6"
    assert not is_free(state, space([4, 12])) and state.alexander == point([5, 13])


def test_e6_occupying_right_after_the_split_with_an_extra_governor() -> None:
    state, _ = e5_state(hand(lyre=1, temple=1))
    assert state.hands[2] == hand(soldier=1, lyre=1, temple=1)
    assert refusal(GAME, state, 2, OccupyProvince(governors=[[3, 13]])) == "NOT_SYMBOL_SPACE"
    assert refusal(GAME, state, 2, OccupyProvince(governors=[[3, 14], [3, 10]])) == "SPACES_IN_DIFFERENT_PROVINCES"
    both, _ = run(e5_state(hand(lyre=1, temple=1))[0], 2, OccupyProvince(governors=[[3, 14], [4, 12]]))
    assert both.hands[2] == hand(soldier=1, lyre=1, temple=1), "no card paid"
    assert tax_scoring(both, 2)[0][2] == 0, "two governors: X_e scores 0"
    _soldier_space, events = run(e5_state(hand(lyre=1, temple=1))[0], 2, OccupyProvince(governors=[[4, 12]]))
    assert of_type(events, ProvinceOccupied)[0].cards_paid == ["lyre"]
    no_lyre, _ = e5_state(hand(temple=1))
    assert refusal(GAME, no_lyre, 2, OccupyProvince(governors=[[4, 12]])) == "NOT_ENOUGH_CARDS"
    state, events = run(state, 2, OccupyProvince(governors=[[3, 14]]))
    occupied = of_type(events, ProvinceOccupied)[0]
    assert occupied.to_dict() == {
        "seat": 2,
        "province": X_E,
        "governors": [[3, 14]],
        "cards_paid": ["soldier"],
        "takeover": None,
    }
    assert state.governor_supply[2] == 3
    assert state.hands[2] == hand(lyre=1, temple=1)


def test_e7_takeover_cost_and_compensation_rounded_up() -> None:
    command = OccupyProvince(governors=[[3, 14], [4, 12]], compensation=["horse", "horse", "soldier"])
    state = e7_state(hand(horse=3, soldier=2, temple=1))
    assert state.governor_supply[1] == 2
    short = OccupyProvince(governors=[[3, 14], [4, 12]], compensation=["horse", "horse"])
    assert refusal(GAME, state, 2, short) == "BAD_COMPENSATION"
    unpaid = OccupyProvince(governors=[[3, 14], [4, 12]], compensation=["temple", "horse", "horse"])
    assert refusal(GAME, state, 2, unpaid) == "BAD_COMPENSATION"
    assert refusal(GAME, e7_state(hand(horse=2, soldier=2)), 2, command) == "NOT_ENOUGH_CARDS"
    state, events = run(state, 2, command)
    occupied = of_type(events, ProvinceOccupied)[0]
    assert occupied.cards_paid == ["horse"]
    assert occupied.takeover == {
        "from_seat": 1,
        "evicted": [[3, 10], [4, 12]],
        "eviction_cards": ["horse", "horse", "soldier", "soldier"],
        "compensation": ["horse", "horse", "soldier"],
    }
    assert state.governor_supply[1] == 4
    assert state.hands[1] == hand(horse=2, soldier=1)
    assert sorted(state.discard) == ["horse", "soldier"]
    assert state.hands[2] == hand(temple=1)
    assert state.governor_supply[2] == 2
    assert tax_scoring(state, 2)[0][2] == 0, "two governors: X scores nothing for now"
    state, _ = run(state, 2, RetireGovernor(space=[4, 12]))
    assert tax_scoring(state, 2)[0][2] == 11


def e8_state(scores: list[int] | None = None):
    state, _ = e5_state(hand(lyre=1, temple=1))
    state, _ = run(state, 2, OccupyProvince(governors=[[3, 14]]))
    if scores is not None:
        state.scores = scores
    return state


def test_e8_levy_with_two_governors_in_one_province() -> None:
    state = e8_state()
    assert refusal(GAME, state, 2, LevyTaxes(card="temple")) == "NO_MATCHING_GOVERNOR"
    state, events = run(state, 2, LevyTaxes(card="lyre"))
    levied = of_type(events, TaxesLevied)[0]
    assert levied.points == [2, 6, 5]
    assert levied.scores == [22, 36, 30]
    # Y holds 2 governors, so it is not listed at all
    assert [(e["seat"], e["governor"], e["value"]) for e in levied.scored] == [
        (2, [3, 14], 5),
        (0, [2, 2], 2),
        (1, [3, 10], 6),
    ]
    first = e5_state(hand(lyre=2))[0]
    place(first, 2, [3, 14])
    first, _ = run(first, 2, LevyTaxes(card="lyre"))
    assert refusal(GAME, first, 2, LevyTaxes(card="lyre")) == "ALREADY_LEVIED"


def test_e9_retiring_a_governor_so_that_a_province_scores() -> None:
    state = to_actions(fixture_f(seat=0))
    state.hands[0] = hand(soldier=1)
    assert refusal(GAME, state, 0, RetireGovernor(space=[3, 10])) == "NOT_YOUR_GOVERNOR"
    assert refusal(GAME, state, 0, OccupyProvince(governors=[[1, 1]])) == "OWN_PROVINCE"
    state, _ = run(state, 0, RetireGovernor(space=[6, 18]))
    state, events = run(state, 0, LevyTaxes(card="soldier"))
    assert of_type(events, TaxesLevied)[0].points == [10, 11, 0]


def e10_state(black_left: int):
    state = start_state(hands={0: hand(amphora=1)})
    state.scores = [40, 45]
    state.black_left = black_left
    return state


def test_e10_running_out_of_black_walls() -> None:
    state = e10_state(2)
    state, events = run(state, 0, move(0, [2, 2], [3, 3], [[0, 2], [1, 3], [2, 4], [3, 3]]))
    walls = [(w.side, w.color, w.black_left, w.red_left) for w in of_type(events, WallBuilt)]
    assert walls == [
        ([[0, 2], [1, 3]], "black", 1, 10),
        ([[1, 3], [2, 4]], "black", 0, 10),
        ([[2, 4], [3, 3]], "red", 0, 9),
    ]
    assert [e.reason for e in of_type(events, GameEndTriggered)] == ["walls"]
    assert events[-1].type == "GameEndTriggered"
    state, events = run(state, 0, OccupyProvince(governors=[[2, 2]]))
    assert of_type(events, ProvinceOccupied)[0].cards_paid == ["amphora"]
    display_before = list(state.display)
    state, events = run(state, 0, LevyTaxes(card="lyre"))
    assert of_type(events, TaxesLevied)[0].scores == [42, 45]
    assert [e.type for e in events] == ["TaxesLevied", "TurnEnded", "GameEnded"]
    assert events[-1].reason == "walls" and events[-1].winners == [1]
    assert state.display == display_before and state.step == OVER


def test_e11_exactly_enough_black_walls() -> None:
    state = e10_state(3)
    state, events = run(state, 0, move(0, [2, 2], [3, 3], [[0, 2], [1, 3], [2, 4], [3, 3]]))
    assert [w.color for w in of_type(events, WallBuilt)] == ["black"] * 3
    assert state.black_left == 0 and not of_type(events, GameEndTriggered)
    state, events = run(state, 0, EndTurn())
    assert state.step == MOVE and state.seat == 1, "the game continues"
    state.display = ["horse", "horse"]
    path = [[3, 3], [3, 5], [3, 7]]  # to the horse s(3,5)
    state, events = run(state, 1, move(0, [3, 5], [3, 7], path))
    assert [w.color for w in of_type(events, WallBuilt)] == ["red", "red"], "all its new walls are red"
    assert state.end_reason == "walls"
    state, events = run(state, 1, EndTurn())
    assert [e.type for e in events] == ["TurnEnded", "GameEnded"], "seat 1's turn is the last"


def e12_state():
    state = start_state(seat=1, display=("amphora", "temple"))
    add_walls(state, F3_WALLS)
    state.black_left = 0
    state.alexander = point([3, 3])
    return state


def test_e12_a_move_with_no_new_wall_when_no_black_walls_are_left() -> None:
    state = e12_state()
    assert closest_free_spaces(state, "amphora") == (1, [space([1, 1])])
    state, events = run(state, 1, move(0, [1, 1], [1, 1], [[3, 3], [2, 2], [1, 1]]))
    assert walls_of(events) == [] and state.end_reason is None and state.red_left == 10
    _, events = run(e12_state(), 1, move(0, [1, 1], [1, 3], [[3, 3], [2, 4], [1, 3]]))
    assert walls_of(events) == []
    state, events = run(e12_state(), 1, move(0, [1, 1], [1, 3], [[3, 3], [2, 2], [1, 3]]))
    assert [w.color for w in of_type(events, WallBuilt)] == ["red"]
    assert state.end_reason == "walls"


def test_e13_reaching_100_during_a_levy() -> None:
    state = e8_state([98, 90, 99])
    state, events = run(state, 2, LevyTaxes(card="lyre"))
    levied = of_type(events, TaxesLevied)[0]
    assert levied.scores == [100, 96, 104] and levied.points == [2, 6, 5]
    assert [e["seat"] for e in levied.scored] == [2, 0, 1], "seat 2 first, then clockwise"
    assert [e.type for e in events] == ["TaxesLevied", "GameEnded"]
    assert events[-1].reason == "points" and events[-1].winners == [2]
    state = e8_state([98, 95, 90])
    state.actions_taken = 0  # the levy as the first action: the second action is lost
    state, events = run(state, 2, LevyTaxes(card="lyre"))
    assert events[-1].scores == [100, 101, 95] and events[-1].winners == [1]
    assert state.step == OVER


def test_e14_a_tie() -> None:
    state = start_state(players=3)
    state.step, state.end_reason, state.scores = TURN_OVER, "walls", [88, 88, 70]
    events: list = []
    engine.settle(GAME, state, chance(), events)
    assert events[-1].type == "GameEnded" and events[-1].winners == [0, 1]


def test_e15_joker() -> None:
    state = e15_state()
    assert closest_free_spaces(state, "lyre") == (-1, [])
    joker = move(0, [1, 4], [1, 5], [[0, 2], [0, 4], [1, 5]], joker_symbol="temple")
    assert refusal(GAME, state, 0, move(1, [1, 4], [1, 5], [[0, 2], [0, 4], [1, 5]], joker_symbol="temple")) == (
        "JOKER_NOT_ALLOWED"
    )
    assert refusal(GAME, state, 0, move(None, [2, 2], [2, 4], [[0, 2], [1, 3], [2, 4]], card="lyre")) == "NO_FREE_SPACE"
    assert refusal(GAME, state, 0, move(0, [2, 2], [2, 4], [[0, 2], [1, 3], [2, 4]])) == "NO_FREE_SPACE"
    assert closest_free_spaces(state, "temple") == (2, [space([1, 4])])
    top = state.supply[0]
    state, events = run(state, 0, joker)
    assert walls_of(events) == [[[0, 4], [1, 5]]]
    assert state.hands[0]["lyre"] == 2 and state.display[0] == top
    moved = of_type(events, AlexanderMoved)[0]
    assert (moved.via, moved.card, moved.symbol) == ("joker", "lyre", "temple")


def test_e16_taking_two_cards_refill_only_at_the_end() -> None:
    state = to_actions(start_state(seat=1, supply=["temple", "amphora", "soldier", "horse"]))
    state, events = run(state, 1, TakeCard(source="display", slot=0))
    assert events[0].card == "lyre" and events[0].viewers() is None
    assert state.display == [None, "horse"]
    assert refusal(GAME, state, 1, TakeCard(source="display", slot=0)) == "EMPTY_SLOT"
    assert state.actions_taken == 1
    state, events = run(state, 1, TakeCard(source="supply"))
    taken = events[0]
    assert taken.card == "temple" and taken.viewers() == frozenset({1}) and "card" not in taken.public_form()
    refill = of_type(events, DisplayRefilled)
    assert [(e.slot, e.card) for e in refill] == [(0, "amphora")]
    assert state.display == ["amphora", "horse"] and state.supply[0] == "soldier"


def test_e17_reshuffle() -> None:
    state = to_actions(start_state(display=(None, "horse"), supply=[]))
    state.discard = ["soldier", "horse", "horse", "temple"]
    state, events = run(state, 0, EndTurn())
    shuffled = of_type(events, SupplyShuffled)[0]
    assert (shuffled.reason, shuffled.count) == ("reshuffle", 4)
    assert shuffled.order == chance().shuffle("deck:1", ["soldier", "horse", "horse", "temple"])
    assert shuffled.public_form() == {"reason": "reshuffle", "count": 4} and shuffled.viewers() == frozenset()
    assert of_type(events, DisplayRefilled)[0].card == shuffled.order[0]
    assert state.discard == [] and state.reshuffles == 1
    dry = to_actions(start_state(display=(None, "horse"), supply=[]))
    assert refusal(GAME, dry, 0, TakeCard(source="supply")) == "SUPPLY_EMPTY"
    dry, events = run(dry, 0, EndTurn())
    assert not of_type(events, SupplyShuffled) and not of_type(events, DisplayRefilled)
    assert dry.display == [None, "horse"]


def test_e18_no_usable_card() -> None:
    state = start_state(seat=1, display=(None, None), supply=[])
    state.step = TURN_OVER
    events: list = []
    state = engine.settle(GAME, state, chance(), events)
    assert [e.type for e in events] == ["TurnStarted", "AlexanderMoveSkipped"]
    assert events[1].reason == "no_usable_card"
    assert state.step == ACTIONS and state.seat == 0 and state.end_reason is None
    assert refusal(GAME, state, 0, TakeCard(source="supply")) == "SUPPLY_EMPTY"


def test_coordinates_round_trip() -> None:
    assert space_coord(space([7, 19])) == [7, 19]
    assert point_coord(point([10, 2])) == [10, 2]
