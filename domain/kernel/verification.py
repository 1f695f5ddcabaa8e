"""Checking a game record: the hash chain, the seed, the private digests, and a full
re-execution of every accepted command with the revealed seed."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from domain.kernel.chance import Chance, seed_commitment
from domain.kernel.errors import RuleViolation
from domain.kernel.game import GameDefinition
from domain.kernel.log import (
    COMMAND_ACCEPTED,
    DIGEST_KEY_LABEL,
    GAME_CREATED,
    GAME_ENDED,
    GENESIS,
    Record,
    canonical,
    data_digest,
    record_hash,
)
from domain.kernel.match import SEAT_TAKEN, Match
from domain.kernel.messages import parse_command


@dataclass
class VerificationReport:
    chain_ok: bool
    seed_ok: bool | None  # None until the seed is revealed (the game is not over)
    fingerprint: str  # the hash of the last record
    first_bad_position: int | None = None
    problems: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "chain_ok": self.chain_ok,
            "seed_ok": self.seed_ok,
            "fingerprint": self.fingerprint,
            "first_bad_position": self.first_bad_position,
            "problems": self.problems,
        }


def _hashed_content(record: dict[str, Any]) -> dict[str, Any]:
    private = record.get("viewers") is not None
    return {
        "position": record["position"],
        "type": record["type"],
        "data": record.get("public") if private else record.get("data"),
        "viewers": record.get("viewers"),
        "digest": record.get("digest") if private else None,
        "chance": record.get("chance"),
        "prev": record["prev"],
    }


def check_chain(records: list[dict[str, Any]]) -> int | None:
    """The position of the first record that breaks the chain, or None when it holds."""
    prev = GENESIS
    for expected_position, record in enumerate(records, start=1):
        if (
            record.get("position") != expected_position
            or record.get("prev") != prev
            or record_hash(_hashed_content(record)) != record.get("hash")
        ):
            return expected_position
        prev = record["hash"]
    return None


def verify_records(
    records: Iterable[dict[str, Any]], find_game: Callable[[str], GameDefinition[Any]]
) -> VerificationReport:
    """Verify a game record given as the dicts the per-viewer filter produces (or stored records)."""
    records = list(records)
    fingerprint = records[-1]["hash"] if records else GENESIS
    bad = check_chain(records)
    report = VerificationReport(chain_ok=bad is None, seed_ok=None, fingerprint=fingerprint, first_bad_position=bad)
    if bad is not None:
        report.problems.append(f"the hash chain breaks at position {bad}")
        return report
    if not records or records[0]["type"] != GAME_CREATED:
        report.chain_ok = False
        report.first_bad_position = 1
        report.problems.append("a game record starts with GameCreated")
        return report
    if records[-1]["type"] != GAME_ENDED:
        return report  # the seed is still secret
    report.seed_ok = _check_seed(records, find_game, report.problems)
    return report


def _check_seed(
    records: list[dict[str, Any]], find_game: Callable[[str], GameDefinition[Any]], problems: list[str]
) -> bool:
    created = records[0]["data"]
    seed_hex = records[-1]["data"].get("seed")
    if not isinstance(seed_hex, str):
        problems.append("GameEnded does not reveal the seed")
        return False
    seed = bytes.fromhex(seed_hex)
    if seed_commitment(seed) != created["seed_commitment"]:
        problems.append("the revealed seed does not match the commitment in GameCreated")
        return False
    key = Chance(seed).derive_key(DIGEST_KEY_LABEL)
    for record in records:
        if record.get("viewers") is not None and data_digest(key, record["position"], record["data"]) != record.get(
            "digest"
        ):
            problems.append(f"the hidden data of position {record['position']} is not what was committed to")
            return False
    return _check_reexecution(records, seed, find_game(created["game"]), problems)


def _check_reexecution(
    records: list[dict[str, Any]], seed: bytes, game: GameDefinition[Any], problems: list[str]
) -> bool:
    """Play the recorded commands again with the revealed seed: every record must come out the same.

    A forked game is re-executed from the fork point, on top of its copied history.
    """
    created = records[0]["data"]
    replayed: list[Record] = []
    if "forked_from" in created:
        match = Match(game, created["players"], created["options"], Chance(seed))
        start = created["forked_from"]["version"]
        for raw in records[:start]:
            match.apply_record(Record.from_dict(raw))
    else:
        open_seats = bool(created.get("open_seats"))
        match, replayed = Match.create(game, created["players"], created["options"], seed, open_seats)
        start = 0
    position = start + len(replayed)
    while position < len(records):
        data = records[position]["data"]
        if records[position]["type"] == SEAT_TAKEN and match.waiting:
            try:
                batch = match.take_seat(data["name"], data["seat"])[1]
            except RuleViolation as refusal:
                problems.append(f"position {position + 1}: the recorded join is refused on re-execution ({refusal})")
                return False
            replayed.extend(batch)
            position += len(batch)
            continue
        if records[position]["type"] != COMMAND_ACCEPTED:
            problems.append(f"position {position + 1}: {records[position]['type']} was not caused by any command")
            return False
        try:
            command = parse_command(game.command_types, data["command"])
            batch = match.execute(data["seat"], command, data.get("command_id"))
        except RuleViolation as refusal:
            problems.append(f"position {position + 1}: the recorded command is refused on re-execution ({refusal})")
            return False
        replayed.extend(batch)
        position += len(batch)
    for stored, again in zip(records[start:], replayed, strict=False):
        if stored["hash"] != again.hash:
            problems.append(f"position {again.position}: re-execution gives {again.type} {canonical(again.data)}")
            return False
    if len(replayed) != len(records) - start:
        problems.append("re-execution produces a different number of records")
        return False
    return True
