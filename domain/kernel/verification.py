"""Checking a game record: its shape, the hash chain, the seed, and a full re-execution of every
accepted command with the revealed seed, so that the record passes only if it is, record for
record, the game those commands and that seed produce.

Nothing inside the record is taken on its word: a fork's copied history is re-executed with the
original's revealed seed (which the fork's ``GameCreated`` carries) and must hash to the
original's fingerprint at the fork point. Whatever the input, the result is a report, never an
exception; every failure names the first position that is wrong and what was expected there.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from domain.kernel.chance import Chance, seed_commitment
from domain.kernel.errors import RuleViolation
from domain.kernel.game import GameDefinition
from domain.kernel.log import (
    COMMAND_ACCEPTED,
    GAME_CREATED,
    GAME_ENDED,
    GENESIS,
    Record,
    canonical,
    for_viewer,
    make_record,
    record_hash,
)
from domain.kernel.match import SEAT_KEYED, SEAT_TAKEN, Match
from domain.kernel.messages import parse_command
from domain.kernel.signatures import bot_key, public_key_of

FindGame = Callable[[str], GameDefinition[Any]]

RECORD_KEYS = ("position", "type", "data", "viewers", "public", "digest", "chance", "prev", "hash")
REQUIRED_KEYS = ("position", "type", "data", "viewers", "prev", "hash")
CREATED_KEYS = {"game", "players", "options", "seed_commitment"}
FORKED_FROM_KEYS = {"game_id", "version", "fingerprint", "created", "seed"}
COMMAND_KEYS = {"seat", "command", "command_id"}
COMMAND_OPTIONAL_KEYS = {"contribution", "at", "signature", "by"}
SEAT_KEYS = {"seat", "name"}
KEYED_SEAT_KEYS = SEAT_KEYS | {"public_key", "game_id"}  # a keyed seat's SeatTaken
SEAT_KEYED_KEYS = {"seat", "public_key", "game_id"}
HEX64 = re.compile(r"[0-9a-f]{64}")
MAX_FORK_DEPTH = 32  # forks of forks: deeper than this is not a record the server writes
SHOWN = 300  # characters of a value quoted in a problem

# ``alexandria verify`` exits with these.
EXIT_VERIFIED = 0
EXIT_PROBLEM = 1
EXIT_INCOMPLETE = 3


def _act(record: dict[str, Any]) -> dict[str, Any]:
    """An act that is no seat's own, for the report: a command (position, seat, by), or the
    organiser's re-keying of a seat for a replacement player (with the replacement's public_key)."""
    data = record["data"]
    act = {"position": record["position"], "seat": data["seat"], "by": data["by"]}
    return act | {"public_key": data["public_key"]} if record["type"] == SEAT_KEYED else act


class _CutInCopy(Exception):
    """The record ends inside the history a fork copied: nothing of the fork itself to check."""

    def __init__(self, version: int) -> None:
        super().__init__(version)
        self.version = version


class Problem(Exception):
    """The first thing wrong with a record: where, what, and what was expected there."""

    def __init__(self, position: int, message: str, expected: str | None = None) -> None:
        super().__init__(message)
        self.position = position
        self.message = message
        self.expected = expected


@dataclass
class VerificationReport:
    verified: bool  # complete, and every check passed (and the published values matched)
    complete: bool  # the record ends with GameEnded, which reveals the seed
    statement: str  # the plain sentence: what was proven, or what is wrong, or what is missing
    chain_ok: bool
    seed_ok: bool | None  # None while the seed is not revealed (or could not be checked)
    fingerprint: str  # the hash of the last record
    records: int
    game: str | None = None
    first_bad_position: int | None = None
    expected: str | None = None  # what the first bad position should hold
    problems: list[str] = field(default_factory=list)
    forked_from: dict[str, Any] | None = None  # {game_id, version, fingerprint} once proven
    contributions: list[dict[str, int]] = field(default_factory=list)  # [{seat, position}]
    keyed_seats: list[int] = field(default_factory=list)  # seats whose every command is signed (checked once verified)
    # Keyed seats whose key is the server's bot's (derived from the revealed seed): signed by the server.
    bot_seats: list[int] = field(default_factory=list)
    # Commands that are not their seat's own act: [{position, seat, by}] (by: server or organiser).
    acts: list[dict[str, Any]] = field(default_factory=list)

    @property
    def exit_status(self) -> int:
        if self.verified:
            return EXIT_VERIFIED
        return EXIT_PROBLEM if self.problems else EXIT_INCOMPLETE

    def to_dict(self) -> dict[str, Any]:
        return {
            "verified": self.verified,
            "complete": self.complete,
            "statement": self.statement,
            "chain_ok": self.chain_ok,
            "seed_ok": self.seed_ok,
            "fingerprint": self.fingerprint,
            "records": self.records,
            "game": self.game,
            "first_bad_position": self.first_bad_position,
            "expected": self.expected,
            "problems": self.problems,
            "forked_from": self.forked_from,
            "contributions": self.contributions,
            "keyed_seats": self.keyed_seats,
            "bot_seats": self.bot_seats,
            "acts": self.acts,
        }


# -- entry points --------------------------------------------------------------------------------------


def verify_export(
    content: bytes | str, find_game: FindGame, fingerprint: str | None = None, commitment: str | None = None
) -> VerificationReport:
    """Verify an exported record (JSON lines, one record per line), however malformed."""
    try:
        records = parse_export(content)
    except Problem as problem:
        return _failed([], problem, chain_ok=False)
    return verify_records(records, find_game, fingerprint, commitment)


class JsonRefused(ValueError):
    """Text that is not exactly one JSON value every reader reads the same way."""


def _refuse_constant(name: str) -> Any:
    raise JsonRefused(f"{name} is no JSON number")


def _finite(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise JsonRefused(f"{text} is too large for a number every reader reads the same")
    return value


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            raise JsonRefused(f"the key {key!r} appears twice in one object")
        found[key] = value
    return found


MAX_NESTING = 128  # records nest a dozen levels deep; a reader's stack is not the limit to find out
_JSON_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_NOT_A_BRACKET = re.compile(r"[^\[\]{}]+")


def _too_deep(text: str) -> bool:
    """Whether the JSON text nests beyond ``MAX_NESTING`` (counted outside strings). Checked before
    parsing: a RecursionError inside the C parser can leave the interpreter's own depth count
    wrong (CPython 3.11), so it is never provoked."""
    brackets = _NOT_A_BRACKET.sub("", _JSON_STRING.sub("", text))
    dropped = 0
    while dropped < MAX_NESTING:  # each pass drops the innermost level (in C)
        fewer = brackets.replace("[]", "").replace("{}", "")
        if fewer == brackets:
            break
        brackets, dropped = fewer, dropped + 1
    depth = dropped
    for bracket in brackets:  # what is left: deep, or not well formed
        depth += 1 if bracket in "[{" else -1
        if depth > MAX_NESTING:
            return True
    return False


def read_json(text: str | bytes) -> Any:
    """The one JSON reader of records, exports and bundles: strict where ``json.loads`` is lenient.

    A duplicate key would let two readers see two contents under one hash (the last one wins in
    Python, the first in others), and NaN, Infinity or a literal beyond a float are not the
    canonical form any hash was computed over. Deep nesting is refused, not a crash."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as bad:
            raise JsonRefused(f"not UTF-8 text ({bad})") from None
    if _too_deep(text):
        raise JsonRefused(f"the value is nested too deeply (more than {MAX_NESTING} levels)")
    try:
        return json.loads(text, object_pairs_hook=_unique_keys, parse_constant=_refuse_constant, parse_float=_finite)
    except JsonRefused:
        raise
    except RecursionError:
        raise JsonRefused("the value is nested too deeply") from None
    except ValueError as bad:  # JSONDecodeError and UnicodeDecodeError both are ValueErrors
        raise JsonRefused(str(bad)) from None


