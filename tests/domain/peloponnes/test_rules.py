"""The numbered rules and rulings of the rules file (section 5, 7, 10) and every error code."""

from __future__ import annotations

import pytest

from domain.kernel import Chance, RuleViolation, engine
from domain.kernel.bots import play_random_game
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
)
from domain.peloponnes.data import CAPS, CIVILIZATIONS, STACKS, TILES, population_income
from domain.peloponnes.events import (
    BiddingEnded,
    BuildingPlaced,
    CivilizationAssigned,
    DisasterResolved,
    DisasterRevealed,
    GameEnded,
    IncomeCollected,
    LandPlaced,
    OneTimeIncomeReceived,
    RoundStarted,
    TileRejected,
    TileRevealed,
    TurnOrderSet,
)
from domain.peloponnes.rules import decide, has_supply_decision, outbid_minimum
from domain.peloponnes.state import DISASTER, INCOME, State
from tests.domain.peloponnes.helpers import TopOfPile, bidding, placing, run, seat, settle, striking, supplying, table
from tests.support.games import of_type, refusal, types

# -- data and setup (sections 2-3) --------------------------------------------------------------


def test_data_tables_match_the_validation_of_section_2_9() -> None:
    assert len(TILES) == 40
    assert {s: len(t) for s, t in STACKS.items()} == {"A": 15, "B": 15, "C": 10}
    assert sorted(t.id for t in TILES.values() if t.supply) == ["B05", "C04"]
    assert all(t.produces for t in TILES.values() if t.kind == "land")
    protections = [t.protects for t in TILES.values() if t.protects]
    assert sorted(protections) == sorted(["plague"] * 2 + ["drought"] * 2 + ["decline"] * 2 + ["earthquake", "tempest"])
    assert len(CIVILIZATIONS) == 7


def test_population_income_table_2_7() -> None:
    expected = {0: (1, 0), 2: (1, 0), 3: (2, 0), 7: (3, 0), 10: (4, 0), 13: (5, 0), 14: (5, 2), 19: (5, 4), 25: (5, 6)}
    for population, result in expected.items():
        assert population_income(population) == result


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_setup_deals_civilizations_and_orders_by_turn_number(players: int) -> None:
    state, events = engine.start(GAME, players, {}, Chance(b"setup"))
    assert types(events)[: players + 2] == ["StacksPrepared", *["CivilizationAssigned"] * players, "TurnOrderSet"]
    dealt = of_type(events, CivilizationAssigned)
    assert len({e.civilization for e in dealt}) == players
    for e in dealt:
        civ = CIVILIZATIONS[e.civilization]
        assert e.after == {
            "coins": civ.coins,
            "wood": civ.wood,
            "stone": civ.stone,
            "food": civ.food,
            "population": civ.population,
            "luxury": 0,
        }
    numbers = [CIVILIZATIONS[state.seats[s].civilization or ""].turn_number for s in state.turn_order]
    assert numbers == sorted(numbers)
    started = of_type(events, RoundStarted)[0]
    assert (started.auction_slots, started.conquest_slots) == (players, 5 - players)  # R10: none with 5


def test_bad_options_are_refused() -> None:
    for players, options in [(3, {"solo_level": 2}), (1, {"solo_level": 6}), (1, {"solo_level": True}), (2, {"x": 1})]:
        with pytest.raises(RuleViolation) as refusal:
            GAME.normalize_options(players, options)
        assert refusal.value.code == "BAD_OPTIONS"
    assert GAME.normalize_options(1, {}) == {"solo_level": 1}


# -- R8-R12: reveal ----------------------------------------------------------------------------


def test_r9_each_round_draws_from_its_stack_and_r10_fills_the_rows() -> None:
    played = play_random_game(GAME, 4, seed=b"stacks")
    revealed = of_type(played.events, TileRevealed)
    assert len(revealed) == 40
    for e in revealed:
        assert TILES[e.tile_id].stack == {1: "A", 2: "A", 3: "A", 4: "B", 5: "B", 6: "B", 7: "C", 8: "C"}[e.round]
        assert (e.row, e.index) in {("auction", 0), ("auction", 1), ("auction", 2), ("auction", 3), ("conquest", 0)}
    assert sum(e.row == "auction" for e in revealed) == 32


