"""Small real tournament bundles of every game, played once per test session by the random bots
through the tournament service (each caller gets its own copy), and a forger's tools."""

from __future__ import annotations

import copy
import functools
import json
from typing import Any

from domain.catalog import GAMES
from domain.kernel.bots import RandomBot
from domain.kernel.chance import seed_commitment
from domain.kernel.log import Record, record_hash
from domain.tournament.log import RESULT_RECORDED, TOURNAMENT_ENDED, Table, TournamentLog
from domain.tournament.rules import current_standings
from infra.bootstrap import build_service
from infra.settings import Settings
from infra.tournaments.run import play_table, run_tournament
from infra.tournaments.service import TournamentService
from tests.tournament.conftest import FakeClock
from tests.tournament.forge import reseal_from

Bundle = dict[str, Any]


@functools.cache
def _played(game: str, players: int, rounds: int) -> str:
    service = build_service(Settings(database_url="sqlite:///:memory:"))
    tournaments = TournamentService(service, now=FakeClock())
    try:
        size = max(2, GAMES.get(game).min_players)
        settings = {"rounds": rounds, "table_size": size}
        played = run_tournament(tournaments, game, players, settings, master_seed=f"{game}-bundle".encode())
        return json.dumps(tournaments.bundle(played.tournament_id))  # as a file holds it
    finally:
        tournaments.close()
        service.close()


def bundle_of(game: str, players: int = 4, rounds: int = 2) -> Bundle:
    """A fresh copy of the session's bundle of ``game`` (tables of the smallest size)."""
    loaded: Bundle = json.loads(_played(game, players, rounds))
    return loaded


def table_games(bundle: Bundle) -> list[str]:
    return [t["game_id"] for r in bundle["tournament"] if r["type"] == "RoundSeated" for t in r["data"]["tables"]]


def reseal_game(records: list[dict[str, Any]], index: int) -> None:
    """Seal a game's ``records[index:]`` again after an edit (public forms and digests as they
    are), so that its hash chain holds: a forger's best without the game's seed."""
    prev = records[index - 1]["hash"] if index else "0" * 64
    for i in range(index, len(records)):
        record = {**records[i], "prev": prev}
        record["hash"] = record_hash(Record.from_dict(record).hashed_content())
        records[i] = record
        prev = record["hash"]


def forge_result(bundle: Bundle, game_id: str, changes: dict[str, Any]) -> None:
    """Rewrite the tournament's result of ``game_id`` with ``changes``, point it at the game's
    current last hash, recompute the final standings from the forged results and reseal the log."""
    log = bundle["tournament"]
    index = next(i for i, r in enumerate(log) if r["type"] == RESULT_RECORDED and r["data"]["game_id"] == game_id)
    log[index]["data"].update(changes, fingerprint=bundle["games"][game_id][-1]["hash"])
    if log[-1]["type"] == TOURNAMENT_ENDED:
        state = TournamentLog.replay([Record.from_dict(r) for r in log[:-1]]).state
        log[-1]["data"]["standings"] = current_standings(state)
    reseal_from(log, index)
    bundle["fingerprint"] = log[-1]["hash"]


def copy_of(bundle: Bundle) -> Bundle:
    return copy.deepcopy(bundle)


def replayed_result(game_id: str, records: list[dict[str, Any]]) -> dict[str, Any]:
    """The result a reader that *applies* the recorded events (instead of re-executing the
    commands) computes: what a forger makes the tournament's result agree with."""
    from domain.kernel.chance import Chance
    from domain.kernel.match import Match
    from domain.tournament.rules import result_from_scoreboard

    created = records[0]["data"]
    game = GAMES.get(created["game"])
    match = Match(game, created["players"], created["options"], Chance(b"replay"))
    for entry in records:
        match.apply_record(Record.from_dict(entry))
    return result_from_scoreboard(game.scoreboard(match.state))


def reseal_log(bundle: Bundle, index: int) -> None:
    """Reseal the tournament's log from ``records[index]`` and publish the new fingerprint in the bundle."""
    reseal_from(bundle["tournament"], index)
    bundle["fingerprint"] = bundle["tournament"][-1]["hash"]


