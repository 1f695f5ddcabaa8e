"""The worked examples of the rules file, section 11, one test each."""

from __future__ import annotations

from domain.kernel import Chance
from domain.peloponnes import GAME
from domain.peloponnes.commands import (
    ChooseIncome,
    ChooseSoloSetup,
    MoveBid,
    PassTurn,
    PlaceBid,
    PlaceBuilding,
    ResolveDisaster,
    ResolveSupply,
    WithdrawBid,
)
from domain.peloponnes.events import (
    BiddingEnded,
    BidPlaced,
    BidWithdrawn,
    BuildingPlaced,
    DisasterResolved,
    DisasterRevealed,
    GameEnded,
    IncomeCollected,
    LandPlaced,
    OneTimeIncomeReceived,
    SupplyResolved,
    TileRejected,
    TileRevealed,
    TurnOrderSet,
)
from domain.peloponnes.rules import new_turn_order, protector, round_income
from domain.peloponnes.scoring import rank, seat_result
from domain.peloponnes.state import DISASTER, INCOME, PLACEMENT, ROUND_END, State
from tests.domain.peloponnes.helpers import TopOfPile, bidding, placing, run, seat, settle, striking, supplying, table
from tests.support.games import of_type, refusal, types


def stack_from_top(state: State, stack: str, tiles: list[str]) -> None:
    rest = [t for t in state.stacks[stack] if t not in tiles]
    state.stacks[stack] = [*tiles, *rest]


def income_of(state: State, s: int, choices: list[dict[str, str]] | None = None) -> IncomeCollected:
    state.phase = INCOME
    state.pending = [s]
    return round_income(state, s, choices or [])


def test_11_1_reveal_with_three_players() -> None:
    state = table(3, round_=0)
    state.phase = ROUND_END
    stack_from_top(state, "A", ["A05", "A12", "A07", "A01", "A14"])
    state, events = settle(state, TopOfPile(b"x"))
    revealed = [(e.tile_id, e.row, e.index) for e in of_type(events, TileRevealed)]
    assert revealed == [
        ("A05", "auction", 0),
        ("A12", "auction", 1),
        ("A07", "auction", 2),
        ("A01", "conquest", 0),
        ("A14", "conquest", 1),
    ]
    assert len(state.stacks["A"]) == 10
    assert GAME.awaited(state) == {state.turn_order[0]: ("place_bid", "pass_turn")}


def test_11_2_conquest_purchase_six_coins() -> None:
    state = bidding(table(3, order=[0, 1, 2]), ["A12", "A07", "A14"], ["A05", "A01"])
    state.turn_index = 1
    seat(state, 1, coins=7)
    seat(state, 2, coins=20)
    after, events = run(state, 1, PlaceBid("A05", 6))
    assert events[0] == BidPlaced(1, "A05", "conquest", 6, 0, after.seats[1].counters(), None)
    assert after.seats[1].coins == 1
    assert refusal(GAME, state, 1, PlaceBid("A05", 5)) == "CONQUEST_PRICE"
    assert refusal(GAME, state, 1, PlaceBid("A05", 7)) == "CONQUEST_PRICE"
    assert refusal(GAME, after, 2, PlaceBid("A05", 9)) == "CONQUEST_TAKEN"
    assert new_turn_order(after).bid_values["1"] == 6


def test_11_3_round_income_figures_9_and_10() -> None:
    state = table(1, civs=["korinth"])
    seat(state, 0, lands=["A05", "A06", "A02"], population=10)
    event = income_of(state, 0)
    assert (event.food, event.wood, event.stone) == (6, 2, 1)
    assert (event.coins, event.luxury_from_population) == (4, 0)


def test_11_4_leonidas_overflow() -> None:
    state = table(1, civs=["sparta"])
    seat(state, 0, lands=["A07"], wood=8)
    event = income_of(state, 0)
    assert event.after["wood"] == 10
    assert event.overflow_luxury == 2
    assert event.after["luxury"] == 2