# -- R13-R22: bidding ----------------------------------------------------------------------------


def three_at_auction() -> State:
    state = bidding(table(3, order=[0, 1, 2]), ["A05", "A07", "A12"], ["A01", "A14"])
    for s in range(3):
        seat(state, s, coins=8)
    return state


def test_r14_bid_errors_tile_not_offered_invalid_amount_below_minimum() -> None:
    state = three_at_auction()
    assert refusal(GAME, state, 0, PlaceBid("B01", 3)) == "TILE_NOT_OFFERED"
    assert refusal(GAME, state, 0, PlaceBid("A05", 0)) == "INVALID_AMOUNT"
    assert refusal(GAME, state, 0, PlaceBid("A05", -2)) == "INVALID_AMOUNT"
    assert refusal(GAME, state, 0, PlaceBid("A05", 2)) == "BELOW_MINIMUM"
    assert refusal(GAME, state, 0, PlaceBid("A05", 9)) == "CANNOT_AFFORD"
    _, events = run(state, 0, PlaceBid("A05", 8))
    assert events[0].after["coins"] == 0


def test_r15_outbidding_needs_more_and_displaces() -> None:
    state = three_at_auction()
    state, _ = run(state, 0, PlaceBid("A05", 4))
    assert refusal(GAME, state, 1, PlaceBid("A05", 4)) == "NOT_ENOUGH_TO_OUTBID"
    state, events = run(state, 1, PlaceBid("A05", 5))
    assert events[0].outbid_seat == 0
    assert state.displaced == 0 and state.seats[0].bid_status == "displaced"


def test_r18a_a_displaced_seat_cannot_pass() -> None:
    state = three_at_auction()
    state, _ = run(state, 0, PlaceBid("A05", 4))
    state, _ = run(state, 1, PlaceBid("A05", 5))
    assert refusal(GAME, state, 0, PassTurn()) == "WRONG_PHASE"
    assert refusal(GAME, state, 2, PassTurn()) == "WRONG_PHASE", "nobody may pass while a displaced bid is answered"


def test_r19a_a_bid_moves_unchanged_to_a_free_tile_it_covers() -> None:
    state = bidding(table(3, order=[0, 1, 2]), ["A05", "A03", "A07"], ["A01", "A14"])
    for s in range(3):
        seat(state, s, coins=9)
    state, _ = run(state, 0, PlaceBid("A05", 3))
    state, _ = run(state, 1, PlaceBid("A05", 4))
    assert refusal(GAME, state, 0, MoveBid("A03")) == "BELOW_MINIMUM"
    assert refusal(GAME, state, 0, MoveBid("A14")) == "BELOW_CONQUEST_PRICE"
    assert refusal(GAME, state, 0, MoveBid("C01")) == "TILE_NOT_OFFERED"
    state, events = run(state, 0, MoveBid("A07"))
    assert (events[0].from_tile_id, events[0].to_tile_id, events[0].amount) == ("A05", "A07", 3)
    assert state.seats[0].coins == 6 and GAME.awaited(state) == {2: ("place_bid", "pass_turn")}


def test_r22a_bonus_never_lowers_a_minimum_or_a_conquest_price() -> None:
    state = three_at_auction()
    seat(state, 0, buildings=["A13", "B02"])
    assert refusal(GAME, state, 0, PlaceBid("A05", 2)) == "BELOW_MINIMUM"
    assert refusal(GAME, state, 0, PlaceBid("A01", 5)) == "CONQUEST_PRICE"
    state.display[0].bidder, state.display[0].amount = 1, 4
    assert outbid_minimum(state, 0, state.display[0]) == 4
    seat(state, 1, buildings=["B02"])  # holder: 4 + ½ = 9 halves; 4 + a whole coin for two tiles = 10 would win
    assert outbid_minimum(state, 0, state.display[0]) == 5  # both tiles still give only the half coin


