"""The numbered rules and rulings (§5, §7.1) and every error code (§10.2)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.catan_alexander import GAME
from domain.catan_alexander.commands import (
    BankTrade,
    BuildCity,
    BuildRoad,
    BuildSettlement,
    BuyDevelopmentCard,
    CancelTrade,
    ConfirmTrade,
    Discard,
    EndTurn,
    MoveAlexander,
    MoveRobber,
    OfferTrade,
    PassBid,
    PayBid,
    PlaceBid,
    PlayKnight,
    PlayMonopoly,
    PlayRoadBuilding,
    PlayYearOfPlenty,
    RespondTrade,
    RollDice,
)
from domain.catan_alexander.data import RESOURCE_INDEX, hex_corners
from domain.catan_alexander.events import (
    AcceptanceWithdrawn,
    BidDefaulted,
    SupplyCardDrawn,
    TradeCancelled,
    TradeCompleted,
)
from domain.catan_alexander.rules import (
    claim_special_cards,
    normalize_options,
    road_length,
    special_card_holder,
    total_vp,
)
from domain.catan_alexander.rules.sequence import TRADE_ACTIVE, TRADE_OTHERS
from domain.catan_alexander.state import (
    ALEXANDER,
    AUCTION,
    BEFORE_ROLL,
    DISCARD,
    FOUNDING_ROAD,
    FOUNDING_SETTLEMENT,
    GAME_OVER,
    PAYMENT,
    ROBBER,
    TRADE_BUILD,
    Auction,
    State,
)
from domain.kernel import Chance, RuleViolation
from tests.domain.catan_alexander.helpers import Loaded, build, road, road_chain, run, set_bank, set_hand, turn
from tests.support.games import new_game, of_type, refusal, types
from tests.support.properties import check_legal_moves_accepted


def trading(seat: int = 0, players: int = 4, **cards: int) -> State:
    state, _ = new_game(GAME, players)
    turn(state, seat, TRADE_BUILD)
    set_hand(state, seat, **cards)
    return state


# -- options and setup ---------------------------------------------------------------------------


def test_options_are_checked_and_defaulted() -> None:
    assert normalize_options(4, {}) == {"board": "alexander", "starting_gold": 8}
    assert normalize_options(3, {"board": "base"}) == {"board": "base", "layout": "beginner"}
    for bad in ({"board": "moon"}, {"starting_gold": 5}, {"layout": "random"}, {"colour": 1}):
        with pytest.raises(RuleViolation) as caught:
            normalize_options(4, bad)
        assert caught.value.code == "BAD_OPTIONS"


def test_starting_gold_zero_option() -> None:
    """§7: the first printing had no starting gold; the gold supply keeps all 40."""
    state, _ = new_game(GAME, 4, {"starting_gold": 0})
    assert state.gold == [0] * 4 and state.gold_supply == 40


def test_r1_seat_zero_starts_and_r9_turn_one_has_no_roll() -> None:
    state, _ = new_game(GAME, 4)
    assert (state.active, state.phase) == (0, ALEXANDER)
    assert GAME.awaited(state) == {
        0: ("move_alexander", "play_knight", "play_road_building", "play_year_of_plenty", "play_monopoly")
    }
    assert refusal(GAME, state, 0, RollDice()) == "WRONG_PHASE"
    assert refusal(GAME, state, 1, MoveAlexander()) == "NOT_YOUR_TURN"


def test_r7_everybody_draws_a_supply_card_even_before_a_seven() -> None:
    state, _ = new_game(GAME, 4)
    turn(state, 3, TRADE_BUILD, number=4)
    sizes = [sum(h) for h in state.hands]
    events = run(state, 3, EndTurn())
    assert [e.seat for e in of_type(events, SupplyCardDrawn)] == [0, 1, 2, 3]
    assert [sum(h) for h in state.hands] == [s + 1 for s in sizes]
    drawn = of_type(events, SupplyCardDrawn)[0]
    assert drawn.viewers() == frozenset({0}) and drawn.public_form() == {"seat": 0}


# -- production, seven, robber -------------------------------------------------------------------


def test_r11_a_city_yields_two() -> None:
    state, _ = new_game(GAME, 4)
    set_bank(state, gold=10, ore=5)
    build(state, 1, "S(3,2)", city=True)
    turn(state, 0, BEFORE_ROLL)
    produced = run(state, 0, RollDice(), Loaded([3, 3]))[1]
    assert produced.gains == {"1": {"ore": 2}} and state.phase == ALEXANDER


def test_r13_seven_without_big_hands_goes_straight_to_the_robber() -> None:
    state, _ = new_game(GAME, 4)
    turn(state, 0, BEFORE_ROLL)
    for s in range(4):
        set_hand(state, s, grain=11)
    events = run(state, 0, RollDice(), Loaded([3, 4]))
    assert types(events) == ["DiceRolled"] and state.phase == ROBBER


def test_discard_refusals() -> None:
    state, _ = new_game(GAME, 4)
    turn(state, 0, BEFORE_ROLL)
    set_hand(state, 1, grain=12)
    run(state, 0, RollDice(), Loaded([3, 4]))
    assert state.phase == DISCARD and GAME.awaited(state) == {1: ("discard",)}
    assert refusal(GAME, state, 1, Discard(cards={"grain": 5})) == "E_WRONG_COUNT"
    assert refusal(GAME, state, 1, Discard(cards={"ore": 6})) == "E_INSUFFICIENT"
    assert refusal(GAME, state, 1, Discard(cards={"grain": 5, "gold": 1})) == "BAD_INPUT"
    assert refusal(GAME, state, 1, Discard(cards={"gems": 6})) == "BAD_INPUT"
    assert refusal(GAME, state, 1, Discard(cards={"grain": -6})) == "BAD_INPUT"


def test_r14_robber_refusals_and_an_empty_handed_victim() -> None:
    state, _ = new_game(GAME, 4)
    turn(state, 0, ROBBER, roll=7)
    build(state, 1, "S(1,1)")
    set_hand(state, 1)
    assert refusal(GAME, state, 0, MoveRobber(hex=[0, 1], steal_from=None)) == "E_NOT_LAND"
    assert refusal(GAME, state, 0, MoveRobber(hex=[1], steal_from=None)) == "BAD_INPUT"
    assert refusal(GAME, state, 0, MoveRobber(hex=[1, 2], steal_from=None)) == "E_INVALID_VICTIM"
    assert refusal(GAME, state, 0, MoveRobber(hex=[1, 2], steal_from=0)) == "E_INVALID_VICTIM"
    events = run(state, 0, MoveRobber(hex=[1, 2], steal_from=1))
    assert events[-1].type == "CardStolen" and events[-1].stolen is False and events[-1].card is None
    assert state.phase == ALEXANDER


# -- Alexander and auctions ----------------------------------------------------------------------


def test_r17_a_knight_is_not_a_seven_and_turn_one_never_moves_over_purple() -> None:
    state, _ = new_game(GAME, 4)
    state.position = 48
    turn(state, 0, ALEXANDER, roll=None)
    assert types(run(state, 0, MoveAlexander())) == ["ArmyHalted"]


def test_r21_bidding_goes_clockwise_and_a_dropout_cannot_return() -> None:
    state, _ = new_game(GAME, 4)
    turn(state, 2, ALEXANDER, roll=5)
    run(state, 2, MoveAlexander())  # X1, a temple
    assert state.auction.to_act == 2
    run(state, 2, PassBid())
    assert state.auction.to_act == 3
    run(state, 3, PlaceBid(amount=1))
    run(state, 0, PlaceBid(amount=2))
    assert GAME.awaited(state) == {1: ("place_bid", "pass_bid")}
    assert refusal(GAME, state, 1, PlaceBid(amount=2)) == "E_BID_TOO_LOW"
    assert refusal(GAME, state, 1, PlaceBid(amount=0)) == "E_BID_TOO_LOW"
    assert refusal(GAME, state, 1, PlaceBid(amount=1000)) == "E_BID_TOO_HIGH"
    run(state, 1, PassBid())
    assert state.auction.to_act == 3  # seat 2 dropped out for good
    run(state, 3, PassBid())
    assert state.phase == PAYMENT and state.auction.high_bidder == 0  # seat 0 can pay 2 with his gold


def test_r23_no_bids_removes_the_token_and_leaves_a_temple_empty() -> None:
    state, _ = new_game(GAME, 4)
    turn(state, 0, ALEXANDER, roll=5)
    run(state, 0, MoveAlexander())
    events = [e for s in (0, 1, 2, 3) for e in run(state, s, PassBid())]
    assert types(events)[-2:] == ["AuctionClosed", "TempleLeftEmpty"] and events[-1].reason == "no_bids"
    state.phase = ALEXANDER
    state.tokens_on_board[2] = "statue"
    run(state, 0, MoveAlexander())
    events = [e for s in (0, 1, 2, 3) for e in run(state, s, PassBid())]
    assert types(events)[-1] == "TaskTokenRemoved" and events[-1].task == "statue"
    assert state.phase == TRADE_BUILD


def test_r24_nothing_else_happens_during_the_task() -> None:
    state, _ = new_game(GAME, 4)
    run(state, 0, MoveAlexander())
    assert refusal(GAME, state, 0, EndTurn()) == "WRONG_PHASE"
    assert refusal(GAME, state, 0, OfferTrade(give={"gold": 1}, receive={"brick": 1})) == "WRONG_PHASE"
    state.dev_hand[0] = ["knight"]
    assert refusal(GAME, state, 0, PlayKnight(hex=[0, 0], steal_from=None)) == "WRONG_PHASE"
    assert (
        refusal(GAME, state, 1, OfferTrade(give={"gold": 1}, receive={"brick": 1})) == "WRONG_PHASE"
    )  # nobody may offer
    assert GAME.optional(state) == {}


def test_r27_when_every_bidder_has_defaulted_the_token_leaves_the_game() -> None:
    state, _ = new_game(GAME, 3)
    turn(state, 0, ALEXANDER, roll=5)
    state.position = 1
    state.tokens_on_board[2] = "famine"
    for s in range(3):
        set_hand(state, s, gold=0)
    run(state, 0, MoveAlexander())
    for round_ in (1, 2, 3):
        assert state.auction.round == round_ and state.auction.excluded == list(range(round_ - 1))
        events = run(state, state.auction.to_act, PlaceBid(amount=5))
        while state.phase == AUCTION and state.auction.round == round_:
            events = run(state, state.auction.to_act, PassBid())
        assert of_type(events, BidDefaulted)[0].owed_discard == 0
    assert types(events)[-1] == "TaskTokenRemoved" and state.phase == TRADE_BUILD


def test_r28_a_temple_settlement_can_become_a_city_in_the_same_turn() -> None:
    state, _ = new_game(GAME, 4)
    run(state, 0, MoveAlexander())
    run(state, 0, PlaceBid(amount=1))
    for s in (1, 2, 3):
        run(state, s, PassBid())
    run(state, 0, PayBid(items={"gold": 1}))
    set_hand(state, 0, ore=3, grain=2)
    assert run(state, 0, BuildCity(vertex="S(1,0)"))[0].type == "CityBuilt"
    assert total_vp(state, 0) == 2 and state.settlements[0] == 0 and state.cities[0] == 1


def test_knights_are_accepted_only_in_a_battle() -> None:
    state, _ = new_game(GAME, 4)
    state.army[0] = 1
    claim_special_cards(state)  # R53 for the position set by hand
    state.auction = Auction(crossing=2, task="famine", high_bid=3, high_bidder=0)
    state.phase = PAYMENT
    assert refusal(GAME, state, 0, PayBid(items={}, knights=1)) == "E_NOT_ACCEPTED"
    assert refusal(GAME, state, 0, PayBid(items={"grain": 3})) == "E_INSUFFICIENT"
    assert refusal(GAME, state, 0, PayBid(items={"gold": 3}, knights=-1)) == "BAD_INPUT"


# -- trade -----------------------------------------------------------------------------------------


def test_trade_refusals() -> None:
    state = trading(0, brick=1)
    set_hand(state, 1, grain=1)
    assert refusal(GAME, state, 0, OfferTrade(give={}, receive={"grain": 1})) == "E_INVALID_TRADE"
    assert refusal(GAME, state, 0, OfferTrade(give={"ore": 1}, receive={"grain": 1})) == "E_INSUFFICIENT"
    assert refusal(GAME, state, 0, OfferTrade(give={"brick": 1}, receive={"grain": 1}, to=[0])) == "E_INVALID_ADDRESSEE"
    assert refusal(GAME, state, 0, OfferTrade(give={"brick": 1}, receive={"grain": 1}, to=[])) == "E_INVALID_ADDRESSEE"
    run(state, 0, OfferTrade(give={"brick": 1}, receive={"grain": 1}, to=[1]))
    assert refusal(GAME, state, 2, RespondTrade(offer_id=1, accept=True)) == "E_NOT_ADDRESSED"
    assert refusal(GAME, state, 1, RespondTrade(offer_id=9, accept=True)) == "E_NO_SUCH_OFFER"
    assert refusal(GAME, state, 0, ConfirmTrade(offer_id=1, partner=1)) == "E_NOT_WILLING"
    assert refusal(GAME, state, 2, CancelTrade(offer_id=1)) == "E_NOT_OWNER"
    run(state, 1, RespondTrade(offer_id=1, accept=True))
    state.hands[1][RESOURCE_INDEX["grain"]] = 0
    assert refusal(GAME, state, 0, ConfirmTrade(offer_id=1, partner=1)) == "E_INSUFFICIENT"
    state.hands[1][RESOURCE_INDEX["grain"]] = 1
    run(state, 1, RespondTrade(offer_id=1, accept=False))  # an acceptance may be withdrawn
    assert refusal(GAME, state, 0, ConfirmTrade(offer_id=1, partner=1)) == "E_NOT_WILLING"
    assert run(state, 0, CancelTrade(offer_id=1))[0].reason == "maker"
    assert refusal(GAME, state, 0, CancelTrade(offer_id=1)) == "E_NO_SUCH_OFFER"


def test_responding_without_the_cards_is_refused() -> None:
    state = trading(0, brick=1)
    run(state, 0, OfferTrade(give={"brick": 1}, receive={"grain": 1}))
    set_hand(state, 1)
    assert refusal(GAME, state, 1, RespondTrade(offer_id=1, accept=True)) == "E_INSUFFICIENT"


def test_r36c_a_counter_offer_executes_when_the_active_player_accepts_if_both_still_hold() -> None:
    state = trading(0, brick=1, lumber=1)
    set_hand(state, 1, grain=1)
    run(state, 1, OfferTrade(give={"grain": 1}, receive={"brick": 1}))
    run(state, 1, OfferTrade(give={"grain": 1}, receive={"lumber": 1}))
    assert refusal(GAME, state, 0, ConfirmTrade(offer_id=1, partner=1)) == "E_NOT_OWNER"  # executes by acceptance only
    events = run(state, 0, RespondTrade(offer_id=1, accept=True))
    done = of_type(events, TradeCompleted)[0]
    assert (done.maker, done.partner) == (1, 0)
    assert state.hands[0][RESOURCE_INDEX["grain"]] == 1 and 1 not in state.offers
    # the grain is gone (R36d), so the second counter-offer closes at once (R36f)
    assert [(e.offer_id, e.reason) for e in of_type(events, TradeCancelled)] == [(2, "unfunded")]
    assert 2 not in state.offers
    assert refusal(GAME, state, 0, RespondTrade(offer_id=2, accept=True)) == "E_NO_SUCH_OFFER"


def test_r36d_other_offers_stay_open_while_their_sides_can_be_given() -> None:
    state = trading(0, brick=1, lumber=1)
    set_hand(state, 1, grain=2)
    run(state, 1, OfferTrade(give={"grain": 1}, receive={"brick": 1}))
    run(state, 1, OfferTrade(give={"grain": 1}, receive={"lumber": 1}))
    events = run(state, 0, RespondTrade(offer_id=1, accept=True))
    assert of_type(events, TradeCancelled) == [] and 2 in state.offers
    assert of_type(run(state, 0, RespondTrade(offer_id=2, accept=True)), TradeCompleted)


def test_r36f_an_acceptance_its_player_can_no_longer_give_is_withdrawn_in_public() -> None:
    state = trading(0, brick=1, lumber=1, wool=1)
    set_hand(state, 1, grain=1)
    run(state, 0, OfferTrade(give={"brick": 1}, receive={"grain": 1}, to=[1]))
    run(state, 0, OfferTrade(give={"lumber": 1}, receive={"grain": 1}, to=[1]))
    run(state, 1, RespondTrade(offer_id=1, accept=True))
    run(state, 1, RespondTrade(offer_id=2, accept=True))
    assert ConfirmTrade(offer_id=2, partner=1) in GAME.legal_moves(state, 0, Chance(b"listing"))
    events = run(state, 0, ConfirmTrade(offer_id=1, partner=1))  # seat 1's only grain is given
    assert [(e.offer_id, e.seat) for e in of_type(events, AcceptanceWithdrawn)] == [(2, 1)]
    assert state.offers[2].responses == {1: False}
    assert ConfirmTrade(offer_id=2, partner=1) not in GAME.legal_moves(state, 0, Chance(b"listing"))
    assert refusal(GAME, state, 0, ConfirmTrade(offer_id=2, partner=1)) == "E_NOT_WILLING"
    # with grain again, seat 1 may accept once more
    assert RespondTrade(offer_id=2, accept=True) not in GAME.legal_moves(state, 1, Chance(b"listing"))
    set_hand(state, 1, grain=1)
    assert RespondTrade(offer_id=2, accept=True) in GAME.legal_moves(state, 1, Chance(b"listing"))


def test_r36f_the_active_player_is_listed_every_counter_offer_that_stands() -> None:
    """A counter-offer's maker may hold cards the active player has not seen (a stolen one): the
    acceptance is listed whatever the maker's hand, as R36f keeps every open counter-offer funded."""
    state = trading(0, brick=1)
    set_hand(state, 1, grain=1)
    run(state, 1, OfferTrade(give={"grain": 1}, receive={"brick": 1}))
    assert RespondTrade(offer_id=1, accept=True) in GAME.legal_moves(state, 0, Chance(b"listing"))