def test_11_5_dimitrios_and_helena() -> None:
    state = table(2)
    seat(state, 0, coins=75, population=6)  # prestige 25
    seat(state, 1, coins=66, population=9)  # prestige 22
    results, winners = rank([seat_result(i, s) for i, s in enumerate(state.seats)])
    assert (results[0]["population_points"], results[0]["final"]) == (18, 18)
    assert (results[1]["population_points"], results[1]["final"]) == (27, 22)
    assert winners == [1]


def test_11_6_earthquake_examples() -> None:
    state = striking(table(3), "earthquake")
    seat(state, 0, buildings=["A12", "A14", "B13"], wood=4, stone=1)
    seat(state, 1, buildings=["A12", "A13"], wood=1, stone=1)
    seat(state, 2, buildings=["C01", "B02"])
    state, events = settle(state)
    assert [(e.seat, e.protected_by, e.removed_tiles) for e in of_type(events, DisasterResolved)] == [(2, "C01", [])]
    assert set(GAME.awaited(state)) == {0, 1}
    assert refusal(GAME, state, 0, ResolveDisaster(["A12", "A14"])) == "TOO_MANY_KEPT"
    after, events = run(state, 0, ResolveDisaster(["B13"]))
    assert [b.tile_id for b in after.seats[0].buildings] == ["B13"]
    assert (after.seats[0].wood, after.seats[0].stone) == (3, 0)
    assert events[0].removed_tiles == ["A12", "A14"]
    after, _ = run(after, 1, ResolveDisaster(["A13"]))
    assert [b.tile_id for b in after.seats[1].buildings] == ["A13"]
    assert (after.seats[1].wood, after.seats[1].stone) == (0, 0)


def test_11_7_tempest_examples() -> None:
    state = striking(table(3), "tempest")
    seat(state, 0, lands=["A01", "A02", "A04"], food=1, coins=5)
    seat(state, 1, lands=["A05", "A06"], food=1, coins=1)
    seat(state, 2, lands=["A07"], food=6, coins=0, luxury=12)
    state, events = settle(state)
    (automatic,) = of_type(events, DisasterResolved)
    assert (automatic.seat, automatic.removed_tiles, automatic.automatic) == (2, ["A07"], True)
    assert automatic.after["luxury"] == 12
    assert refusal(GAME, state, 0, ResolveDisaster(["A01", "A02"])) == "TOO_MANY_KEPT"
    after, _ = run(state, 0, ResolveDisaster(["A01"]))
    assert after.seats[0].lands == ["A01"]
    assert (after.seats[0].food, after.seats[0].coins) == (0, 4)
    assert refusal(GAME, after, 1, ResolveDisaster(["A05", "A06"])) == "TOO_MANY_KEPT"
    after, _ = run(after, 1, ResolveDisaster(["A06"]))
    assert after.seats[1].lands == ["A06"]
    assert (after.seats[1].food, after.seats[1].coins) == (0, 0)


def test_11_8_market_wins_a_tie() -> None:
    state = bidding(table(3, round_=4, order=[1, 0, 2]), ["B06", "B04", "B07"], ["B09", "B10"])
    seat(state, 1, coins=10)
    seat(state, 0, coins=6, buildings=["A13*"])
    seat(state, 2, coins=10)
    state, _ = run(state, 1, PlaceBid("B06", 4))
    state, events = run(state, 0, PlaceBid("B06", 4))
    assert events[0].outbid_seat == 1
    assert GAME.awaited(state) == {1: ("move_bid", "withdraw_bid")}
    state, _ = run(state, 1, MoveBid("B04"))
    assert refusal(GAME, state, 2, PlaceBid("B06", 4)) == "NOT_ENOUGH_TO_OUTBID"
    _, events = run(state, 2, PlaceBid("B06", 5))
    assert events[0].outbid_seat == 0
    _, events = run(state, 2, PassTurn())
    (order,) = of_type(events, TurnOrderSet)
    assert order.bid_values == {"0": 4, "1": 4, "2": 0}  # the half coin is not counted in step c