def test_r25_unbid_tiles_go_to_the_box_and_winners_take_theirs() -> None:
    state = three_at_auction()
    state, _ = run(state, 0, PlaceBid("A05", 3))
    state, _ = run(state, 1, PassTurn())
    state, events = run(state, 2, PlaceBid("A01", 6))
    (ended,) = of_type(events, BiddingEnded)
    assert ended.awards == [{"seat": 0, "tile_id": "A05", "amount": 3}, {"seat": 2, "tile_id": "A01", "amount": 6}]
    assert ended.discarded == ["A07", "A12", "A14"]
    assert set(ended.discarded) <= set(state.box)


# -- R26-R31: placement ---------------------------------------------------------------------------


def test_r26_neither_build_nor_mark_rejects_the_tile_and_r29a_keeps_the_bid() -> None:
    state = placing(table(1), {0: "A13"})
    seat(state, 0, coins=0, luxury=1, wood=2, population=3)
    _, events = settle(state)
    assert of_type(events, TileRejected)[0].reason == "cannot_pay"
    assert not of_type(events, OneTimeIncomeReceived)


def test_r5a_building_converts_exactly_the_shortfall() -> None:
    state = placing(table(1), {0: "A12"})  # Bridge: 2 wood
    seat(state, 0, wood=1, luxury=3, coins=0)
    _, events = run(state, 0, PlaceBuilding("build"))
    built = of_type(events, BuildingPlaced)[0]
    assert (built.mode, built.wood_spent, built.luxury_spent) == ("built", 1, 2)
    assert (built.after["wood"], built.after["luxury"]) == (0, 1)


def test_r26_marking_with_luxury_when_the_purse_is_empty() -> None:
    state = placing(table(1), {0: "C08"})  # 8 stone: unaffordable
    seat(state, 0, coins=0, luxury=2, population=1)
    _, events = settle(state)
    marked = of_type(events, BuildingPlaced)[0]
    assert (marked.mode, marked.coin_placed, marked.luxury_spent, marked.after["luxury"]) == ("marked", 1, 2, 0)


def test_r26b_population_check_comes_before_payment_and_barracks_costs_two() -> None:
    state = placing(table(1), {0: "A11"})
    seat(state, 0, population=2, wood=1, stone=2)
    _, events = settle(state)
    one_time = of_type(events, OneTimeIncomeReceived)[0]
    assert (one_time.population_delta, one_time.coins, one_time.after["population"]) == (-2, 4, 0)


def test_place_building_errors() -> None:
    state = placing(table(1), {0: "A12"})
    seat(state, 0, wood=2, coins=1)
    assert refusal(GAME, state, 0, PlaceBuilding("burn")) == "BAD_INPUT"
    seat(state, 0, coins=0)  # no longer able to mark: refused by decide itself
    with pytest.raises(RuleViolation) as refused:
        decide(state, 0, PlaceBuilding("mark"), Chance(b"x"))
    assert refused.value.code == "CANNOT_AFFORD"


def test_r28a_after_tempest_an_empty_row_takes_any_land() -> None:
    state = placing(table(1), {0: "A07"})
    seat(state, 0, lands=[])
    _, events = settle(state)
    assert of_type(events, LandPlaced)[0] == LandPlaced(0, "A07", 0, False)


# -- R33-R34: income ------------------------------------------------------------------------------


def test_choose_income_errors() -> None:
    state = table(1)
    seat(state, 0, buildings=["A15", "B15"])
    state.phase, state.pending = INCOME, [0]
    assert refusal(GAME, state, 0, ChooseIncome([{"tile_id": "A15", "resource": "wood"}])) == "CHOICES_MISMATCH"
    two = [{"tile_id": "A15", "resource": "wood"}, {"tile_id": "A15", "resource": "food"}]
    assert refusal(GAME, state, 0, ChooseIncome(two)) == "CHOICES_MISMATCH"
    bad = [{"tile_id": "A15", "resource": "gold"}, {"tile_id": "B15", "resource": "food"}]
    assert refusal(GAME, state, 0, ChooseIncome(bad)) == "INVALID_RESOURCE"
    assert refusal(GAME, state, 0, ChooseIncome([{"tile": "A15"}, {"tile_id": "B15", "resource": "x"}])) == "BAD_INPUT"
    good = [{"tile_id": "B15", "resource": "coin"}, {"tile_id": "A15", "resource": "stone"}]
    _, events = run(state, 0, ChooseIncome(good))
    assert (events[0].stone, events[0].coins) == (1, 1 + 1)


