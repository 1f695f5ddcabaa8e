"""Checking a tournament bundle offline: the tournament's log and every game of it.

A bundle is the tournament's records and every table's game record (both revealed: a bundle is
exported once the tournament has ended). The verifier checks the tournament's hash chain; the
master seed against its commitment; every round's seating against the seating the rules give
with that seed; every game's chain, seed and full re-execution (the kernel's verifier); that every
game's seed is the one derived from the master seed for its table; that every result is what its
game's record ends with; every timeout against the clocks recomputed from the record; and that
the final standings recompute from the results and adjudications. Each problem names its game.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from domain.kernel.chance import Chance, creator_seed_of, seed_commitment
from domain.kernel.errors import RuleViolation
from domain.kernel.game import GameDefinition
from domain.kernel.log import COMMAND_ACCEPTED, GAME_ENDED, GENESIS, Record, canonical
from domain.kernel.match import Match
from domain.kernel.verification import check_chain, verify_records
from domain.tournament.clock import GameClock
from domain.tournament.log import (
    ROUND_SEATED,
    TOURNAMENT_CREATED,
    Table,
    TournamentLog,
    TournamentState,
)
from domain.tournament.rules import current_standings, plan_round, result_from_scoreboard
from domain.tournament.seeds import mixed_seed, table_seed

BUNDLE_FORMAT = "alexandria-tournament-bundle/1"


@dataclass
class TournamentReport:
    fingerprint: str  # the hash of the tournament's last record: it commits to every game's fingerprint
    chain_ok: bool
    master_seed_ok: bool | None  # None while the tournament runs (the master seed is still secret)
    games_checked: int = 0
    problems: list[str] = field(default_factory=list)
    bad_games: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.chain_ok and self.master_seed_ok is True and not self.problems

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "fingerprint": self.fingerprint,
            "chain_ok": self.chain_ok,
            "master_seed_ok": self.master_seed_ok,
            "games_checked": self.games_checked,
            "bad_games": self.bad_games,
            "problems": self.problems,
        }


def verify_bundle(bundle: Any, find_game: Callable[[str], GameDefinition[Any]]) -> TournamentReport:
    if not isinstance(bundle, dict) or bundle.get("format") != BUNDLE_FORMAT:
        return TournamentReport(GENESIS, False, None, problems=[f"a tournament bundle has format {BUNDLE_FORMAT!r}"])
    raw = bundle.get("tournament")
    games = bundle.get("games")
    if not isinstance(raw, list) or not raw or not isinstance(games, dict):
        return TournamentReport(
            GENESIS, False, None, problems=["the bundle needs the tournament's records and its games"]
        )
    report = TournamentReport(fingerprint=str(raw[-1].get("hash")), chain_ok=True, master_seed_ok=None)
    bad = check_chain(raw)
    if bad is not None or raw[0].get("type") != TOURNAMENT_CREATED:
        report.chain_ok = False
        report.problems.append(f"the tournament's hash chain breaks at position {bad or 1}")
        return report
    try:
        records = [Record.from_dict(r) for r in raw]
        final = TournamentLog.replay(records)
    except (KeyError, TypeError, ValueError) as problem:
        report.chain_ok = False
        report.problems.append(f"the tournament's records do not replay: {problem!r}")
        return report
    state = final.state
    master_seed = _master_seed(state.ended, state.master_seed_commitment, report)
    if master_seed is not None:
        _check_seatings(records, master_seed, report)
    game = find_game(state.settings.game)
    seated = {t.game_id for t in state.tables()}
    for extra in sorted(set(games) - seated):
        report.problems.append(f"game {extra}: in the bundle, but no table of the tournament")
    for table in state.tables():
        where = f"game {table.game_id} (round {table.round}, table {table.table})"
        problems = _check_game(game, table, games.get(table.game_id), state, master_seed, find_game)
        report.games_checked += 1
        if problems:
            report.bad_games.append(table.game_id)
            report.problems.extend(f"{where}: {p}" for p in problems)
    if state.ended is not None and canonical(state.ended["standings"]) != canonical(current_standings(state)):
        report.problems.append("the final standings do not recompute from the results and adjudications")
    return report


def _master_seed(ended: dict[str, Any] | None, commitment: str, report: TournamentReport) -> bytes | None:
    if ended is None:
        report.problems.append("the tournament has not ended: its master seed is still secret")
        return None
    try:
        seed = bytes.fromhex(ended["master_seed"])
    except (TypeError, ValueError):
        seed = b""
    report.master_seed_ok = bool(seed) and seed_commitment(seed) == commitment
    if not report.master_seed_ok:
        report.problems.append("the revealed master seed does not match the commitment in TournamentCreated")
        return None
    return seed


def _check_seatings(records: list[Record], master_seed: bytes, report: TournamentReport) -> None:
    """Seat every round again from the tournament as it stood and the master seed."""
    log = TournamentLog()
    for record in records:
        if record.type == ROUND_SEATED:
            try:
                expected = plan_round(log.state, master_seed)
            except RuleViolation as refusal:
                report.problems.append(f"round {record.data['round']} was seated against the rules ({refusal})")
            else:
                tables = [t["players"] for t in record.data["tables"]]
                if tables != expected.tables or record.data["byes"] != expected.byes:
                    report.problems.append(
                        f"round {record.data['round']}: the seating is not the one the rules and the master seed give"
                    )
        log.apply_record(record)


def _check_game(
    game: GameDefinition[Any],
    table: Table,
    raw: Any,
    state: TournamentState,
    master_seed: bytes | None,
    find_game: Callable[[str], GameDefinition[Any]],
) -> list[str]:
    if not isinstance(raw, list) or not raw:
        return ["missing from the bundle"]
    report = verify_records(raw, find_game)
    if not report.chain_ok:
        return [f"its record does not verify: {'; '.join(report.problems)}"]
    created = raw[0]["data"]
    if created.get("game") != game.id or created.get("players") != len(table.players):
        return [f"its record is a {created.get('players')}-player {created.get('game')}, not this table's game"]
    if created.get("options") != state.settings.options:
        return ["its options are not the tournament's"]
    problems: list[str] = []
    if table.seed_commitment is not None and created.get("seed_commitment") != table.seed_commitment:
        problems.append("its seed commitment is not the one the tournament recorded when the table was seated")
    if report.seed_ok is False:
        problems.append(f"its seed or re-execution fails: {'; '.join(report.problems)}")
    result = state.results.get(table.game_id)
    if raw[-1]["type"] != GAME_ENDED:
        if result is not None:
            problems.append("a result is recorded, but the game has not ended")
        elif master_seed is not None and table.game_id not in state.voided():
            problems.append("the game has not ended, so its seed cannot be checked")
        return problems
    if master_seed is not None:
        # The game's seed is the server's fresh salt, then the creator's seed (the table's derived
        # seed); the kernel's verifier has checked the whole revealed seed against the commitment.
        derived = table_seed(mixed_seed(master_seed, state.reveals), state.tournament_id, table.round, table.table)
        revealed = raw[-1]["data"].get("seed")
        if not isinstance(revealed, str) or not _creator_part_is(revealed, derived):
            problems.append("its seed is not the one derived from the master seed for this table")
    if result is None:
        return [*problems, "the game ended, but the tournament has no result for it"]
    if result["fingerprint"] != raw[-1]["hash"]:
        problems.append("the recorded result's fingerprint is not the game's")
    match = _replayed(game, created, raw)
    expected = result_from_scoreboard(game.scoreboard(match.state))
    recorded = {k: result[k] for k in ("scores", "placings", "winners")}
    if canonical(recorded) != canonical(expected):
        problems.append(f"the recorded result {canonical(recorded)} is not the game's {canonical(expected)}")
    problems.extend(_check_timeouts(game, table, raw, state))
    return problems


def _creator_part_is(revealed_hex: str, derived: bytes) -> bool:
    try:
        return creator_seed_of(revealed_hex) == derived
    except ValueError:
        return False


def _replayed(game: GameDefinition[Any], created: dict[str, Any], raw: list[dict[str, Any]]) -> Match:
    match = Match(game, created["players"], created["options"], Chance(b"replay"))
    for entry in raw:
        match.apply_record(Record.from_dict(entry))
    return match


def _check_timeouts(
    game: GameDefinition[Any], table: Table, raw: list[dict[str, Any]], state: TournamentState
) -> list[str]:
    """Each recorded timeout: the seat's clock, recomputed from the record, ran out when recorded,
    and the game's next command is the seat's, stamped after it ran out."""
    control = state.settings.time_control
    timeouts = [t for t in state.timeouts if t["game_id"] == table.game_id]
    if not timeouts:
        return []
    if control is None:
        return ["a timeout is recorded, but the tournament has no clocks"]
    problems = []
    records = [Record.from_dict(entry) for entry in raw]
    created = raw[0]["data"]
    for timeout in timeouts:
        clock = GameClock(game, created["players"], created["options"], control, state.round_times[table.round - 1])
        clock.feed(records[: timeout["version"]])
        expiry = clock.expiry(timeout["seat"])
        following = records[timeout["version"]] if timeout["version"] < len(records) else None
        if expiry is None or expiry != timeout["expired_at"]:
            problems.append(
                f"the timeout of seat {timeout['seat']} at version {timeout['version']} is not on its clock"
            )
        elif (
            following is None
            or following.type != COMMAND_ACCEPTED
            or following.data["seat"] != timeout["seat"]
            or not isinstance(following.data.get("at"), int)
            or following.data["at"] < expiry
        ):
            problems.append(f"after the timeout of seat {timeout['seat']} the game does not go on with its move")
    return problems
