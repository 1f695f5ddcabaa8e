"""``GET /analytics/games/export``: ended games' records as JSON lines with game id and time,
page by page, and bad input refused with the error envelope."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.http.app import create_app
from domain.kernel.log import for_viewer
from infra.games.service import CreatedGame, GameService
from tests.support.analytics import simulated_store


@pytest.fixture(scope="module")
def store(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[GameService, list[CreatedGame], list[CreatedGame]]]:
    service, ended, running = simulated_store(tmp_path_factory.mktemp("analytics-http"), games_each=2)
    yield service, ended, running
    service.close()


@pytest.fixture(scope="module")
def client(store: tuple[GameService, list[CreatedGame], list[CreatedGame]]) -> TestClient:
    return TestClient(create_app(store[0]))


def lines_of(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines()]


def test_every_ended_game_in_full_with_its_game_id_and_time(
    client: TestClient, store: tuple[GameService, list[CreatedGame], list[CreatedGame]]
) -> None:
    service, ended, _running = store
    response = client.get("/analytics/games/export", params={"limit": 1000})
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/x-ndjson")
    assert "X-Next-Cursor" not in response.headers
    found = lines_of(response.text)
    by_game: dict[str, list[dict[str, Any]]] = {}
    for line in found:
        by_game.setdefault(line["game_id"], []).append(line)
    assert set(by_game) == {g.game_id for g in ended}  # running games are not exported
    for created in ended:
        stored = service.timed_records(created.game_id)
        assert [(x["position"], x["type"], x["recorded_at"], x["data"]) for x in by_game[created.game_id]] == [
            (r.position, r.type, at.isoformat(), for_viewer(r, None, reveal_all=True)["data"]) for r, at in stored
        ]
    ends = [by_game[g][-1]["recorded_at"] for g in dict.fromkeys(x["game_id"] for x in found)]
    assert ends == sorted(ends)  # games in the order they ended


def test_pages_follow_the_cursor_and_filters_apply(
    client: TestClient, store: tuple[GameService, list[CreatedGame], list[CreatedGame]]
) -> None:
    _, ended, _ = store
    seen: list[str] = []
    params: dict[str, Any] = {"limit": 3}
    for _ in range(10):
        response = client.get("/analytics/games/export", params=params)
        assert response.status_code == 200
        games = list(dict.fromkeys(x["game_id"] for x in lines_of(response.text)))
        assert len(games) == int(response.headers["X-Games"]) <= 3
        seen += games
        if "X-Next-Cursor" not in response.headers:
            break
        assert response.headers["Link"].endswith('rel="next"')
        params = {"limit": 3, "cursor": response.headers["X-Next-Cursor"]}
    assert sorted(seen) == sorted(g.game_id for g in ended) and len(seen) == len(set(seen))
    only = client.get("/analytics/games/export", params={"game": "alexandros"})
    assert {x["game"] for x in lines_of(only.text)} == {"alexandros"}
    everything = lines_of(client.get("/analytics/games/export").text)
    end_times = sorted({x["recorded_at"] for x in everything if x["type"] == "GameEnded"})
    middle = end_times[len(end_times) // 2]
    later = lines_of(client.get("/analytics/games/export", params={"since": middle}).text)
    earlier = lines_of(client.get("/analytics/games/export", params={"until": middle}).text)
    assert {x["recorded_at"] for x in later if x["type"] == "GameEnded"} == {t for t in end_times if t >= middle}
    assert {x["recorded_at"] for x in earlier if x["type"] == "GameEnded"} == {t for t in end_times if t < middle}
    assert client.get("/analytics/games/export", params={"since": "2999-01-01"}).text == ""


@pytest.mark.parametrize(
    "params",
    [
        {"game": "chess"},
        {"limit": 0},
        {"limit": 1001},
        {"cursor": "not-a-cursor"},
        {"since": "yesterday"},
    ],
)
def test_bad_input_is_refused_with_the_error_envelope(client: TestClient, params: dict[str, Any]) -> None:
    response = client.get("/analytics/games/export", params=params)
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "BAD_INPUT" and error["message"]


def test_a_window_that_ends_before_it_starts_is_unprocessable(client: TestClient) -> None:
    response = client.get("/analytics/games/export", params={"since": "2026-12-02T00:00:00Z", "until": "2026-12-01"})
    assert response.status_code == 422 and response.json()["error"]["code"] == "BAD_INPUT"


def test_the_export_sees_a_game_that_ends_after_the_first_read(tmp_path: Path) -> None:
    service, _ended, running = simulated_store(tmp_path, games_each=0, running=1)
    client = TestClient(create_app(service))
    assert client.get("/analytics/games/export").text == ""
    from domain.kernel.bots import RandomBot
    from infra.games.simulation import play_with_bot

    play_with_bot(service, running[0], RandomBot(b"finish"))
    found = lines_of(client.get("/analytics/games/export").text)
    assert {x["game_id"] for x in found} == {running[0].game_id}
    assert found[-1]["type"] == "GameEnded" and found[-1]["position"] == service.load(running[0].game_id).match.version
    service.close()


def test_the_embedded_server_keeps_the_tables_in_the_background_while_it_runs(tmp_path: Path) -> None:
    import time

    from infra.analytics.store import AnalyticsDatabase, AnalyticsSettings

    service, _, running = simulated_store(tmp_path, games_each=0, running=1)
    # Beside the event store, as the server's, and bound as the server's (DuckDB opens a file
    # once per process: a second opener in the same process must ask for the same configuration).
    tables = AnalyticsDatabase(str(tmp_path / "analytics.duckdb"), memory_limit=AnalyticsSettings().server_memory_limit)
    target = service.recorder.max_notification_id() or 0
    with TestClient(create_app(service)):  # the server runs: nobody reads analytics
        deadline = time.monotonic() + 60  # a safety net for a stuck thread, not a measure of speed
        while tables.position() < target:
            assert time.monotonic() < deadline, "the background projection did not catch up within a minute"
            time.sleep(0.05)
    with tables.connect() as connection:
        version = service.load(running[0].game_id).match.version
        assert connection.execute("SELECT status, version FROM games").fetchall() == [("running", version)]
    service.close()