def test_r4_stores_never_exceed_their_caps_in_random_games() -> None:
    for players in (2, 5):
        played = play_random_game(GAME, players, seed=b"caps%d" % players)
        for e in played.events:
            after = getattr(e, "after", None)
            if after:
                assert all(after[good] <= CAPS[good] for good in CAPS), e
                assert min(after.values()) >= 0, e


# -- R35-R44: disasters --------------------------------------------------------------------------


def test_r35_a_blank_chit_goes_to_the_box() -> None:
    state = table(2, round_=2)
    state.phase, state.draws = DISASTER, 0
    state.chits = ["blank", "decline", "plague"]
    state, events = settle(state, TopOfPile(b"x"))
    revealed = of_type(events, DisasterRevealed)
    assert (revealed[0].chit, revealed[0].strikes, revealed[0].chits_on_tile) == ("blank", False, None)
    assert revealed[1].chits_on_tile == 1 and not revealed[1].strikes
    assert state.box_chits == ["blank"]


def test_r35_a_disaster_strikes_on_its_third_chit_only() -> None:
    state = table(1, round_=2)
    state.phase, state.draws = DISASTER, 0
    state.chits = ["drought", "drought", "drought", "plague"]
    seat(state, 0, food=9)
    state, events = settle(state, TopOfPile(b"x"))
    assert [(e.chits_on_tile, e.strikes) for e in of_type(events, DisasterRevealed)] == [(1, False), (2, False)]
    assert not of_type(events, DisasterResolved)
    state.phase, state.draws = DISASTER, 0
    state, events = settle(state, TopOfPile(b"x"))
    revealed = of_type(events, DisasterRevealed)
    assert [(e.chit, e.chits_on_tile, e.strikes) for e in revealed] == [("drought", 3, True), ("plague", 1, False)]
    assert [e.after["food"] for e in of_type(events, DisasterResolved)] == [6]


def test_r35_every_disaster_strikes_exactly_once_in_a_game() -> None:
    for players in (1, 3, 5):
        played = play_random_game(GAME, players, seed=b"strikes%d" % players)
        struck = sorted(e.chit for e in of_type(played.events, DisasterRevealed) if e.strikes)
        assert struck == sorted(["earthquake", "drought", "plague", "tempest", "decline"])


def test_r36_an_unfinished_building_protects() -> None:
    state = striking(table(1), "plague")
    seat(state, 0, buildings=["B14*"], population=9)
    _, events = settle(state)
    assert events[0].protected_by == "B14" and events[0].after["population"] == 9


def test_disaster_errors() -> None:
    state = striking(table(1), "earthquake")
    seat(state, 0, buildings=["A12", "A14"], wood=2, stone=2)
    assert refusal(GAME, state, 0, ResolveDisaster(["A05"])) == "NOT_OWN_TILE"
    assert refusal(GAME, state, 0, ResolveDisaster(["A12", "A12"])) == "DUPLICATE_TILE"
    _, events = run(state, 0, ResolveDisaster([]))  # R42: may keep fewer than it could
    assert events[0].removed_tiles == ["A12", "A14"] and events[0].after["wood"] == 2


def test_r42_tempest_keep_must_name_own_lands() -> None:
    state = striking(table(1), "tempest")
    seat(state, 0, lands=["A05"], buildings=["A12"], food=2, coins=2)
    assert refusal(GAME, state, 0, ResolveDisaster(["A12"])) == "NOT_OWN_TILE"


# -- R45-R48: supply round -----------------------------------------------------------------------


