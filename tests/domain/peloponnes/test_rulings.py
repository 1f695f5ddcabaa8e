"""Rules and rulings of section 5 and 7 that no worked example names, one test each (the rule number leads
the name), and the view of an ended game."""

from __future__ import annotations

from domain.kernel import Chance
from domain.kernel.bots import play_random_game
from domain.peloponnes import GAME
from domain.peloponnes.commands import (
    ChooseSoloSetup,
    MoveBid,
    PassTurn,
    PlaceBid,
    PlaceBuilding,
    ResolveDisaster,
    ResolveSupply,
    WithdrawBid,
)
from domain.peloponnes.data import CIVILIZATION_IDS, TILES
from domain.peloponnes.events import (
    BiddingEnded,
    BidMoved,
    BidWithdrawn,
    BuildingPlaced,
    DisasterResolved,
    IncomeCollected,
    LandPlaced,
    PlayerPassed,
    SupplyResolved,
    TileRejected,
    TileRevealed,
)
from domain.peloponnes.rules import round_income
from domain.peloponnes.state import INCOME, State
from tests.domain.peloponnes.helpers import bidding, placing, run, seat, settle, striking, supplying, table
from tests.support.games import of_type, refusal


def income(state: State, s: int, choices: list[dict[str, str]] | None = None) -> IncomeCollected:
    state.phase, state.pending = INCOME, [s]
    return round_income(state, s, choices or [])


def four_bidders() -> State:
    state = bidding(table(3, order=[0, 1, 2]), ["A05", "A07", "A12"], ["A01", "A14"])
    for s in range(3):
        seat(state, s, coins=8)
    return state


# -- 5.1 general ---------------------------------------------------------------------------------


def test_r2_the_bank_pays_whatever_the_purses_hold() -> None:
    state = four_bidders()
    seat(state, 0, coins=500)
    _, events = run(state, 0, PassTurn())
    assert events[0].after["coins"] == 503


def test_r3_population_and_luxury_have_no_upper_limit() -> None:
    state = table(1, civs=["arkadia"])
    seat(state, 0, population=30, luxury=40)
    event = income(state, 0)
    assert event.after["population"] == 31
    assert (event.luxury_from_population, event.after["luxury"]) == (6, 46)


def test_r4a_overflow_on_choice_income_and_solo_extra_income() -> None:
    state = table(1, civs=["argos"])  # 1 wood, 1 stone
    seat(state, 0, extra_incomes=["food"], buildings=["A15"], food=13, wood=10, stone=3)
    event = income(state, 0, [{"tile_id": "A15", "resource": "food"}])
    # wood: 1 over the cap; food: extra income + Port choice, both over the cap
    assert (event.after["wood"], event.after["food"], event.after["stone"]) == (10, 13, 4)
    assert event.overflow_luxury == 3 and event.after["luxury"] == 3


def test_r5_luxury_pays_only_what_is_short() -> None:
    state = four_bidders()
    seat(state, 0, coins=5, luxury=6)
    _, events = run(state, 0, PlaceBid("A05", 5))
    assert (events[0].luxury_spent, events[0].after["luxury"]) == (0, 6)
    built = placing(table(1), {0: "A12"})  # Bridge: 2 wood
    seat(built, 0, wood=2, luxury=6, coins=0)
    _, events = run(built, 0, PlaceBuilding("build"))
    assert of_type(events, BuildingPlaced)[0].luxury_spent == 0
    fed = supplying(table(1))
    seat(fed, 0, population=3, food=3, luxury=6)
    assert GAME.awaited(fed) == {}  # enough food: luxury is never touched
    _, events = settle(fed)
    assert of_type(events, SupplyResolved)[0].after["luxury"] == 6


def test_r6_luxury_never_pays_earthquake_or_tempest() -> None:
    state = striking(table(2), "earthquake")
    seat(state, 0, buildings=["A12", "A14"], wood=0, stone=5, luxury=20)
    seat(state, 1, buildings=["A12"], wood=3, stone=3, luxury=20)
    assert set(GAME.awaited(state)) == {1}
    _, events = settle(state)
    (automatic,) = of_type(events, DisasterResolved)
    assert automatic.removed_tiles == ["A12", "A14"] and automatic.after["luxury"] == 20
    state = striking(table(1), "tempest")
    seat(state, 0, lands=["A05", "A06"], food=4, coins=1, luxury=20)
    assert refusal(GAME, state, 0, ResolveDisaster(["A05", "A06"])) == "TOO_MANY_KEPT"


