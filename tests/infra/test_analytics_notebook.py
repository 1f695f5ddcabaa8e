"""Notebook-safe reads: while ``alexandria serve`` plays games, an analyst's process reads the
tables with DuckDB and polars (holding its connection open, as a notebook's kernel does), and
the server's routes keep answering; a notebook that opens the server's own file is refused at
once instead of stopping the server; errors name no file and no process."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import duckdb
import httpx
import pytest

from domain.kernel.bots import RandomBot
from infra.analytics.store import (
    AnalyticsBusy,
    AnalyticsDatabase,
    AnalyticsNotReady,
    AnalyticsSettings,
    default_snapshot_path,
)
from infra.bootstrap import build_service
from infra.games.service import CreatedGame, GameService
from infra.games.simulation import play_with_bot
from infra.settings import Settings
from tests.support.http import auth
from tests.support.server import REPO, start_server, stop

pytestmark = [pytest.mark.slow]

CATAN = [({"board": "alexander"}, 3), ({"board": "alexander"}, 4), ({"board": "base"}, 3), ({"board": "base"}, 4)]

# What an analyst types: does the first seat win more in Catan, by board and player count?
NOTEBOOK = """
import json, sys
import duckdb, polars as pl

tables = duckdb.connect(sys.argv[1], read_only=True)  # held open until told to stop
ask = "SELECT options->>'board' AS board, players, winners FROM games WHERE game = 'catan_alexander' AND winners<>[]"
in_sql = tables.sql(
    "SELECT options->>'board' AS board, players, count(*) AS games, sum(list_contains(winners, 0)::INT) AS first_won "
    "FROM games WHERE game = 'catan_alexander' AND status = 'ended' GROUP BY ALL ORDER BY ALL"
).fetchall()
in_polars = (
    pl.read_database(ask, connection=tables)
    .group_by("board", "players")
    .agg(games=pl.len(), first_won=pl.col("winners").list.contains(0).sum())
    .sort("board", "players")
    .rows()
)
print(json.dumps({"duckdb": in_sql, "polars": in_polars}), flush=True)
sys.stdin.readline()
print(json.dumps(tables.sql("SELECT count(*) FROM games WHERE status = 'ended'").fetchall()), flush=True)
"""


def sorted_catan() -> list[tuple[dict[str, str], int]]:
    return sorted(CATAN, key=lambda entry: (entry[0]["board"], entry[1]))


def snapshot_position(path: str) -> int:
    """The notification the snapshot at ``path`` is current to (0: none yet)."""
    try:
        with duckdb.connect(path, read_only=True) as reading:
            return int(reading.sql("SELECT position FROM _analytics_position").fetchall()[0][0])
    except duckdb.IOException:
        return 0


def wait_for_snapshot(path: str, position: int) -> None:
    deadline = time.monotonic() + 120  # a safety net for a stuck server, not a measure of speed
    while snapshot_position(path) < position:
        assert time.monotonic() < deadline, f"the snapshot did not reach notification {position}"
        time.sleep(0.1)


def first_seat_wins(service: GameService, games: list[CreatedGame]) -> list[list[Any]]:
    """[board, players, games, first seat won] from the games' own scoreboards."""
    counts: dict[tuple[str, int], list[int]] = defaultdict(lambda: [0, 0])
    for created in games:
        match = service.load(created.game_id).match
        if match.game.id != "catan_alexander" or not match.is_over:
            continue
        entry = counts[(match.options["board"], match.players)]
        entry[0] += 1
        entry[1] += 0 in match.game.scoreboard(match.state).winners
    return [[board, players, *entry] for (board, players), entry in sorted(counts.items())]


