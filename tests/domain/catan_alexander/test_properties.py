"""Property tests: random bots finish every player count and board; replay, verification, hidden
information and the final scores from public events."""

from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.catan_alexander import GAME
from domain.catan_alexander.data import CARDS_PER_RESOURCE, GOLD_PIECES, TOKEN_CROSSINGS
from domain.catan_alexander.state import TRADE_BUILD, State
from domain.kernel import Chance
from domain.kernel.log import for_viewer
from tests.domain.catan_alexander.helpers import partly_played
from tests.support.properties import (
    check_legal_moves_accepted,
    check_record_verifies,
    check_replay_rebuilds,
    check_views_are_json,
    play_recorded_game,
    states_along,
)

SETUPS = [
    (3, {}),
    (4, {}),
    (3, {"starting_gold": 0}),
    (4, {"starting_gold": 0}),
    (3, {"board": "base"}),
    (4, {"board": "base"}),
    (3, {"board": "base", "layout": "random"}),
    (4, {"board": "base", "layout": "random"}),
]


def check_invariants(state: State) -> None:
    """Every resource card and gold piece is in exactly one place; pieces within their limits."""
    for r in range(5):
        supply = sum(1 for card in state.supply if card == r)
        total = state.bank[r] + supply + sum(hand[r] for hand in state.hands)
        assert total == CARDS_PER_RESOURCE, (r, total)
        assert min(hand[r] for hand in state.hands) >= 0
    if state.scenario:
        assert state.gold_supply + sum(state.gold) == GOLD_PIECES
        assert min(state.gold) >= 0
    for s in range(state.players):
        assert state.settlements[s] <= 5 and state.cities[s] <= 4 and state.roads[s] <= 15
        assert state.army[s] >= 0
    owned = [card for card, holder in state.advisors.items() if holder is not None]
    holders = [state.advisors[c] for c in owned]
    if state.handdown is None:
        assert len(holders) == len(set(holders)), "a player holds two Advisor cards"


@settings(max_examples=24, deadline=None)
@given(seed=st.binary(min_size=1, max_size=8), setup=st.sampled_from(SETUPS))
def test_random_bots_finish_and_the_record_replays_and_verifies(seed: bytes, setup: tuple[int, dict]) -> None:
    players, options = setup
    match, records = play_recorded_game(GAME, players, options, seed=seed, bot_seed=seed + b"bot")
    assert records[-1].type == "GameEnded"
    check_replay_rebuilds(GAME, match, records)
    check_record_verifies(GAME, records)
    check_views_are_json(GAME, match.state, players)
    for state in states_along(GAME, match, records):
        if state.phase != "SETUP":
            check_invariants(state)


@settings(max_examples=6, deadline=None)
@given(seed=st.binary(min_size=1, max_size=8), setup=st.sampled_from(SETUPS))
def test_every_listed_move_is_accepted_along_a_game(seed: bytes, setup: tuple[int, dict]) -> None:
    players, options = setup
    play_recorded_game(GAME, players, options, seed=seed, check_each_move=True)


@settings(max_examples=25, deadline=None)
@given(
    seed=st.binary(min_size=1, max_size=8),
    commands=st.integers(min_value=0, max_value=600),
    setup=st.sampled_from(SETUPS),
)
def test_listed_moves_are_accepted_in_random_states(seed: bytes, commands: int, setup: tuple[int, dict]) -> None:
    players, options = setup
    state, chance = partly_played(players, commands, seed, options)
    for seat in GAME.awaited(state):
        check_legal_moves_accepted(GAME, state, seat, chance)
    for seat in GAME.optional(state):  # optional seats may have nothing to say (an empty hand)
        if GAME.legal_moves(state, seat, Chance(b"moves")):
            check_legal_moves_accepted(GAME, state, seat, chance)


def hide_and_shuffle(state: State, viewer: int) -> State:
    """The same game as far as ``viewer`` can tell: other hands recomposed (same sizes), undrawn
    stacks reshuffled, face-down tokens exchanged, others' development cards exchanged."""
    other = copy.deepcopy(state)
    rng = Chance(b"perturb")
    others = [seat for seat in range(state.players) if seat != viewer]
    pool = rng.shuffle("hands", [r for seat in others for r in range(5) for _ in range(other.hands[seat][r])])
    for seat in others:
        size = sum(other.hands[seat])
        taken, pool = pool[:size], pool[size:]
        other.hands[seat] = [taken.count(r) for r in range(5)]
        cards = rng.shuffle("dev", other.dev_hand[seat] + other.dev_new[seat] + other.dev_deck)
        other.dev_hand[seat] = cards[: len(other.dev_hand[seat])]
        cards = cards[len(other.dev_hand[seat]) :]
        other.dev_new[seat] = cards[: len(other.dev_new[seat])]
        other.dev_deck = cards[len(other.dev_new[seat]) :]
    other.supply = rng.shuffle("supply", other.supply)
    face_down = sorted(other.tokens_on_board)
    tasks = rng.shuffle("tokens", [other.tokens_on_board[c] for c in face_down])
    other.tokens_on_board = dict(zip(face_down, tasks, strict=True))
    return other