def export_lines(text: str) -> list[str]:
    """The records' lines of an export: split on "\\n" only, since the canonical JSON writes
    U+2028, U+2029 and U+0085 unescaped inside strings (``str.splitlines`` would cut there)."""
    return [line for line in text.split("\n") if line.strip(" \t\r")]


def parse_export(content: bytes | str) -> list[Any]:
    if isinstance(content, bytes):
        try:
            text = content.decode("utf-8")
        except UnicodeDecodeError as bad:
            line = content[: bad.start].count(b"\n") + 1
            raise Problem(line, f"position {line}: cannot read the record: line {line} is not UTF-8 text") from None
    else:
        text = content
    records: list[Any] = []
    for number, line_text in enumerate(export_lines(text), start=1):
        try:
            records.append(read_json(line_text))
        except JsonRefused as bad:
            raise Problem(number, f"position {number}: cannot read record {number} as JSON ({bad})") from None
    return records


def verify_records(
    records: Iterable[Any], find_game: FindGame, fingerprint: str | None = None, commitment: str | None = None
) -> VerificationReport:
    """Verify a game record given as the dicts the per-viewer filter produces (after the end,
    revealed: ``for_viewer(record, None, reveal_all=True)``)."""
    return verify_and_reexecute(records, find_game, fingerprint, commitment)[0]


def verify_and_reexecute(
    records: Iterable[Any],
    find_game: FindGame,
    fingerprint: str | None = None,
    commitment: str | None = None,
    seed: bytes | None = None,
) -> tuple[VerificationReport, Match | None]:
    """``verify_records``, and the game as re-executing every command left it (None unless the
    whole record was re-executed): a result is read from that game, never from recorded events.

    ``seed`` is the game's seed revealed elsewhere (a tournament reveals the seed of a table whose
    game never ended): an incomplete record is then re-executed with it in full, as a complete one
    is with the seed its ``GameEnded`` reveals; it stays incomplete, but nothing in it is unchecked."""
    checker = _Checker(list(records), find_game, seed)
    report = _checked(checker, fingerprint, commitment)
    return report, checker.match if report.seed_ok and not report.problems else None


