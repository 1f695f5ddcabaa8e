"""Test states of the rules file's worked examples (section 11), built directly on the state."""

from __future__ import annotations

from domain.alexandros import GAME
from domain.alexandros.commands import MoveAlexander
from domain.alexandros.data import (
    BLACK_WALLS,
    DIST,
    POINT_NEIGHBOURS,
    SYMBOLS,
    parse_point,
    parse_side,
    parse_space,
    point_coord,
    space_coord,
)
from domain.alexandros.rules import province_spaces
from domain.alexandros.state import ACTIONS, BLACK, MOVE, State, empty_hand, label_provinces
from domain.kernel import Chance, Command, Event, RuleViolation, engine

Side = list[list[int]]

F3_WALLS: list[Side] = [[[0, 2], [1, 3]], [[1, 3], [2, 4]], [[2, 4], [3, 3]]]
X_WALLS: list[Side] = [
    [[3, 9], [3, 11]],
    [[3, 9], [4, 8]],
    [[3, 11], [3, 13]],
    [[3, 13], [3, 15]],
    [[3, 15], [4, 16]],
    [[4, 8], [5, 9]],
    [[4, 16], [5, 15]],
    [[5, 9], [5, 11]],
    [[5, 11], [5, 13]],
    [[5, 13], [5, 15]],
]
Y_WALLS: list[Side] = [
    [[6, 18], [6, 20]],
    [[6, 18], [7, 19]],
    [[6, 20], [6, 22]],
    [[6, 22], [6, 24]],
    [[6, 24], [7, 25]],
    [[7, 19], [8, 18]],
    [[7, 25], [8, 24]],
    [[8, 18], [8, 20]],
    [[8, 20], [8, 22]],
    [[8, 22], [8, 24]],
]
E15_LYRE_WALLS: list[Side] = [
    [[0, 16], [1, 17]],
    [[1, 9], [2, 10]],
    [[2, 2], [2, 4]],
    [[2, 24], [3, 23]],
    [[3, 15], [4, 14]],
    [[6, 6], [6, 8]],
    [[6, 12], [6, 14]],
    [[7, 17], [7, 19]],
    [[8, 24], [8, 26]],
    [[9, 3], [10, 2]],
]

# Fig. 4-6 of the rule book, rebuilt on this board by the audit (the rules file only describes them):
# Alexander at v(4,8) on a wall ring around the temple s(2,9) (the "existing province" of fig. 6),
# with a chain of walls east of it that the fig. 5 route closes into a province.
FIG4_RING: list[Side] = [
    [[2, 8], [2, 10]],
    [[2, 10], [3, 11]],
    [[3, 11], [4, 10]],
    [[4, 8], [4, 10]],
    [[3, 7], [4, 8]],
    [[2, 8], [3, 7]],
]
FIG4_CHAIN: list[Side] = [
    [[3, 11], [3, 13]],
    [[3, 13], [3, 15]],
    [[3, 15], [4, 14]],
    [[4, 14], [5, 15]],
    [[5, 13], [5, 15]],
]


def chance() -> Chance:
    return Chance(b"alexandros-tests")


def hand(**counts: int) -> dict[str, int]:
    result = empty_hand()
    result.update(counts)
    return result


def full_supply() -> list[str]:
    """A fixed supply for test states: the symbols in rotation (the order rarely matters)."""
    return [SYMBOLS[k % len(SYMBOLS)] for k in range(40)]


def start_state(
    players: int = 2,
    seat: int = 0,
    display: tuple[str | None, str | None] = ("lyre", "horse"),
    hands: dict[int, dict[str, int]] | None = None,
    supply: list[str] | None = None,
) -> State:
    """The start position (R12-R18) at the MOVE step of turn 1."""
    state = State.new(players)
    state.step, state.seat, state.turn = MOVE, seat, 1
    state.display = list(display)
    state.supply = full_supply() if supply is None else list(supply)
    for s, h in (hands or {}).items():
        state.hands[s] = dict(h)
    return state


