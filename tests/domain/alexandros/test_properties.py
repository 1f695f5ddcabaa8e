"""Property tests on random games: they finish, replay and verify, hide what they must, and the
scores follow from the public events alone."""

from __future__ import annotations

import copy
import time
from collections import Counter
from collections.abc import Iterator

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.alexandros import GAME
from domain.alexandros.commands import LevyTaxes, MoveAlexander, OccupyProvince, RetireGovernor, TakeCard
from domain.alexandros.data import (
    BLACK_WALLS,
    CARDS_PER_SYMBOL,
    IS_OPEN,
    RED_WALLS,
    SIDES,
    SPACES,
    SYMBOLS,
    parse_side,
    parse_space,
    point_coord,
)
from domain.alexandros.rules import single_owner_violations
from domain.alexandros.state import BLACK, NOBODY, RED, State, label_provinces
from domain.kernel import Chance, Command, RuleViolation, engine
from domain.kernel.bots import RandomBot, play_random_game
from domain.kernel.log import for_viewer
from tests.support.properties import (
    check_legal_moves_accepted,
    check_record_verifies,
    check_replay_rebuilds,
    check_views_are_json,
    play_recorded_game,
)

seeds = st.binary(min_size=1, max_size=8)
player_counts = st.sampled_from([2, 3, 4])


def check_invariants(state: State) -> None:
    """Cards, walls and governors are conserved; R11 holds; provinces match the walls."""
    cards = Counter(state.supply) + Counter(state.discard) + Counter(c for c in state.display if c)
    for hand in state.hands:
        cards += Counter({sym: n for sym, n in hand.items() if n})
        assert all(n >= 0 for n in hand.values())
    assert cards == Counter(dict.fromkeys(SYMBOLS, CARDS_PER_SYMBOL))
    assert state.walls.count(BLACK) + state.black_left == BLACK_WALLS
    assert state.walls.count(RED) + state.red_left == RED_WALLS
    for seat in range(state.players):
        assert state.governors.count(seat) + state.governor_supply[seat] == 4
    assert single_owner_violations(state) == []
    assert state.province == label_provinces(state.walls)


def random_states(players: int, seed: bytes, every: int = 7) -> Iterator[tuple[State, Chance]]:
    """States along a random game (every ``every``-th decision) with the game's chance source."""
    chance = Chance(seed)
    bot = RandomBot(seed + b"-bot")
    state, _ = engine.start(GAME, players, GAME.normalize_options(players, {}), chance)
    step = 0
    while not GAME.is_over(state):
        seat = bot.choose_seat(list(GAME.awaited(state)))
        if step % every == 0:
            yield state, chance
        state, _ = engine.execute(GAME, state, seat, bot.choose(GAME, state, seat), chance)
        step += 1
    yield state, chance


@settings(max_examples=40, deadline=None)
@given(seed=seeds, players=player_counts)
def test_random_games_finish_replay_and_verify(seed: bytes, players: int) -> None:
    match, records = play_recorded_game(GAME, players, seed=seed)
    state = match.state
    assert state.step == "over" and state.end in {"walls", "points", "no_free_space"}
    check_invariants(state)
    check_views_are_json(GAME, state, players)
    check_replay_rebuilds(GAME, match, records)
    check_record_verifies(GAME, records)
    assert records[-1].type == "GameEnded" and records[-1].data["seed"] == seed.hex()


@settings(max_examples=8, deadline=None)
@given(seed=seeds, players=player_counts)
def test_every_listed_move_is_accepted(seed: bytes, players: int) -> None:
    for state, chance in random_states(players, seed, every=2):
        check_invariants(state)
        for seat in GAME.awaited(state):
            check_legal_moves_accepted(GAME, state, seat, chance)


def hide_differently(state: State, viewer: int, seed: bytes) -> State:
    """The same state as ``viewer`` knows it, with everything hidden from him dealt anew: the supply
    order and the other seats' hands (sizes kept)."""
    other = copy.deepcopy(state)
    others = [s for s in range(state.players) if s != viewer]
    pool = list(other.supply)
    for s in others:
        pool += [sym for sym, n in other.hands[s].items() for _ in range(n)]
    pool = Chance(seed).shuffle("redeal", pool)
    for s in others:
        size = sum(state.hands[s].values())
        counts = Counter(pool[:size])
        other.hands[s] = {sym: counts[sym] for sym in SYMBOLS}
        pool = pool[size:]
    other.supply = pool
    return other