def _checked(checker: _Checker, fingerprint: str | None, commitment: str | None) -> VerificationReport:
    try:
        return checker.run(fingerprint, commitment)
    except Problem as problem:
        return _failed(checker.records, problem, chain_ok=checker.chain_ok, seed_ok=checker.seed_ok)
    except _CutInCopy as cut:
        n = len(checker.records)
        try:
            checker.check_fingerprint(fingerprint)
        except Problem as problem:
            return _failed(checker.records, problem, chain_ok=True)
        return VerificationReport(
            verified=False,
            complete=False,
            statement=f"incomplete, not verified: the record ends at position {n}, inside the history this fork "
            f"copied from its original (through version {cut.version}). The hash chain holds.",
            chain_ok=True,
            seed_ok=None,
            fingerprint=checker.records[-1]["hash"],
            records=n,
        )
    except Exception as bug:  # a defect of a game's rules must still give a report, never a traceback
        position = checker.position
        crash = Problem(
            position, f"position {position}: the record cannot be checked here ({type(bug).__name__}: {bug})"
        )
        return _failed(checker.records, crash, chain_ok=checker.chain_ok, seed_ok=False)


def _failed(records: list[Any], problem: Problem, chain_ok: bool, seed_ok: bool | None = None) -> VerificationReport:
    last = records[-1] if records else None
    fingerprint = str(last["hash"]) if isinstance(last, dict) and isinstance(last.get("hash"), str) else GENESIS
    ended = isinstance(last, dict) and last.get("type") == GAME_ENDED
    return VerificationReport(
        verified=False,
        complete=ended,
        statement=f"not verified: {problem.message}",
        chain_ok=chain_ok,
        seed_ok=seed_ok,
        fingerprint=fingerprint,
        records=len(records),
        first_bad_position=problem.position,
        expected=problem.expected,
        problems=[problem.message],
    )


# -- the checks ----------------------------------------------------------------------------------------


def _short(value: Any) -> str:
    try:
        text = canonical(value)
    except (TypeError, ValueError, RecursionError):
        text = repr(value)
    return text if len(text) <= SHOWN else text[:SHOWN] + "…"


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_shape(raw: Any, position: int) -> None:
    where = f"position {position}"
    if not isinstance(raw, dict):
        raise Problem(position, f"{where}: a record is a JSON object, not {_short(raw)}", "a JSON object")
    unknown = sorted(str(k) for k in raw if k not in RECORD_KEYS)
    if unknown:
        raise Problem(
            position, f"{where}: unknown key(s) {', '.join(unknown)} in the record", f"only {', '.join(RECORD_KEYS)}"
        )
    missing = [k for k in REQUIRED_KEYS if k not in raw]
    if missing:
        raise Problem(position, f"{where}: the record lacks {', '.join(missing)}", f"all of {', '.join(REQUIRED_KEYS)}")
    if raw["position"] != position or not _is_int(raw["position"]):
        raise Problem(position, f"{where}: the record says it is position {_short(raw['position'])}", f"{position}")
    kinds: list[tuple[str, bool, str]] = [
        ("type", isinstance(raw["type"], str), "a string"),
        ("data", isinstance(raw["data"], dict), "an object"),
        (
            "viewers",
            raw["viewers"] is None or (isinstance(raw["viewers"], list) and all(_is_int(s) for s in raw["viewers"])),
            "null or a list of seats",
        ),
        ("public", raw.get("public") is None or isinstance(raw["public"], dict), "null or an object"),
        ("digest", raw.get("digest") is None or isinstance(raw["digest"], str), "null or a hex string"),
        (
            "chance",
            raw.get("chance") is None
            or (isinstance(raw["chance"], dict) and all(_is_int(v) for v in raw["chance"].values())),
            "null or counters",
        ),
        ("prev", isinstance(raw["prev"], str), "a hex string"),
        ("hash", isinstance(raw["hash"], str), "a hex string"),
    ]
    for key, ok, kind in kinds:
        if not ok:
            raise Problem(position, f"{where}: {key} must be {kind}, not {_short(raw[key])}", f"{key}: {kind}")
    private = raw["viewers"] is not None
    if private and ("public" not in raw or "digest" not in raw):
        raise Problem(position, f"{where}: a private record needs its public form and digest", "public and digest")
    if not private and (raw.get("public") is not None or raw.get("digest") is not None):
        raise Problem(position, f"{where}: a public record has no public form or digest", "no public, no digest")
    if raw["type"] == GAME_CREATED and position != 1:
        raise Problem(position, f"{where}: GameCreated can only start a record", "a record after GameCreated")