def test_11_9_market_against_agora() -> None:
    state = bidding(table(2, round_=4, order=[1, 0]), ["B06", "B04"], ["B07", "B09", "B10"])
    seat(state, 0, coins=10, buildings=["A13"])
    seat(state, 1, coins=10, buildings=["B02"])
    state, _ = run(state, 1, PlaceBid("B06", 5))
    assert refusal(GAME, state, 0, PlaceBid("B06", 5)) == "NOT_ENOUGH_TO_OUTBID"
    _, events = run(state, 0, PlaceBid("B06", 6))
    assert events[0].outbid_seat == 1


def test_11_10_displacement_and_relocation() -> None:
    state = bidding(table(4, round_=2, order=[0, 1, 2, 3]), ["A08", "A03", "A10", "A11"], ["A14"])
    for s in range(4):
        seat(state, s, coins=10)
    state, _ = run(state, 0, PlaceBid("A08", 3))
    state, _ = run(state, 1, PlaceBid("A03", 4))
    state, _ = run(state, 2, PlaceBid("A08", 5))
    assert GAME.awaited(state) == {0: ("move_bid", "withdraw_bid")}
    moves = GAME.legal_moves(state, 0, Chance(b"m"))
    assert moves == [MoveBid("A10"), MoveBid("A11"), WithdrawBid()]
    assert refusal(GAME, state, 0, MoveBid("A14")) == "BELOW_CONQUEST_PRICE"
    assert refusal(GAME, state, 0, MoveBid("A03")) == "TILE_TAKEN"
    assert refusal(GAME, state, 0, MoveBid("A08")) == "SAME_TILE"
    after, _ = run(state, 0, MoveBid("A10"))
    assert GAME.awaited(after) == {3: ("place_bid", "pass_turn")}
    after, _ = run(state, 0, WithdrawBid())
    assert GAME.awaited(after) == {3: ("place_bid", "pass_turn")}


def test_11_11_no_free_tile_automatic_withdrawal_and_turn_order() -> None:
    state = bidding(table(5, round_=8, order=[0, 1, 2, 3, 4]), ["C01", "C02", "C06", "C09", "C10"])
    for s in range(5):
        seat(state, s, coins=10)
    for s, (tile, amount) in enumerate([("C02", 4), ("C06", 5), ("C09", 5), ("C01", 6)]):
        state, _ = run(state, s, PlaceBid(tile, amount))
    state, events = run(state, 4, PlaceBid("C02", 5))
    (withdrawn,) = of_type(events, BidWithdrawn)
    assert (withdrawn.seat, withdrawn.refund, withdrawn.compensation, withdrawn.automatic) == (0, 4, 1, True)
    assert withdrawn.after["coins"] == 10 - 4 + 5
    (order,) = of_type(events, TurnOrderSet)
    assert order.order == [3, 1, 2, 4, 0]
    assert order.bid_values == {"0": 0, "1": 5, "2": 5, "3": 6, "4": 5}


def test_11_12_pass_versus_withdrawal_in_turn_order() -> None:
    state = bidding(table(4, round_=2, order=[2, 0, 3, 1]), ["A08", "A03", "A10", "A11"], ["A14"])
    for s in range(4):
        seat(state, s, coins=10)
    seat(state, 3, buildings=["A13"])
    state, events = run(state, 2, PassTurn())
    assert events[0].after["coins"] == 13
    state, _ = run(state, 0, PlaceBid("A08", 3))
    state, _ = run(state, 3, PlaceBid("A08", 3))
    state, events = run(state, 0, WithdrawBid())
    assert events[0] == BidWithdrawn(0, "A08", 3, 1, False, {**events[0].after, "coins": 10 - 3 + 4})
    state, events = run(state, 1, PlaceBid("A03", 4))
    (order,) = of_type(events, TurnOrderSet)
    assert order.order == [1, 3, 2, 0]
    assert order.bid_values == {"0": 0, "1": 4, "2": 0, "3": 3}


