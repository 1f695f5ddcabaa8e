"""The worked examples of the rules file (§11), one test each."""

from __future__ import annotations

import pytest

from domain.catan_alexander import GAME
from domain.catan_alexander.commands import (
    BankTrade,
    BuildRoad,
    BuildSettlement,
    ChooseAdvisorRecipient,
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
    RespondTrade,
    RollDice,
)
from domain.catan_alexander.data import RESOURCE_INDEX
from domain.catan_alexander.events import (
    AdvisorChanged,
    AuctionClosed,
    BidDefaulted,
    LongestRoadChanged,
    SettlementBuilt,
    SupplyCardDrawn,
    TaskTokenAwarded,
)
from domain.catan_alexander.rules import claim_special_cards, public_vp, total_vp
from domain.catan_alexander.state import (
    ADVISOR_CHOICE,
    ALEXANDER,
    AUCTION,
    BEFORE_ROLL,
    DEFAULT_DISCARD,
    GAME_OVER,
    PAYMENT,
    TRADE_BUILD,
    Auction,
    State,
)
from tests.domain.catan_alexander.helpers import (
    Loaded,
    bids,
    build,
    road,
    road_chain,
    run,
    set_bank,
    set_hand,
    start_events,
    turn,
)
from tests.support.games import new_game, of_type, refusal, types


def test_ex1_battle_auction_karel_and_jana() -> None:
    state, _ = new_game(GAME, 4)
    turn(state, 0, ALEXANDER, roll=5)
    state.position = 37
    state.tokens_on_board[38] = "battle"
    set_hand(state, 0, gold=3, ore=1, wool=1, grain=2)
    state.army = [2, 0, 0, 3]
    state.largest_army = 3
    claim_special_cards(state)  # R53 for the position set by hand
    bank_before = list(state.bank)
    supply_before = state.gold_supply
    jana_before = (list(state.hands[1]), state.gold[1], state.army[1])
    events = run(state, 0, MoveAlexander())
    assert types(events) == ["ArmyMoved", "TaskRevealed", "AuctionOpened"]
    moved, revealed, opened = events
    assert (moved.from_position, moved.to_position) == (37, 38)
    assert (revealed.crossing, revealed.task) == (38, "battle")
    assert opened.accepted == ["ore", "wool", "gold"] and opened.knights_allowed and opened.to_act == 0
    events = bids(state, [(0, 3), (1, 5), (2, None), (3, None), (0, 6), (1, None)])
    closed = of_type(events, AuctionClosed)[0]
    assert (closed.winner, closed.amount) == (0, 6)
    assert state.phase == PAYMENT
    assert refusal(GAME, state, 0, PayBid(items={"grain": 1, "ore": 1, "wool": 1}, knights=1)) == "E_NOT_ACCEPTED"
    assert refusal(GAME, state, 0, PayBid(items={"ore": 1, "wool": 1, "gold": 2}, knights=0)) == "E_WRONG_AMOUNT"
    events = run(state, 0, PayBid(items={"ore": 1, "wool": 1, "gold": 1}, knights=1))
    assert types(events) == ["BidPaid", "TaskTokenAwarded"]
    assert state.bank[RESOURCE_INDEX["ore"]] == bank_before[RESOURCE_INDEX["ore"]] + 1
    assert state.bank[RESOURCE_INDEX["wool"]] == bank_before[RESOURCE_INDEX["wool"]] + 1
    assert state.gold_supply == supply_before + 1
    assert state.dev_deck[-1] == "knight"
    assert state.army[0] == 1 and state.largest_army == 3
    assert events[1].seat == 0 and events[1].task == "battle"
    assert (state.hands[1], state.gold[1], state.army[1]) == jana_before  # the others keep everything
    assert state.phase == TRADE_BUILD