@settings(max_examples=30, deadline=None)
@given(
    seed=st.binary(min_size=1, max_size=8),
    commands=st.integers(min_value=0, max_value=500),
    setup=st.sampled_from(SETUPS),
    viewer=st.integers(min_value=0, max_value=3),
)
def test_view_and_moves_ignore_what_the_viewer_cannot_know(
    seed: bytes, commands: int, setup: tuple[int, dict], viewer: int
) -> None:
    players, options = setup
    viewer %= players
    state, _ = partly_played(players, commands, seed, options)
    if (state.phase == TRADE_BUILD and state.offers and viewer == state.active) or GAME.is_over(state):
        # The active player knows that a partner who accepted still holds his side (during the turn other
        # hands change only through public events and his own steals): a perturbation of hands here is no
        # state he could be in. GameEnded reveals everything.
        return
    other = hide_and_shuffle(state, viewer)
    assert GAME.view(other, viewer) == GAME.view(state, viewer)
    assert GAME.view(other, None) == GAME.view(state, None)
    if viewer in GAME.awaited(state) or viewer in GAME.optional(state):
        assert GAME.awaited(other) == GAME.awaited(state) and GAME.optional(other) == GAME.optional(state)
        assert GAME.legal_moves(other, viewer, Chance(b"m")) == GAME.legal_moves(state, viewer, Chance(b"m"))


@settings(max_examples=12, deadline=None)
@given(seed=st.binary(min_size=1, max_size=8), setup=st.sampled_from(SETUPS))
def test_final_scores_recomputed_from_public_events(seed: bytes, setup: tuple[int, dict]) -> None:
    """Buildings, special cards and Advisors from public records, plus the VP cards GameEnded reveals."""
    players, options = setup
    _match, records = play_recorded_game(GAME, players, options, seed=seed)
    public = [for_viewer(r, None, reveal_all=False) for r in records]
    points = [0] * players
    tokens = [0] * players
    longest = army = None
    advisors: dict[str, int] = {}
    for r in public:
        data = r["data"]
        kind = r["type"]
        if kind in ("SettlementBuilt", "CityBuilt"):
            points[data["seat"]] += 1
        elif kind == "LongestRoadChanged":
            longest = data["holder"]
        elif kind == "LargestArmyChanged":
            army = data["holder"]
        elif kind == "AdvisorChanged":
            advisors[data["advisor"]] = data["to_seat"]
        elif kind == "TaskTokenAwarded":
            tokens[data["seat"]] = data["tokens_now"]
    for holder in (longest, army):
        if holder is not None:
            points[holder] += 2
    for card, holder in advisors.items():
        points[holder] += {"first": 4, "second": 3, "third": 2}[card]
    ended = public[-1]["data"]
    assert public[-1]["type"] == "GameEnded"
    for s in range(players):
        score = ended["scores"][str(s)]
        assert score["public_vp"] == points[s]
        vp_cards = ended["hands"][str(s)]["development"].count("victory_point")
        assert score["total"] == points[s] + vp_cards
        assert score["tokens"] == tokens[s]
    totals = [ended["scores"][str(s)]["total"] for s in range(players)]
    if ended["reason"] != "vp10":
        best = max(totals)
        leaders = [s for s in range(players) if totals[s] == best]
        most = max(tokens[s] for s in leaders)
        assert ended["winners"] == [s for s in leaders if tokens[s] == most]


def test_the_stacks_are_sealed_for_everybody() -> None:
    """§8: the shuffled supply stack, development deck and token order are in no seat's view."""
    _match, records = play_recorded_game(GAME, 4, {}, seed=b"sealed")
    sealed = next(r for r in records if r.type == "StacksShuffled")
    assert sealed.viewers == []
    assert sealed.public == {"sealed_for": []}
    for viewer in range(4):
        assert for_viewer(sealed, viewer, reveal_all=False)["data"] == {"sealed_for": []}
    assert len(TOKEN_CROSSINGS) == 25


@pytest.mark.slow
@pytest.mark.parametrize("setup", SETUPS)
def test_many_games_every_listed_move_is_accepted(setup: tuple[int, dict]) -> None:
    """A longer sweep of the listed-moves check (every awaited seat, every state) over several games."""
    players, options = setup
    for game in range(3):
        play_recorded_game(GAME, players, options, seed=f"sweep-{game}".encode(), check_each_move=True)