def test_11_13_supply_tile_in_the_middle_of_the_reveal() -> None:
    state = table(3, round_=4)
    state.phase = ROUND_END
    for s in range(3):
        seat(state, s, population=2, food=5)
    stack_from_top(state, "B", ["B13", "B05", "B01", "B09", "B14"])
    state, events = settle(state, TopOfPile(b"x"))
    names = [(e.type, getattr(e, "tile_id", None)) for e in events]
    assert names == [
        ("RoundStarted", None),
        ("TileRevealed", "B13"),
        ("TileRevealed", "B05"),
        ("SupplyStarted", "B05"),
        ("SupplyResolved", None),
        ("SupplyResolved", None),
        ("SupplyResolved", None),
        ("SupplyEnded", None),
        ("TileRevealed", "B01"),
        ("TileRevealed", "B09"),
        ("TileRevealed", "B14"),
    ]
    revealed = [(e.tile_id, e.row, e.index) for e in of_type(events, TileRevealed)]
    assert revealed[1] == ("B05", "auction", 1)
    assert revealed[2:] == [("B01", "auction", 2), ("B09", "conquest", 0), ("B14", "conquest", 1)]
    assert state.phase == "bidding"
    assert state.slot("B05") is not None
    assert len(state.stacks["B"]) == 10 and state.auction_slots == 3


def test_11_14_feeding_with_luxury() -> None:
    state = supplying(table(3))
    seat(state, 0, population=9, food=5, luxury=5)
    seat(state, 1, population=9, food=5, luxury=1)
    seat(state, 2, population=4, food=13)
    state, events = settle(state)
    assert [(e.seat, e.after["food"], e.after["population"]) for e in of_type(events, SupplyResolved)] == [
        (1, 0, 5),
        (2, 9, 4),
    ]
    assert GAME.awaited(state) == {0: ("resolve_supply",)}
    after, _ = run(state, 0, ResolveSupply(2, []))
    assert (after.seats[0].food, after.seats[0].luxury, after.seats[0].population) == (0, 1, 7)
    assert refusal(GAME, state, 0, ResolveSupply(3, [])) == "LUXURY_FEED_LIMIT"
    after, _ = run(state, 0, ResolveSupply(0, []))
    assert (after.seats[0].population, after.seats[0].luxury) == (5, 5)


def test_11_15_marked_building_protection_completion() -> None:
    state = placing(table(1, round_=4), {0: "B01"})
    seat(state, 0, wood=0, stone=2, coins=3, luxury=0, population=2, food=9)
    placed = GAME.advance(state, Chance(b"x"))
    assert isinstance(placed[0], BuildingPlaced)
    assert (placed[0].mode, placed[0].coin_placed, placed[0].automatic) == ("marked", 1, True)
    assert placed[0].after["coins"] == 2
    assert isinstance(placed[1], OneTimeIncomeReceived) and placed[1].population_delta == 2
    for event in placed:
        GAME.evolve(state, event)
    assert income_of(state, 0).food == 1 + 2  # Aqueduct + Messene
    assert protector(state.seats[0], "plague") == "B01"
    _, struck = settle(striking(state, "plague"))
    assert of_type(struck, DisasterResolved)[0].protected_by == "B01"
    assert of_type(struck, DisasterResolved)[0].after["population"] == 4
    supply = supplying(state)
    seat(supply, 0, wood=1, stone=3)
    assert GAME.awaited(supply) == {0: ("resolve_supply",)}
    after, _ = run(supply, 0, ResolveSupply(0, ["B01"]))
    s = after.seats[0]
    assert (s.wood, s.stone, s.coins, s.buildings[0].unfinished) == (0, 0, 3, False)
    after, events = run(supply, 0, ResolveSupply(0, []))
    s = after.seats[0]
    assert (s.buildings, s.coins, s.population) == ([], 3, 4)
    assert "B01" in after.box and events[0].abandoned == ["B01"]