def test_ex2_turn_one_and_the_first_bank_piles() -> None:
    state, _ = new_game(GAME, 4)
    assert state.bank == [0] * 5 and state.gold_supply == 8 and len(state.supply) == 75
    assert state.phase == ALEXANDER and state.turn == 1
    events = run(state, 0, MoveAlexander())
    assert (events[0].to_position, events[0].kind) == (1, "temple")
    set_hand(state, 3, brick=1, grain=1)
    bids(state, [(0, 2), (1, 3), (2, None), (3, 4), (0, None), (1, None)])
    events = run(state, 3, PayBid(items={"brick": 1, "grain": 1, "gold": 2}))
    assert state.bank == [1, 1, 0, 0, 0] and state.gold_supply == 10
    built = of_type(events, SettlementBuilt)[0]
    assert (built.seat, built.vertex, built.source) == (3, "S(1,0)", "temple")
    assert public_vp(state, 3) == 1 and state.trade_rates[3] == [3] * 6  # the Troas 3:1 harbour, gold too
    assert state.phase == TRADE_BUILD
    set_hand(state, 0, brick=1, lumber=1)
    assert refusal(GAME, state, 0, BuildRoad(edge=["N(1,1)", "S(2,0)"])) == "E_NOT_CONNECTED"
    run(state, 0, BankTrade(give="gold", receive="brick", lots=1))
    assert state.bank[0] == 0 and state.gold[0] == 4
    assert refusal(GAME, state, 0, BankTrade(give="gold", receive="lumber", lots=1)) == "E_BANK_EMPTY"
    events = run(state, 0, EndTurn())
    assert (state.turn, state.active, state.phase) == (2, 1, BEFORE_ROLL)
    assert [e.seat for e in of_type(events, SupplyCardDrawn)] == [1, 2, 3, 0]
    assert len(state.supply) == 71


def test_ex3_the_supply_stack_closes() -> None:
    state, _ = new_game(GAME, 4)
    turn(state, 1, TRADE_BUILD, number=18)
    state.supply = [RESOURCE_INDEX[r] for r in ("ore", "wool", "grain", "brick", "ore", "ore", "wool")]
    bank = list(state.bank)
    events = run(state, 1, EndTurn())
    assert types(events)[-5:] == ["SupplyCardDrawn"] * 4 + ["SupplyClosed"]
    assert events[-1].cards_to_bank == {"ore": 2, "wool": 1}
    assert state.bank[RESOURCE_INDEX["ore"]] == bank[RESOURCE_INDEX["ore"]] + 2
    assert not state.supply_open and state.turn == 19
    state.phase = TRADE_BUILD
    assert "SupplyCardDrawn" not in types(run(state, 2, EndTurn()))
    three, _ = new_game(GAME, 3)
    turn(three, 1, TRADE_BUILD, number=20)
    three.supply = three.supply[:3]
    events = run(three, 1, EndTurn())
    assert types(events)[-4:] == ["SupplyCardDrawn"] * 3 + ["SupplyClosed"]
    assert events[-1].cards_to_bank == {} and not three.supply_open


def test_ex4_three_player_setup() -> None:
    events = start_events(3)
    setup = events[0]
    assert setup.type == "GameSetUp"
    assert setup.bank_piles == {r: 4 for r in ("brick", "grain", "lumber", "ore", "wool")}
    assert setup.gold_supply == 16 and setup.supply_size == 60 and setup.dev_deck_size == 25
    assert setup.advisors_in_play == ["first", "third"] and setup.robber_hex == [4, 4]
    assert len(setup.token_crossings) == 25
    sealed = events[1]
    assert sorted(sealed.supply) == sorted(r for r in ("brick", "grain", "lumber", "ore", "wool") for _ in range(15))
    assert len(sealed.tokens) == 28
    state, _ = new_game(GAME, 3)
    assert [sum(h) for h in state.hands] == [5, 5, 5] and state.gold == [8, 8, 8]
    assert len(state.supply) == 60 and len(state.tokens_on_board) == 25 and len(state.dev_deck) == 25
    assert (state.turn, state.active, state.phase) == (1, 0, ALEXANDER)