def play_over_http(url: str, game: str, players: int, seed: str, stopped: threading.Event) -> str:
    """One game played by random clients through the server's routes; its id."""
    from domain.kernel.chance import Chance

    with httpx.Client(base_url=url, timeout=60) as client:
        created = client.post("/games", json={"game": game, "players": players, "seed": seed}).json()
        tokens = [s["token"] for s in created["seats"]]
        rng, version = Chance(seed.encode()), created["version"]
        while not stopped.is_set():
            view = client.get(f"/games/{created['game_id']}", params={"min_version": version}).json()
            if view["status"] == "ended":
                break
            seat = int(rng.choice("seat", sorted(view["awaited"])))
            listed = client.get(f"/games/{created['game_id']}/legal-moves", headers=auth(tokens[seat])).json()
            move = rng.choice("move", listed["moves"])
            answer = client.post(
                f"/games/{created['game_id']}/commands",
                json={**move, "expected_version": listed["version"]},
                headers=auth(tokens[seat]),
            )
            assert answer.status_code == 200, answer.text
            version = answer.json()["version"]
        return str(created["game_id"])


@pytest.fixture
def store(tmp_path: Path) -> Iterator[tuple[GameService, list[CreatedGame]]]:
    service = build_service(Settings(database_url=f"sqlite:///{tmp_path}/events.sqlite"))
    games = []
    for number, (options, players) in enumerate(CATAN * 2):
        created = service.create_game("catan_alexander", players, options, f"notebook-{number}".encode())
        play_with_bot(service, created, RandomBot(f"notebook-bot-{number}".encode()))
        games.append(created)
    yield service, games
    service.close()


def test_a_notebook_reads_while_the_server_plays_and_the_routes_keep_answering(
    store: tuple[GameService, list[CreatedGame]], tmp_path: Path
) -> None:
    service, games = store
    main_file = tmp_path / "analytics.duckdb"
    server, url = start_server(
        tmp_path / "events.sqlite", tmp_path / "server.log", {"ALEXANDRIA_ANALYTICS_SNAPSHOT_SECONDS": "0.2"}
    )
    notebook: subprocess.Popen[str] | None = None
    try:
        with httpx.Client(base_url=url, timeout=60) as client:
            exported = client.get("/analytics/games/export", params={"limit": 1000})
            assert exported.status_code == 200, exported.text
            assert int(exported.headers["X-Games"]) == len(games)

            # The notebook opens the reading copy beside the file and keeps it open.
            snapshot = default_snapshot_path(str(main_file))
            wait_for_snapshot(snapshot, service.recorder.max_notification_id() or 0)
            notebook = subprocess.Popen(
                [sys.executable, "-c", NOTEBOOK, snapshot],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                cwd=REPO,
            )
            assert notebook.stdout is not None and notebook.stdin is not None
            line = notebook.stdout.readline()
            assert line, notebook.stderr.read() if notebook.stderr else ""
            answers = json.loads(line)
            expected = first_seat_wins(service, games)
            assert answers["duckdb"] == expected
            assert answers["polars"] == expected
            assert [row[:2] for row in expected] == [[board["board"], players] for board, players in sorted_catan()]

            # A notebook that opens the server's own file is refused at once: the server holds it.
            mistaken = subprocess.run(
                [sys.executable, "-c", OPEN_READ_ONLY, str(main_file)],
                capture_output=True,
                text=True,
                timeout=120,
            )
            assert mistaken.returncode != 0 and "lock" in mistaken.stderr

            # The server plays on, and its routes answer, while the notebook holds its copy.
            stopped = threading.Event()
            played = play_over_http(url, "peloponnes", 3, "while-the-notebook-reads", stopped)
            exported = client.get("/analytics/games/export", params={"limit": 1000})
            assert exported.status_code == 200, exported.text
            assert played in exported.text
            assert int(exported.headers["X-Games"]) == len(games) + 1
            assert client.get(f"/games/{played}").status_code == 200

        # The notebook's open copy stays as it was; a new connection sees the new game.
        notebook.stdin.write("\n")
        notebook.stdin.flush()
        assert json.loads(notebook.stdout.readline()) == [[len(games)]]
        assert notebook.wait(timeout=120) == 0
        wait_for_snapshot(snapshot, service.recorder.max_notification_id() or 0)
        with duckdb.connect(snapshot, read_only=True) as fresh:
            assert fresh.sql("SELECT count(*) FROM games WHERE status = 'ended'").fetchall() == [(len(games) + 1,)]
    finally:
        if notebook is not None and notebook.poll() is None:
            notebook.kill()
            notebook.wait()
        stop(server)


