"""THE property of the tournament verifier: it is never weaker than the game verifier. Every kind
of record of every game of the four games inside a real bundle, and of the tournament's own log,
is mutated (a value changed, a copy inserted, the record deleted, swapped with its neighbour, and
changed with the chain sealed again after it); each mutation makes the bundle fail with the game
(or the tournament's log) and the position named.

The bundles are real: a tournament per game played by the random bots through the tournament
service. Verifying a game is a pure function of its records, so the games a mutation leaves
untouched (the very lists of the session's bundle) are verified once and remembered; the mutated
game is verified afresh every time."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import domain.tournament.verification as verification
from domain.catalog import GAMES
from domain.kernel.chance import Chance
from domain.kernel.log import DIGEST_KEY_LABEL, GENESIS, Record, data_digest, record_hash
from domain.kernel.match import Match
from domain.kernel.verification import VerificationReport, verify_and_reexecute
from domain.tournament.log import RECORD_FIELDS, seal
from domain.tournament.verification import THE_LOG, TournamentReport, verify_bundle
from tests.tournament.bundles import Bundle, bundle_of, clocked_bundle, table_games

Records = list[dict[str, Any]]
OPERATIONS = ("change", "insert", "delete", "swap", "reseal")

# Each game's bundle, and a clocked one with timeouts and rulings (a log with every kind of record).
BUNDLES = ("alexandros", "catan_alexander", "empire_builder", "peloponnes", "clocked peloponnes")
_BUNDLES: dict[str, Bundle] = {}
_VERIFIED: dict[int, tuple[Records, tuple[VerificationReport, Match | None]]] = {}


def remembered(records: Any, find_game: Any, *args: Any, **kwargs: Any) -> tuple[VerificationReport, Match | None]:
    """The game verifier, remembered for the session bundles' own (untouched) record lists."""
    known = _VERIFIED.get(id(records))
    if known is not None and known[0] is records and not args and not kwargs.get("seed"):
        return known[1]
    return verify_and_reexecute(records, find_game, *args, **kwargs)