def gold_table(gold_supply: int) -> State:
    state, _ = new_game(GAME, 4)
    turn(state, 2, BEFORE_ROLL)
    build(state, 0, "S(1,1)")
    build(state, 0, "N(1,3)", city=True)
    build(state, 1, "S(1,5)")
    state.gold_supply = gold_supply
    return state


def test_ex5_gold_production_and_a_gold_shortage() -> None:
    state = gold_table(10)
    gold = list(state.gold)
    events = run(state, 2, RollDice(), Loaded([4, 6]))
    produced = events[1]
    assert produced.gains["0"] == {"gold": 3} and produced.gains["1"] == {"gold": 1}
    assert state.gold_supply == 6 and state.gold[0] == gold[0] + 3
    short = gold_table(3)
    produced = run(short, 2, RollDice(), Loaded([4, 6]))[1]
    assert "0" not in produced.gains and "1" not in produced.gains and produced.withheld == ["gold"]
    alone = gold_table(2)
    alone.owner[alone.geometry.vertex_index["S(1,5)"]] = -1
    produced = run(alone, 2, RollDice(), Loaded([4, 6]))[1]
    assert produced.gains["0"] == {"gold": 2}
    robbed = gold_table(10)
    robbed.robber = robbed.geometry.hex_index[(1, 2)]
    produced = run(robbed, 2, RollDice(), Loaded([4, 6]))[1]
    assert "0" not in produced.gains and produced.gains["1"] == {"gold": 1}


def test_ex6_a_seven_with_more_than_eleven_cards_gold_is_safe() -> None:
    state, _ = new_game(GAME, 4)
    turn(state, 2, TRADE_BUILD)
    build(state, 0, "S(1,1)")
    set_hand(state, 0, gold=9, brick=2, ore=1, wool=2, grain=6)
    set_hand(state, 1, grain=10)
    set_hand(state, 2, lumber=14)
    set_hand(state, 3, ore=2)
    state.supply = [RESOURCE_INDEX[r] for r in ("brick", "wool", "grain", "grain")] + state.supply[4:]
    run(state, 2, EndTurn())
    assert [sum(h) for h in state.hands] == [12, 11, 15, 3]
    events = run(state, 3, RollDice(), Loaded([3, 4]))
    assert events[-1].type == "DiscardsRequired" and events[-1].owed == {"0": 6, "2": 7}
    assert set(GAME.awaited(state)) == {0, 2}
    run(state, 0, Discard(cards={"grain": 6}))
    run(state, 2, Discard(cards={"lumber": 7}))
    assert state.gold[0] == 9 and state.hands[0] == [2, 0, 0, 1, 3]
    assert refusal(GAME, state, 3, MoveRobber(hex=[4, 4], steal_from=None)) == "E_ROBBER_SAME_HEX"
    assert refusal(GAME, state, 3, MoveRobber(hex=[1, 2], steal_from=1)) == "E_INVALID_VICTIM"
    events = run(state, 3, MoveRobber(hex=[1, 2], steal_from=0), Loaded(steal_index=2))
    stolen = events[-1]
    assert stolen.type == "CardStolen" and stolen.card == "ore"
    assert state.hands[3][RESOURCE_INDEX["ore"]] == 3 and state.gold[0] == 9
    assert stolen.viewers() == frozenset({0, 3}) and "card" not in stolen.public_form()


def scoring_table() -> State:
    """EX7's scores: A 13 public, B 12 + 1 VP card, C 11, D 9; tokens A 4, B 3, C 3."""
    state, _ = new_game(GAME, 4)
    geometry = state.geometry
    spots: list[str] = []
    taken: set[int] = set()
    for v in range(len(geometry.vertices)):
        if v not in taken and len(spots) < 24:
            spots.append(geometry.vertices[v])
            taken.update((v, *geometry.vertex_adj[v]))
    layout = {0: (3, 3), 1: (3, 3), 2: (3, 3), 3: (3, 3)}
    for seat, (cities, settlements) in layout.items():
        for _ in range(cities):
            build(state, seat, spots.pop(), city=True)
        for _ in range(settlements):
            build(state, seat, spots.pop())
    state.advisors = {"first": 0, "second": 1, "third": 2}
    state.tokens_won = [4, 3, 3, 0]
    state.dev_hand[1] = ["victory_point"]
    return state