def test_4_1_other_seats_negotiate_optionally_and_without_limits() -> None:
    """§4.1 TRADE_BUILD: other seats are never awaited just for being able to negotiate; they may
    counter-offer, answer and cancel at any time; nobody's number of offers is limited (R36)."""
    state = trading(0, brick=20)
    set_hand(state, 1, grain=3)
    assert GAME.awaited(state) == {0: TRADE_ACTIVE}
    assert GAME.optional(state) == {seat: TRADE_OTHERS for seat in (1, 2, 3)}
    # a counter-offer before the active player has offered anything, and a second one
    run(state, 1, OfferTrade(give={"grain": 1}, receive={"brick": 1}))
    run(state, 1, OfferTrade(give={"grain": 2}, receive={"brick": 1}, to=[0]))
    assert GAME.awaited(state) == {0: TRADE_ACTIVE}
    for _ in range(10):
        run(state, 0, OfferTrade(give={"brick": 1}, receive={"ore": 1}, to=[2]))
    assert len(state.offers) == 12
    assert set(GAME.awaited(state)) == {0, 2}  # one answer awaited from the addressee
    assert set(GAME.optional(state)) == {1, 3}
    assert run(state, 1, CancelTrade(offer_id=1))[0].reason == "maker"
    events = run(state, 0, EndTurn())
    assert [e.reason for e in of_type(events, TradeCancelled)] == ["turn_ended"] * 11
    assert state.offers == {} and GAME.optional(state) == {}


