"""What one viewer may know (§8): everything public, plus the viewer's own sealed commit. Nothing else."""

from __future__ import annotations

from typing import Any

from domain.empire_builder.data import CITY_PIECES, PROVINCES, REGIONS, TEMPLE_PIECES
from domain.empire_builder.rules import awaited
from domain.empire_builder.state import ALLOCATION, REALLOCATION, SETUP, TURN_ORDER, TURNS, State
from domain.kernel import Viewer

_SEALED_FIELDS = {
    ALLOCATION: ("turn_order", "armies", "temples", "cities"),
    REALLOCATION: ("temples", "cities"),
}


def public_phase(state: State, waiting: dict[int, tuple[str, ...]]) -> str:
    """The state names of §4 (the command awaited), or the automatic phase's own name."""
    if state.phase == TURNS and waiting:
        command = next(iter(waiting.values()))[0]
        return "turn_move" if command == "move_armies" else "turn_build"
    if state.phase == TURN_ORDER and waiting:
        return "turn_order_choice"
    return state.phase


def _seat_view(state: State, seat: int, boxes_known: bool) -> dict[str, Any]:
    p = state.seats[seat]
    return {
        "seat": seat,
        "vp": p.vp,
        # between CampaignStarted and the reveal the boxes are behind the screens (R14, R15)
        "boxes": (
            {"turn_order": p.turn_order, "armies": p.armies, "temples": p.temples, "cities": p.cities, "spent": p.spent}
            if boxes_known
            else None
        ),
        "armies_at": dict(sorted(p.at.items())),
        "temples_built": p.temples_built,
        "cities_built": p.cities_built,
        "temples_in_supply": TEMPLE_PIECES - p.temples_built,
        "cities_in_supply": CITY_PIECES - p.cities_built,
        "committed": seat in state.sealed,
    }


def _region_view(state: State) -> list[dict[str, Any]]:
    """The current region's provinces as a board shows them: sites, armies, pieces and attempts."""
    region = REGIONS.get(state.campaign)
    if region is None:
        return []
    rows = []
    for province_id in region.provinces:
        province = PROVINCES[province_id]
        rows.append(
            {
                "province": province_id,
                "name": province.name,
                "temple_site": province.temple_site,
                "city_site": province.city_site,
                "armies": {str(s): p.at[province_id] for s, p in enumerate(state.seats) if p.at.get(province_id)},
                "temples": list(state.temples.get(province_id, [])),
                "city": state.cities.get(province_id),
                "attempts": [{"kind": k, "seat": s} for p, k, s in state.attempts if p == province_id],
            }
        )
    return rows


def view(state: State, viewer: Viewer) -> dict[str, Any]:
    waiting = awaited(state)
    region = REGIONS.get(state.campaign)
    boxes_known = state.phase not in (SETUP, ALLOCATION)
    mine: dict[str, int] | None = None
    if viewer is not None and viewer in state.sealed:
        mine = dict(zip(_SEALED_FIELDS[state.phase], state.sealed[viewer], strict=True))
    return {
        "game": "empire_builder",
        "viewer": viewer,
        "options": {
            "short_game": state.short_game,
            "region_scoring_variant": state.region_scoring_variant,
            "oldest_seat": state.oldest_seat,
        },
        "phase": public_phase(state, waiting),
        "awaited": {str(s): list(commands) for s, commands in sorted(waiting.items())},
        "campaign": state.campaign,
        "round": state.round,
        "region": region.number if region else None,
        "region_name": region.name if region else None,
        "symbol": region.symbol if region else None,
        "goal": region.goal if region else None,
        "goal_reached": state.goal_reached,
        "turn_order": list(state.order),
        "turn_positions_chosen": {str(s): p for s, p in sorted(state.chosen.items())},
        "active_seat": state.active_seat,
        "seats": [_seat_view(state, s, boxes_known) for s in range(state.players)],
        "my_sealed_commit": mine,
        "provinces": _region_view(state),
        "temples": {p: list(owners) for p, owners in sorted(state.temples.items())},
        "cities": dict(sorted(state.cities.items())),
        "winners": list(state.winners),
    }