def test_ex7_the_purple_seven_crossings_and_persepolis() -> None:
    state = scoring_table()
    assert [public_vp(state, s) for s in range(4)] == [13, 12, 11, 9]
    state.position = 48
    turn(state, 0, BEFORE_ROLL, number=40)
    run(state, 0, RollDice(), Loaded([2, 4]))
    halted = run(state, 0, MoveAlexander())
    assert types(halted) == ["ArmyHalted"] and (halted[0].position, halted[0].roll_total) == (48, 6)
    assert state.phase == TRADE_BUILD
    run(state, 0, EndTurn())
    seat = state.active
    state.dev_hand[seat].append("knight")
    target = next(h for h in state.geometry.hexes if h != (4, 4) and not victims_on(state, seat, h))
    run(state, seat, PlayKnight(hex=list(target), steal_from=None))
    assert state.phase == BEFORE_ROLL
    run(state, seat, RollDice(), Loaded([4, 4]))
    assert types(run(state, seat, MoveAlexander())) == ["ArmyHalted"]
    run(state, seat, EndTurn())
    seat = state.active
    for s in range(4):
        set_hand(state, s)
    run(state, seat, RollDice(), Loaded([3, 4]))
    hexes = [h for h in state.geometry.hexes if list(h) != robber_ref(state) and not victims_on(state, seat, h)]
    run(state, seat, MoveRobber(hex=list(hexes[0]), steal_from=None))
    moved = run(state, seat, MoveAlexander())
    assert types(moved) == ["ArmyMoved"] and (moved[0].to_position, moved[0].kind) == (49, "purple")
    assert state.phase == TRADE_BUILD
    state.position = 50
    turn(state, 0, ALEXANDER, number=50, roll=7)
    events = run(state, 0, MoveAlexander())
    assert types(events) == ["ArmyMoved", "GameEnded"]
    ended = events[-1]
    assert ended.reason == "persepolis"
    assert [ended.scores[str(s)]["total"] for s in range(4)] == [13, 13, 11, 9]
    assert ended.scores["1"]["vp_cards"] == 1
    assert ended.winners == [0] and state.phase == GAME_OVER


def victims_on(state: State, seat: int, h: tuple[int, int]) -> list[int]:
    from domain.catan_alexander.rules import robber_victims

    return robber_victims(state, seat, state.geometry.hex_index[h])


def robber_ref(state: State) -> list[int]:
    return list(state.geometry.hexes[state.robber])


def test_ex8_an_unpaid_bid() -> None:
    state, _ = new_game(GAME, 4)
    turn(state, 2, ALEXANDER, roll=5)
    state.position = 22
    state.tokens_on_board[23] = "famine"
    set_hand(state, 3, gold=2, grain=1, wool=1, ore=4)
    set_hand(state, 2, gold=1)
    assert run(state, 2, MoveAlexander())[1].task == "famine"
    events = bids(state, [(2, 2), (3, 5), (0, None), (1, None), (2, None)])
    assert types(events)[-2:] == ["AuctionClosed", "BidDefaulted"]
    assert (events[-1].seat, events[-1].amount, events[-1].owed_discard) == (3, 5, 3)
    assert state.phase == DEFAULT_DISCARD
    events = run(state, 3, Discard(cards={"ore": 3}))
    assert types(events) == ["CardsDiscarded", "AuctionOpened"]
    assert events[0].reason == "default" and state.gold[3] == 2
    assert (events[1].round, events[1].excluded, events[1].to_act) == (2, [3], 2)
    run(state, 2, PlaceBid(amount=1))
    assert 3 not in GAME.awaited(state)
    run(state, 0, PassBid())
    assert 3 not in GAME.awaited(state)
    run(state, 1, PassBid())
    events = run(state, 2, PayBid(items={"gold": 1}))
    awarded = of_type(events, TaskTokenAwarded)[0]
    assert (awarded.seat, awarded.crossing, awarded.task) == (2, 23, "famine")