def test_r7_coins_in_a_bid_or_on_a_building_are_not_in_the_purse() -> None:
    state = four_bidders()
    state, _ = run(state, 0, PlaceBid("A05", 6))
    assert state.seats[0].coins == 2
    assert GAME.scoreboard(state).details["results"][0]["coin_prestige"] == 0
    marked = placing(table(1), {0: "C08"})  # 8 stone: only marking is affordable
    seat(marked, 0, coins=3, population=2)
    _, events = settle(marked)
    placed = of_type(events, BuildingPlaced)[0]
    assert (placed.mode, placed.coin_placed, placed.after["coins"]) == ("marked", 1, 2)


# -- 5.2 reveal ----------------------------------------------------------------------------------


def test_r11_no_tile_is_drawn_once_five_lie_out() -> None:
    played = play_random_game(GAME, 2, seed=b"r11")
    per_round: dict[int, int] = {}
    for e in of_type(played.events, TileRevealed):
        per_round[e.round] = per_round.get(e.round, 0) + 1
    assert per_round == dict.fromkeys(range(1, 9), 5)


def test_r12a_the_supply_tile_is_auctioned_like_any_other() -> None:
    state = bidding(table(2, round_=5, order=[0, 1]), ["B05", "B06"], ["B09", "B10", "B11"])
    seat(state, 0, coins=9)
    state, _ = run(state, 0, PlaceBid("B05", 5))
    _, events = run(state, 1, PassTurn())
    assert of_type(events, BiddingEnded)[0].awards == [{"seat": 0, "tile_id": "B05", "amount": 5}]


# -- 5.3 bidding ---------------------------------------------------------------------------------


def test_r16_a_conquest_bid_cannot_be_outbid_even_with_the_half_coin() -> None:
    state = four_bidders()
    seat(state, 1, buildings=["A13"], coins=20)
    state, _ = run(state, 0, PlaceBid("A01", 6))
    assert refusal(GAME, state, 1, PlaceBid("A01", 6)) == "CONQUEST_TAKEN"
    assert refusal(GAME, state, 1, PlaceBid("A01", 12)) == "CONQUEST_TAKEN"


def test_r17_the_highest_bid_is_coins_plus_half_the_luxury() -> None:
    state = four_bidders()
    seat(state, 0, coins=3, luxury=7)
    moves = GAME.legal_moves(state, 0, Chance(b"m"))
    assert [m.amount for m in moves if isinstance(m, PlaceBid) and m.tile_id == "A05"] == [3, 4, 5, 6]
    assert refusal(GAME, state, 0, PlaceBid("A05", 7)) == "CANNOT_AFFORD"


def test_r18_a_pass_gives_three_coins_and_no_tile() -> None:
    state = four_bidders()
    state, events = run(state, 0, PassTurn())
    assert events[0] == PlayerPassed(0, 3, {**state.seats[0].counters()})
    assert state.seats[0].coins == 11 and state.seats[0].bid_status == "passed"
    state, _ = run(state, 1, PassTurn())
    _, events = run(state, 2, PassTurn())
    assert of_type(events, BiddingEnded)[0].awards == []


def test_r19_a_displaced_seat_answers_before_the_next_regular_turn() -> None:
    state = four_bidders()
    state, _ = run(state, 0, PlaceBid("A05", 3))
    state, _ = run(state, 1, PlaceBid("A05", 4))
    assert GAME.awaited(state) == {0: ("move_bid", "withdraw_bid")}
    assert refusal(GAME, state, 2, PlaceBid("A07", 2)) == "WRONG_PHASE", "no regular turn until the answer"
    view = GAME.view(state, None)
    assert view["seats"][0]["bid"] == {"tile_id": None, "amount": 3} and view["displaced_from"] == "A05"


def test_r20_the_bidding_ends_only_when_the_last_displacement_is_answered() -> None:
    state = four_bidders()
    state, _ = run(state, 0, PlaceBid("A05", 3))
    state, _ = run(state, 1, PassTurn())
    state, events = run(state, 2, PlaceBid("A05", 4))
    assert not of_type(events, BiddingEnded)
    assert GAME.awaited(state) == {0: ("move_bid", "withdraw_bid")}
    _, events = run(state, 0, MoveBid("A07"))
    assert isinstance(events[0], BidMoved)
    assert of_type(events, BiddingEnded)[0].awards == [
        {"seat": 2, "tile_id": "A05", "amount": 4},
        {"seat": 0, "tile_id": "A07", "amount": 3},
    ]