def _hashed_content(record: dict[str, Any]) -> dict[str, Any]:
    private = record["viewers"] is not None
    return {
        "position": record["position"],
        "type": record["type"],
        "data": record.get("public") if private else record["data"],
        "viewers": record["viewers"],
        "digest": record.get("digest") if private else None,
        "chance": record.get("chance"),
        "prev": record["prev"],
    }


def check_chain(records: list[dict[str, Any]]) -> int | None:
    """The position of the first record that breaks the chain, or None when it holds."""
    try:
        _check_chain(records)
    except Problem as problem:
        return problem.position
    return None


def _check_chain(records: list[dict[str, Any]]) -> None:
    prev = GENESIS
    for position, record in enumerate(records, start=1):
        if record["prev"] != prev:
            raise Problem(
                position,
                f"position {position}: the hash chain breaks: prev is not the hash of position {position - 1}",
                f"prev {prev}",
            )
        again = record_hash(_hashed_content(record))
        if record["hash"] != again:
            raise Problem(
                position, f"position {position}: the hash chain breaks: the record does not hash to its hash", again
            )
        prev = record["hash"]


def _normalised(record: dict[str, Any]) -> dict[str, Any]:
    """An exported record without the keys that only say 'not applicable'."""
    return {k: v for k, v in record.items() if not (k in ("public", "digest", "chance") and v is None)}


KEY_ORDER = ("type", "data", "viewers", "public", "chance", "digest", "prev", "hash", "position")


def _compare(stored: dict[str, Any], rebuilt: Record, what: str) -> None:
    """The stored record must be exactly the rebuilt one (as exported, revealed)."""
    expected = _normalised(for_viewer(rebuilt, None, reveal_all=True))
    found = _normalised(stored)
    if expected == found:
        return
    key = next(k for k in KEY_ORDER if expected.get(k) != found.get(k))
    p = rebuilt.position
    raise Problem(
        p,
        f"position {p}: {what} gives {rebuilt.type} with {key} {_short(expected.get(key))}, "
        f"the record has {_short(found.get(key))}",
        f"{rebuilt.type} {_short(rebuilt.data)}",
    )


def _copy_form(rebuilt: Record, prev: str) -> Record:
    """How a fork holds a record of its original: public, same type, data and counters."""
    return make_record(
        position=rebuilt.position,
        type_=rebuilt.type,
        data=rebuilt.data,
        prev=prev,
        chance=_no_seed(),
        counters=rebuilt.chance,
    )


def _no_seed() -> Chance:
    """A stand-in where no secret is used: public records are sealed without a key, and a running
    fork's copied history draws nothing."""
    return Chance(b"no seed is used here")