def battle_won(knights: int, gold: int) -> tuple[State, list]:
    state, _ = new_game(GAME, 4)
    turn(state, 1, ALEXANDER, roll=5)
    state.position = 37
    state.tokens_on_board[38] = "battle"
    set_hand(state, 1, gold=gold)
    state.army[1] = knights
    claim_special_cards(state)  # R53 for the position set by hand
    run(state, 1, MoveAlexander())
    return state, bids(state, [(1, 4), (2, None), (3, None), (0, None)])


def test_ex9_knight_arithmetic() -> None:
    _, events = battle_won(knights=2, gold=0)
    assert of_type(events, BidDefaulted)  # R26: 0, 3 and 6 are payable, 4 is not
    state, events = battle_won(knights=2, gold=1)
    assert not of_type(events, BidDefaulted)
    assert state.phase == PAYMENT
    assert refusal(GAME, state, 1, PayBid(items={}, knights=2)) == "E_WRONG_AMOUNT"
    assert refusal(GAME, state, 1, PayBid(items={}, knights=3)) == "E_NOT_ENOUGH_KNIGHTS"
    events = run(state, 1, PayBid(items={"gold": 1}, knights=1))
    assert events[0].type == "BidPaid" and state.army[1] == 1


def token_payment(state: State, winner: int, task: str = "famine") -> None:
    """``winner`` has won a token auction with a bid of 1 and holds 1 gold to pay it."""
    state.auction = Auction(crossing=23, task=task, high_bid=1, high_bidder=winner)
    state.phase = PAYMENT
    state.gold[winner] = max(state.gold[winner], 1)


def test_ex10_advisors_award_and_a_swap() -> None:
    state, _ = new_game(GAME, 4)
    state.advisors = {"first": 0, "second": 1, "third": 2}
    state.tokens_won = [3, 3, 3, 1]
    token_payment(state, 2)
    events = run(state, 2, PayBid(items={"gold": 1}))
    changes = [(e.advisor, e.from_seat, e.to_seat) for e in of_type(events, AdvisorChanged)]
    assert changes == [("first", 0, 2), ("third", 2, 0)]
    assert state.advisors == {"first": 2, "second": 1, "third": 0}
    assert [public_vp(state, s) for s in (0, 1, 2)] == [2, 3, 4]


def ex11_state() -> State:
    state, _ = new_game(GAME, 4)
    state.advisors = {"first": 0, "second": 1, "third": 2}
    state.tokens_won = [3, 3, 3, 3]
    token_payment(state, 1)
    events = run(state, 1, PayBid(items={"gold": 1}))
    assert [(e.advisor, e.from_seat, e.to_seat) for e in of_type(events, AdvisorChanged)] == [("first", 0, 1)]
    return state


def test_ex11_advisors_the_recipient_choice() -> None:
    state = ex11_state()
    assert state.phase == ADVISOR_CHOICE and GAME.awaited(state) == {1: ("choose_advisor_recipient",)}
    assert state.handdown is not None and state.handdown.eligible == [0, 3]
    assert refusal(GAME, state, 1, ChooseAdvisorRecipient(seat=2)) == "E_INVALID_RECIPIENT"
    events = run(state, 1, ChooseAdvisorRecipient(seat=3))
    assert [(e.advisor, e.from_seat, e.to_seat) for e in events] == [("second", 1, 3)]
    assert state.advisors == {"first": 1, "second": 3, "third": 2}
    assert state.phase == TRADE_BUILD