def test_supply_errors_and_r48_feeding_before_completion() -> None:
    state = supplying(table(1))
    seat(state, 0, buildings=["A12*", "A14"], population=3, food=2, luxury=4, wood=0)
    assert has_supply_decision(state, 0)
    assert refusal(GAME, state, 0, ResolveSupply(0, ["A14"])) == "NOT_UNFINISHED"
    assert refusal(GAME, state, 0, ResolveSupply(0, ["A12", "A12"])) == "DUPLICATE_TILE"
    assert refusal(GAME, state, 0, ResolveSupply(1, ["A12"])) == "CANNOT_AFFORD"  # 2 + 4 luxury needed, 4 held
    assert refusal(GAME, state, 0, ResolveSupply(-1, [])) == "LUXURY_FEED_LIMIT"
    _, events = run(state, 0, ResolveSupply(0, ["A12"]))
    resolved = events[0]
    assert (resolved.inhabitants_lost, resolved.luxury_for_buildings, resolved.coins_returned) == (1, 4, 1)
    assert resolved.after["population"] == 2


def test_r50_automatic_supply_abandons_unaffordable_buildings() -> None:
    state = supplying(table(1))
    seat(state, 0, buildings=["C08*"], population=1, food=1, stone=2)
    state, events = settle(state)
    assert events[0].abandoned == ["C08"] and events[0].automatic
    assert events[0].after["coins"] == 1


# -- solo (section 7) ----------------------------------------------------------------------------


def test_solo_setup_errors_and_r53_distinct_extra_incomes() -> None:
    state, _ = settle(GAME.initial_state(1, {"solo_level": 2}))
    assert refusal(GAME, state, 0, ChooseSoloSetup("athens", ["wood"])) == "UNKNOWN_CIVILIZATION"
    assert refusal(GAME, state, 0, ChooseSoloSetup("argos", [])) == "EXTRA_INCOME_COUNT"
    assert refusal(GAME, state, 0, ChooseSoloSetup("argos", ["gold"])) == "BAD_INPUT"
    state4, _ = settle(GAME.initial_state(1, {"solo_level": 4}))
    assert refusal(GAME, state4, 0, ChooseSoloSetup("argos", ["wood", "wood", "food"])) == "EXTRA_INCOME_DUPLICATE"
    assert len(GAME.legal_moves(state4, 0, Chance(b"m"))) == 7  # one per civilization: all three goods
    after, events = run(state, 0, ChooseSoloSetup("argos", ["stone"]))
    assert types(events)[:4] == ["SoloSetupChosen", "CivilizationAssigned", "TurnOrderSet", "RoundStarted"]
    assert after.seats[0].extra_incomes == ["stone"]


@pytest.mark.parametrize(("level", "auction"), [(1, 5), (2, 4), (3, 3), (4, 2), (5, 1)])
def test_r10_solo_level_sets_the_auction_row(level: int, auction: int) -> None:
    played = play_random_game(GAME, 1, {"solo_level": level}, seed=b"solo%d" % level)
    started = of_type(played.events, RoundStarted)
    assert all((e.auction_slots, e.conquest_slots) == (auction, 5 - auction) for e in started)
    ended = played.events[-1]
    assert isinstance(ended, GameEnded) and ended.solo is not None and ended.solo["level"] == level


# -- kernel contract -----------------------------------------------------------------------------


def test_every_event_is_public_and_the_game_ends_with_the_seed() -> None:
    played = play_random_game(GAME, 3, seed=b"public")
    assert all(e.viewers() is None for e in played.events)
    assert isinstance(played.events[-1], GameEnded)
    assert played.events[-1].seed == Chance(b"public").seed_hex
    assert refusal(GAME, played.state, 0, PassTurn()) == "GAME_OVER"


# -- more rules ----------------------------------------------------------------------------------


def test_r23a_withdrawn_and_passed_count_zero_and_r24_the_order_rules_step_d() -> None:
    state = three_at_auction()
    seat(state, 0, population=3)
    seat(state, 2, population=3)
    state, _ = run(state, 0, PassTurn())
    state, _ = run(state, 1, PlaceBid("A05", 3))
    state, events = run(state, 2, PlaceBid("A01", 6))
    order = of_type(events, TurnOrderSet)[0]
    assert order.order == [2, 1, 0] and order.bid_values == {"0": 0, "1": 3, "2": 6}
    placed = [e.seat for e in events if isinstance(e, (LandPlaced, TileRejected))]
    assert placed == [2, 1]  # step d runs in the new order (R24, R49)