def test_r21_a_bid_is_never_raised_or_taken_back_outside_r19() -> None:
    state = four_bidders()
    state, _ = run(state, 0, PlaceBid("A05", 3))
    assert refusal(GAME, state, 0, PlaceBid("A05", 5)) == "NOT_YOUR_TURN"
    assert refusal(GAME, state, 0, WithdrawBid()) == "WRONG_PHASE", "nobody is displaced"
    assert refusal(GAME, state, 1, WithdrawBid()) == "WRONG_PHASE"
    state, _ = run(state, 1, PlaceBid("A05", 4))
    assert refusal(GAME, state, 0, PlaceBid("A05", 5)) == "WRONG_PHASE"


def test_r19b_automatic_withdrawal_when_the_amount_covers_no_free_tile() -> None:
    state = bidding(table(2, order=[0, 1]), ["A07", "A03"], ["A01", "A02", "A05"])
    seat(state, 0, coins=9)
    seat(state, 1, coins=9)
    state, _ = run(state, 0, PlaceBid("A07", 2))
    state, events = run(state, 1, PlaceBid("A07", 3))
    (withdrawn,) = of_type(events, BidWithdrawn)
    assert withdrawn.automatic and withdrawn.after["coins"] == 10
    assert of_type(events, BiddingEnded)[0].awards == [{"seat": 1, "tile_id": "A07", "amount": 3}]


# -- 5.5 placement -------------------------------------------------------------------------------


def test_r26a_a_single_affordable_option_is_applied_without_asking() -> None:
    state = placing(table(1), {0: "A12"})  # Bridge: 2 wood
    seat(state, 0, wood=2, coins=0, luxury=1)
    assert GAME.awaited(state) == {}
    _, events = settle(state)
    built = of_type(events, BuildingPlaced)[0]
    assert (built.mode, built.automatic) == ("built", True)


def test_r28_r29_a_mismatched_land_goes_to_the_box_without_one_time_income() -> None:
    state = placing(table(1), {0: "A03"})  # hills: stone, +5 coins
    seat(state, 0, lands=["A05"], coins=1, population=2)
    after, events = settle(state)
    assert of_type(events, TileRejected)[0].reason == "land_mismatch"
    assert "A03" in after.box and after.seats[0].lands == ["A05"]
    assert after.seats[0].population == 2


def test_r28b_with_barracks_the_land_still_goes_to_the_outer_end() -> None:
    state = placing(table(1), {0: "A01"})
    seat(state, 0, lands=["A05", "A07"], buildings=["A11"])
    after, _ = settle(state)
    assert after.seats[0].lands == ["A05", "A07", "A01"]


def test_r30_a_marked_building_is_completed_only_in_a_supply_round() -> None:
    state = placing(table(1), {0: "A12"})
    seat(state, 0, wood=3, coins=2, population=2, food=2)
    state, _ = run(state, 0, PlaceBuilding("mark"))
    # income and disasters come and go; only a supply round finishes the building
    assert state.seats[0].buildings[0].unfinished
    assert all("place_building" not in kinds for kinds in GAME.awaited(state).values())
    state = supplying(state)
    state, _ = run(state, 0, ResolveSupply(0, ["A12"]))
    assert not state.seats[0].buildings[0].unfinished


# -- 5.9 supply ----------------------------------------------------------------------------------


def test_r46_food_feeds_first_and_only_the_shortfall_may_take_luxury() -> None:
    state = supplying(table(1))
    seat(state, 0, population=6, food=4, luxury=10)
    assert refusal(GAME, state, 0, ResolveSupply(3, [])) == "LUXURY_FEED_LIMIT"  # only 2 go hungry
    _, events = run(state, 0, ResolveSupply(1, []))
    fed = events[0]
    assert (fed.food_spent, fed.luxury_for_food, fed.inhabitants_lost) == (4, 2, 1)
    assert fed.after["population"] == 5


# -- 7.2 solo ------------------------------------------------------------------------------------