def test_ex12_advisors_equal_is_not_enough_nothing_to_hand_down() -> None:
    state = ex11_state()
    run(state, 1, ChooseAdvisorRecipient(seat=3))
    token_payment(state, 0)
    assert not of_type(run(state, 0, PayBid(items={"gold": 1})), AdvisorChanged)
    token_payment(state, 0)
    events = run(state, 0, PayBid(items={"gold": 1}))
    assert [(e.advisor, e.from_seat, e.to_seat) for e in of_type(events, AdvisorChanged)] == [("first", 1, 0)]
    assert state.advisors == {"first": 0, "second": 3, "third": 2}
    assert state.phase == TRADE_BUILD


def test_ex13_advisors_with_three_players() -> None:
    state, _ = new_game(GAME, 3)
    assert state.advisors == {"first": None, "third": None}
    state.tokens_won = [2, 2, 2]
    for seat in (0, 1, 2):
        token_payment(state, seat)
        run(state, seat, PayBid(items={"gold": 1}))
    assert state.advisors == {"first": 0, "third": 1}
    token_payment(state, 1)
    run(state, 1, PayBid(items={"gold": 1}))
    assert state.advisors["first"] == 1 and state.phase == ADVISOR_CHOICE
    assert state.handdown is not None and state.handdown.eligible == [0, 2]


def ex14_state(c_roads: int, d_roads: int) -> State:
    state, _ = new_game(GAME, 4)
    turn(state, 0, ALEXANDER, roll=5)
    state.position = 10
    build(state, 1, "N(1,3)")
    road_chain(state, 1, ["N(1,3)", "S(2,2)", "N(2,3)", "S(3,2)", "N(3,3)", "S(4,1)"])
    route = [state.geometry.vertices[v] for v in state.geometry.route]
    road_chain(state, 2, route[44 - c_roads : 45])
    road_chain(state, 3, route[45 : 46 + d_roads])
    state.longest_road = 1
    claim_special_cards(state)  # R53 for the position set by hand
    return state


@pytest.mark.parametrize(
    ("c_roads", "d_roads", "holder"),
    [(4, 0, None), (5, 0, 2), (5, 5, None)],
)
def test_ex14_longest_road_broken_by_a_temple_settlement(c_roads: int, d_roads: int, holder: int | None) -> None:
    state = ex14_state(c_roads, d_roads)
    assert state.road_length[1:] == [5, c_roads, d_roads]
    assert run(state, 0, MoveAlexander())[0].crossing == 11
    bids(state, [(0, 1), (1, None), (2, None), (3, None)])
    events = run(state, 0, PayBid(items={"gold": 1}))
    built = of_type(events, SettlementBuilt)[0]
    assert (built.seat, built.vertex, built.source) == (0, "S(3,2)", "temple")
    assert state.road_length[1] == 3
    changed = of_type(events, LongestRoadChanged)
    assert changed and changed[0].holder == holder and state.longest_road == holder
    assert public_vp(state, 1) == 1


def test_ex15_the_route_restriction() -> None:
    state, _ = new_game(GAME, 4)
    turn(state, 2, TRADE_BUILD)
    state.position = 13
    build(state, 2, "S(3,2)")
    road(state, 2, "S(3,2)", "N(2,4)")
    road(state, 2, "N(2,4)", "S(3,3)")
    set_hand(state, 2, brick=3, lumber=3, grain=3, wool=3)
    assert refusal(GAME, state, 2, BuildSettlement(vertex="S(3,3)")) == "E_ROUTE_RESTRICTED"
    assert refusal(GAME, state, 2, BuildSettlement(vertex="N(2,4)")) == "E_DISTANCE_RULE"
    road(state, 2, "S(3,2)", "N(3,3)")
    road(state, 2, "N(3,3)", "S(4,1)")
    assert run(state, 2, BuildSettlement(vertex="S(4,1)"))[0].source == "build"
    state.position = 32
    assert run(state, 2, BuildSettlement(vertex="S(3,3)"))[0].vertex == "S(3,3)"