OPEN_READ_ONLY = "import duckdb, sys; duckdb.connect(sys.argv[1], read_only=True)"
HOLD = "import duckdb, sys; c = duckdb.connect(sys.argv[1]); print('held', flush=True); sys.stdin.readline()"


def test_errors_name_no_file_and_no_process(tmp_path: Path) -> None:
    main_file = tmp_path / "held" / "analytics.duckdb"
    main_file.parent.mkdir()
    reader = AnalyticsDatabase(str(main_file), read_only=True)
    with pytest.raises(AnalyticsNotReady) as not_ready:
        reader.position()
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(main_file)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        writer = AnalyticsDatabase(str(main_file), lock_timeout=0.2)
        assert not writer.try_writer()
        with pytest.raises(AnalyticsBusy) as busy, writer.connect():
            pass
    finally:
        holder.kill()
        holder.wait()
    for problem in (not_ready.value, busy.value):
        assert str(tmp_path) not in problem.message and "held" not in problem.message
        assert "PID" not in problem.message.upper() and str(holder.pid) not in problem.message
    assert busy.value.message == "the analytics tables are in use by another process: try again in a moment"


def test_the_snapshot_is_renewed_at_most_every_snapshot_seconds(tmp_path: Path) -> None:
    clock = [100.0]
    database = AnalyticsDatabase(str(tmp_path / "a.duckdb"), snapshot_seconds=5.0, now=lambda: clock[0])
    snapshot = Path(database.snapshot_path)

    def advance(position: int) -> None:
        with database.connect() as connection:
            connection.execute("UPDATE _analytics_position SET position = ?", [position])

    def published_position() -> int:
        with duckdb.connect(str(snapshot), read_only=True) as reading:
            return int(reading.sql("SELECT position FROM _analytics_position").fetchall()[0][0])

    advance(1)
    assert database.publish() and published_position() == 1  # the first one at once
    advance(2)
    clock[0] += 4.9
    assert not database.publish() and published_position() == 1  # too soon
    clock[0] += 0.1
    assert database.publish() and published_position() == 2
    assert not database.publish()  # nothing new
    advance(3)
    assert database.publish(force=True) and published_position() == 3
    database.close()
    assert AnalyticsSettings().snapshot_seconds == 2.0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.duckdb", "a.snapshot.duckdb"]  # no partial copy


def test_under_steady_commands_the_background_projection_runs_every_two_seconds() -> None:
    from api.http.analytics_source import MAX_LAG_SECONDS, background_due, caught_up

    class Store:
        latest = 0

    class Projector:  # one batch applies everything saved before it, as at 100 commands/s
        position = 0
        source = SimpleNamespace(latest=lambda: Store.latest)
        batches: list[float] = []

        def step(self) -> int:
            applied, self.position = Store.latest - self.position, Store.latest
            self.batches.append(now)
            return applied

    projector = Projector()
    caught_up_at = 0.0
    for tick in range(1, 41):  # the keeper looks every quarter second, for 10 s
        now = tick * 0.25
        Store.latest += 25  # a command saved every 10 ms: never quiet, so only the lag bound decides
        if background_due(now, now - 0.01, caught_up_at) and caught_up(projector):  # type: ignore[arg-type]
            caught_up_at = now
    assert projector.batches == [2.0, 4.0, 6.0, 8.0, 10.0] and MAX_LAG_SECONDS == 2.0
    batches = projector.batches
    assert all(later - earlier < 5 for earlier, later in zip([0.0, *batches], batches, strict=False))
    Store.latest = projector.position
    assert caught_up(projector) and projector.batches[-1] == 10.0  # nothing new: no batch
    assert background_due(5.0, 3.9, 4.9)  # quiet for a second: at once
