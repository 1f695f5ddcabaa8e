"""The organiser's command line against a live server (uvicorn on a real port): create, register,
seat, standings, rule, end, with --json and with tables; every refusal one line, exit status 1."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from api.cli.main import main
from domain.kernel.bots import RandomBot
from domain.tournament.log import Table
from infra.tournaments.run import play_table
from infra.tournaments.service import TournamentService
from tests.web.server import free_port, live_server


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, TournamentService]]:
    with live_server(tmp_path) as (url, _, tournaments):
        yield url, tournaments


def run(url: str, *args: str, token: str | None = None) -> Result:
    env = {"ALEXANDRIA_ORGANISER_TOKEN": token} if token is not None else {}
    return CliRunner().invoke(main, ["tournament", *args, "--server", url], env=env)


def answer(result: Result) -> Any:
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_an_organiser_runs_an_event_from_the_command_line(server: tuple[str, TournamentService]) -> None:
    url, tournaments = server
    created = answer(
        run(url, "create", "peloponnes", "--name", "Club night", "--table-size", "2", "--rounds", "1", "--json")
    )
    tid, organiser = created["tournament_id"], created["organiser_token"]
    assert created["registration_code"]
    human = run(url, "create", "alexandros", "--setting", "rounds=2")
    assert human.exit_code == 0 and "organiser token" in human.output and "registration code" in human.output
    other = answer(run(url, "create", "alexandros", "--json"))
    listed = run(url, "register", other["tournament_id"], "Zoe", token=other["organiser_token"])
    assert listed.exit_code == 0 and "Zoe" in listed.output and "registered" in listed.output

    # The token from the environment variable, or --token.
    registered = answer(run(url, "register", tid, "Ann", "Bob", "--json", token=organiser))
    assert [(r["player"], r["name"]) for r in registered] == [(0, "Ann"), (1, "Bob")]
    cy = answer(run(url, "register", tid, "Cy", "--token", organiser, "--json"))

    seated = run(url, "seat", tid, token=organiser)
    assert seated.exit_code == 0, seated.output
    assert "round 1" in seated.output and "bye:" in seated.output
    view = tournaments.state(tid)
    table = view.rounds[0][0]
    tokens = [r["token"] for r in [*registered, *cy]]
    assert {view.names[p] for p in table.players} <= {"Ann", "Bob", "Cy"}
    play_table(tournaments, tid, Table(1, table.table, table.game_id, table.players), tokens, RandomBot(b"cli"))

    live = answer(run(url, "standings", tid, "--json"))
    assert live["rounds_seated"] == 1 and {r["name"] for r in live["standings"]} == {"Ann", "Bob", "Cy"}
    shown = run(url, "standings", tid)
    assert shown.exit_code == 0 and "Ann" in shown.output and "standings" in shown.output

    loser = table.players[1]
    ruled = answer(
        run(
            url,
            "rule",
            tid,
            "correct",
            "--game",
            table.game_id,
            "--placings",
            "2,1",
            "--scores",
            "0,5",
            "--reason",
            "a scoring error",
            "--json",
            token=organiser,
        )
    )
    assert ruled["adjudication"]["placings"] == [2, 1]
    after = answer(run(url, "standings", tid, "--json"))
    assert after["standings"][0]["player"] == loser  # the corrected winner leads

    ended = answer(run(url, "end", tid, "--json", token=organiser))
    assert ended["master_seed"] and ended["standings"][0]["player"] == loser
    assert tournaments.state(tid).ended is not None


def test_refusals_are_one_line_with_the_servers_code(server: tuple[str, TournamentService]) -> None:
    url, _ = server
    created = answer(run(url, "create", "peloponnes", "--table-size", "2", "--json"))
    tid = created["tournament_id"]

    wrong = run(url, "seat", tid, token="not-the-organiser")
    assert wrong.exit_code == 1 and "FORBIDDEN" in wrong.output and "HTTP 403" in wrong.output
    too_few = run(url, "seat", tid, token=created["organiser_token"])
    assert too_few.exit_code == 1 and "NOT_ENOUGH_PLAYERS" in too_few.output
    early = run(url, "end", tid, token=created["organiser_token"])
    assert early.exit_code == 1 and "ROUND_NOT_FINISHED" in early.output
    unknown = run(url, "standings", "00000000-0000-0000-0000-000000000000")
    assert unknown.exit_code == 1 and "UNKNOWN_TOURNAMENT_ID" in unknown.output
    bad_setting = run(url, "create", "peloponnes", "--setting", "tables=3")
    assert bad_setting.exit_code == 1 and "BAD_TOURNAMENT" in bad_setting.output
    no_token = run(url, "seat", tid)
    assert no_token.exit_code == 2 and "ALEXANDRIA_ORGANISER_TOKEN" in no_token.output
    for result in (wrong, too_few, early, unknown, bad_setting):
        assert "Traceback" not in result.output and len(result.output.strip().splitlines()) == 1

    nobody = run(f"http://127.0.0.1:{free_port()}", "standings", tid)
    assert nobody.exit_code == 1 and "cannot reach the server" in nobody.output


def test_the_organiser_asks_for_check_in_and_registers_bot_players_from_the_command_line(
    server: tuple[str, TournamentService],
) -> None:
    url, tournaments = server
    created = answer(run(url, "create", "peloponnes", "--table-size", "2", "--rounds", "1", "--json"))
    tid, organiser = created["tournament_id"], created["organiser_token"]
    ann = answer(run(url, "register", tid, "Ann", "Bob", "--json", token=organiser))[0]
    bots = answer(run(url, "register", tid, "Gus", "--bot", "greedy", "--json", token=organiser))
    assert bots == [{"player": 2, "name": "Gus", "token": None, "bot": "greedy"}]
    shown = run(url, "register", tid, "Rand", "--bot", "random", token=organiser)
    assert shown.exit_code == 0 and "the server's random bot" in shown.output
    opened = answer(run(url, "check-in", tid, "--open", "--json", token=organiser))
    assert opened["check_in"] == {"asked": True, "open": True, "checked_in": []}
    tournaments.check_in(tid, ann["token"])
    status = run(url, "check-in", tid)
    assert status.exit_code == 0 and "check-in is open" in status.output
    rows = {
        line.split("│")[2].strip(): line.split("│")[3].strip()
        for line in status.output.splitlines()
        if line.count("│") == 4
    }
    assert rows == {"Ann": "yes", "Bob": "no", "Gus": "bot", "Rand": "bot"}
    again = run(url, "check-in", tid, "--open", token=organiser)
    assert again.exit_code == 1 and "CHECK_IN_OPEN" in again.output