def test_ex16_largest_army_lost_in_a_battle_and_fourteen_vp_outside_ones_turn() -> None:
    state, _ = new_game(GAME, 4)
    build(state, 0, "N(0,0)")
    for v in ("N(8,2)", "N(8,3)", "N(8,4)"):
        build(state, 1, v, city=True)
    for v in ("N(1,1)", "N(3,1)", "N(5,1)", "N(7,1)", "N(-2,7)"):
        build(state, 1, v)
    state.dev_hand[1] = ["victory_point"]
    state.army = [4, 3, 0, 0]
    state.largest_army = 0
    claim_special_cards(state)  # R53 for the position set by hand
    assert total_vp(state, 1) == 12
    turn(state, 0, ALEXANDER, roll=5)
    state.position = 37
    state.tokens_on_board[38] = "battle"
    set_hand(state, 0)
    run(state, 0, MoveAlexander())
    bids(state, [(0, 6), (1, None), (2, None), (3, None)])
    events = run(state, 0, PayBid(items={}, knights=2))
    assert types(events) == ["BidPaid", "LargestArmyChanged", "TaskTokenAwarded", "GameEnded"]
    assert (events[1].holder, events[1].size) == (1, 3)
    assert events[-1].reason == "vp14" and events[-1].winners == [1]
    assert events[-1].scores["1"]["total"] == 14


def test_ex17_maritime_trade_with_gold() -> None:
    state, _ = new_game(GAME, 4)
    build(state, 0, "S(1,0)")
    build(state, 2, "S(1,1)")
    set_bank(state, gold=6, brick=5, ore=2)
    set_hand(state, 0, gold=6)
    turn(state, 0, TRADE_BUILD)
    events = run(state, 0, BankTrade(give="gold", receive="brick", lots=2))
    assert (events[0].gave, events[0].received) == ({"gold": 6}, {"brick": 2})
    set_hand(state, 1, gold=4)
    turn(state, 1, TRADE_BUILD)
    assert run(state, 1, BankTrade(give="gold", receive="ore", lots=1))[0].gave == {"gold": 4}
    set_hand(state, 2, gold=0, wool=2)
    turn(state, 2, TRADE_BUILD)
    events = run(state, 2, BankTrade(give="wool", receive="gold", lots=1))
    assert (events[0].gave, events[0].received, state.gold[2]) == ({"wool": 2}, {"gold": 1}, 1)
    state.gold[2] = 3
    assert refusal(GAME, state, 2, BankTrade(give="gold", receive="ore", lots=1)) == "E_INSUFFICIENT"
    assert refusal(GAME, state, 2, BankTrade(give="brick", receive="brick", lots=1)) == "E_INVALID_TRADE"


def test_ex18_temple_won_without_a_settlement_piece() -> None:
    state, _ = new_game(GAME, 4)
    for v in ("N(0,0)", "N(8,2)", "N(8,4)", "N(-2,7)", "N(7,1)"):
        build(state, 3, v)
    turn(state, 0, ALEXANDER, roll=5)
    state.position = 45
    set_hand(state, 3, gold=1, brick=1, grain=1)
    assert run(state, 0, MoveAlexander())[0].crossing == 46
    bids(state, [(0, None), (1, None), (2, None), (3, 3)])
    events = run(state, 3, PayBid(items={"brick": 1, "grain": 1, "gold": 1}))
    assert types(events) == ["BidPaid", "TempleLeftEmpty"]
    assert (events[1].crossing, events[1].reason) == (46, "no_piece")
    assert state.owner[state.geometry.vertex_index["N(5,5)"]] == -1
    turn(state, 1, TRADE_BUILD)
    road(state, 1, "S(5,4)", "N(5,5)")
    set_hand(state, 1, brick=1, lumber=1, grain=1, wool=1)
    assert refusal(GAME, state, 1, BuildSettlement(vertex="N(5,5)")) == "E_ROUTE_RESTRICTED"
    state.position = 47
    assert run(state, 1, BuildSettlement(vertex="N(5,5)"))[0].seat == 1