def reexecuted_with_stamps(records: list[dict[str, Any]], stamps: dict[int, int]) -> list[dict[str, Any]]:
    """A forger's best with the revealed seed: the game re-executed command for command, with the
    stamps at the given positions changed; every record, digest and hash is then what the seed gives."""
    from domain.kernel.log import for_viewer
    from domain.kernel.match import Match
    from domain.kernel.messages import parse_command

    created = records[0]["data"]
    game = GAMES.get(created["game"])
    seed = bytes.fromhex(records[-1]["data"]["seed"])
    match, out = Match.create(game, created["players"], created["options"], seed)
    while len(out) < len(records):
        data = records[len(out)]["data"]
        command = parse_command(game.command_types, data["command"])
        stamp = stamps.get(len(out) + 1, data.get("at"))
        out.extend(match.execute(data["seat"], command, data["command_id"], data.get("contribution"), stamp))
    return [for_viewer(r, None, reveal_all=True) for r in out]


def _clocked_with_contributions(tournaments: TournamentService, clock: FakeClock) -> tuple[str, str, list[str]]:
    """A clocked tournament of one table of three whose seating mixes two players' secrets; a fourth
    player committed and withheld their reveal (so is withdrawn): every kind of chance record. Check-in
    was asked for, and a fifth player who did not check in is withdrawn when registration closes."""
    settings = {"rounds": 2, "table_size": 3, "time_control": {"base_seconds": 2, "increment_seconds": 0.01}}
    created = tournaments.create("peloponnes", settings, master_seed=b"clock-contributions", salted=False)
    tid, organiser = created.tournament_id, created.organiser_token
    secrets = [None, "11" * 32, "22" * 32, "33" * 32]
    tokens = [
        tournaments.register(tid, organiser, f"p{i}", None if s is None else seed_commitment(bytes.fromhex(s))).token
        for i, s in enumerate(secrets)
    ]
    tokens.append(tournaments.register(tid, organiser, "p4").token)
    tournaments.open_check_in(tid, organiser)
    for token in tokens[:4]:
        clock.advance(10)
        tournaments.check_in(tid, token)
    tournaments.close_registration(tid, organiser)
    for token, secret in zip(tokens[1:3], secrets[1:3], strict=True):
        clock.advance(10)
        tournaments.reveal(tid, token, secret)
    tournaments.seat_next_round(tid, organiser)
    return tid, organiser, tokens


@functools.cache
def _clocked() -> str:
    from tests.tournament.test_clocks import play_with_a_slow_player

    service = build_service(Settings(database_url="sqlite:///:memory:"))
    clock = FakeClock()
    tournaments = TournamentService(service, now=clock)
    try:
        tid, organiser, tokens = _clocked_with_contributions(tournaments, clock)
        table = play_with_a_slow_player(tournaments, clock, tid, tokens)
        clock.advance(1000)
        rulings: list[dict[str, Any]] = [
            {"kind": "replace", "player": 1, "name": "Eve", "reason": "p1 fell ill"},
            {"kind": "correct", "game_id": table.game_id, "placings": [1, 2, 3], "scores": [3, 2, 1], "reason": "r"},
        ]
        for ruling in rulings:
            answer = tournaments.adjudicate(tid, organiser, ruling)
            if "player_token" in answer:  # the replacement plays on under the entry, with a token of its own
                tokens[ruling["player"]] = answer["player_token"]
            clock.advance(1000)
        # Between the rounds: a withdrawal and a late entry (whose missed round counts as a bye).
        tournaments.withdraw(tid, organiser, 2, "p2 went home")
        entered, _ = tournaments.enter_late(tid, organiser, "Lou", "bye")
        tokens.append(entered.token)
        clock.advance(1000)
        seated = tournaments.seat_next_round(tid, organiser)
        for entry in seated["tables"]:
            table = Table(seated["round"], entry["table"], entry["game_id"], entry["players"])
            play_table(tournaments, tid, table, tokens, RandomBot(b"clocked-round-2"))
        tournaments.end(tid, organiser)
        return json.dumps(tournaments.bundle(tid))
    finally:
        tournaments.close()
        service.close()


def clocked_bundle() -> Bundle:
    """A fresh copy of a clocked Peloponnes tournament of two rounds whose slow player ran out of
    time in round 1, with a player replaced and the result corrected, then a player withdrawn and
    a late entry seated in round 2: a log with a record of every kind."""
    loaded: Bundle = json.loads(_clocked())
    return loaded