def test_11_16_choice_at_placement() -> None:
    state = placing(table(1), {0: "A12"})
    seat(state, 0, wood=3, coins=2)
    assert GAME.awaited(state) == {0: ("place_building",)}
    after, events = run(state, 0, PlaceBuilding("mark"))
    marked, one_time = events[0], events[1]
    assert isinstance(marked, BuildingPlaced) and isinstance(one_time, OneTimeIncomeReceived)
    assert (marked.mode, marked.after["coins"], marked.after["wood"]) == ("marked", 1, 3)
    assert after.seats[0].buildings[0].unfinished and one_time.after["population"] == 2
    after, events = run(state, 0, PlaceBuilding("build"))
    assert (events[0].mode, events[0].after["wood"], events[1].after["population"]) == ("built", 1, 2)
    assert not after.seats[0].buildings[0].unfinished
    income = of_type(events, IncomeCollected)[0]
    assert income.food == 2 + 1  # Messene + Bridge


def test_11_17_tiryns_and_barracks_without_inhabitants() -> None:
    state = placing(table(3, round_=8), {2: "C10", 1: "A11"})
    seat(state, 2, population=0, wood=5, stone=5, coins=5)
    seat(state, 1, population=1, wood=5, stone=5, coins=5)
    _, events = settle(state)
    rejected = of_type(events, TileRejected)
    assert [(e.seat, e.tile_id, e.reason) for e in rejected] == [
        (1, "A11", "not_enough_inhabitants"),
        (2, "C10", "not_enough_inhabitants"),
    ]
    assert not of_type(events, OneTimeIncomeReceived)
    after, _ = settle(state)
    assert {"A11", "C10"} <= set(after.box)
    assert (after.seats[1].coins, after.seats[2].coins) == (5, 5)  # Barracks' +4 is not paid


def test_11_18_land_placement_and_barracks() -> None:
    state = placing(table(2), {1: "A07"})
    seat(state, 1, lands=["A05", "A01"])
    _, events = settle(state)
    assert of_type(events, TileRejected)[0].reason == "land_mismatch"
    seat(state, 1, buildings=["A11*"])
    after, events = settle(state)
    assert of_type(events, LandPlaced)[0] == LandPlaced(1, "A07", 2, True)
    after = placing(after, {1: "A10"})
    after.phase = PLACEMENT
    _, events = settle(after)
    assert of_type(events, LandPlaced)[0] == LandPlaced(1, "A10", 3, False)


def test_11_19_rounding_down() -> None:
    state = striking(table(3), "plague")
    seat(state, 0, population=8)
    seat(state, 1, population=2)
    seat(state, 2, population=8, buildings=["B14"])
    _, events = settle(state)
    assert [e.after["population"] for e in of_type(events, DisasterResolved)] == [6, 2, 8]
    state = striking(table(2), "drought")
    seat(state, 0, food=13)
    seat(state, 1, food=2)
    _, events = settle(state)
    assert [e.after["food"] for e in of_type(events, DisasterResolved)] == [9, 2]


def test_11_20_decline() -> None:
    state = striking(table(4), "decline")
    seat(state, 0, luxury=7)
    seat(state, 1, luxury=23)
    seat(state, 2, luxury=23, buildings=["C07"])
    seat(state, 3, luxury=23, buildings=["A15*"])
    _, events = settle(state)
    assert [e.after["luxury"] for e in of_type(events, DisasterResolved)] == [0, 13, 23, 23]


def test_11_21_arkadia() -> None:
    state = table(1, civs=["arkadia"])
    seat(state, 0, population=7)
    event = income_of(state, 0)
    assert (event.after["population"], event.coins, event.wood + event.stone + event.food) == (8, 4, 0)


def test_11_22_large_population() -> None:
    state = table(1, civs=["messene"])  # 2 food
    seat(state, 0, population=15, food=12)
    event = income_of(state, 0)
    assert (event.coins, event.luxury_from_population) == (5, 2)
    assert event.after["food"] == 13 and event.overflow_luxury == 1
    assert event.after["luxury"] == 3


