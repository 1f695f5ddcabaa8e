"""The README works as written: its quickstart plays the first moves of a game against a real
server with curl, and .ci/run runs the README's test command."""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.support.server import start_server, stop

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()
QUICKSTART_MARK = "<!-- quickstart:"


def quickstart() -> str:
    after = README.split(QUICKSTART_MARK, 1)[1]
    block = re.search(r"```sh\n(.*?)```", after, re.S)
    assert block is not None, "the quickstart block is missing"
    return block.group(1)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    process, url = start_server(tmp_path / "events.sqlite", tmp_path / "server.log", module="api.cli.main")
    try:
        yield url
    finally:
        stop(process)


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("curl") is None, reason="curl is not installed")
def test_the_quickstart_plays_the_first_moves(server: str, tmp_path: Path) -> None:
    script = quickstart()
    assert script.startswith("API=http://127.0.0.1:8000\n")
    script = script.replace("API=http://127.0.0.1:8000", f"API={server}", 1)
    result = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", script], cwd=tmp_path, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert '"error"' not in result.stdout, result.stdout
    (game,) = httpx.get(f"{server}/games").json()
    log = httpx.get(f"{server}/games/{game['game_id']}/events").json()
    commands = [r["data"]["command"]["type"] for r in log if r["type"] == "CommandAccepted"]
    assert commands == ["pass_turn", "place_bid"], commands


def test_ci_runs_the_readme_test_command() -> None:
    commands = re.search(r"```sh\n(.*?)```", README, re.S)
    assert commands is not None
    serve, test = commands.group(1).strip().splitlines()
    assert "python3 -m venv .venv" in serve and "alexandria serve" in serve
    assert test in (ROOT / ".ci" / "run").read_text()