@settings(max_examples=10, deadline=None)
@given(seed=seeds, players=player_counts)
def test_views_and_moves_ignore_what_the_viewer_cannot_know(seed: bytes, players: int) -> None:
    for state, _ in random_states(players, seed, every=4):
        if GAME.is_over(state):
            continue  # after GameEnded everything is public (see test_r66_an_ended_game_shows_every_hand)
        for viewer in range(players):
            other = hide_differently(state, viewer, seed)
            assert GAME.view(other, viewer) == GAME.view(state, viewer)
            assert GAME.view(other, None) == GAME.view(state, None)
            if viewer in GAME.awaited(state):
                moves = GAME.legal_moves(state, viewer, Chance(b"same"))
                assert GAME.legal_moves(other, viewer, Chance(b"same")) == moves
                for probe in probes(state):
                    assert outcome(state, viewer, probe) == outcome(other, viewer, probe)


def probes(state: State) -> list[Command]:
    """Commands (mostly refused) whose answers must not depend on hidden information."""
    some_spaces = [[0, 5], [2, 2], [4, 12], [7, 19], [3, 13]]
    return [
        *(LevyTaxes(card=sym) for sym in SYMBOLS),
        *(OccupyProvince(governors=[coord]) for coord in some_spaces),
        *(RetireGovernor(space=coord) for coord in some_spaces),
        TakeCard(source="supply"),
        TakeCard(source="display", slot=0),
        *(
            MoveAlexander(source="hand", card=sym, target=[2, 2], corner=[2, 4], path=[point_coord(state.alexander)])
            for sym in SYMBOLS
        ),
    ]


def outcome(state: State, seat: int, command: Command) -> str:
    """Whether the command is accepted, or the refusal the seat reads (drawn cards are new
    information, so only acceptance is compared)."""
    try:
        engine.execute(GAME, copy.deepcopy(state), seat, command, Chance(b"probe"))
    except RuleViolation as refused:
        return f"{refused.code}: {refused.message}"
    return "accepted"


@settings(max_examples=10, deadline=None)
@given(seed=seeds, players=player_counts)
def test_final_scores_follow_from_public_events(seed: bytes, players: int) -> None:
    """A spectator rebuilds walls and governors from public events and recomputes every levy."""
    _, records = play_recorded_game(GAME, players, seed=seed)
    public = [for_viewer(r, None, reveal_all=False) for r in records]
    walls = [0] * len(SIDES)
    governors = [NOBODY] * len(SPACES)
    scores = [0] * players
    ended = None
    for record in public:
        data = record["data"]
        kind = record["type"]
        if kind == "WallBuilt":
            walls[parse_side(data["side"])] = 1  # type: ignore[index]
        elif kind == "ProvinceOccupied":
            for coord in (data["takeover"] or {}).get("evicted", []):
                governors[parse_space(coord)] = NOBODY  # type: ignore[index]
            for coord in data["governors"]:
                governors[parse_space(coord)] = data["seat"]  # type: ignore[index]
        elif kind == "GovernorRetired":
            governors[parse_space(data["space"])] = NOBODY  # type: ignore[index]
        elif kind == "TaxesLevied":
            label = label_provinces(walls)
            held = Counter(label[s] for s, owner in enumerate(governors) if owner != NOBODY)
            for s, owner in enumerate(governors):
                if owner != NOBODY and held[label[s]] == 1:
                    scores[owner] += sum(IS_OPEN[t] for t in range(len(SPACES)) if label[t] == label[s])
            assert scores == data["scores"]
        elif kind == "GameEnded":
            ended = data
    assert ended is not None and ended["scores"] == scores
    best = max(scores)
    assert ended["winners"] == [s for s in range(players) if scores[s] == best]


def test_a_whole_random_game_is_well_under_a_second() -> None:
    began = time.perf_counter()
    played = play_random_game(GAME, 4, seed=b"timing")
    assert played.state.step == "over"
    assert time.perf_counter() - began < 1.0


@settings(max_examples=8, deadline=None)
@given(seed=seeds, players=player_counts)
def test_greedy_games_reach_takeovers_and_the_points_end(seed: bytes, players: int) -> None:
    """Random bots rarely levy; bots that occupy and levy whenever they can reach take-overs and
    100 points, which the uniform bots seldom do."""
    chance, rng = Chance(seed), Chance(seed + b"-greedy")
    state, _ = engine.start(GAME, players, GAME.normalize_options(players, {}), chance)
    steps = 0
    while not GAME.is_over(state):
        (seat,) = GAME.awaited(state)
        moves = GAME.legal_moves(state, seat, rng)
        eager = [m for m in moves if isinstance(m, (OccupyProvince, LevyTaxes))]
        if steps % 11 == 0:
            check_legal_moves_accepted(GAME, state, seat, chance)
        state, _ = engine.execute(GAME, state, seat, rng.choice("pick", eager or moves), chance)
        check_invariants(state)
        steps += 1
    assert state.end in {"walls", "points", "no_free_space"}
    if state.end == "points":
        assert max(state.scores) >= 100