@pytest.fixture(autouse=True)
def games_verified_once(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(verification, "verify_and_reexecute", remembered)
    yield


def small_bundle(game: str) -> Bundle:
    """One table per round, two rounds: every game's records, with a round seated on a result."""
    if game not in _BUNDLES:
        if game == "clocked peloponnes":
            bundle = _BUNDLES[game] = clocked_bundle()
        else:
            bundle = _BUNDLES[game] = bundle_of(game, players=max(2, GAMES.get(game).min_players), rounds=2)
        for records in bundle["games"].values():
            _VERIFIED[id(records)] = (records, verify_and_reexecute(records, GAMES.get))
    return _BUNDLES[game]


def kind_of(record: dict[str, Any]) -> str:
    """A record's kind: its type, and a command's type (each command kind is mutated on its own)."""
    if record["type"] == "CommandAccepted":
        return f"CommandAccepted:{record['data']['command']['type']}"
    return str(record["type"])


def representatives(bundle: Bundle) -> dict[str, tuple[str, int]]:
    """One record per kind in the bundle's games: (game id, index) of its first occurrence (the
    re-execution of a mutated game stops at the mutation: an early one is quick to find)."""
    seen: dict[str, tuple[str, int]] = {}
    for game_id in table_games(bundle):
        for index, record in enumerate(bundle["games"][game_id]):
            seen.setdefault(kind_of(record), (game_id, index))
    return seen


def changed(value: Any) -> Any:
    """Some other value of the same shape."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int | float):
        return value + 1
    if isinstance(value, str):
        return value + "x"
    if isinstance(value, list):
        return [*value, 0]
    if isinstance(value, dict):
        return {**value, "mutated": True}
    return 0


def change_data(record: dict[str, Any]) -> dict[str, Any]:
    """The record with the first value of its data changed (its data whole where it has none)."""
    data = record["data"]
    if not data:
        return {**record, "data": {"mutated": True}}
    key = sorted(data)[0]
    return {**record, "data": {**data, key: changed(data[key])}}


def mutated(records: Records, index: int, operation: str, reseal: Callable[[Records, int], Records]) -> Records:
    """A copy of ``records`` with one mutation (records are replaced, never edited in place)."""
    out = list(records)
    if operation == "change":
        out[index] = change_data(out[index])
    elif operation == "insert":
        out.insert(index + 1, json.loads(json.dumps(out[index])))
    elif operation == "delete":
        del out[index]
    elif operation == "swap":
        other = index + 1 if index + 1 < len(out) else index - 1
        out[index], out[other] = out[other], out[index]
    else:
        out[index] = change_data(out[index])
        out = reseal(out, index)
    return out


def expected_position(records: Records, index: int, operation: str) -> int:
    """Where the first problem is: at the record (a copy is wrong one later; a swap of the last
    with its neighbour at the neighbour)."""
    if operation == "insert":
        return index + 2
    if operation == "swap" and index + 1 >= len(records):
        return index
    return index + 1


def failures(report: TournamentReport, where: str) -> list[tuple[int | None, str]]:
    return [(f.position, f.text()) for f in report.findings if where in (f.where, f.game_id) or where in f.where]


def resealed_game(records: Records, index: int) -> Records:
    """From the change on, the chain and every digest recomputed with the revealed seed: only
    re-execution can tell."""
    key = Chance.from_hex(records[-1]["data"]["seed"]).derive_key(DIGEST_KEY_LABEL)
    prev = records[index - 1]["hash"] if index else GENESIS
    for i in range(index, len(records)):
        record = {**records[i], "prev": prev}
        if record["viewers"] is not None:
            record["digest"] = data_digest(key, record["position"], record["data"])
        record["hash"] = record_hash(Record.from_dict(record).hashed_content())
        records[i] = record
        prev = record["hash"]
    return records


def resealed_log(records: Records, index: int) -> Records:
    prev = records[index - 1]["hash"] if index else GENESIS
    for i in range(index, len(records)):
        sealed = seal(records[i]["position"], records[i]["type"], records[i]["data"], prev)
        records[i] = {**records[i], "prev": prev, "hash": sealed.hash}
        prev = sealed.hash
    return records


@pytest.mark.parametrize("game", BUNDLES)
def test_every_mutation_of_every_kind_of_game_record_fails_naming_the_game_and_the_position(game: str) -> None:
    bundle = small_bundle(game)
    assert verify_bundle(bundle, GAMES.get).ok
    kinds = representatives(bundle)
    assert len(kinds) >= 10
    for kind, (game_id, index) in sorted(kinds.items()):
        records = bundle["games"][game_id]
        for operation in OPERATIONS:
            games = {**bundle["games"], game_id: mutated(records, index, operation, resealed_game)}
            forged = {**bundle, "games": games, "tournament": json.loads(json.dumps(bundle["tournament"]))}
            report = verify_bundle(forged, GAMES.get)
            named = failures(report, game_id)
            assert not report.ok and named, (kind, operation, report.problems)
            positions = [p for p, _ in named if p is not None]
            assert positions, (kind, operation, named)
            if operation == "reseal":  # the first problem is at the change or after it, never before
                assert any(p >= index + 1 for p in positions), (kind, operation, named)
            else:
                wanted = expected_position(records, index, operation)
                assert wanted in positions, (kind, operation, wanted, named)


@pytest.mark.parametrize("game", BUNDLES)
def test_every_mutation_of_every_kind_of_tournament_record_fails_naming_the_log_and_the_position(game: str) -> None:
    bundle = small_bundle(game)
    log = bundle["tournament"]
    published = bundle["fingerprint"]
    kinds = {record["type"]: index for index, record in enumerate(log)}  # the last of each kind
    if game == "clocked peloponnes":
        assert set(kinds) == set(RECORD_FIELDS)
    for kind, index in sorted(kinds.items()):
        for operation in OPERATIONS:
            forged = {**bundle, "tournament": mutated(log, index, operation, resealed_log)}
            report = verify_bundle(forged, GAMES.get, fingerprint=published)
            named = [p for p, _ in failures(report, THE_LOG)]
            assert not report.ok and named, (kind, operation, report.problems)
            if operation == "reseal":  # a consistent forgery: the published fingerprint shows it
                assert len(forged["tournament"]) in named, (kind, operation, report.problems)
            else:
                assert expected_position(log, index, operation) in named, (kind, operation, report.problems)