def test_an_addressee_is_awaited_until_his_first_answer_only() -> None:
    state = trading(0, brick=2)
    set_hand(state, 1, grain=1)
    run(state, 0, OfferTrade(give={"brick": 1}, receive={"grain": 1}, to=[1, 2]))
    assert set(GAME.awaited(state)) == {0, 1, 2}
    run(state, 1, RespondTrade(offer_id=1, accept=True))
    assert set(GAME.awaited(state)) == {0, 2} and 1 in GAME.optional(state)
    run(state, 2, RespondTrade(offer_id=1, accept=False))
    assert set(GAME.awaited(state)) == {0} and set(GAME.optional(state)) == {1, 2, 3}


def test_r36b_an_answer_can_be_changed_while_the_offer_is_open() -> None:
    state = trading(0, brick=2)
    set_hand(state, 1, grain=1)
    run(state, 0, OfferTrade(give={"brick": 1}, receive={"grain": 1}, to=[1]))
    run(state, 1, RespondTrade(offer_id=1, accept=False))
    run(state, 1, RespondTrade(offer_id=1, accept=True))  # declined, then accepted after all
    run(state, 1, RespondTrade(offer_id=1, accept=False))  # and withdrawn again
    assert refusal(GAME, state, 0, ConfirmTrade(offer_id=1, partner=1)) == "E_NOT_WILLING"
    run(state, 1, RespondTrade(offer_id=1, accept=True))
    assert run(state, 0, ConfirmTrade(offer_id=1, partner=1))[0].type == "TradeCompleted"


