"""The per-viewer view: the whole public state (rules file section 8) plus the viewer's own hand;
once the game has ended nothing is hidden any more, so every hand and the supply order are shown."""

from __future__ import annotations

from typing import Any

from domain.alexandros.data import BOARD_ID, SPACE_SYMBOL, point_coord, side_coord, space_coord
from domain.alexandros.rules import awaited, province_value, provinces
from domain.alexandros.state import NOBODY, OVER, WALL_COLORS, AlexandrosState
from domain.kernel import Viewer


def province_views(state: AlexandrosState) -> list[dict[str, Any]]:
    views = []
    for members in provinces(state).values():
        governors = [s for s in members if state.governors[s] != NOBODY]
        owners = {state.governors[s] for s in governors}
        views.append(
            {
                "spaces": [space_coord(s) for s in members],
                "symbol_spaces": [space_coord(s) for s in members if SPACE_SYMBOL[s] is not None],
                "value": province_value(members),
                "owner": owners.pop() if len(owners) == 1 else None,
                "governors": len(governors),
            }
        )
    return views


def view(state: AlexandrosState, viewer: Viewer) -> dict[str, Any]:
    result: dict[str, Any] = {
        "board": BOARD_ID,
        "step": state.step,
        "viewer": viewer,
        "current_seat": state.seat,
        "turn": state.turn,
        "awaited": {str(seat): list(commands) for seat, commands in awaited(state).items()},
        "actions_taken": state.actions_taken,
        "levied": state.levied,
        "end_flag": state.end_reason,
        "alexander": point_coord(state.alexander),
        "walls": [{"side": side_coord(side), "color": WALL_COLORS[w]} for side, w in enumerate(state.walls) if w],
        "black_left": state.black_left,
        "red_left": state.red_left,
        "governors": [
            {"space": space_coord(s), "seat": owner} for s, owner in enumerate(state.governors) if owner != NOBODY
        ],
        "governor_supply": list(state.governor_supply),
        "provinces": province_views(state),
        "display": list(state.display),
        "supply_count": len(state.supply),
        "discard": list(state.discard),
        "hand_sizes": [sum(hand.values()) for hand in state.hands],
        "scores": list(state.scores),
        "end": state.end,
        "winners": list(state.winners),
    }
    if viewer is not None and 0 <= viewer < state.players:
        result["hand"] = dict(state.hands[viewer])
    if state.step == OVER:  # GameEnded reveals the seed, so hands and the supply order are no secret
        result["hands"] = [dict(hand) for hand in state.hands]
        result["supply"] = list(state.supply)
    return result
