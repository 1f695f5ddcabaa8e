"""What one viewer may know (§8): everything public, plus the viewer's own sealed commit. Nothing else."""

from __future__ import annotations

from typing import Literal, NotRequired, cast

from typing_extensions import TypedDict  # the API's schemas (pydantic) need this one before Python 3.12

from domain.empire_builder.data import CITY_PIECES, PROVINCES, REGIONS, TEMPLE_PIECES
from domain.empire_builder.rules import awaited
from domain.empire_builder.state import ALLOCATION, REALLOCATION, SETUP, TURN_ORDER, TURNS, State
from domain.kernel import Viewer


class EmpireBuilderOptionsView(TypedDict):
    short_game: bool
    region_scoring_variant: bool
    oldest_seat: int


class EmpireBuilderBoxesView(TypedDict):
    """A seat's boxes (R14, R15), known once they are revealed."""

    turn_order: int
    armies: int
    temples: int
    cities: int
    spent: int


class EmpireBuilderSeatView(TypedDict):
    seat: int
    vp: int
    boxes: EmpireBuilderBoxesView | None
    armies_at: dict[str, int]
    temples_built: int
    cities_built: int
    temples_in_supply: int
    cities_in_supply: int
    committed: bool


class EmpireBuilderAttemptView(TypedDict):
    kind: str
    seat: int


class EmpireBuilderProvinceView(TypedDict):
    """A province of the current region: its sites, armies, pieces and this round's attempts."""

    province: str
    name: str
    temple_site: bool
    city_site: bool
    armies: dict[str, int]
    temples: list[int]
    city: int | None
    attempts: list[EmpireBuilderAttemptView]


class EmpireBuilderSealedCommitView(TypedDict):
    """The viewer's own sealed commit: all four numbers at the allocation, temples and cities at the
    reallocation."""

    turn_order: NotRequired[int]
    armies: NotRequired[int]
    temples: int
    cities: int


# ``state.PHASES`` and the names of §4 for the awaited turn steps (``PUBLIC_TURN_PHASES``),
# spelled out for the contract's enum (a test holds them equal)
EmpireBuilderPhase = Literal[
    "setup",
    "allocation",
    "turn_order",
    "round_start",
    "reallocation",
    "turns",
    "campaign_over",
    "game_over",
    "turn_move",
    "turn_build",
    "turn_order_choice",
]
PUBLIC_TURN_PHASES = ("turn_move", "turn_build", "turn_order_choice")


class EmpireBuilderView(TypedDict):
    """What one viewer may know: everything public, plus the viewer's own sealed commit."""

    game: Literal["empire_builder"]
    viewer: Viewer
    options: EmpireBuilderOptionsView
    phase: EmpireBuilderPhase
    awaited: dict[str, list[str]]
    campaign: int
    round: int
    region: int | None
    region_name: str | None
    symbol: str | None
    goal: str | None
    goal_reached: bool
    turn_order: list[int]
    turn_positions_chosen: dict[str, int]
    active_seat: int | None
    seats: list[EmpireBuilderSeatView]
    my_sealed_commit: EmpireBuilderSealedCommitView | None
    provinces: list[EmpireBuilderProvinceView]
    temples: dict[str, list[int]]
    cities: dict[str, int]
    winners: list[int]


def public_phase(state: State, waiting: dict[int, tuple[str, ...]]) -> EmpireBuilderPhase:
    """The state names of §4 (the command awaited), or the automatic phase's own name."""
    if state.phase == TURNS and waiting:
        command = next(iter(waiting.values()))[0]
        return "turn_move" if command == "move_armies" else "turn_build"
    if state.phase == TURN_ORDER and waiting:
        return "turn_order_choice"
    return cast(EmpireBuilderPhase, state.phase)


def _seat_view(state: State, seat: int, boxes_known: bool) -> EmpireBuilderSeatView:
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


def _region_view(state: State) -> list[EmpireBuilderProvinceView]:
    """The current region's provinces as a board shows them: sites, armies, pieces and attempts."""
    region = REGIONS.get(state.campaign)
    if region is None:
        return []
    rows: list[EmpireBuilderProvinceView] = []
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


def _sealed_commit(state: State, viewer: Viewer) -> EmpireBuilderSealedCommitView | None:
    """The viewer's own numbers of the open sealed step (``ALLOCATION`` or ``REALLOCATION``)."""
    if viewer is None or viewer not in state.sealed:
        return None
    numbers = state.sealed[viewer]
    if state.phase == ALLOCATION:
        turn_order, armies, temples, cities = numbers
        return {"turn_order": turn_order, "armies": armies, "temples": temples, "cities": cities}
    if state.phase == REALLOCATION:
        temples, cities = numbers
        return {"temples": temples, "cities": cities}
    raise ValueError(f"no sealed step is open in phase {state.phase}")


def view(state: State, viewer: Viewer) -> EmpireBuilderView:
    waiting = awaited(state)
    region = REGIONS.get(state.campaign)
    boxes_known = state.phase not in (SETUP, ALLOCATION)
    mine = _sealed_commit(state, viewer)
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