def test_r53_levels_4_and_5_take_wood_stone_and_food() -> None:
    for level in (4, 5):
        state, _ = settle(GAME.initial_state(1, {"solo_level": level}))
        moves = GAME.legal_moves(state, 0, Chance(b"m"))
        assert {tuple(sorted(m.extra_incomes)) for m in moves} == {("food", "stone", "wood")}  # type: ignore[attr-defined]
        state, _ = run(state, 0, ChooseSoloSetup("korinth", ["wood", "stone", "food"]))
        event = income(state, 0)
        assert (event.wood, event.stone, event.food) == (1, 1, 2)  # Korinth 1 food + 1 of each


def test_r54_the_solo_player_may_pass_and_is_never_displaced() -> None:
    played = play_random_game(GAME, 1, {"solo_level": 2}, seed=b"r54")
    kinds = {e.type for e in played.events}
    assert not kinds & {"BidMoved", "BidWithdrawn"}
    state, _ = settle(GAME.initial_state(1, {"solo_level": 1}))
    state, _ = run(state, 0, ChooseSoloSetup("argos", []))
    assert PassTurn() in GAME.legal_moves(state, 0, Chance(b"m"))
    _, events = run(state, 0, PassTurn())
    assert of_type(events, PlayerPassed)[0].after["coins"] == 5 + 3


def test_r55_any_civilization_at_any_level() -> None:
    """No campaign memory: every level accepts every civilization, also one used in an earlier game."""
    for level in range(1, 6):
        state, _ = settle(GAME.initial_state(1, {"solo_level": level}))
        civs = {m.civilization for m in GAME.legal_moves(state, 0, Chance(b"m"))}  # type: ignore[attr-defined]
        assert civs == set(CIVILIZATION_IDS)


# -- views after the end ---------------------------------------------------------------------------


def test_the_undealt_civilizations_are_shown_only_after_the_end() -> None:
    for players in (2, 5):
        played = play_random_game(GAME, players, seed=b"undealt%d" % players)
        dealt = {s.civilization for s in played.state.seats}
        shown = GAME.view(played.state, None)["undealt_civilizations"]
        assert len(shown) == 7 - players and not dealt & set(shown)
    running = table(3)
    assert GAME.view(running, None)["undealt_civilizations"] == []


# -- legal moves list every accepted choice --------------------------------------------------------


def test_r26a_a_seat_that_can_do_both_is_offered_both() -> None:
    state = placing(table(1), {0: "A12"})
    seat(state, 0, wood=2, coins=1)
    assert GAME.legal_moves(state, 0, Chance(b"m")) == [PlaceBuilding("build"), PlaceBuilding("mark")]


def test_r27_r34_a_marked_port_already_gives_its_choice_of_four() -> None:
    state = table(1)
    seat(state, 0, buildings=["A15*"])
    state.phase, state.pending = INCOME, [0]
    assert GAME.awaited(state) == {0: ("choose_income",)}
    seat(state, 0, buildings=["A15*", "B15"])
    moves = GAME.legal_moves(state, 0, Chance(b"m"))
    assert len(moves) == 16
    assert {m.choices[0]["resource"] for m in moves} == {"wood", "stone", "food", "coin"}  # type: ignore[attr-defined]


def test_r16_r54_a_price_equal_to_the_purse_is_listed() -> None:
    state = four_bidders()
    seat(state, 0, coins=6)  # A01 in the conquest row costs exactly 6
    assert PlaceBid("A01", 6) in GAME.legal_moves(state, 0, Chance(b"m"))
    solo, _ = settle(GAME.initial_state(1, {"solo_level": 1}))
    solo, _ = run(solo, 0, ChooseSoloSetup("argos", []))
    seat(solo, 0, coins=TILES[solo.display[0].tile_id].min_bid, luxury=0)
    assert PlaceBid(solo.display[0].tile_id, solo.seats[0].coins) in GAME.legal_moves(solo, 0, Chance(b"m"))


def test_r49_seats_without_a_decision_are_placed_before_the_others_decide() -> None:
    state = placing(table(2, order=[0, 1]), {0: "A12", 1: "A05"})
    seat(state, 0, wood=2, coins=1)  # can build or mark: decides
    state, events = settle(state)
    assert [e.seat for e in of_type(events, LandPlaced)] == [1]
    assert GAME.awaited(state) == {0: ("place_building",)}