def test_an_optional_seat_lists_its_answers_cancellations_and_a_counter_offer() -> None:
    """The API lists moves for optional seats: they are legal moves like any other."""
    state = trading(0, brick=2)
    set_hand(state, 1, grain=2)
    run(state, 1, OfferTrade(give={"grain": 1}, receive={"brick": 1}))
    run(state, 0, OfferTrade(give={"brick": 1}, receive={"grain": 1}, to=[1]))
    run(state, 1, RespondTrade(offer_id=2, accept=True))
    assert 1 in GAME.optional(state) and 1 not in GAME.awaited(state)
    moves = GAME.legal_moves(state, 1, Chance(b"m"))
    assert RespondTrade(offer_id=2, accept=False) in moves
    assert CancelTrade(offer_id=1) in moves
    assert any(m.type == "offer_trade" for m in moves)
    check_legal_moves_accepted(GAME, state, 1, Chance(b"c"))
    set_hand(state, 3, gold=0)  # holds nothing, no offer to him: nothing to list, but still optional
    assert GAME.legal_moves(state, 3, Chance(b"m")) == [] and 3 in GAME.optional(state)


def test_nobody_negotiates_outside_trade_build() -> None:
    state, _ = new_game(GAME, 4)
    set_hand(state, 1, grain=1)
    assert GAME.optional(state) == {}
    # nobody may offer now, so the shared order says WRONG_PHASE before NOT_YOUR_TURN
    assert refusal(GAME, state, 1, OfferTrade(give={"grain": 1}, receive={"brick": 1})) == "WRONG_PHASE"
    assert GAME.legal_moves(state, 1, Chance(b"m")) == []


def test_r35_only_the_active_player_trades_with_the_bank() -> None:
    state = trading(0, brick=4)
    assert (
        refusal(GAME, state, 1, BankTrade(give="brick", receive="ore")) == "NOT_YOUR_TURN"
    )  # the active seat may; he only negotiates


def test_bank_trade_refusals_and_harbour_rates() -> None:
    state = trading(0, brick=4, wool=2)
    set_bank(state, gold=state.gold_supply, ore=1)
    assert refusal(GAME, state, 0, BankTrade(give="brick", receive="ore", lots=2)) == "E_INSUFFICIENT"
    assert refusal(GAME, state, 0, BankTrade(give="brick", receive="ore", lots=0)) == "E_INVALID_TRADE"
    assert refusal(GAME, state, 0, BankTrade(give="brick", receive="grain", lots=1)) == "E_BANK_EMPTY"
    assert refusal(GAME, state, 0, BankTrade(give="diamonds", receive="ore", lots=1)) == "BAD_INPUT"
    build(state, 0, "S(1,1)")  # the wool 2:1 harbour
    assert run(state, 0, BankTrade(give="wool", receive="ore"))[0].gave == {"wool": 2}


