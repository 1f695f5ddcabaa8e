"""The per-viewer view: the whole public state (rules file section 8) plus the viewer's own hand;
once the game has ended nothing is hidden any more, so every hand and the supply order are shown."""

from __future__ import annotations

from typing import Literal, NotRequired, cast

from typing_extensions import TypedDict  # the API's schemas (pydantic) need this one before Python 3.12

from domain.alexandros.data import BOARD_ID, SPACE_SYMBOL, point_coord, side_coord, space_coord
from domain.alexandros.rules import awaited, province_value, provinces
from domain.alexandros.state import NOBODY, OVER, WALL_COLORS, State
from domain.kernel import Viewer


class AlexandrosProvinceView(TypedDict):
    """A province (R8): its spaces (coordinates), those with a symbol, its value, owner and governors."""

    spaces: list[list[int]]
    symbol_spaces: list[list[int]]
    value: int
    owner: int | None
    governors: int


class AlexandrosWallView(TypedDict):
    side: list[list[int]]
    color: str


class AlexandrosGovernorView(TypedDict):
    space: list[int]
    seat: int


# ``state.STEPS`` spelled out for the contract's enum (a test holds the two equal)
AlexandrosStep = Literal["setup", "move", "actions", "turn_over", "over"]


class AlexandrosView(TypedDict):
    """The public state, the viewer's own hand, and after the end every hand and the supply order."""

    board: str
    step: AlexandrosStep
    viewer: Viewer
    current_seat: int
    turn: int
    awaited: dict[str, list[str]]
    actions_taken: int
    levied: bool
    end_flag: str | None
    alexander: list[int]
    walls: list[AlexandrosWallView]
    black_left: int
    red_left: int
    governors: list[AlexandrosGovernorView]
    governor_supply: list[int]
    provinces: list[AlexandrosProvinceView]
    display: list[str | None]
    supply_count: int
    discard: list[str]
    hand_sizes: list[int]
    scores: list[int]
    end: str | None
    winners: list[int]
    hand: NotRequired[dict[str, int]]  # a seat's own
    hands: NotRequired[list[dict[str, int]]]  # after the end
    supply: NotRequired[list[str]]  # after the end


def province_views(state: State) -> list[AlexandrosProvinceView]:
    views: list[AlexandrosProvinceView] = []
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


def view(state: State, viewer: Viewer) -> AlexandrosView:
    result: AlexandrosView = {
        "board": BOARD_ID,
        "step": cast(AlexandrosStep, state.step),
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