def test_r27_a_marked_building_yields_income_and_r31_effects_stay_after_loss() -> None:
    state = placing(table(1, civs=["arkadia"]), {0: "B13"})  # Quarry: 2 stone per round
    seat(state, 0, coins=1, wood=2, stone=2, population=2)
    state, events = run(state, 0, PlaceBuilding("mark"))
    income = of_type(events, IncomeCollected)[0]
    assert income.stone == 2
    state = striking(state, "earthquake")
    seat(state, 0, wood=0)
    _, events = settle(state)
    resolved = of_type(events, DisasterResolved)[0]
    assert resolved.removed_tiles == ["B13"] and resolved.coins_returned == 1
    assert resolved.after["population"] == state.seats[0].population


def test_r47_an_affordable_building_may_still_be_abandoned() -> None:
    state = supplying(table(1))
    seat(state, 0, buildings=["A14*"], stone=1, population=0)
    assert GAME.awaited(state) == {0: ("resolve_supply",)}
    assert GAME.legal_moves(state, 0, Chance(b"m")) == [ResolveSupply(0, []), ResolveSupply(0, ["A14"])]
    _, events = run(state, 0, ResolveSupply(0, []))
    assert events[0].abandoned == ["A14"] and events[0].after["stone"] == 1


def test_r50_who_has_a_decision_in_a_disaster() -> None:
    state = striking(table(4), "tempest")
    seat(state, 0, lands=["A05"], food=1, coins=1)  # decides
    seat(state, 1, lands=["A05"], food=0, coins=5)  # cannot pay: automatic
    seat(state, 2, lands=["A05"], food=3, coins=3, buildings=["C06*"])  # protected
    seat(state, 3, food=3, coins=3)  # nothing to lose
    state, events = settle(state)
    assert GAME.awaited(state) == {0: ("resolve_disaster",)}
    resolved = {e.seat: e for e in of_type(events, DisasterResolved)}
    assert resolved[1].removed_tiles == ["A05"] and resolved[1].after["coins"] == 5
    assert resolved[2].protected_by == "C06"
    assert resolved[3].removed_tiles == []
    state = striking(table(3), "earthquake")
    seat(state, 0, buildings=["A12"], wood=1, stone=1)  # decides
    seat(state, 1, buildings=["A12"], wood=5, stone=0)  # cannot pay: automatic
    seat(state, 2, buildings=["A12"], wood=0, stone=5)  # cannot pay: automatic
    state, events = settle(state)
    assert GAME.awaited(state) == {0: ("resolve_disaster",)}
    assert [(e.seat, e.removed_tiles, e.automatic) for e in of_type(events, DisasterResolved)] == [
        (1, ["A12"], True),
        (2, ["A12"], True),
    ]


def test_legal_subsets_are_sampled_when_a_seat_owns_many_tiles() -> None:
    state = striking(table(1), "earthquake")
    many = ["A11", "A12", "A13", "A14", "A15", "B01", "B02", "B03", "B08", "B12"]
    seat(state, 0, buildings=many, wood=3, stone=4)
    moves = GAME.legal_moves(state, 0, Chance(b"m"))
    assert ResolveDisaster([]) in moves and len(moves) <= 26
    assert all(len(m.keep) <= 3 for m in moves)  # type: ignore[attr-defined]
    for move in moves:
        run(state, 0, move)


def test_view_and_scoreboard() -> None:
    state = three_at_auction()
    seat(state, 1, buildings=["A13*"], lands=["A05"], coins=9, population=4)
    shown = GAME.view(state, 1)
    assert shown["seats"][1]["buildings"] == [{"tile_id": "A13", "unfinished": True}]
    assert [t["tile_id"] for t in shown["auction"]] == ["A05", "A07", "A12"]
    assert shown["stacks_left"]["A"] == 10 and shown["chits_left"] == 16
    assert shown["awaited"] == {"0": ["place_bid", "pass_turn"]}
    assert GAME.view(state, None) == {**shown, "viewer": None}
    board = GAME.scoreboard(state)
    assert not board.final and board.scores[1] == min(3 + 1 + 3, 12)
    played = play_random_game(GAME, 3, seed=b"board")
    board = GAME.scoreboard(played.state)
    assert board.final and board.winners == played.events[-1].winners  # type: ignore[attr-defined]
