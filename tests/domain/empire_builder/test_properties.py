"""Property tests: (a) bots finish every player count and variant, (b) replay and verification,
(c) hidden information stays hidden, (d) the final scores follow from the public events alone."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.empire_builder import GAME
from domain.empire_builder.commands import AllocateResources, ReallocateResources
from domain.empire_builder.data import ALL_SPLITS, CITY_PIECES, CUBES, PROVINCES, TEMPLE_PIECES
from domain.empire_builder.state import ALLOCATION, REALLOCATION, State
from domain.kernel import Chance, RuleViolation
from domain.kernel.bots import RandomBot
from domain.kernel.log import Record, for_viewer
from domain.kernel.match import Match
from tests.domain.empire_builder.helpers import bot_game, partly_played
from tests.support.properties import (
    check_legal_moves_accepted,
    check_record_verifies,
    check_replay_rebuilds,
    check_views_are_json,
    play_recorded_game,
    states_along,
)

OPTIONS = [
    {},
    {"short_game": True},
    {"region_scoring_variant": True},
    {"short_game": True, "region_scoring_variant": True},
]
seeds = st.binary(min_size=1, max_size=8)
splits = st.sampled_from(ALL_SPLITS)


def check_invariants(state: State, previous_vp: list[int]) -> None:
    """R4 (cubes add up to 15 once revealed), R5 (VP only grow), Ruling R23 (armies fixed), piece limits."""
    revealed = state.phase not in ("setup", ALLOCATION)
    for seat, p in enumerate(state.seats):
        assert p.vp >= previous_vp[seat]
        assert min(p.turn_order, p.armies, p.temples, p.cities, p.spent) >= 0
        if revealed:
            assert p.turn_order + p.armies + p.temples + p.cities + p.spent == CUBES
        assert sum(p.at.values()) == p.armies
        assert p.temples_built <= TEMPLE_PIECES and p.cities_built <= CITY_PIECES
        assert all(PROVINCES[loc].region == state.campaign for loc in p.at if loc in PROVINCES)
    assert sum(len(owners) for owners in state.temples.values()) == sum(p.temples_built for p in state.seats)
    assert len(state.cities) == sum(p.cities_built for p in state.seats)


def check_buildings_stay(state: State, temples: dict[str, list[int]], cities: dict[str, int]) -> None:
    """R6: built temples and cities never move and stay until the end of the game."""
    for province, owners in temples.items():
        assert state.temples[province][: len(owners)] == owners
    for province, owner in cities.items():
        assert state.cities[province] == owner


def replay_checking_invariants(match: Match, records: list[Record]) -> None:
    vp = [0] * match.players
    temples: dict[str, list[int]] = {}
    cities: dict[str, int] = {}
    for state in states_along(GAME, match, records):
        check_invariants(state, vp)
        check_buildings_stay(state, temples, cities)
        vp = [p.vp for p in state.seats]
        temples = {p: list(owners) for p, owners in state.temples.items()}
        cities = dict(state.cities)


# -- (a) bots finish, in every player count and variant ---------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("options", OPTIONS, ids=["full", "short", "v1", "short+v1"])
def test_random_bots_finish_every_player_count_and_variant(players: int, options: dict[str, Any]) -> None:
    """R3, V2: campaigns 1-6, or 2-4 in the short game, each played to its end."""
    match, records = play_recorded_game(GAME, players, options, seed=f"a{players}{len(options)}".encode())
    assert GAME.is_over(match.state)
    assert records[-1].type == "GameEnded"
    first, last = (2, 4) if options.get("short_game") else (1, 6)
    started = [r.data["campaign"] for r in records if r.type == "CampaignStarted"]
    assert started == list(range(first, last + 1))
    replay_checking_invariants(match, records)
    board = GAME.scoreboard(match.state)
    assert board.final and board.winners == records[-1].data["winners"]


@settings(max_examples=60, deadline=None)
@given(players=st.integers(2, 5), option=st.sampled_from(OPTIONS), seed=seeds, bot=seeds)
def test_random_games_keep_the_invariants(players: int, option: dict[str, Any], seed: bytes, bot: bytes) -> None:
    match, records = play_recorded_game(GAME, players, option, seed=seed, bot_seed=bot)
    replay_checking_invariants(match, records)


@settings(max_examples=15, deadline=None)
@given(players=st.integers(2, 5), seed=seeds)
def test_every_listed_move_is_accepted(players: int, seed: bytes) -> None:
    play_recorded_game(GAME, players, {"short_game": True}, seed=seed, bot_seed=seed, check_each_move=True)


@settings(max_examples=80, deadline=None)
@given(players=st.integers(2, 5), commands=st.integers(0, 150), seed=seeds)
def test_listed_moves_are_accepted_in_partly_played_games(players: int, commands: int, seed: bytes) -> None:
    state, chance = partly_played(players, commands, seed)
    check_views_are_json(GAME, state, players)
    for seat in GAME.awaited(state):
        check_legal_moves_accepted(GAME, state, seat, chance)


# -- (b) replay and verification -------------------------------------------------------------------


@settings(max_examples=30, deadline=None)
@given(players=st.integers(2, 5), option=st.sampled_from(OPTIONS), seed=seeds)
def test_replay_rebuilds_and_the_record_verifies(players: int, option: dict[str, Any], seed: bytes) -> None:
    match, records = play_recorded_game(GAME, players, option, seed=seed, bot_seed=seed + b"b")
    check_replay_rebuilds(GAME, match, records)
    check_record_verifies(GAME, records)


# -- (c) hidden information --------------------------------------------------------------------------


def public_forms(records: list[Record], viewer: int | None) -> list[dict[str, Any]]:
    """What ``viewer`` receives, less the chain fields (the digest of a sealed record is an opaque HMAC)."""
    seen = []
    for record in records:
        shown = for_viewer(record, viewer, reveal_all=False)
        seen.append({k: shown[k] for k in ("position", "type", "data", "viewers")} | {"public": shown.get("public")})
    return seen


def what_seat_0_knows(match: Match, records: list[Record]) -> dict[str, Any]:
    state = match.state
    return {
        "view": GAME.view(state, 0),
        "spectator": GAME.view(state, None),
        "moves": GAME.legal_moves(state, 0, Chance(b"moves")) if 0 in GAME.awaited(state) else None,
        "awaited": GAME.awaited(state),
        "records": public_forms(records, 0),
        "spectator_records": public_forms(records, None),
    }


def refusal(match: Match, seat: int, command: Any) -> tuple[str, str]:
    try:
        match.execute(seat, command)
    except RuleViolation as violation:
        return violation.code, violation.message
    raise AssertionError("accepted")


@settings(max_examples=80, deadline=None)
@given(players=st.integers(2, 5), seed=seeds, a=splits, b=splits, own=splits, short=st.booleans())
def test_another_seats_sealed_allocation_never_reaches_seat_0(
    players: int, seed: bytes, a: tuple[int, ...], b: tuple[int, ...], own: tuple[int, ...], short: bool
) -> None:
    known = []
    for secret in (a, b):
        match, records = Match.create(GAME, players, {"short_game": short}, seed)
        records += match.execute(players - 1, AllocateResources(*secret))
        before = what_seat_0_knows(match, records)
        errors = [
            refusal(match, 0, AllocateResources(1, 1, 1, 1)),
            refusal(match, 0, AllocateResources(-1, 8, 4, 4)),
            refusal(match, players - 1, AllocateResources(*own)),
        ]
        if players > 2:  # seat 0 commits too; still nothing is revealed
            records += match.execute(0, AllocateResources(*own))
            after = what_seat_0_knows(match, records)
        else:
            after = None
        known.append((before, errors, after))
    assert known[0] == known[1]


def changed_secret(state: State, seat: int) -> tuple[int, ...]:
    old = state.sealed[seat]
    if state.phase == REALLOCATION:
        total = sum(old)
        return (old[1], old[0]) if old[0] != old[1] else (total, 0) if old != (total, 0) else (0, total)
    return next(s for s in ALL_SPLITS if s != old)


def check_sealed_commits_are_invisible(state: State, viewer: int) -> bool:
    """Changing other seats' committed-but-unrevealed (re)allocations changes nothing ``viewer`` sees."""
    others = [s for s in state.sealed if s != viewer]
    if not others:
        return False
    altered = copy.deepcopy(state)
    for seat in others:
        altered.sealed[seat] = changed_secret(state, seat)
    assert altered != state
    for who in (viewer, None):
        assert GAME.view(altered, who) == GAME.view(state, who)
    assert GAME.awaited(altered) == GAME.awaited(state)
    if viewer in GAME.awaited(state):
        assert GAME.legal_moves(altered, viewer, Chance(b"m")) == GAME.legal_moves(state, viewer, Chance(b"m"))
    return True