def test_11_23_final_round_sequence() -> None:
    state = placing(table(2, round_=8), {0: "C02"})
    seat(state, 0, coins=3, population=3, food=9)
    seat(state, 1, population=1, food=9)
    state.chits = ["blank", "decline"]
    state, events = settle(state)
    assert types(events) == [
        "BuildingPlaced",
        "OneTimeIncomeReceived",
        "DisasterRevealed",
        "DisasterRevealed",
        "SupplyStarted",
        "SupplyResolved",
        "SupplyResolved",
        "SupplyEnded",
        "GameEnded",
    ]
    assert [e.draw for e in of_type(events, DisasterRevealed)] == [1, 2]
    ended = of_type(events, GameEnded)[0]
    # C02 was marked (coins 3 -> 2), then abandoned in the final supply round: the coin counts again
    assert "C02" in state.box and state.seats[0].buildings == []
    assert not of_type(events, IncomeCollected)
    assert state.seats[0].coins == 3 and ended.results[0]["coin_prestige"] == 1


def test_11_24_tie_breaks() -> None:
    state = table(4)
    seat(state, 0, coins=72, population=8)  # A: prestige 24, population 24
    seat(state, 1, coins=90, population=8)  # B: prestige 30, population 24
    seat(state, 2, coins=81, population=9, luxury=5)  # C
    seat(state, 3, coins=81, population=9, luxury=3)  # D
    results, winners = rank([seat_result(i, s) for i, s in enumerate(state.seats)])
    assert [r["final"] for r in results] == [24, 24, 27, 27]
    assert results[1]["rank"] < results[0]["rank"]
    assert winners == [2]
    seat(state, 3, luxury=5)
    results, winners = rank([seat_result(i, s) for i, s in enumerate(state.seats)])
    assert winners == [2, 3] and results[2]["rank"] == results[3]["rank"] == 1
    assert [r["rank"] for r in results] == [4, 3, 1, 1]


def test_11_25_earthquake_unfinished_building_no_luxury() -> None:
    state = striking(table(1), "earthquake")
    seat(state, 0, buildings=["A12", "B01*"], wood=1, stone=1, luxury=10)
    assert refusal(GAME, state, 0, ResolveDisaster(["A12", "B01"])) == "TOO_MANY_KEPT"
    after, events = run(state, 0, ResolveDisaster(["A12"]))
    s = after.seats[0]
    assert (s.wood, s.stone, s.coins, s.luxury) == (0, 0, 1, 10)
    assert [b.tile_id for b in s.buildings] == ["A12"]
    assert events[0].coins_returned == 1


def test_11_26_two_disasters_in_one_step_g() -> None:
    state = table(1, round_=3)
    state.phase = DISASTER
    state.chits_on_tile.update(earthquake=2, plague=2)
    state.chits = ["earthquake", "plague", *[c for c in state.chits if c not in ("earthquake", "plague")][:6]]
    seat(state, 0, buildings=["B01", "A12"], wood=0, stone=5, population=9)
    state, events = settle(state, TopOfPile(b"x"))
    resolved = of_type(events, DisasterResolved)
    assert [(e.disaster, e.protected_by) for e in resolved] == [("earthquake", None), ("plague", None)]
    assert resolved[0].removed_tiles == ["B01", "A12"]
    assert resolved[0].after["population"] == 9
    assert resolved[1].population_lost == 3 and resolved[1].after["population"] == 6


def test_11_27_bid_paid_with_luxury() -> None:
    state = bidding(table(2, order=[0, 1]), ["A05", "A07"], ["A01", "A02", "A03"])
    seat(state, 0, coins=2, luxury=5)
    seat(state, 1, coins=9)
    assert refusal(GAME, state, 0, PlaceBid("A05", 5)) == "CANNOT_AFFORD"
    state, events = run(state, 0, PlaceBid("A05", 4))
    assert (events[0].amount, events[0].luxury_spent) == (4, 4)
    assert (state.seats[0].coins, state.seats[0].luxury) == (0, 1)
    state, _ = run(state, 1, PlaceBid("A05", 5))
    # A07 (min 2) is free, so seat 0 may move; it withdraws instead
    _, events = run(state, 0, WithdrawBid())
    assert (events[0].after["coins"], events[0].after["luxury"]) == (5, 1)