class _Checker:
    def __init__(self, records: list[Any], find_game: FindGame, given_seed: bytes | None = None) -> None:
        self.records = records
        self.find_game = find_game
        self.given_seed = given_seed
        self.match: Match | None = None
        self.position = 1
        self.chain_ok = False
        self.seed_ok: bool | None = None

    # -- the whole run ---------------------------------------------------------------------------

    def run(self, fingerprint: str | None, commitment: str | None) -> VerificationReport:
        records = self.records
        if not records:
            raise Problem(1, "position 1: the record is empty", "GameCreated")
        for position, raw in enumerate(records, start=1):
            self.position = position
            _check_shape(raw, position)
        _check_chain(records)
        self.chain_ok = True
        self.position = 1
        created = records[0]
        if created["type"] != GAME_CREATED:
            raise Problem(1, f"position 1: a game record starts with GameCreated, not {_short(created['type'])}")
        game = self._check_created(created["data"], 1, depth=0)
        if commitment is not None and created["data"]["seed_commitment"] != commitment.strip().lower():
            raise Problem(
                1,
                f"position 1: the seed commitment is {created['data']['seed_commitment']}, "
                f"not the published {_short(commitment)}",
                commitment,
            )
        complete = records[-1]["type"] == GAME_ENDED
        ends = [i for i, r in enumerate(records, start=1) if r["type"] == GAME_ENDED]
        if ends and not complete:  # a complete record's re-execution finds an early end in its place
            after = ends[0] + 1
            raise Problem(after, f"position {after}: a record follows GameEnded", "nothing after GameEnded")
        seed = self._revealed_seed(created["data"]) if complete else self._given_seed(created["data"])
        forked_from = created["data"].get("forked_from")
        if forked_from is not None:
            origin, history = self._rebuild_origin(forked_from, depth=1)
            if seed is not None:
                match, expected = Match.fork(origin, history, seed, forked_from["game_id"])
            else:
                match, expected = Match.fork_copy(
                    origin, history, _no_seed(), forked_from["game_id"], created["data"]["seed_commitment"]
                )
            what = "forking the re-executed original"
        elif seed is not None:
            match, expected = Match.create(
                game,
                created["data"]["players"],
                created["data"]["options"],
                seed,
                _open_seats(created["data"]),
                _keys_required(created["data"]),
            )
            what = "creating the game with the revealed seed"
        else:
            match, expected = None, []
        for rebuilt in expected:
            self.position = rebuilt.position
            if rebuilt.position > len(records):
                raise self._missing(rebuilt)
            _compare(records[rebuilt.position - 1], rebuilt, what)
        if match is not None and seed is not None:
            self._reexecute(match, len(expected) + 1, len(records))
            self.seed_ok = True
        else:
            self._check_types(game, after=len(expected))
        self.check_fingerprint(fingerprint)
        self.match = match if seed is not None else None
        return self._report(game.id, complete, seed is not None)

    def check_fingerprint(self, fingerprint: str | None) -> None:
        last = self.records[-1]
        if fingerprint is not None and last["hash"] != fingerprint.strip().lower():
            n = len(self.records)
            raise Problem(
                n,
                f"position {n}: the record's fingerprint (the hash of its last record) is {last['hash']}, "
                f"not the published {_short(fingerprint)}: this is not the published game record",
                fingerprint,
            )

    def _report(self, game: str, complete: bool, reexecuted: bool) -> VerificationReport:
        records = self.records
        created = records[0]["data"]
        n, fingerprint = len(records), records[-1]["hash"]
        forked = created.get("forked_from")
        origin = {k: forked[k] for k in ("game_id", "version", "fingerprint")} if isinstance(forked, dict) else None
        copied = origin["version"] if origin else 0
        contributions = [
            {"seat": r["data"]["seat"], "position": r["position"]}
            for r in records[copied:]
            if r["type"] == COMMAND_ACCEPTED and "contribution" in r["data"]
        ]
        keyed = sorted(
            {
                r["data"]["seat"]
                for r in records[copied:]
                if r["type"] == SEAT_KEYED or (r["type"] == SEAT_TAKEN and "public_key" in r["data"])
            }
        )
        acts = [_act(r) for r in records[copied:] if r["type"] in (COMMAND_ACCEPTED, SEAT_KEYED) and "by" in r["data"]]
        rekeys = [a for a in acts if "public_key" in a]
        acts = [a for a in acts if "public_key" not in a]
        bots = self._bot_seats(keyed) if complete and reexecuted else []
        handed_only = {a["seat"] for a in rekeys} - {
            r["data"]["seat"]
            for r in records[copied:]
            if (r["type"] == SEAT_KEYED and "by" not in r["data"])
            or (r["type"] == SEAT_TAKEN and "public_key" in r["data"])
        }
        from_start = [s for s in keyed if s not in handed_only]
        signed = (
            f"; every command of seat(s) {', '.join(map(str, from_start))} carries a valid signature by the seat's "
            f"key (which the record shows)"
            if from_start
            else "; no seat is keyed from its start, so the record does not show who sent each seat's commands"
            if handed_only
            else "; no seat is keyed, so the record does not show who sent each seat's commands"
        )
        if bots:
            signed += (
                f"; the key of seat(s) {', '.join(map(str, bots))} is the server's bot's (derived from the revealed "
                "seed): those moves are the server's"
            )
        if acts:
            signed += (
                f"; {len(acts)} command(s) are no seat's own act but the server's or the organiser's, unsigned, "
                f"at position(s) {', '.join(str(a['position']) for a in acts)}"
            )
        for rekey in rekeys:
            before = (
                "before it the seat had no key, so those commands are the server's word"
                if rekey["seat"] in handed_only
                else "before it, with the earlier key"
            )
            signed += (
                f"; at position {rekey['position']} the {rekey['by']} handed seat {rekey['seat']} to a replacement "
                f"player's key, which signs the seat's commands from there on ({before})"
            )
        acts += rekeys
        acts.sort(key=lambda a: int(a["position"]))
        fork_text = (
            f"; it is a fork of game {origin['game_id']} at version {origin['version']}: the copied history "
            f"re-executes with that game's revealed seed to its hash {origin['fingerprint']} there"
            if origin
            else ""
        )
        if complete and reexecuted:
            seats = sorted({c["seat"] for c in contributions})
            mixed = (
                f"; chance after their commands mixes the contributions of seat(s) {', '.join(map(str, seats))}"
                if seats
                else "; no seat contributed chance"
            )
            statement = (
                f"verified: a complete {game} record of {n} records with fingerprint {fingerprint}. The hash chain "
                f"holds, the revealed seed matches the commitment in GameCreated, and re-executing every command "
                f"with it gives every record exactly, hidden data included{fork_text}{mixed}{signed}."
            )
        elif reexecuted:
            statement = (
                f"incomplete, not verified: the record ends at position {n} without GameEnded. The hash chain "
                f"holds{fork_text}, and re-executing every command with the seed revealed for it (which matches "
                f"the commitment in GameCreated) gives every record exactly."
            )
        else:
            statement = (
                f"incomplete, not verified: the record ends at position {n} without GameEnded, so its seed is not "
                f"revealed. The hash chain holds{fork_text}; chance, hidden data and the rules can only be checked "
                f"once the game has ended."
            )
        return VerificationReport(
            verified=complete and reexecuted,
            complete=complete,
            statement=statement,
            chain_ok=True,
            seed_ok=True if reexecuted else None,
            fingerprint=fingerprint,
            records=n,
            game=game,
            forked_from=origin,
            contributions=contributions,
            keyed_seats=keyed,
            bot_seats=bots,
            acts=acts,
        )

    def _bot_seats(self, keyed: list[int]) -> list[int]:
        """The keyed seats whose key is the one the server's bot derives from the game's seed."""
        if self.match is None:
            return []
        seed = bytes.fromhex(self.match.chance.seed_hex)
        return [s for s in keyed if self.match.keys.get(s) == public_key_of(bot_key(seed, s))]

    def _check_types(self, game: GameDefinition[Any], after: int) -> None:
        """Without the seed nothing can be re-executed, but every record must still be a command or
        an event of this game, and a public event must hold exactly that event's fields."""
        events = game.event_types
        for raw in self.records[max(after, 1) :]:
            position = self.position = raw["position"]
            kind = raw["type"]
            if kind not in (COMMAND_ACCEPTED, SEAT_TAKEN, SEAT_KEYED) and kind not in events:
                raise Problem(position, f"position {position}: {_short(kind)} is no event of {game.id}", "an event")
            if kind in events and raw["viewers"] is None:
                try:
                    same = events[kind].from_dict(raw["data"]).to_dict() == raw["data"]
                except (TypeError, ValueError, KeyError):
                    same = False
                if not same:
                    raise Problem(
                        position,
                        f"position {position}: {kind} has unknown or missing fields: {_short(raw['data'])}",
                        f"the fields of {kind}",
                    )

    # -- GameCreated and the seed -----------------------------------------------------------------

    def _check_created(self, data: dict[str, Any], position: int, depth: int) -> GameDefinition[Any]:
        where = f"position {position}: GameCreated" + (" (of the original, in forked_from)" if depth else "")
        keys = set(data)
        allowed = CREATED_KEYS | {"forked_from", "open_seats", "keys_required"}
        if not keys >= CREATED_KEYS or not keys <= allowed:
            odd = sorted((keys - allowed) | (CREATED_KEYS - keys))
            raise Problem(
                position, f"{where} has unknown or missing fields {', '.join(odd)}", ", ".join(sorted(allowed))
            )
        if not isinstance(data["game"], str):
            raise Problem(position, f"{where}: game must be a game id", "a game id")
        try:
            game = self.find_game(data["game"])
        except (RuleViolation, KeyError, LookupError):
            raise Problem(
                position, f"{where}: unknown game {_short(data['game'])}", "a game this verifier knows"
            ) from None
        if not isinstance(data["seed_commitment"], str) or not HEX64.fullmatch(data["seed_commitment"]):
            raise Problem(position, f"{where}: seed_commitment must be 64 hex digits", "sha256 of the seed")
        if not isinstance(data["options"], dict):
            raise Problem(position, f"{where}: options must be an object", "an object")
        if data.get("open_seats", True) is not True:
            raise Problem(position, f"{where}: open_seats is true when present", "true")
        if data.get("keys_required", True) is not True:
            raise Problem(position, f"{where}: keys_required is true when present", "true")
        try:
            probe, _ = Match.create(game, data["players"], data["options"], b"probe")
        except RuleViolation as refusal:
            raise Problem(
                position, f"{where}: the game cannot be created so ({refusal})", "valid players and options"
            ) from None
        if probe.options != data["options"]:
            raise Problem(position, f"{where}: options are not as the game records them", _short(probe.options))
        forked_from = data.get("forked_from")
        if forked_from is not None:
            self._check_forked_from(forked_from, position, depth + 1)
        return game

    def _check_forked_from(self, forked_from: Any, position: int, depth: int) -> None:
        where = f"position {position}: forked_from"
        if depth > MAX_FORK_DEPTH:
            raise Problem(position, f"{where} nests forks deeper than {MAX_FORK_DEPTH}", "a shallower fork")
        if not isinstance(forked_from, dict) or set(forked_from) != FORKED_FROM_KEYS:
            keys = sorted(map(str, forked_from)) if isinstance(forked_from, dict) else []
            raise Problem(
                position,
                f"{where} must hold exactly {', '.join(sorted(FORKED_FROM_KEYS))} "
                f"(it holds {', '.join(keys) or 'none'})",
                ", ".join(sorted(FORKED_FROM_KEYS)),
            )
        version, seed = forked_from["version"], forked_from["seed"]
        if _is_int(version) and version > len(self.records) and depth == 1:
            raise _CutInCopy(version)
        if not _is_int(version) or not 1 <= version <= len(self.records):
            raise Problem(
                position, f"{where}.version must be a position inside this record", f"1 to {len(self.records)}"
            )
        if not isinstance(forked_from["fingerprint"], str) or not isinstance(forked_from["game_id"], str):
            raise Problem(position, f"{where}: game_id and fingerprint are strings", "strings")
        if not isinstance(seed, str) or not _is_hex(seed) or not seed:
            raise Problem(position, f"{where}.seed must be the original's revealed seed, as hex", "hex")
        if not isinstance(forked_from["created"], dict):
            raise Problem(position, f"{where}.created must be the original's GameCreated data", "an object")
        self._check_created(forked_from["created"], position, depth)
        if seed_commitment(bytes.fromhex(seed)) != forked_from["created"]["seed_commitment"]:
            raise Problem(
                position,
                f"{where}.seed is not the seed the original committed to",
                f"a seed whose sha256 is {forked_from['created']['seed_commitment']}",
            )

    def _given_seed(self, created: dict[str, Any]) -> bytes | None:
        """The seed given from outside the record for an incomplete one, once it is the committed seed."""
        seed = self.given_seed
        if seed is None:
            return None
        if seed_commitment(seed) != created["seed_commitment"]:
            self.seed_ok = False
            raise Problem(
                1,
                "position 1: the seed revealed for this unfinished game does not match the commitment in GameCreated",
                f"a seed whose sha256 is {created['seed_commitment']}",
            )
        hidden = next(
            (r for r in self.records if r["type"] == COMMAND_ACCEPTED and "command_id" not in r["data"]), None
        )
        if hidden is not None:  # re-execution needs every command whole, as a revealed export holds it
            p = hidden["position"]
            raise Problem(p, f"position {p}: the record is not revealed, though its seed is", "the revealed record")
        return seed

    def _revealed_seed(self, created: dict[str, Any]) -> bytes:
        n = len(self.records)
        self.position = n
        seed_hex = self.records[-1]["data"].get("seed")
        if not isinstance(seed_hex, str) or not _is_hex(seed_hex) or not seed_hex:
            raise Problem(n, f"position {n}: GameEnded does not reveal the seed as hex", "the seed, as hex")
        seed = bytes.fromhex(seed_hex)
        if self.given_seed is not None and self.given_seed != seed:
            self.seed_ok = False
            raise Problem(n, f"position {n}: GameEnded reveals another seed than the one given", self.given_seed.hex())
        if seed_commitment(seed) != created["seed_commitment"]:
            self.seed_ok = False
            raise Problem(
                n,
                f"position {n}: the revealed seed does not match the commitment in GameCreated",
                f"a seed whose sha256 is {created['seed_commitment']}",
            )
        forked_from = created.get("forked_from")
        if forked_from is not None and forked_from["created"]["seed_commitment"] == created["seed_commitment"]:
            raise Problem(1, "position 1: a fork must have a seed of its own, not its original's", "a new seed")
        return seed

    # -- re-execution -----------------------------------------------------------------------------

    def _missing(self, rebuilt: Record) -> Problem:
        n = len(self.records)
        return Problem(
            n + 1,
            f"position {n + 1}: the record ends at position {n}, but re-execution gives {rebuilt.type} "
            f"at position {rebuilt.position}",
            f"{rebuilt.type} {_short(rebuilt.data)}",
        )

    def _command_batch(self, match: Match, position: int) -> list[Record]:
        """Execute the command the record holds at ``position`` on ``match``; its records."""
        raw = self.records[position - 1]
        data = raw["data"]
        where = f"position {position}"
        if raw["type"] == SEAT_TAKEN and match.waiting:
            return self._join_batch(match, data, position)
        if raw["type"] == SEAT_KEYED:
            return self._key_batch(match, data, position)
        if raw["type"] != COMMAND_ACCEPTED:
            raise Problem(
                position,
                f"{where}: {_short(raw['type'])} where a command was expected: no command causes it",
                "CommandAccepted",
            )
        if not set(data) >= COMMAND_KEYS or not set(data) <= COMMAND_KEYS | COMMAND_OPTIONAL_KEYS:
            raise Problem(
                position,
                f"{where}: CommandAccepted holds seat, command, command_id (and contribution, at, signature, by)",
                "",
            )
        stamp = data.get("at")
        if stamp is not None and not _is_int(stamp):
            raise Problem(position, f"{where}: at (the server's time) must be whole milliseconds", "an integer")
        seat = data["seat"]
        if not _is_int(seat) or not 0 <= seat < match.players:
            raise Problem(
                position, f"{where}: seat {_short(seat)} is not a seat of this game", f"0 to {match.players - 1}"
            )
        command_id = data["command_id"]
        if command_id is not None and not isinstance(command_id, str):
            raise Problem(position, f"{where}: command_id must be a string or null", "a string or null")
        try:
            command = parse_command(match.game.command_types, data["command"])
            # A keyed seat's signature is checked here, as the service checked it: a command that was
            # changed or inserted for that seat, however resealed, has no signature its key accepts.
            # A command by the server or the organiser is unsigned, and listed as theirs in the report.
            return match.execute(
                seat, command, command_id, data.get("contribution"), stamp, data.get("signature"), data.get("by")
            )
        except RuleViolation as refusal:
            self.seed_ok = False
            raise Problem(
                position,
                f"{where}: the recorded command is refused on re-execution ({refusal})",
                "a command the game accepts here",
            ) from None

    def _join_batch(self, match: Match, data: Any, position: int) -> list[Record]:
        """Take the seat the join at ``position`` took (the last join also starts the game)."""
        if not isinstance(data, dict) or set(data) not in (SEAT_KEYS, KEYED_SEAT_KEYS) or not _is_int(data["seat"]):
            raise Problem(
                position,
                f"position {position}: SeatTaken holds exactly seat and name (and a keyed seat's public_key, game_id)",
                "seat, name",
            )
        try:
            return match.take_seat(data["name"], data["seat"], data.get("public_key"), data.get("game_id"))[1]
        except RuleViolation as refusal:
            raise Problem(
                position, f"position {position}: the recorded join is refused on re-execution ({refusal})", ""
            ) from None

    def _key_batch(self, match: Match, data: Any, position: int) -> list[Record]:
        """Register the key the record at ``position`` registers for its seat (or the organiser's re-keying)."""
        if (
            not isinstance(data, dict)
            or set(data) not in (SEAT_KEYED_KEYS, SEAT_KEYED_KEYS | {"by"})
            or not _is_int(data["seat"])
        ):
            raise Problem(
                position, f"position {position}: SeatKeyed holds exactly seat, public_key and game_id (and by)", ""
            )
        try:
            return match.register_key(data["seat"], data["public_key"], data["game_id"], data.get("by"))
        except RuleViolation as refusal:
            raise Problem(
                position, f"position {position}: the recorded key is refused on re-execution ({refusal})", ""
            ) from None

    def _reexecute(self, match: Match, start: int, end: int) -> None:
        position = start
        while position <= end:
            self.position = position
            batch = self._command_batch(match, position)
            for rebuilt in batch:
                self.position = rebuilt.position
                if rebuilt.position > end:
                    raise self._missing(rebuilt)
                try:
                    _compare(self.records[rebuilt.position - 1], rebuilt, "re-execution")
                except Problem:
                    self.seed_ok = False
                    raise
            position += len(batch)

    def _rebuild_origin(self, forked_from: dict[str, Any], depth: int) -> tuple[Match, list[Record]]:
        """The original's first ``version`` records, re-executed from this record's copies of them
        with the original's revealed seed; each copy must be the original's record made public."""
        created, version = forked_from["created"], forked_from["version"]
        seed = bytes.fromhex(forked_from["seed"])
        game = self.find_game(created["game"])
        grand = created.get("forked_from")
        if grand is not None:
            if grand["version"] >= version:
                raise Problem(1, "position 1: a fork starts after its original's copied history", "a later version")
            grand_match, grand_history = self._rebuild_origin(grand, depth + 1)
            match, history = Match.fork(grand_match, grand_history, seed, grand["game_id"])
            own_from = grand["version"] + 1
        else:
            match, history = Match.create(
                game, created["players"], created["options"], seed, _open_seats(created), _keys_required(created)
            )
            own_from = 2
        if history[0].data != created:
            raise Problem(1, "position 1: forked_from.created is not what the original's seed and history give", "")
        what = "re-executing the original with its revealed seed"
        checked = [r for r in history if r.position >= own_from]
        while True:
            for rebuilt in checked:
                self.position = rebuilt.position
                if rebuilt.position > version:
                    raise Problem(1, "position 1: forked_from.version falls inside a command's records", "")
                _compare(
                    self.records[rebuilt.position - 1],
                    _copy_form(rebuilt, self.records[rebuilt.position - 2]["hash"]),
                    what,
                )
            if match.version >= version:
                break
            self.position = match.version + 1
            checked = self._command_batch(match, match.version + 1)
            history.extend(checked)
        if history[-1].hash != forked_from["fingerprint"]:
            raise Problem(
                1,
                f"position 1: the copied history re-executes to hash {history[-1].hash} at version {version}, "
                f"not to the claimed fingerprint {_short(forked_from['fingerprint'])}",
                history[-1].hash,
            )
        return match, history


def _open_seats(created: dict[str, Any]) -> bool:
    return created.get("open_seats") is True


def _keys_required(created: dict[str, Any]) -> bool:
    return created.get("keys_required") is True


def _is_hex(text: str) -> bool:
    return len(text) % 2 == 0 and all(c in "0123456789abcdef" for c in text)
