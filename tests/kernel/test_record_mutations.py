"""Random mutations of exported records of every game, as a forger holding the revealed record
would make them: each is detected, the first bad position is named (never one before the first
change), and the verifier never fails in a way it did not foresee."""

from __future__ import annotations

import copy
import functools
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from domain.catalog import GAMES
from domain.kernel.bots import RandomBot
from domain.kernel.chance import Chance
from domain.kernel.log import COMMAND_ACCEPTED, GAME_CREATED, Record, for_viewer
from domain.kernel.match import Match
from domain.kernel.verification import EXIT_INCOMPLETE, verify_export, verify_records
from tests.support.forgery import as_export, reseal

# game, players, options; with the seats that contribute chance with their first command
GAMES_PLAYED: list[tuple[str, int, dict[str, Any], tuple[int, ...]]] = [
    ("sealed_guess", 2, {}, (1,)),
    ("peloponnes", 2, {}, (0,)),
    ("empire_builder", 2, {}, ()),
    ("alexandros", 2, {}, (0, 1)),
    ("catan_alexander", 3, {}, (2,)),
]


def play(match: Match, records: list[Record], bot: RandomBot, contributing: tuple[int, ...]) -> list[Record]:
    pending = set(contributing)
    while not match.is_over:
        seat, command = bot.next_move(match.game, match.state)
        contribution = (bytes([seat]) * 32).hex() if seat in pending else None
        pending.discard(seat)
        records.extend(match.execute(seat, command, None, contribution))
    return records