# -- building ----------------------------------------------------------------------------------------


def test_building_refusals() -> None:
    state = trading(0, brick=1, lumber=1)
    build(state, 0, "S(1,0)")
    assert refusal(GAME, state, 0, BuildRoad(edge=["S(1,0)", "S(2,0)"])) == "E_NOT_ON_BOARD"
    assert refusal(GAME, state, 0, BuildRoad(edge=["S(1,0)"])) == "BAD_INPUT"
    road(state, 1, "S(1,0)", "N(1,1)")
    assert refusal(GAME, state, 0, BuildRoad(edge=["S(1,0)", "N(1,1)"])) == "E_OCCUPIED"
    state.roads[0] = 15
    assert refusal(GAME, state, 0, BuildRoad(edge=["S(1,0)", "N(0,2)"])) == "E_NO_PIECE"
    state.roads[0] = 0
    set_hand(state, 0)
    assert refusal(GAME, state, 0, BuildRoad(edge=["S(1,0)", "N(0,2)"])) == "E_INSUFFICIENT"
    assert refusal(GAME, state, 0, BuildSettlement(vertex="N(0,2)")) == "E_INSUFFICIENT"
    assert refusal(GAME, state, 0, BuildCity(vertex="S(1,0)")) == "E_INSUFFICIENT"
    assert refusal(GAME, state, 0, BuyDevelopmentCard()) == "E_INSUFFICIENT"
    set_hand(state, 0, brick=5, lumber=5, grain=5, wool=5, ore=5)
    assert refusal(GAME, state, 0, BuildSettlement(vertex="X(1,1)")) == "E_NOT_ON_BOARD"
    assert refusal(GAME, state, 0, BuildSettlement(vertex="S(1,0)")) == "E_OCCUPIED"
    assert refusal(GAME, state, 0, BuildSettlement(vertex="N(0,2)")) == "E_DISTANCE_RULE"
    assert refusal(GAME, state, 0, BuildSettlement(vertex="N(3,3)")) == "E_NOT_CONNECTED"
    assert refusal(GAME, state, 0, BuildCity(vertex="N(3,3)")) == "E_NOT_OWN_SETTLEMENT"
    state.settlements[0] = 5
    assert refusal(GAME, state, 0, BuildSettlement(vertex="N(3,3)")) == "E_NO_PIECE"
    state.cities[0] = 4
    assert refusal(GAME, state, 0, BuildCity(vertex="S(1,0)")) == "E_NO_PIECE"
    state.dev_deck = []
    assert refusal(GAME, state, 0, BuyDevelopmentCard()) == "E_DECK_EMPTY"


def test_r41_roads_may_pass_unpassed_crossings_but_not_another_players_building() -> None:
    state = trading(0, brick=3, lumber=3)
    build(state, 0, "N(1,3)")  # X8; X9 and X10 are not passed yet (p = 0)
    run(state, 0, BuildRoad(edge=["N(1,3)", "S(2,2)"]))
    run(state, 0, BuildRoad(edge=["S(2,2)", "N(2,3)"]))
    build(state, 1, "S(3,2)")
    road(state, 0, "N(2,3)", "S(3,2)")
    assert refusal(GAME, state, 0, BuildRoad(edge=["S(3,2)", "N(3,3)"])) == "E_NOT_CONNECTED"


def test_r42_route_restriction_includes_persepolis() -> None:
    state = trading(0, brick=1, lumber=1, grain=1, wool=1)
    state.position = 51
    build(state, 0, "S(7,5)")
    road_chain(state, 0, ["S(7,5)", "N(7,6)", "S(8,5)"])
    assert state.geometry.route_block[state.geometry.vertex_index["S(8,5)"]] == 52  # next to Persepolis
    assert refusal(GAME, state, 0, BuildSettlement(vertex="S(8,5)")) == "E_ROUTE_RESTRICTED"


# -- development cards ---------------------------------------------------------------------------


def test_r45_buying_and_r46_not_in_the_same_turn_and_one_per_turn() -> None:
    state = trading(0, ore=2, grain=2, wool=2)
    state.dev_deck = ["knight", "monopoly", *state.dev_deck[2:]]
    bought = run(state, 0, BuyDevelopmentCard())[0]
    assert bought.card == "knight" and bought.viewers() == frozenset({0}) and bought.public_form() == {"seat": 0}
    assert refusal(GAME, state, 0, PlayKnight(hex=[1, 2], steal_from=None)) == "E_NO_CARD"
    state.dev_hand[0] = ["knight", "monopoly"]
    run(state, 0, PlayKnight(hex=[1, 2], steal_from=None))
    assert state.phase == TRADE_BUILD and state.army[0] == 1
    assert refusal(GAME, state, 0, PlayMonopoly(resource="ore")) == "E_CARD_LIMIT"
    run(state, 0, EndTurn())
    assert state.dev_hand[0] == ["monopoly", "knight"]


def test_a_knight_before_the_roll_returns_to_the_roll() -> None:
    state, _ = new_game(GAME, 4)
    turn(state, 0, BEFORE_ROLL)
    state.dev_hand[0] = ["knight"]
    events = run(state, 0, PlayKnight(hex=[1, 2], steal_from=None))
    assert types(events) == ["KnightPlayed", "RobberMoved"] and state.phase == BEFORE_ROLL


def test_r47_third_knight_takes_largest_army() -> None:
    state = trading(0)
    state.army[0] = 2
    claim_special_cards(state)  # R53 for the position set by hand
    state.dev_hand[0] = ["knight"]
    events = run(state, 0, PlayKnight(hex=[1, 2], steal_from=None))
    assert types(events)[-1] == "LargestArmyChanged" and state.largest_army == 0


