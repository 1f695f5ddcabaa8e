"""Rules details of issue 11: R12's `withheld`, R22's bluffs in the auction listing, and whether a
listing is complete."""

from __future__ import annotations

from domain.catan_alexander import GAME
from domain.catan_alexander.commands import PlaceBid, RollDice
from domain.catan_alexander.rules import bid_capacity
from domain.catan_alexander.state import AUCTION, ROBBER, State
from domain.kernel import Chance, engine
from domain.kernel.bots import RandomBot
from tests.domain.catan_alexander.helpers import Loaded, build, run, turn
from tests.domain.catan_alexander.test_examples import gold_table
from tests.support.games import new_game


def test_r12_a_single_receiver_paid_in_part_is_not_withheld() -> None:
    """E5 with 2 gold left and seat 0 the only one owed (3): he gets the 2, nothing is blocked."""
    alone = gold_table(2)
    alone.owner[alone.geometry.vertex_index["S(1,5)"]] = -1
    produced = run(alone, 2, RollDice(), Loaded([4, 6]))[1]
    assert produced.gains["0"] == {"gold": 2}
    assert produced.withheld == []
    empty = gold_table(0)
    empty.owner[empty.geometry.vertex_index["S(1,5)"]] = -1
    produced = run(empty, 2, RollDice(), Loaded([4, 6]))[1]
    assert produced.gains == {} and produced.withheld == ["gold"], "nobody receives any: blocked"


def at_auction(seed: bytes) -> State:
    state, chance = new_game(GAME, 4, seed=seed)
    bot = RandomBot(seed + b"-bot")
    while state.phase != AUCTION:
        seat, command = bot.next_move(GAME, state)
        state, _ = engine.execute(GAME, state, seat, command, chance)
    return state


def test_r22_the_auction_listing_offers_a_bluff() -> None:
    for seed in (b"a", b"b", b"c"):
        state = at_auction(seed)
        assert state.auction is not None and state.auction.to_act is not None
        seat = state.auction.to_act
        items, knights = bid_capacity(state, seat, state.auction.task)
        listing = GAME.legal_moves(state, seat, Chance(b"m"))
        bluffs = [m for m in listing if isinstance(m, PlaceBid) and m.amount > items + 3 * knights]
        assert bluffs, "Ruling R22: a bid the seat cannot pay is legal and listed"
        engine.execute(GAME, state, seat, bluffs[0], Chance(b"x"))  # and accepted
        assert not listing.complete, "bids go up to 999: a sample"


def test_the_listing_says_whether_it_is_complete() -> None:
    state, _ = new_game(GAME, 4)
    assert engine.legal_moves(GAME, state, 0, Chance(b"m")).complete, "move Alexander, no cards"
    turn(state, 0, ROBBER)
    build(state, 1, "S(1,1)")
    assert engine.legal_moves(GAME, state, 0, Chance(b"m")).complete, "every hex and victim"
    assert (
        engine.legal_moves(GAME, state, 1, Chance(b"m")) == []
        and engine.legal_moves(GAME, state, 1, Chance(b"m")).complete
    )
