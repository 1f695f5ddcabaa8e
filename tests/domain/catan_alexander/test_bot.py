"""The Catan bots' view of a position: what the evaluation weighs."""

from __future__ import annotations

from domain.catan_alexander import GAME
from domain.catan_alexander.bot import evaluate, settling_spots, spot_pips
from domain.catan_alexander.data import CITY_COST
from domain.catan_alexander.state import BEFORE_ROLL, State
from domain.kernel import Chance, engine
from domain.kernel.bots import RandomBot
from domain.kernel.sampling import clone_state


def base_game_before_a_roll() -> State:
    """A base game of three, founded, its first seat about to roll."""
    chance, bot = Chance(b"catan-bot"), RandomBot(b"walker")
    state, _ = engine.start(GAME, 3, GAME.normalize_options(3, {"board": "base"}), chance)
    while state.phase != BEFORE_ROLL:
        seat = bot.choose_seat(GAME.awaited(state))
        state, _ = engine.execute(GAME, state, seat, bot.choose(GAME, state, seat), chance)
    return state


def test_a_hand_that_pays_for_a_city_is_worth_more_than_as_many_other_cards() -> None:
    state = base_game_before_a_roll()
    seat = state.active
    paying, short = clone_state(state), clone_state(state)
    paying.hands[seat] = list(CITY_COST)  # brick, grain, lumber, ore, wool: two grain, three ore
    short.hands[seat] = [3, 0, 2, 0, 0]
    assert sum(paying.hands[seat]) == sum(short.hands[seat])
    assert evaluate(paying)[seat] > evaluate(short)[seat]


def test_a_road_that_opens_a_spot_to_settle_is_worth_more_than_one_that_opens_none() -> None:
    state = base_game_before_a_roll()
    seat = state.active
    geometry = state.geometry
    assert settling_spots(state, seat) == []  # founding roads end next to their settlements
    road = state.roads_of[seat][0]
    settlement = next(v for v in geometry.edges[road] if state.owner[v] == seat)
    (far,) = (v for v in geometry.edges[road] if v != settlement)
    onward = next(
        (e, v)
        for e in geometry.vertex_edges[far]
        for v in geometry.edges[e]
        if v != far and state.road_owner[e] == -1 and max(state.owner[u] for u in (v, *geometry.vertex_adj[v])) == -1
        if spot_pips(state, v) > 0
    )
    back = next(
        e
        for e in geometry.vertex_edges[settlement]
        if e != road and state.road_owner[e] == -1 and far not in geometry.edges[e]
    )

    def with_road(edge: int) -> State:
        after = clone_state(state)
        after.road_owner[edge] = seat
        after.roads_of[seat].append(edge)
        after.road_length[seat] = 2  # either road makes a line of two
        return after

    opening, blocked = with_road(onward[0]), with_road(back)
    assert settling_spots(opening, seat) == [onward[1]]
    assert settling_spots(blocked, seat) == []
    assert evaluate(opening)[seat] > evaluate(blocked)[seat]
