"""Rules file 5.5, tasks and auctions (R20-R24)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.catan_alexander import events as ev
from domain.catan_alexander.commands import PassBid, PlaceBid
from domain.catan_alexander.data import MAX_BID, TASK_ACCEPTS
from domain.catan_alexander.rules.general import clockwise_from, hand_size, refuse
from domain.catan_alexander.rules.payment import can_honour
from domain.catan_alexander.rules.rewards import task_done
from domain.catan_alexander.state import AUCTION, AUCTION_CLOSE, PAYMENT, TRADE_BUILD, Auction, State
from domain.kernel import Chance, Command, Event
from domain.kernel.errors import BAD_INPUT


def open_auction(state: State, crossing: int, task: str, round_: int, excluded: list[int]) -> list[Event]:
    """R21a/R27: the first bidder is the active player or the next non-excluded one."""
    bidders = [s for s in clockwise_from(state, state.active) if s not in excluded]
    if not bidders:
        return no_winner_events(crossing, task)
    return [
        ev.AuctionOpened(
            crossing=crossing,
            task=task,
            accepted=list(TASK_ACCEPTS[task]),
            knights_allowed=task == "battle",
            round=round_,
            excluded=sorted(excluded),
            to_act=bidders[0],
        )
    ]


def no_winner_events(crossing: int, task: str) -> list[Event]:
    """R23: the token leaves the game; a temple stays empty."""
    if task == "village":
        return [ev.TempleLeftEmpty(crossing=crossing, reason="no_bids")]
    return [ev.TaskTokenRemoved(crossing=crossing, task=task)]


def decide_place_bid(state: State, seat: int, command: PlaceBid, chance: Chance) -> list[Event]:
    auction = state.auction
    assert auction is not None
    amount = command.amount
    if not isinstance(amount, int) or isinstance(amount, bool):
        raise refuse(BAD_INPUT, "amount must be a whole number")
    if amount < 1 or amount <= auction.high_bid:
        raise refuse("E_BID_TOO_LOW", f"a bid must be at least {max(1, auction.high_bid + 1)}")
    if amount > MAX_BID:
        raise refuse("E_BID_TOO_HIGH", f"a bid is at most {MAX_BID} (Ruling R22)")
    return [ev.BidPlaced(seat=seat, amount=amount)]


def decide_pass_bid(state: State, seat: int, command: Command, chance: Chance) -> list[Event]:
    return [ev.BidderDroppedOut(seat=seat)]


def auction_close_events(state: State, chance: Chance) -> list[Event]:
    auction = state.auction
    assert auction is not None
    winner = auction.high_bidder
    if winner is None:
        return [
            ev.AuctionClosed(crossing=auction.crossing, winner=None, amount=None),
            *no_winner_events(auction.crossing, auction.task),
        ]
    closed = ev.AuctionClosed(crossing=auction.crossing, winner=winner, amount=auction.high_bid)
    if can_honour(state, winner, auction.task, auction.high_bid):
        return [closed]
    owed = hand_size(state, winner) // 2  # R26, Ruling R26: resource cards only
    return [closed, ev.BidDefaulted(seat=winner, amount=auction.high_bid, owed_discard=owed)]


def auction_reopen_events(state: State, chance: Chance) -> list[Event]:
    auction = state.auction
    assert auction is not None
    return open_auction(state, auction.crossing, auction.task, auction.round + 1, auction.excluded)


def on_task_revealed(state: State, e: ev.TaskRevealed) -> None:
    state.tokens_on_board.pop(e.crossing, None)


def on_auction_opened(state: State, e: ev.AuctionOpened) -> None:
    state.auction = Auction(crossing=e.crossing, task=e.task, round=e.round, excluded=list(e.excluded), to_act=e.to_act)
    state.phase = AUCTION


def next_bidder(state: State, auction: Auction, after: int) -> None:
    """R21c/R21d: the turn passes clockwise to the next player still in, or the auction ends."""
    still_in = [
        s
        for s in clockwise_from(state, (after + 1) % state.players)
        if s not in auction.excluded and s not in auction.dropped
    ]
    if not still_in or still_in == [auction.high_bidder]:
        auction.to_act = None
        state.phase = AUCTION_CLOSE
        return
    auction.to_act = next(s for s in still_in if s != auction.high_bidder)


def on_bid_placed(state: State, e: ev.BidPlaced) -> None:
    auction = state.auction
    assert auction is not None
    auction.high_bid = e.amount
    auction.high_bidder = e.seat
    next_bidder(state, auction, e.seat)


def on_bidder_dropped_out(state: State, e: ev.BidderDroppedOut) -> None:
    auction = state.auction
    assert auction is not None
    auction.dropped.append(e.seat)
    next_bidder(state, auction, e.seat)


def on_auction_closed(state: State, e: ev.AuctionClosed) -> None:
    if e.winner is None:
        state.auction = None
        state.phase = TRADE_BUILD
    else:
        state.phase = PAYMENT


def on_task_token_removed(state: State, e: ev.TaskTokenRemoved) -> None:
    task_done(state)


DECIDERS: dict[type[Command], Callable[[State, int, Any, Chance], list[Event]]] = {
    PlaceBid: decide_place_bid,
    PassBid: decide_pass_bid,
}


EVOLVERS: dict[type[Event], Callable[[State, Any], None]] = {
    ev.TaskRevealed: on_task_revealed,
    ev.AuctionOpened: on_auction_opened,
    ev.BidPlaced: on_bid_placed,
    ev.BidderDroppedOut: on_bidder_dropped_out,
    ev.AuctionClosed: on_auction_closed,
    ev.TaskTokenRemoved: on_task_token_removed,
}
