"""Properties of the Empire Builder only (the ones every game has are in
``tests/domain/test_conformance.py``): (a) bots finish every player count and variant with the
campaigns the variant names, (c) sealed (re)allocations stay sealed until revealed, (d) the boxes
and armies follow from the public events alone."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.empire_builder import GAME
from domain.empire_builder.commands import AllocateResources, ReallocateResources
from domain.empire_builder.data import ALL_SPLITS
from domain.empire_builder.state import REALLOCATION
from domain.kernel import Chance, RuleViolation
from domain.kernel.bots import RandomBot
from domain.kernel.log import Record, for_viewer
from domain.kernel.match import Match
from tests.domain.empire_builder.conformance import check_states
from tests.support.games import bot_game
from tests.support.properties import play_recorded_game, states_along

OPTIONS = [
    {},
    {"short_game": True},
    {"region_scoring_variant": True},
    {"short_game": True, "region_scoring_variant": True},
]
seeds = st.binary(min_size=1, max_size=8)
splits = st.sampled_from(ALL_SPLITS)


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
    check_states(states_along(GAME, match, records))
    board = GAME.scoreboard(match.state)
    assert board.final and board.winners == records[-1].data["winners"]


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
    *_, (state, _) = bot_game(GAME, players, b"end")
    assert GAME.is_over(state) and not state.sealed
    spectator = GAME.view(state, None)
    for seat in range(players):
        assert GAME.view(state, seat) == spectator | {"viewer": seat}
    assert all(seat["boxes"] is not None for seat in spectator["seats"])


# -- (d) final scores from the public events alone ----------------------------------------------------


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
