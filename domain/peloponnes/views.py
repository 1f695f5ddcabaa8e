"""Per-viewer view. Peloponnes has no private information (rules file section 8): every viewer sees the same
public table; only the undrawn order of stacks and chits is unknown, and the state does not hold it."""

from __future__ import annotations

from typing import Any

from domain.kernel import Viewer
from domain.peloponnes.rules import awaited
from domain.peloponnes.state import SeatState, State


def seat_view(seat: int, s: SeatState) -> dict[str, Any]:
    return {
        "seat": seat,
        "civilization": s.civilization,
        **s.counters(),
        "buildings": [{"tile_id": b.tile_id, "unfinished": b.unfinished} for b in s.buildings],
        "lands": list(s.lands),
        "extra_incomes": list(s.extra_incomes),
        "bid": None if s.bid_tile is None else {"tile_id": s.bid_tile, "amount": s.bid_amount},
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
    }