def test_r48_road_building() -> None:
    state = trading(0)
    state.dev_hand[0] = ["road_building"]
    assert refusal(GAME, state, 0, PlayRoadBuilding(edges=[["S(1,0)", "N(0,2)"]])) == "E_NO_LEGAL_ROAD"
    build(state, 0, "S(1,0)")
    assert refusal(GAME, state, 0, PlayRoadBuilding(edges=[["S(1,0)", "N(0,2)"]])) == "E_WRONG_COUNT"
    assert refusal(GAME, state, 0, PlayRoadBuilding(edges=[])) == "E_WRONG_COUNT"
    assert (
        refusal(GAME, state, 0, PlayRoadBuilding(edges=[["N(3,3)", "S(3,2)"], ["S(1,0)", "N(0,2)"]]))
        == "E_NOT_CONNECTED"
    )
    events = run(state, 0, PlayRoadBuilding(edges=[["S(1,0)", "N(0,2)"], ["N(0,2)", "S(1,1)"]]))
    assert types(events) == ["RoadBuildingPlayed", "RoadBuilt", "RoadBuilt"] and all(e.free for e in events[1:])
    state.played_dev = False
    state.dev_hand[0] = ["road_building"]
    state.roads[0] = 14
    assert len(run(state, 0, PlayRoadBuilding(edges=[["S(1,0)", "N(1,1)"]]))) == 2  # Ruling R48: one road


def test_r49_year_of_plenty_with_a_thin_bank() -> None:
    state = trading(0)
    state.dev_hand[0] = ["year_of_plenty", "year_of_plenty"]
    set_bank(state, gold=state.gold_supply)
    assert refusal(GAME, state, 0, PlayYearOfPlenty(resources=["ore"])) == "E_BANK_EMPTY"
    set_bank(state, gold=state.gold_supply, ore=1)
    assert refusal(GAME, state, 0, PlayYearOfPlenty(resources=["ore", "ore"])) == "E_WRONG_COUNT"
    assert refusal(GAME, state, 0, PlayYearOfPlenty(resources=["gold"])) == "BAD_INPUT"
    assert refusal(GAME, state, 0, PlayYearOfPlenty(resources=["wool"])) == "E_BANK_EMPTY"
    assert run(state, 0, PlayYearOfPlenty(resources=["ore"]))[0].taken == {"ore": 1}


def test_r50_monopoly() -> None:
    state = trading(0)
    state.dev_hand[0] = ["monopoly"]
    set_hand(state, 1, wool=2, ore=1)
    set_hand(state, 2, wool=1)
    set_hand(state, 3)
    assert refusal(GAME, state, 0, PlayMonopoly(resource="gold")) == "BAD_INPUT"
    events = run(state, 0, PlayMonopoly(resource="wool"))
    assert events[0].taken == {"1": 2, "2": 1, "3": 0}
    assert state.hands[0][RESOURCE_INDEX["wool"]] == 3 and state.hands[1] == [0, 0, 0, 1, 0]


def test_r51_hidden_vp_cards_count_toward_fourteen_at_once() -> None:
    state = trading(0, ore=1, grain=1, wool=1)
    for v in ("N(8,2)", "N(8,3)", "N(8,4)", "N(8,5)"):
        build(state, 0, v, city=True)
    for v in ("N(1,1)", "N(3,1)", "N(5,1)", "N(7,1)", "N(-2,7)"):
        build(state, 0, v)
    assert total_vp(state, 0) == 13
    state.dev_deck[0] = "victory_point"
    events = run(state, 0, BuyDevelopmentCard())
    assert types(events) == ["DevelopmentCardBought", "GameEnded"] and events[-1].reason == "vp14"
    assert state.phase == GAME_OVER
    assert refusal(GAME, state, 0, EndTurn()) == "GAME_OVER"


# -- Longest Road and the end ----------------------------------------------------------------------


def test_r52_loops_count_and_branches_do_not() -> None:
    state, _ = new_game(GAME, 4)
    route = [state.geometry.vertices[v] for v in state.geometry.route]
    road_chain(state, 0, route[1:7])
    assert road_length(state, 0) == 5
    road(state, 0, "S(2,0)", "N(2,1)")  # a branch at X3
    assert road_length(state, 0) == 5
    ring = [name for name in (f"{k}({q},{r})" for k, q, r in hex_corners((6, 2)))]
    road_chain(state, 1, [*ring, ring[0]])
    assert road_length(state, 1) == 6
    road(state, 1, ring[0], "S(7,0)")  # a tail out of the loop
    assert road_length(state, 1) == 7
    build(state, 2, ring[3])  # another player's settlement cuts the loop open
    assert road_length(state, 1) == 6


def test_r53_ties_keep_the_holder_and_a_tie_for_the_lead_sets_the_card_aside() -> None:
    assert special_card_holder(0, [5, 5, 0, 0], 5) == 0
    assert special_card_holder(0, [5, 6, 0, 0], 5) == 1
    assert special_card_holder(0, [4, 5, 5, 0], 5) is None
    assert special_card_holder(None, [4, 5, 5, 0], 5) is None
    assert special_card_holder(None, [4, 4, 0, 0], 5) is None
    assert special_card_holder(None, [3, 2, 0, 0], 3) == 0


def test_r58_a_vp_tie_goes_to_most_tokens_then_is_shared() -> None:
    state, _ = new_game(GAME, 4)
    for seat, v in ((0, "N(8,2)"), (1, "N(8,4)")):
        build(state, seat, v)
    state.tokens_won = [2, 2, 0, 0]
    state.position = 50
    turn(state, 0, ALEXANDER, number=60, roll=7)
    ended = run(state, 0, MoveAlexander())[-1]
    assert ended.reason == "persepolis" and ended.winners == [0, 1]
    assert ended.seed == Chance(b"run").seed_hex and len(ended.token_order) == 28


# -- the base game option (§7.1) ------------------------------------------------------------------


