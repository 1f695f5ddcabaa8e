"""A fork of a fork verifies offline too: both copied histories are re-executed, each with its
own original's revealed seed."""

from __future__ import annotations

from domain.catalog import GAMES
from domain.kernel.bots import RandomBot
from domain.kernel.chance import Chance
from domain.kernel.log import COMMAND_ACCEPTED, Record, for_viewer
from domain.kernel.match import Match
from domain.kernel.verification import verify_records
from tests.support.forgery import reseal

GAME = GAMES.get("alexandros")


def played(match: Match, records: list[Record], bot: bytes) -> list[Record]:
    rng = RandomBot(bot)
    while not match.is_over:
        seat, command = rng.next_move(match.game, match.state)
        records.extend(match.execute(seat, command))
    return records


def at(records: list[Record], seed_hex: str, version: int) -> Match:
    created = records[0].data
    match = Match(GAME, created["players"], created["options"], Chance.from_hex(seed_hex))
    for record in records[:version]:
        match.apply_record(record)
    return match


def boundary(records: list[Record], after: int) -> int:
    return next(r.position - 1 for r in records if r.type == COMMAND_ACCEPTED and r.position > after)


def test_a_fork_of_a_fork_verifies_and_a_forged_first_copy_is_found() -> None:
    original, records = Match.create(GAME, 3, {}, b"a")
    played(original, records, b"1")
    first = boundary(records, 30)
    fork, fork_records = Match.fork(at(records, original.chance.seed_hex, first), records[:first], b"f1", "a")
    played(fork, fork_records, b"2")
    second = boundary(fork_records, first + 20)
    again, again_records = Match.fork(at(fork_records, fork.chance.seed_hex, second), fork_records[:second], b"f2", "f")
    played(again, again_records, b"3")
    exported = [for_viewer(r, None, reveal_all=True) for r in again_records]
    report = verify_records(exported, GAMES.get)
    assert report.verified, report.problems
    assert report.forked_from == {"game_id": "f", "version": second, "fingerprint": fork_records[second - 1].hash}
    # A copy from the first original, altered and resealed: found where it was altered.
    target = next(r for r in exported if r["type"] == "DisplayRefilled" and r["position"] > 10)
    target["data"]["slot"] = 1 - target["data"]["slot"]
    forged = verify_records(reseal(exported), GAMES.get)
    assert not forged.verified and forged.first_bad_position == target["position"], forged.problems