@settings(max_examples=50, deadline=None)
@given(players=st.integers(2, 5), seed=seeds, viewer=st.integers(0, 4), short=st.booleans())
def test_views_and_moves_ignore_other_seats_sealed_commits(players: int, seed: bytes, viewer: int, short: bool) -> None:
    viewer %= players
    checked = sum(
        check_sealed_commits_are_invisible(state, viewer) for state, _ in bot_game(players, seed, short_game=short)
    )
    assert checked or players == 2


def match_at_open_reallocation(players: int) -> tuple[Match, list[Record]]:
    """A bot-played match at a reallocation in which two or more seats are awaited and nobody has committed."""
    for seed in range(50):
        match, records = Match.create(GAME, players, {}, f"r{seed}".encode())
        bot = RandomBot(f"b{seed}".encode())
        while not match.is_over:
            state = match.state
            if state.phase == REALLOCATION and len(GAME.awaited(state)) >= 2 and not state.sealed:
                return match, records
            seat, command = bot.next_move(GAME, state)
            records += match.execute(seat, command)
    raise AssertionError("no open reallocation found")


@pytest.mark.parametrize("players", [2, 3, 5])
def test_reallocation_stays_sealed_until_everyone_committed(players: int) -> None:
    match, records = match_at_open_reallocation(players)
    first, second = sorted(GAME.awaited(match.state))[:2]
    total = match.state.seats[first].temples + match.state.seats[first].cities
    seen = []
    for temples in range(total + 1):
        trial = copy.deepcopy(match)
        new = trial.execute(first, ReallocateResources(temples, total - temples))
        assert [r.type for r in new] == ["CommandAccepted", "ReallocationCommitted"]
        assert GAME.view(trial.state, first)["my_sealed_commit"] == {"temples": temples, "cities": total - temples}
        seen.append(
            (
                public_forms(records + new, second),
                public_forms(records + new, None),
                GAME.view(trial.state, second),
                GAME.view(trial.state, None),
                GAME.legal_moves(trial.state, second, Chance(b"m")),
                refusal(trial, second, ReallocateResources(total + 99, 0)),
            )
        )
    assert all(s == seen[0] for s in seen)