def test_base_founding_phase_and_its_resources() -> None:
    """§7.1: snake order, free settlement and road, the road touching the settlement just placed,
    and one card per terrain hex next to each player's second settlement."""
    state, _ = new_game(GAME, 4, {"board": "base"})
    assert state.phase == FOUNDING_SETTLEMENT and state.bank == [19] * 5 and state.gold_supply == 0
    order: list[int] = []
    second: dict[int, str] = {}
    for _ in range(8):
        seat = state.active
        order.append(seat)
        events = run(state, seat, GAME.legal_moves(state, seat, Chance(b"m"))[0])
        built = events[0]
        assert (built.type, built.seat, built.source, built.free) == ("SettlementBuilt", seat, "founding", True)
        if len(order) > 4:
            second[seat] = built.vertex
            assert types(events) == ["SettlementBuilt", "FoundingResourcesGained"]
        else:
            assert types(events) == ["SettlementBuilt"]
        assert state.phase == FOUNDING_ROAD
        assert refusal(GAME, state, seat, BuildRoad(edge=["N(2,2)", "S(2,1)"])) == "E_NOT_CONNECTED"
        roads = run(state, seat, GAME.legal_moves(state, seat, Chance(b"m"))[0])
        assert roads[0].type == "RoadBuilt" and roads[0].free and built.vertex in roads[0].edge
    assert order == [0, 1, 2, 3, 3, 2, 1, 0]
    assert (state.turn, state.active, state.phase) == (1, 0, BEFORE_ROLL)
    geometry = state.geometry
    for seat, vertex in second.items():
        expected = [0] * 5
        for h in geometry.vertex_hexes[geometry.vertex_index[vertex]]:
            if 0 <= state.hex_product[h] < 5:
                expected[state.hex_product[h]] += 1
        assert state.hands[seat] == expected
    assert all(state.bank[r] + sum(hand[r] for hand in state.hands) == 19 for r in range(5))  # from the bank


def test_base_seven_discards_above_seven_and_ten_points_win_on_ones_own_turn() -> None:
    state, _ = new_game(GAME, 4, {"board": "base"})
    turn(state, 0, BEFORE_ROLL)
    set_hand(state, 1, grain=8)
    set_hand(state, 2, grain=7)
    events = run(state, 0, RollDice(), Loaded([3, 4]))
    assert events[-1].owed == {"1": 4}
    state, _ = new_game(GAME, 4, {"board": "base"})
    for v in ("N(2,0)", "N(4,0)", "N(1,2)", "N(3,2)", "N(0,4)"):
        build(state, 1, v, city=True)
    turn(state, 0, TRADE_BUILD)
    run(state, 0, EndTurn())  # seat 1 has 10 VP, but it is seat 1's turn only now
    assert state.phase == GAME_OVER and state.winners == [1] and state.end_reason == "vp10"


def test_base_board_has_no_gold() -> None:
    state, _ = new_game(GAME, 4, {"board": "base"})
    turn(state, 0, TRADE_BUILD)
    set_hand(state, 0, brick=4)
    assert refusal(GAME, state, 0, BankTrade(give="brick", receive="gold")) == "BAD_INPUT"
    assert refusal(GAME, state, 0, OfferTrade(give={"brick": 1}, receive={"gold": 1})) == "BAD_INPUT"


def test_base_random_layout_is_seeded_and_keeps_the_numbers() -> None:
    one, _ = new_game(GAME, 4, {"board": "base", "layout": "random"}, seed=b"a")
    two, _ = new_game(GAME, 4, {"board": "base", "layout": "random"}, seed=b"b")
    assert sorted(one.hex_number) == sorted(two.hex_number)
    assert one.hex_product != two.hex_product or one.hex_number != two.hex_number
    desert = one.hex_product.index(-1)
    assert one.hex_number[desert] == 0 and one.robber == desert


def brute_force_road_length(state: State, seat: int) -> int:
    """R52 by trying every trail from both ends of every road."""
    geometry = state.geometry
    best = 0
    used: set[int] = set()

    def walk(vertex: int, length: int) -> None:
        nonlocal best
        best = max(best, length)
        if state.owner[vertex] not in (-1, seat):
            return
        for e in geometry.vertex_edges[vertex]:
            if state.road_owner[e] == seat and e not in used:
                used.add(e)
                a, b = geometry.edges[e]
                walk(b if a == vertex else a, length + 1)
                used.discard(e)

    for e in state.roads_of[seat]:
        used.add(e)
        for v in geometry.edges[e]:
            walk(v, 1)
        used.discard(e)
    return best


@settings(max_examples=150, deadline=None)
@given(
    base=st.booleans(),
    picks=st.lists(st.integers(min_value=0, max_value=10_000), min_size=1, max_size=15),
    blockers=st.lists(st.tuples(st.integers(min_value=0, max_value=10_000), st.integers(1, 3)), max_size=4),
)
def test_r52_road_length_matches_brute_force(base: bool, picks: list[int], blockers: list[tuple[int, int]]) -> None:
    state, _ = new_game(GAME, 4, {"board": "base"} if base else {})
    geometry = state.geometry
    for pick in picks:  # grow a network: each road touches the previous ones when it can
        frontier = {e for r in state.roads_of[0] for v in geometry.edges[r] for e in geometry.vertex_edges[v]}
        options = sorted(e for e in frontier if state.road_owner[e] == -1) or list(range(len(geometry.edges)))
        edge = options[pick % len(options)]
        if state.road_owner[edge] == -1:
            state.road_owner[edge] = 0
            state.roads_of[0].append(edge)
    for where, seat in blockers:
        state.owner[where % len(geometry.vertices)] = seat
    assert road_length(state, 0) == brute_force_road_length(state, 0)