def test_11_28_granary_overflow() -> None:
    state = placing(table(1, round_=4), {0: "B12"})
    seat(state, 0, food=12, wood=3)
    _, events = settle(state)
    income = of_type(events, OneTimeIncomeReceived)[0]
    assert (income.after["food"], income.after["luxury"], income.overflow_luxury) == (13, 2, 2)


def test_11_29_moving_a_bid_onto_a_conquest_tile() -> None:
    state = bidding(table(3, order=[0, 1, 2]), ["A03", "A05", "A07"], ["A01", "A02"])
    for s in range(3):
        seat(state, s, coins=10)
    state, _ = run(state, 0, PlaceBid("A03", 7))
    state, _ = run(state, 1, PlaceBid("A03", 8))
    state, events = run(state, 0, MoveBid("A01"))
    assert (events[0].to_tile_id, events[0].amount) == ("A01", 7)
    assert state.slot("A01").amount == 7  # type: ignore[union-attr]
    assert state.seats[0].coins == 3  # all 7 coins stay in the bid, no change is given
    _, events = run(state, 2, PassTurn())
    assert {"seat": 0, "tile_id": "A01", "amount": 7} in of_type(events, BiddingEnded)[0].awards
    assert of_type(events, TurnOrderSet)[0].bid_values["0"] == 7


def test_11_30_solo_level_3_and_port_choice() -> None:
    state = GAME.initial_state(1, {"solo_level": 3})
    state, _ = settle(state)
    assert GAME.awaited(state) == {0: ("choose_solo_setup",)}
    stack_from_top(state, "A", ["A07", "A05", "A12", "A01", "A14"])
    state, events = run(state, 0, ChooseSoloSetup("sparta", ["wood", "food"]), TopOfPile(b"x"))
    revealed = [(e.tile_id, e.row) for e in of_type(events, TileRevealed)]
    assert revealed[0] == ("A07", "auction") and revealed[3] == ("A01", "conquest")
    assert run(state, 0, PlaceBid("A07", 2))[1][0].amount == 2
    assert refusal(GAME, state, 0, PlaceBid("A07", 3)) == "SOLO_PRICE"
    assert refusal(GAME, state, 0, PlaceBid("A01", 5)) == "SOLO_PRICE"
    assert run(state, 0, PlaceBid("A01", 6))[1][0].amount == 6
    assert run(state, 0, PassTurn())[1][0].after["coins"] == 7 + 3
    event = income_of(state, 0)
    assert (event.wood, event.stone, event.food) == (2, 0, 1)
    # Port choice: stone 10 and stone chosen gives 1 luxury instead
    seat(state, 0, buildings=["A15"], stone=10)
    event = income_of(state, 0, [{"tile_id": "A15", "resource": "stone"}])
    assert event.after["stone"] == 10 and event.overflow_luxury == 1
    # at the end: final score >= 32 reaches the target
    end = table(1)
    end.solo_level = 3
    end.phase = "scoring"
    seat(end, 0, coins=96, population=11)
    ended = GAME.advance(end, Chance(b"x"))[0]
    assert isinstance(ended, GameEnded)
    assert ended.solo == {"level": 3, "target": 32, "reached": True}
    seat(end, 0, population=10)
    assert GAME.advance(end, Chance(b"x"))[0].solo["reached"] is False  # type: ignore[attr-defined,index]


def test_11_30_choose_income_is_awaited_for_port_owners() -> None:
    state = table(2)
    seat(state, 0, buildings=["A15"])
    state.phase = INCOME
    state.pending = [0, 1]
    state, events = settle(state)
    assert [e.seat for e in of_type(events, IncomeCollected)] == [1]
    assert GAME.awaited(state) == {0: ("choose_income",)}
    _, events = run(state, 0, ChooseIncome([{"tile_id": "A15", "resource": "coin"}]))
    assert events[0].coins == 1 + 1