@functools.cache
def exported(name: str) -> list[dict[str, Any]]:
    """An ended game's revealed export; ``<game>+fork`` is a fork of it, played to its end."""
    game_id, _, fork = name.partition("+")
    game, players, options, contributing = next(g for g in GAMES_PLAYED if g[0] == game_id)
    definition = GAMES.get(game)
    match, records = Match.create(definition, players, options, b"mutations-" + game.encode())
    play(match, records, RandomBot(b"bot"), contributing)
    if fork:
        version = next(r.position - 1 for r in records if r.type == COMMAND_ACCEPTED and r.position > len(records) // 4)
        origin = Match(definition, players, match.options, Chance.from_hex(match.chance.seed_hex))
        for record in records[:version]:
            origin.apply_record(record)
        match, records = Match.fork(origin, records[:version], b"fork-seed", "the-original")
        play(match, records, RandomBot(b"fork-bot"), (0,))
    return [for_viewer(r, None, reveal_all=True) for r in records]


RECORDS = [g[0] for g in GAMES_PLAYED] + ["sealed_guess+fork", "alexandros+fork", "catan_alexander+fork"]


def test_every_unmutated_record_verifies() -> None:
    for name in RECORDS:
        records = exported(name)
        report = verify_export(
            as_export(records), GAMES.get, records[-1]["hash"], records[0]["data"]["seed_commitment"]
        )
        assert report.verified, (name, report.problems)
        assert report.forked_from is not None if "+" in name else report.forked_from is None


def tweak(value: Any, n: int) -> Any:
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1 + n
    if isinstance(value, str):
        return value + "x"
    if isinstance(value, list):
        return [*value, n]
    if isinstance(value, dict):
        return {**value, "extra": n}
    return n


def leaves(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in ``value`` whose value can be changed (including whole lists and objects)."""
    found = [path] if path else []
    if isinstance(value, dict):
        for key, item in value.items():
            found += leaves(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value[:5]):
            found += leaves(item, (*path, index))
    return found


def set_at(value: Any, path: tuple[Any, ...], new: Any) -> None:
    for step in path[:-1]:
        value = value[step]
    value[path[-1]] = new


def get_at(value: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        value = value[step]
    return value


KINDS = ["change", "insert", "delete", "reorder", "truncate", "add_key", "fork_claim"]


@st.composite
def mutations(draw: st.DrawFn) -> tuple[str, list[dict[str, Any]], list[dict[str, Any]], bool, int | None]:
    """(record name, original, mutated, resealed, the position a resealed mutation must be found at
    where it is known without running the rules)."""
    name = draw(st.sampled_from(RECORDS))
    original = exported(name)
    records = copy.deepcopy(original)
    n = len(records)
    kind = draw(st.sampled_from(KINDS))
    resealed = draw(st.booleans())
    p = draw(st.integers(1, n))
    exact: int | None = None
    if kind == "change":
        places = leaves(records[p - 1]["data"])
        assume(places)
        path = draw(st.sampled_from(places))
        target = records[p - 1]["data"]
        set_at(target, path, tweak(get_at(target, path), draw(st.integers(0, 3))))
        if records[p - 1]["type"] not in (GAME_CREATED, COMMAND_ACCEPTED):
            exact = p  # an outcome: re-execution gives the true one right there
    elif kind == "insert":
        q = draw(st.integers(1, n))
        records.insert(p - 1, copy.deepcopy(records[q - 1]))
    elif kind == "delete":
        del records[p - 1]
        assume(records)
    elif kind == "reorder":
        q = draw(st.integers(1, n))
        assume(p != q and original[p - 1]["data"] != original[q - 1]["data"])
        records[p - 1], records[q - 1] = records[q - 1], records[p - 1]
    elif kind == "truncate":
        records = records[: p - 1] if p > 1 else records[:1]
        assume(len(records) < n)
    elif kind == "add_key":
        if resealed:
            records[p - 1]["data"]["extra"] = draw(st.integers(0, 3))
        else:
            records[p - 1][draw(st.sampled_from(["extra", "comment", "Position"]))] = 1
    else:
        version = draw(st.integers(1, n - 1))
        genuine = draw(st.booleans())
        claim: dict[str, Any] = {"version": version}
        if genuine:  # a claim a forger can make from the record itself
            claim = {
                "game_id": "g",
                "version": version,
                "fingerprint": original[version - 1]["hash"],
                "created": original[0]["data"],
                "seed": original[-1]["data"]["seed"],
            }
        records[0]["data"]["forked_from"] = claim
    if resealed:
        assume(records[-1]["type"] != "GameEnded" or isinstance(records[-1]["data"].get("seed"), str))
        try:
            records = reseal(records, original[-1]["data"]["seed"])
        except (KeyError, TypeError, ValueError):
            assume(False)  # a change the forger's own tool cannot seal: covered unsealed
    return name, original, records, resealed, exact


def first_difference(original: list[dict[str, Any]], mutated: list[dict[str, Any]]) -> int:
    for position, (a, b) in enumerate(zip(original, mutated, strict=False), start=1):
        if a != b:
            return position
    return min(len(original), len(mutated)) + 1


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(mutations())
def test_every_mutation_is_detected_at_its_first_bad_position(
    case: tuple[str, list[dict[str, Any]], list[dict[str, Any]], bool, int | None],
) -> None:
    name, original, mutated, resealed, exact = case
    published, commitment = original[-1]["hash"], original[0]["data"]["seed_commitment"]
    report = verify_export(as_export(mutated), GAMES.get, published, commitment)
    assert not report.verified, (name, "a mutation verified")
    bad = report.first_bad_position
    assert bad is not None, (name, report.problems)
    assert not any("cannot be checked here" in p for p in report.problems), report.problems
    lower = min(first_difference(original, mutated), len(mutated))
    assert lower <= bad <= len(mutated) + 1, (name, bad, lower, report.problems)
    if not resealed:
        exact = lower  # the first record that differs breaks the chain, its shape or the fingerprint
    if exact is not None:
        assert bad == exact, (name, exact, report.problems)
    assert report.expected is not None or report.problems


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(RECORDS), st.integers(1, 10_000))
def test_a_truncated_record_says_it_is_incomplete(name: str, cut: int) -> None:
    records = exported(name)
    kept = records[: 1 + cut % (len(records) - 1)]
    report = verify_records(kept, GAMES.get)
    assert not report.verified and not report.complete and report.problems == []
    assert report.exit_status == EXIT_INCOMPLETE and report.statement.startswith("incomplete")
