"""Two clients racing with the same expected version: one wins, one gets 409, the log stays whole."""

from __future__ import annotations

import threading

from fastapi.testclient import TestClient

from tests.support.http import auth, create_game


def race(client: TestClient, created: dict) -> list[int]:
    """Both seats send their command for version 1 at the same moment; the statuses they get."""
    barrier = threading.Barrier(2)
    statuses: list[int] = []

    def send(seat: int) -> None:
        barrier.wait()
        response = client.post(
            f"/games/{created['game_id']}/commands",
            json={"type": "commit_guess", "guess": 1 + seat, "expected_version": 1},
            headers=auth(created["seats"][seat]["token"]),
        )
        statuses.append(response.status_code)
        if response.status_code == 409:
            assert response.json()["error"]["code"] == "STALE_VERSION"

    threads = [threading.Thread(target=send, args=(seat,)) for seat in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return statuses


def test_same_expected_version_one_succeeds_one_conflicts(client: TestClient) -> None:
    for attempt in range(5):
        created = create_game(client, "sealed_guess", 2, seed=f"race-{attempt}")
        assert sorted(race(client, created)) == [200, 409]
        log = client.get(f"/games/{created['game_id']}/events").json()
        assert [r["position"] for r in log] == [1, 2, 3]
        assert log[2]["prev"] == log[1]["hash"]
