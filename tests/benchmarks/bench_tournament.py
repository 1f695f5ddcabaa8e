"""Tournament benchmark: a 64-player, 6-round Swiss tournament of Peloponnes (tables of 4) played
by random bots through the tournament service, then verified from its bundle.

Each is measured beside its peer in the same run, interleaved: the tournament against the same
number of 4-player games played by bots straight through the game service (what the tournament
layer adds: seating, routing each command through the player's token, the results process), and
the bundle's verification against the kernel's verifier run over the same game records alone
(what the tournament checks add: seeds derived, results, seatings recomputed, standings).

Run: ``python -m tests.benchmarks.bench_tournament [DATABASE_URL]`` (default: SQLite in memory;
``sqlite:///PATH`` for the embedded default's file store).
"""

from __future__ import annotations

import json
import sys
import time

from domain.catalog import GAMES
from domain.kernel.bots import RandomBot
from domain.kernel.verification import verify_records
from domain.tournament.verification import verify_bundle
from infra.bootstrap import build_service
from infra.games.simulation import play_with_bot
from infra.settings import Settings
from infra.tournaments.run import run_tournament
from infra.tournaments.service import TournamentService

GAME, PLAYERS, ROUNDS, TABLE = "peloponnes", 64, 6, 4


def tournament_once(database_url: str, repeat: int) -> tuple[float, float, float, int, int]:
    games = build_service(Settings(database_url=database_url))
    tournaments = TournamentService(games)
    started = time.perf_counter()
    played = run_tournament(
        tournaments, GAME, PLAYERS, {"rounds": ROUNDS, "table_size": TABLE}, master_seed=f"bench-{repeat}".encode()
    )
    play = time.perf_counter() - started
    bundle = json.loads(json.dumps(tournaments.bundle(played.tournament_id)))
    started = time.perf_counter()
    report = verify_bundle(bundle, GAMES.get)
    verify = time.perf_counter() - started
    assert report.ok, report.problems
    started = time.perf_counter()
    for records in bundle["games"].values():
        assert verify_records(records, GAMES.get).seed_ok
    games_only = time.perf_counter() - started
    tournaments.close()
    games.close()
    return play, verify, games_only, played.commands, len(bundle["games"])


def plain_games_once(database_url: str, count: int, repeat: int) -> tuple[float, int]:
    games = build_service(Settings(database_url=database_url))
    started = time.perf_counter()
    commands = 0
    for number in range(count):
        created = games.create_game(GAME, TABLE, {}, f"plain-{repeat}-{number}".encode())
        commands += len(play_with_bot(games, created, RandomBot(f"bot-{repeat}-{number}".encode())))
    elapsed = time.perf_counter() - started
    games.close()
    return elapsed, commands


def main() -> None:
    database_url = sys.argv[1] if len(sys.argv) > 1 else "sqlite:///:memory:"
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    for repeat in range(repeats):
        play, verify, games_only, commands, count = tournament_once(database_url, repeat)
        plain, plain_commands = plain_games_once(database_url, count, repeat)
        ratio = (play / commands) / (plain / plain_commands)
        print(
            f"run {repeat + 1}: tournament {count} games, {commands} commands in {play:.1f} s "
            f"({commands / play:.0f} commands/s); the same number of plain games {plain_commands} commands in "
            f"{plain:.1f} s ({plain_commands / plain:.0f} commands/s): per command {ratio:.2f}x"
        )
        print(
            f"        verify the bundle {verify:.2f} s; the kernel's verifier over its {count} game records alone "
            f"{games_only:.2f} s: {verify / games_only:.2f}x"
        )


if __name__ == "__main__":
    main()