def test_ex19_bank_shortage_on_a_six() -> None:
    state, _ = new_game(GAME, 4)
    set_bank(state, gold=state.gold_supply, ore=2, wool=0, grain=5)
    build(state, 0, "S(3,2)", city=True)
    build(state, 0, "S(1,0)")
    build(state, 1, "S(5,1)")
    build(state, 1, "N(-1,7)")
    turn(state, 2, BEFORE_ROLL)
    produced = run(state, 2, RollDice(), Loaded([1, 5]))[1]
    assert produced.gains == {"1": {"grain": 1}}
    assert produced.withheld == ["ore", "wool"]


def test_ex20_domestic_trade_with_gold_and_a_counter_offer() -> None:
    state, _ = new_game(GAME, 4)
    turn(state, 0, TRADE_BUILD)
    set_hand(state, 0, gold=3)
    set_hand(state, 1, brick=1, ore=2)
    set_hand(state, 2, brick=1)
    set_hand(state, 3, brick=1)
    offered = run(state, 0, OfferTrade(give={"gold": 2}, receive={"brick": 1}, to=None))[0]
    assert (offered.offer_id, offered.to) == (1, [1, 2, 3])
    run(state, 1, RespondTrade(offer_id=1, accept=True))
    run(state, 2, RespondTrade(offer_id=1, accept=True))
    run(state, 3, RespondTrade(offer_id=1, accept=False))
    done = run(state, 0, ConfirmTrade(offer_id=1, partner=2))[0]
    assert (done.maker, done.partner, done.maker_gave, done.partner_gave) == (0, 2, {"gold": 2}, {"brick": 1})
    assert 1 not in state.offers
    counter = run(state, 1, OfferTrade(give={"ore": 1}, receive={"gold": 1}, to=None))[0]
    assert (counter.offer_id, counter.to) == (2, [0])
    events = run(state, 0, RespondTrade(offer_id=2, accept=True))
    assert types(events) == ["TradeResponded", "TradeCompleted"]
    assert state.gold[0] == 0 and state.hands[0][RESOURCE_INDEX["ore"]] == 1
    assert refusal(GAME, state, 1, OfferTrade(give={"ore": 1}, receive={"gold": 1}, to=[2])) == "E_INVALID_ADDRESSEE"
    assert refusal(GAME, state, 0, OfferTrade(give={"gold": 1}, receive={"gold": 2})) == "E_INVALID_TRADE"


def test_ex21_paying_a_village_bid() -> None:
    def won() -> State:
        state, _ = new_game(GAME, 4)
        set_hand(state, 0, gold=3, lumber=2, brick=2, grain=2, ore=3)
        state.auction = Auction(crossing=1, task="village", high_bid=5, high_bidder=0)
        state.phase = PAYMENT
        return state

    assert run(won(), 0, PayBid(items={"lumber": 2, "brick": 2, "grain": 1}))[0].type == "BidPaid"
    assert run(won(), 0, PayBid(items={"grain": 2, "gold": 3}))[0].type == "BidPaid"
    assert refusal(GAME, won(), 0, PayBid(items={"ore": 1, "lumber": 2, "brick": 2})) == "E_NOT_ACCEPTED"
    assert refusal(GAME, won(), 0, PayBid(items={"lumber": 2, "brick": 2, "grain": 2})) == "E_WRONG_AMOUNT"


def test_auction_state_is_awaited_by_the_bidder_to_act() -> None:
    state, _ = new_game(GAME, 4)
    run(state, 0, MoveAlexander())
    assert state.phase == AUCTION and GAME.awaited(state) == {0: ("place_bid", "pass_bid")}