@pytest.mark.parametrize("players", [2, 4])
def test_after_the_game_every_viewer_sees_the_same_view(players: int) -> None:
    """§8: only open sealed steps are secret, and none is open at the end, so nothing stays hidden."""
    *_, (state, _) = bot_game(players, b"end")
    assert GAME.is_over(state) and not state.sealed
    spectator = GAME.view(state, None)
    for seat in range(players):
        assert GAME.view(state, seat) == spectator | {"viewer": seat}
    assert all(seat["boxes"] is not None for seat in spectator["seats"])


# -- (d) final scores from the public events alone ----------------------------------------------------


VP_EVENTS = ("ProvinceScored", "TempleBuilt", "CityFounded", "AwardScored")


@settings(max_examples=30, deadline=None)
@given(players=st.integers(2, 5), option=st.sampled_from(OPTIONS), seed=seeds)
def test_final_scores_follow_from_public_events(players: int, option: dict[str, Any], seed: bytes) -> None:
    match, records = play_recorded_game(GAME, players, option, seed=seed, bot_seed=b"d" + seed)
    public = [for_viewer(r, None, reveal_all=False) for r in records]
    vp = [0] * players
    built: dict[str, dict[tuple[int | None, int], int]] = {"temple": {}, "city": {}}
    for record in public:
        data = record["data"]
        if record["type"] in VP_EVENTS and data["seat"] is not None:
            vp[data["seat"]] += data["vp"]
        if record["type"] in ("TempleBuilt", "CityFounded"):
            kind = "temple" if record["type"] == "TempleBuilt" else "city"
            for key in ((None, data["seat"]), (PROVINCES[data["province"]].region, data["seat"])):
                built[kind][key] = built[kind].get(key, 0) + 1
        if record["type"] == "AwardScored":
            kinds = {
                "most_cities": ("city",),
                "most_temples": ("temple",),
                "region_cities": ("city",),
                "region_temples": ("temple",),
                "region_buildings": ("temple", "city"),
            }[data["award"]]
            counts = [sum(built[k].get((data["region"], s), 0) for k in kinds) for s in range(players)]
            assert data["counts"] == {str(s): c for s, c in enumerate(counts)}
    ended = public[-1]["data"]
    assert ended["scores"] == {str(s): v for s, v in enumerate(vp)}
    assert GAME.scoreboard(match.state).scores == vp
    assert ended["winners"] == [s for s in range(players) if vp[s] == max(vp)]


@settings(max_examples=15, deadline=None)
@given(players=st.integers(2, 5), seed=seeds)
def test_boxes_follow_from_public_events(players: int, seed: bytes) -> None:
    """§10.3 Derivability: the boxes and army positions rebuilt by a spectator equal the live state."""
    match, records = play_recorded_game(GAME, players, {}, seed=seed, bot_seed=b"x" + seed)
    boxes: list[dict[str, int]] = []
    at: list[dict[str, int]] = []
    for record in (for_viewer(r, None, reveal_all=False) for r in records):
        data, kind = record["data"], record["type"]
        if kind == "AllocationsRevealed":
            boxes = [{k: a[k] for k in ("temples", "cities")} for a in data["allocations"]]
            at = [{f"C{data['campaign']}": a["armies"]} if a["armies"] else {} for a in data["allocations"]]
        elif kind == "ReallocationsRevealed":
            for box in data["boxes"]:
                boxes[box["seat"]] = {"temples": box["temples"], "cities": box["cities"]}
        elif kind == "MovementPaid":
            boxes[data["seat"]]["temples"] -= data["temples"]
            boxes[data["seat"]]["cities"] -= data["cities"]
        elif kind in ("TempleBuilt", "CityFounded"):
            boxes[data["seat"]]["temples" if kind == "TempleBuilt" else "cities"] -= data["paid"]
        elif kind == "ArmyMoved":
            where = at[data["seat"]]
            where[data["from"]] -= data["count"]
            if not where[data["from"]]:
                del where[data["from"]]
            where[data["path"][-1]] = where.get(data["path"][-1], 0) + data["count"]
    for seat, p in enumerate(match.state.seats):
        assert boxes[seat] == {"temples": p.temples, "cities": p.cities}
        assert at[seat] == p.at