def add_walls(state: State, sides: list[Side]) -> None:
    for coords in sides:
        side = parse_side(coords)
        assert side is not None, coords
        state.walls[side] = BLACK
    state.black_left -= len(sides)
    state.province = label_provinces(state.walls)


def place(state: State, seat: int, *spaces: list[int]) -> None:
    for coord in spaces:
        space = parse_space(coord)
        assert space is not None
        state.governors[space] = seat
        state.governor_supply[seat] -= 1


def fixture_f(seat: int = 2, display: tuple[str | None, str | None] = ("soldier", "temple")) -> State:
    """Fixture F of section 11: 3 seats, walls of F3, X and Y, governors, Alexander at v(3,11)."""
    state = start_state(players=3, seat=seat, display=display)
    add_walls(state, F3_WALLS + X_WALLS + Y_WALLS)
    assert state.black_left == BLACK_WALLS - 23
    place(state, 0, [2, 2], [6, 18], [7, 19])
    place(state, 1, [3, 10])
    state.alexander = point([3, 11])
    return state


def to_actions(state: State, taken: int = 0) -> State:
    state.step, state.actions_taken = ACTIONS, taken
    return state


def point(coord: list[int]) -> int:
    p = parse_point(coord)
    assert p is not None
    return p


def space(coord: list[int]) -> int:
    s = parse_space(coord)
    assert s is not None
    return s


def province_of(state: State, coord: list[int]) -> list[list[int]]:
    return [space_coord(s) for s in province_spaces(state, space(coord))]


def run(state: State, seat: int, command: Command) -> tuple[State, list[Event]]:
    """Execute through the engine (turn checks, decide, evolve, automatic steps)."""
    return engine.execute(GAME, state, seat, command, chance())


def refusal(state: State, seat: int, command: Command) -> str:
    try:
        engine.execute(GAME, state, seat, command, chance())
    except RuleViolation as refused:
        return refused.code
    raise AssertionError(f"{command} was accepted")


def all_shortest_routes(start: list[int], goal: list[int]) -> list[list[list[int]]]:
    """Every shortest route (R4) between two points, to check the counts the examples state."""
    a, b = point(start), point(goal)
    routes: list[list[int]] = [[a]]
    for _ in range(DIST[a][b]):
        routes = [[*r, q] for r in routes for q in POINT_NEIGHBOURS[r[-1]] if DIST[q][b] == DIST[r[-1]][b] - 1]
    return [[point_coord(p) for p in r] for r in routes]


def move(slot: int | None, target: list[int], corner: list[int], path: list[list[int]], **kw: object) -> MoveAlexander:
    """A display move (``slot`` given) or a hand move (``card=...``)."""
    source = kw.pop("source", "display" if slot is not None else "hand")
    return MoveAlexander(source=source, slot=slot, target=target, corner=corner, path=path, **kw)  # type: ignore[arg-type]


def e5_state(hand_2: dict[str, int] | None = None) -> tuple[State, list[Event]]:
    """E5: Fixture F, seat 2 splits X with the soldier move."""
    state = fixture_f(display=("soldier", "horse"))
    state.scores = [20, 30, 25]
    if hand_2 is not None:
        state.hands[2] = hand_2
    state, events = run(state, 2, move(0, [4, 12], [5, 13], [[3, 11], [4, 12], [5, 13]]))
    return state, events


def e7_state(hand_2: dict[str, int]) -> State:
    """E7: Fixture F with X held by seat 1 on s(3,10) and s(4,12); seat 2 in its ACTIONS step."""
    state = to_actions(fixture_f())
    place(state, 1, [4, 12])
    state.hands[2] = hand_2
    return state


def e15_state() -> State:
    """E15: no lyre space is free."""
    state = start_state(hands={0: hand(lyre=1)})
    add_walls(state, E15_LYRE_WALLS)
    assert state.black_left == 55
    return state


def fig4_state() -> State:
    """Fig. 4: Alexander at v(4,8), the soldier card in display slot 0, the walls of FIG4_RING and FIG4_CHAIN."""
    state = start_state(display=("soldier", "horse"))
    add_walls(state, FIG4_RING + FIG4_CHAIN)
    state.alexander = point([4, 8])
    return state
