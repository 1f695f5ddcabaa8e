"""Rules file 5.8, trade (R35-R39)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.catan_alexander import events as ev
from domain.catan_alexander.commands import BankTrade, CancelTrade, ConfirmTrade, OfferTrade, RespondTrade
from domain.catan_alexander.data import GOLD, GOOD_INDEX, GOODS, RESOURCES
from domain.catan_alexander.rules.general import add_goods, bundle_of, goods_of, holds, parse_bundle, refuse
from domain.catan_alexander.state import Offer, State
from domain.kernel import Chance, Command, Event
from domain.kernel.errors import BAD_INPUT


def use_harbour(state: State, seat: int, vertex: int) -> None:
    """R38/R39: a building at a harbour lowers its owner's bank rates for good (rates only fall:
    2 with the matching 2:1 harbour, else 3 with a 3:1 harbour, gold included; else 4)."""
    harbour = state.geometry.harbour_at.get(vertex)
    if harbour is None:
        return
    rates = state.trade_rates[seat]
    if harbour == "generic":
        state.trade_rates[seat] = [min(rate, 3) for rate in rates]
    else:
        rates[GOOD_INDEX[harbour]] = 2


def check_good(state: State, name: Any, where: str) -> int:
    index = GOOD_INDEX.get(name) if isinstance(name, str) else None
    if index is None or (index == GOLD and not state.scenario):
        allowed = GOODS if state.scenario else RESOURCES
        raise refuse(BAD_INPUT, f"{where} must be one of {', '.join(allowed)}")
    return index


def decide_bank_trade(state: State, seat: int, command: BankTrade, chance: Chance) -> list[Event]:
    give = check_good(state, command.give, "give")
    receive = check_good(state, command.receive, "receive")
    lots = command.lots
    if not isinstance(lots, int) or isinstance(lots, bool):
        raise refuse(BAD_INPUT, "lots must be a whole number")
    if give == receive or lots < 1:
        raise refuse("E_INVALID_TRADE", "give one type and receive a different one, at least one lot")
    rate = state.trade_rates[seat][give]  # R38
    held = state.gold[seat] if give == GOLD else state.hands[seat][give]
    if held < rate * lots:
        raise refuse("E_INSUFFICIENT", f"you need {rate * lots} {GOODS[give]} ({rate}:1)")
    available = state.gold_supply if receive == GOLD else state.bank[receive]
    if available < lots:
        raise refuse("E_BANK_EMPTY", f"the bank holds only {available} {GOODS[receive]}")
    return [ev.BankTraded(seat=seat, gave={GOODS[give]: rate * lots}, received={GOODS[receive]: lots})]


def decide_offer_trade(state: State, seat: int, command: OfferTrade, chance: Chance) -> list[Event]:
    give = parse_bundle(command.give, "give", allow_gold=state.scenario)
    receive = parse_bundle(command.receive, "receive", allow_gold=state.scenario)
    if not any(give) or not any(receive) or any(give[i] and receive[i] for i in range(6)):
        raise refuse("E_INVALID_TRADE", "both sides need at least one item, and no type on both sides")
    if not holds(state, seat, give):
        raise refuse("E_INSUFFICIENT", "you do not hold what you offer")
    to = command.to
    active = state.active
    if seat == active:
        if to is None:
            addressees = [s for s in range(state.players) if s != seat]
        else:
            if (
                not isinstance(to, list)
                or not to
                or len(set(to)) != len(to)
                or any(not isinstance(s, int) or isinstance(s, bool) or not 0 <= s < state.players for s in to)
                or seat in to
            ):
                raise refuse("E_INVALID_ADDRESSEE", "address one or more other players (or null for all)")
            addressees = sorted(to)
    else:
        if to is not None and to != [active]:
            raise refuse("E_INVALID_ADDRESSEE", "you may make offers to the active player only")
        addressees = [active]
    return [
        ev.TradeOffered(
            offer_id=state.next_offer_id, maker=seat, to=addressees, give=bundle_of(give), receive=bundle_of(receive)
        )
    ]


def find_offer(state: State, offer_id: Any) -> Offer:
    offer = state.offers.get(offer_id) if isinstance(offer_id, int) else None
    if offer is None:
        raise refuse("E_NO_SUCH_OFFER", f"there is no open offer {offer_id}")
    return offer


def completed(offer: Offer, partner: int) -> ev.TradeCompleted:
    return ev.TradeCompleted(
        offer_id=offer.offer_id,
        maker=offer.maker,
        partner=partner,
        maker_gave=bundle_of(offer.give),
        partner_gave=bundle_of(offer.receive),
    )


def decide_respond_trade(state: State, seat: int, command: RespondTrade, chance: Chance) -> list[Event]:
    """R36b: an addressee accepts or declines; like a spoken answer at the table it may be changed
    while the offer is open (confirm_trade needs the partner's latest answer to be an acceptance)."""
    offer = find_offer(state, command.offer_id)
    if seat not in offer.to:
        raise refuse("E_NOT_ADDRESSED", "that offer is not addressed to you")
    if not isinstance(command.accept, bool):
        raise refuse(BAD_INPUT, "accept must be true or false")
    responded = ev.TradeResponded(offer_id=offer.offer_id, seat=seat, accept=command.accept)
    if not command.accept:
        return [responded]
    if not holds(state, seat, offer.receive):
        raise refuse("E_INSUFFICIENT", "you do not hold what you would give")
    if offer.maker != state.active and seat == state.active:
        if not holds(state, offer.maker, offer.give):  # R36f closes such an offer first: never seen
            raise refuse("E_INSUFFICIENT", "the maker no longer holds his side")
        return [responded, completed(offer, seat)]
    return [responded]


def decide_confirm_trade(state: State, seat: int, command: ConfirmTrade, chance: Chance) -> list[Event]:
    offer = find_offer(state, command.offer_id)
    if offer.maker != seat:
        raise refuse("E_NOT_OWNER", "you can confirm only your own offers")
    if offer.responses.get(command.partner) is not True:
        raise refuse("E_NOT_WILLING", "that player has not accepted this offer")
    if not holds(state, seat, offer.give) or not holds(state, command.partner, offer.receive):
        raise refuse("E_INSUFFICIENT", "one side no longer holds the items")
    return [completed(offer, command.partner)]


def decide_cancel_trade(state: State, seat: int, command: CancelTrade, chance: Chance) -> list[Event]:
    offer = find_offer(state, command.offer_id)
    if offer.maker != seat:
        raise refuse("E_NOT_OWNER", "you can cancel only your own offers")
    return [ev.TradeCancelled(offer_id=offer.offer_id, reason="maker")]


def withdrawals(state: State) -> list[Event]:
    """R36f: what a player no longer holds is no longer offered. A counter-offer whose maker can no
    longer give his side closes, and an acceptance of the active player's offer by a player who can
    no longer give what he would is withdrawn, both in public, as a player says so at the table.
    So no trade is ever refused for a hand its other side cannot see."""
    out: list[Event] = []
    for offer_id in sorted(state.offers):
        offer = state.offers[offer_id]
        if offer.maker != state.active:
            if not holds(state, offer.maker, offer.give):
                out.append(ev.TradeCancelled(offer_id=offer_id, reason="unfunded"))
            continue
        out.extend(
            ev.AcceptanceWithdrawn(offer_id=offer_id, seat=partner)
            for partner, answer in sorted(offer.responses.items())
            if answer and not holds(state, partner, offer.receive)
        )
    return out


def on_trade_offered(state: State, e: ev.TradeOffered) -> None:
    state.offers[e.offer_id] = Offer(
        offer_id=e.offer_id, maker=e.maker, to=list(e.to), give=goods_of(e.give), receive=goods_of(e.receive)
    )
    state.next_offer_id = e.offer_id + 1


def on_trade_responded(state: State, e: ev.TradeResponded) -> None:
    state.offers[e.offer_id].responses[e.seat] = e.accept


def on_trade_completed(state: State, e: ev.TradeCompleted) -> None:
    add_goods(state, e.maker, e.maker_gave, -1, bank=False)
    add_goods(state, e.partner, e.maker_gave, +1, bank=False)
    add_goods(state, e.partner, e.partner_gave, -1, bank=False)
    add_goods(state, e.maker, e.partner_gave, +1, bank=False)
    del state.offers[e.offer_id]


def on_trade_cancelled(state: State, e: ev.TradeCancelled) -> None:
    del state.offers[e.offer_id]


def on_acceptance_withdrawn(state: State, e: ev.AcceptanceWithdrawn) -> None:
    state.offers[e.offer_id].responses[e.seat] = False


def on_bank_traded(state: State, e: ev.BankTraded) -> None:
    add_goods(state, e.seat, e.gave, -1)
    add_goods(state, e.seat, e.received, +1)


DECIDERS: dict[type[Command], Callable[[State, int, Any, Chance], list[Event]]] = {
    OfferTrade: decide_offer_trade,
    RespondTrade: decide_respond_trade,
    ConfirmTrade: decide_confirm_trade,
    CancelTrade: decide_cancel_trade,
    BankTrade: decide_bank_trade,
}


EVOLVERS: dict[type[Event], Callable[[State, Any], None]] = {
    ev.TradeOffered: on_trade_offered,
    ev.TradeResponded: on_trade_responded,
    ev.TradeCompleted: on_trade_completed,
    ev.TradeCancelled: on_trade_cancelled,
    ev.AcceptanceWithdrawn: on_acceptance_withdrawn,
    ev.BankTraded: on_bank_traded,
}