def test_r2_views_show_hand_sizes_but_only_ones_own_cards() -> None:
    """R2, R3, §8: own hand and development cards for the owner; counts and gold for everybody."""
    state, _ = new_game(GAME, 4)
    state.dev_hand[0] = ["victory_point"]
    mine = GAME.view(state, 0)["players"]
    theirs = GAME.view(state, 1)["players"]
    spectator = GAME.view(state, None)["players"]
    assert mine[0]["hand"] == {
        r: n for r, n in zip(("brick", "grain", "lumber", "ore", "wool"), state.hands[0], strict=True) if n
    }
    assert mine[0]["development"] == ["victory_point"] and mine[0]["total_vp"] == 1
    assert "hand" not in theirs[0] and "development" not in theirs[0] and "total_vp" not in theirs[0]
    assert theirs[0]["hand_size"] == 5 and theirs[0]["gold"] == 8 and theirs[0]["development_cards"] == 1
    assert all("hand" not in p for p in spectator)
    assert "tokens_on_board" not in GAME.view(state, None) and len(GAME.view(state, None)["face_down_tokens"]) == 25


def test_after_the_end_a_spectator_sees_everything_and_commands_are_refused() -> None:
    """§8: hands, development cards, face-down and set-aside tokens and the stacks become public."""
    state, _ = new_game(GAME, 4)
    state.dev_hand[2] = ["victory_point", "knight"]
    state.position = 50
    turn(state, 0, ALEXANDER, number=50, roll=7)
    assert run(state, 0, MoveAlexander())[-1].type == "GameEnded"
    spectator = GAME.view(state, None)
    assert spectator["players"][2]["development"] == ["knight", "victory_point"]
    assert all("hand" in p and "total_vp" in p for p in spectator["players"])
    shown = spectator["revealed"]
    assert shown["face_down_tokens"] == {str(c): t for c, t in state.tokens_on_board.items()}
    assert len(shown["face_down_tokens"]) == 25 and shown["set_aside_tokens"] == state.token_order[25:]
    assert len(shown["set_aside_tokens"]) == 3 and len(shown["supply_stack"]) == 75
    assert GAME.view(new_game(GAME, 4)[0], None)["revealed"] is None
    assert refusal(GAME, state, 0, EndTurn()) == "GAME_OVER"
    assert refusal(GAME, state, 1, OfferTrade(give={"gold": 1}, receive={"brick": 1})) == "GAME_OVER"
    assert GAME.awaited(state) == {} and GAME.optional(state) == {}


def test_r16_r18_one_crossing_per_move_and_what_it_holds() -> None:
    """R16: one crossing per move_alexander; R18: plain → no task, token → revealed and auctioned."""
    state, _ = new_game(GAME, 4)
    turn(state, 0, ALEXANDER, roll=5)
    state.position = 5  # X6 is plain
    events = run(state, 0, MoveAlexander())
    assert types(events) == ["ArmyMoved"] and (events[0].from_position, events[0].to_position) == (5, 6)
    assert events[0].kind == "plain" and state.phase == TRADE_BUILD and state.position == 6
    turn(state, 0, ALEXANDER, roll=5)
    task = state.tokens_on_board[7]
    events = run(state, 0, MoveAlexander())
    assert types(events) == ["ArmyMoved", "TaskRevealed", "AuctionOpened"] and events[1].task == task
    assert 7 not in state.tokens_on_board and 7 not in GAME.view(state, None)["face_down_tokens"]


def test_r37_trade_content() -> None:
    """R37: both sides non-empty, no type on both sides; only resource cards and gold can be traded."""
    state = trading(0, brick=1, gold=2)
    assert refusal(GAME, state, 0, OfferTrade(give={"brick": 1}, receive={})) == "E_INVALID_TRADE"
    assert refusal(GAME, state, 0, OfferTrade(give={"brick": 1, "gold": 1}, receive={"gold": 1})) == "E_INVALID_TRADE"
    assert refusal(GAME, state, 0, OfferTrade(give={"knight": 1}, receive={"ore": 1})) == "BAD_INPUT"
    offered = run(state, 0, OfferTrade(give={"brick": 1, "gold": 2}, receive={"ore": 1}))[0]
    assert (offered.give, offered.receive, offered.to) == ({"brick": 1, "gold": 2}, {"ore": 1}, [1, 2, 3])


def test_r39_r40_r43_a_city_keeps_its_harbour_and_costs_go_to_the_bank() -> None:
    state = trading(0, ore=3, grain=2)
    build(state, 0, "N(0,3)")  # the wool 2:1 harbour's other intersection
    set_bank(state, gold=state.gold_supply)
    run(state, 0, BuildCity(vertex="N(0,3)"))
    assert state.bank == [0, 2, 0, 3, 0] and state.hands[0] == [0] * 5
    assert (state.settlements[0], state.cities[0], total_vp(state, 0)) == (0, 1, 2)
    set_hand(state, 0, wool=2)
    assert run(state, 0, BankTrade(give="wool", receive="ore"))[0].gave == {"wool": 2}
    assert refusal(GAME, state, 0, BuildCity(vertex="N(0,3)")) == "E_INSUFFICIENT"
    set_hand(state, 0, ore=3, grain=2)
    assert refusal(GAME, state, 0, BuildCity(vertex="N(0,3)")) == "E_NOT_OWN_SETTLEMENT"  # already a city


def test_r55_victory_points() -> None:
    """R55: settlement 1, city 2, Longest Road 2, Largest Army 2, Advisors 4/3/2, VP cards 1 (hidden)."""
    from domain.catan_alexander.rules import public_vp

    state, _ = new_game(GAME, 4)
    build(state, 2, "N(0,0)")
    build(state, 2, "N(8,2)", city=True)
    state.longest_road = 2
    state.largest_army = 2
    claim_special_cards(state)  # R53 for the position set by hand
    state.advisors["second"] = 2
    state.dev_hand[2] = ["victory_point", "knight"]
    state.dev_new[2] = ["victory_point"]
    state.tokens_won[2] = 3
    assert public_vp(state, 2) == 1 + 2 + 2 + 2 + 3
    assert total_vp(state, 2) == public_vp(state, 2) + 2
    assert GAME.scoreboard(state).scores[2] == public_vp(state, 2)  # live scores hide VP cards
