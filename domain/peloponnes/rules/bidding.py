"""Rules file 5.3, step b: bidding (R14-R22)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.kernel import Chance, Command, Event, RuleViolation
from domain.peloponnes.commands import MoveBid, PassTurn, PlaceBid, WithdrawBid
from domain.peloponnes.data import HALF_COIN_TILES, PASS_COINS, TILES, WITHDRAW_COMPENSATION, conquest_price
from domain.peloponnes.events import BiddingEnded, BidMoved, BidPlaced, BidWithdrawn, PlayerPassed
from domain.peloponnes.rules.general import pay_coins
from domain.peloponnes.rules.turn_order import new_turn_order
from domain.peloponnes.state import (
    AUCTION,
    BIDDING,
    CONQUEST,
    DISPLACED,
    HAS_BID,
    PASSED,
    TURN_ORDER,
    WITHDRAWN,
    SeatState,
    Slot,
    State,
)


def max_bid(seat: SeatState) -> int:
    """R17: coins + ⌊luxury / 2⌋."""
    return seat.coins + seat.luxury // 2


def has_half_coin_bonus(seat: SeatState) -> bool:
    """R22/R22a: Market or Agora, finished or marked."""
    return seat.owns_building(HALF_COIN_TILES)


def outbid_minimum(state: State, bidder: int, slot: Slot) -> int:
    """R15: the least amount for which 2*new + h(bidder) > 2*old + h(holder)."""
    assert slot.bidder is not None
    holder_value = 2 * slot.amount + has_half_coin_bonus(state.seats[slot.bidder])
    bonus = int(has_half_coin_bonus(state.seats[bidder]))
    return (holder_value - bonus) // 2 + 1


def free_tile_price(slot: Slot) -> int:
    """The least a free display tile takes: its minimum bid in the auction row, minimum bid + 3 in the
    conquest row (R14, R16). It is also the exact solo price (section 7) and the least a moved bid
    needs (R19a)."""
    return TILES[slot.tile_id].min_bid if slot.row == AUCTION else conquest_price(slot.tile_id)


def move_targets(state: State, seat: int) -> list[str]:
    """R19a: free tiles (other than the one displaced from) whose price the unchanged amount covers."""
    amount = state.seats[seat].bid_amount
    targets = []
    for slot in state.display:
        if slot.bidder is not None or slot.tile_id == state.displaced_from:
            continue
        if amount >= free_tile_price(slot):
            targets.append(slot.tile_id)
    return targets


def bidding_step(state: State, chance: Chance) -> list[Event]:
    """R19b: a displaced seat with no tile to move to withdraws; R20/R23/R25: the end of the bidding."""
    if state.displaced is not None:
        if not move_targets(state, state.displaced):
            return [withdrawal(state, state.displaced, automatic=True)]
        return []
    if state.turn_index < len(state.turn_order):
        return []
    awards = [
        {"seat": s.bidder, "tile_id": s.tile_id, "amount": s.amount} for s in state.display if s.bidder is not None
    ]
    discarded = [s.tile_id for s in state.display if s.bidder is None]
    return [BiddingEnded(state.round, awards, discarded), new_turn_order(state)]


def withdrawal(state: State, seat: int, automatic: bool) -> BidWithdrawn:
    """R19: the bid comes back plus 1 coin; luxury spent on it is not restored (11.27)."""
    s = state.seats[seat]
    after = s.counters()
    after["coins"] += s.bid_amount + WITHDRAW_COMPENSATION
    assert state.displaced_from is not None
    return BidWithdrawn(seat, state.displaced_from, s.bid_amount, WITHDRAW_COMPENSATION, automatic, after)


def decide_place_bid(state: State, seat: int, command: PlaceBid) -> list[Event]:
    """R14-R17, R22; solo R54."""
    slot = state.slot(command.tile_id)
    if slot is None:
        raise RuleViolation("TILE_NOT_OFFERED", f"{command.tile_id!r} is not in this round's display")
    amount = command.amount
    if amount < 1:
        raise RuleViolation("INVALID_AMOUNT", "a bid is at least 1 coin")
    s = state.seats[seat]
    tile = TILES[slot.tile_id]
    outbid = None
    if state.is_solo:
        price = free_tile_price(slot)
        if amount != price:
            raise RuleViolation("SOLO_PRICE", f"in the solo game {slot.tile_id} costs exactly {price}")
    elif slot.row == CONQUEST:
        if slot.bidder is not None:
            raise RuleViolation("CONQUEST_TAKEN", f"{slot.tile_id} is already conquered this round")
        price = conquest_price(slot.tile_id)
        if amount != price:
            raise RuleViolation("CONQUEST_PRICE", f"{slot.tile_id} in the conquest row costs exactly {price}")
    elif slot.bidder is None:
        if amount < tile.min_bid:
            raise RuleViolation("BELOW_MINIMUM", f"the minimum bid for {slot.tile_id} is {tile.min_bid}")
    else:
        least = outbid_minimum(state, seat, slot)
        if amount < least:
            raise RuleViolation(
                "NOT_ENOUGH_TO_OUTBID", f"to outbid the {slot.amount} on {slot.tile_id} you must bid at least {least}"
            )
        outbid = slot.bidder
    if amount > max_bid(s):
        raise RuleViolation("CANNOT_AFFORD", f"you can bid at most {max_bid(s)} (coins + half your luxury goods, R17)")
    after = s.counters()
    luxury = pay_coins(after, amount)
    return [BidPlaced(seat, slot.tile_id, slot.row, amount, luxury, after, outbid)]


def decide_pass(state: State, seat: int, command: PassTurn) -> list[Event]:
    """R18: 3 coins from the bank, no tile this round."""
    after = state.seats[seat].counters()
    after["coins"] += PASS_COINS
    return [PlayerPassed(seat, PASS_COINS, after)]


def decide_move_bid(state: State, seat: int, command: MoveBid) -> list[Event]:
    """R19/R19a: the unchanged amount moves to a free tile it covers."""
    slot = state.slot(command.tile_id)
    if slot is None:
        raise RuleViolation("TILE_NOT_OFFERED", f"{command.tile_id!r} is not in this round's display")
    if slot.tile_id == state.displaced_from:
        raise RuleViolation("SAME_TILE", f"your bid was just outbid on {slot.tile_id}; move it to another tile")
    if slot.bidder is not None:
        raise RuleViolation("TILE_TAKEN", f"{slot.tile_id} already holds a bid; a bid moves only to a free tile")
    amount = state.seats[seat].bid_amount
    if slot.row == AUCTION:
        if amount < TILES[slot.tile_id].min_bid:
            raise RuleViolation(
                "BELOW_MINIMUM", f"your bid of {amount} is below the minimum {TILES[slot.tile_id].min_bid}"
            )
    elif amount < conquest_price(slot.tile_id):
        raise RuleViolation(
            "BELOW_CONQUEST_PRICE",
            f"your bid of {amount} is below {slot.tile_id}'s conquest price {conquest_price(slot.tile_id)}",
        )
    assert state.displaced_from is not None
    return [BidMoved(seat, state.displaced_from, slot.tile_id, amount)]


def decide_withdraw(state: State, seat: int, command: WithdrawBid) -> list[Event]:
    return [withdrawal(state, seat, automatic=False)]


def enter_bidding(state: State) -> None:
    state.phase = BIDDING
    state.turn_index = 0
    state.displaced = None
    state.displaced_from = None


def _bid_placed(state: State, e: BidPlaced) -> None:
    s = state.seats[e.seat]
    s.set_counters(e.after)
    slot = state.slot(e.tile_id)
    assert slot is not None
    if e.outbid_seat is not None:
        loser = state.seats[e.outbid_seat]
        loser.bid_status = DISPLACED
        loser.bid_tile = None
        state.displaced = e.outbid_seat
        state.displaced_from = e.tile_id
    slot.bidder = e.seat
    slot.amount = e.amount
    s.bid_status = HAS_BID
    s.bid_tile = e.tile_id
    s.bid_amount = e.amount
    state.turn_index += 1


def _bid_moved(state: State, e: BidMoved) -> None:
    slot = state.slot(e.to_tile_id)
    assert slot is not None
    slot.bidder = e.seat
    slot.amount = e.amount
    s = state.seats[e.seat]
    s.bid_status = HAS_BID
    s.bid_tile = e.to_tile_id
    state.displaced = None
    state.displaced_from = None


def _bid_withdrawn(state: State, e: BidWithdrawn) -> None:
    s = state.seats[e.seat]
    s.set_counters(e.after)
    s.bid_status = WITHDRAWN
    s.bid_tile = None
    s.bid_amount = 0
    state.displaced = None
    state.displaced_from = None


def _player_passed(state: State, e: PlayerPassed) -> None:
    s = state.seats[e.seat]
    s.set_counters(e.after)
    s.bid_status = PASSED
    state.turn_index += 1


def _bidding_ended(state: State, e: BiddingEnded) -> None:
    for award in e.awards:
        state.seats[award["seat"]].won = award["tile_id"]
    state.box.extend(e.discarded)
    state.display = []  # every display tile is now won (seat.won) or in the box
    state.phase = TURN_ORDER


DECIDERS: dict[type[Command], Callable[[State, int, Any], list[Event]]] = {
    PlaceBid: decide_place_bid,
    PassTurn: decide_pass,
    MoveBid: decide_move_bid,
    WithdrawBid: decide_withdraw,
}


EVOLVERS: dict[type[Event], Callable[[State, Any], None]] = {
    BidPlaced: _bid_placed,
    BidMoved: _bid_moved,
    BidWithdrawn: _bid_withdrawn,
    PlayerPassed: _player_passed,
    BiddingEnded: _bidding_ended,
}
