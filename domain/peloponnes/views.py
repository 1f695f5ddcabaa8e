"""Per-viewer view. Peloponnes has no private information (rules file section 8): every viewer sees the same
public table. Hidden from everyone: the undrawn order of stacks and chits (the state does not hold it) and the
civilizations not dealt, which the view shows once the game has ended and revealed its seed."""

from __future__ import annotations

from typing import Any

from domain.kernel import Viewer
from domain.peloponnes.rules import awaited, undealt_civilizations
from domain.peloponnes.state import DISPLACED, SeatState, State


def bid_view(s: SeatState) -> dict[str, Any] | None:
    """R19: a displaced bid lies on no tile until it is moved or withdrawn, but its amount is known to all."""
    if s.bid_status == DISPLACED:
        return {"tile_id": None, "amount": s.bid_amount}
    return None if s.bid_tile is None else {"tile_id": s.bid_tile, "amount": s.bid_amount}


def seat_view(seat: int, s: SeatState) -> dict[str, Any]:
    return {
        "seat": seat,
        "civilization": s.civilization,
        **s.counters(),
        "buildings": [{"tile_id": b.tile_id, "unfinished": b.unfinished} for b in s.buildings],
        "lands": list(s.lands),
        "extra_incomes": list(s.extra_incomes),
        "bid": bid_view(s),
        "bid_status": s.bid_status,
        "won": s.won,
    }


def view(state: State, viewer: Viewer) -> dict[str, Any]:
    return {
        "viewer": viewer,
        "players": state.players,
        "solo_level": state.solo_level,
        "round": state.round,
        "phase": state.phase,
        "turn_order": list(state.turn_order),
        "auction": [
            {"tile_id": s.tile_id, "bidder": s.bidder, "amount": s.amount} for s in state.display if s.row == "auction"
        ],
        "conquest": [
            {"tile_id": s.tile_id, "bidder": s.bidder, "amount": s.amount} for s in state.display if s.row == "conquest"
        ],
        "displaced": state.displaced,
        "displaced_from": state.displaced_from,
        "strike": state.strike,
        "chits_on_tile": dict(state.chits_on_tile),
        "stacks_left": {stack: len(tiles) for stack, tiles in state.stacks.items()},
        "chits_left": len(state.chits),
        "box": list(state.box),
        "box_chits": list(state.box_chits),
        "seats": [seat_view(seat, s) for seat, s in enumerate(state.seats)],
        "awaited": {str(seat): list(kinds) for seat, kinds in awaited(state).items()},
        "results": None if state.results is None else [dict(r) for r in state.results],
        "winners": list(state.winners),
        # hidden from everyone while the game runs; public once GameEnded has revealed the seed
        "undealt_civilizations": undealt_civilizations(state),
    }
