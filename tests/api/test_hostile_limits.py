"""The creation limit covers tournaments and every table a round seats, and joins have a limit of
their own: a client refused ``POST /games`` cannot create games by seating a round instead."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.http.app import create_app
from infra.games.service import GameService
from infra.settings import Settings
from tests.support.http import auth

GAME = {"game": "sealed_guess", "players": 2}
TOURNAMENT = {"game": "sealed_guess", "settings": {"table_size": 2, "rounds": 1}}


def limited(service: GameService, address: str = "10.0.0.1", **limits: str) -> TestClient:
    app = create_app(service, settings=Settings(**limits))  # type: ignore[arg-type]
    return TestClient(app, client=(address, 5000))


def code_of(response: Any) -> str:
    return str(response.json()["error"]["code"])


def games_created(service: GameService) -> int:
    """Games in the event store itself: the lobby is a read model that may lag behind it."""
    started = [n for n in service.recorder.select_notifications(start=1, limit=10_000) if n.originator_version == 1]
    return sum(n.topic.endswith("GameAggregate.Started") for n in started)


def tournament_of(client: TestClient, players: int) -> tuple[str, str]:
    created = client.post("/tournaments", json=TOURNAMENT)
    assert created.status_code == 201, created.text
    tid, organiser = created.json()["tournament_id"], created.json()["organiser_token"]
    for i in range(players):
        registered = client.post(f"/tournaments/{tid}/players", json={"name": f"p{i}"}, headers=auth(organiser))
        assert registered.status_code == 201, registered.text
    return tid, organiser


def test_creating_tournaments_counts_against_the_creation_limit(service: GameService) -> None:
    client = limited(service, creation_rate_limit="3/minute", join_rate_limit="")
    assert [client.post("/tournaments", json=TOURNAMENT).status_code for _ in range(3)] == [201] * 3
    refused = client.post("/tournaments", json=TOURNAMENT)
    assert refused.status_code == 429 and code_of(refused) == "RATE_LIMITED"
    assert int(refused.headers["Retry-After"]) >= 1
    assert client.post("/games", json=GAME).status_code == 429  # one allowance for both


def test_seating_a_round_counts_each_table_and_is_refused_whole(service: GameService) -> None:
    client = limited(service, creation_rate_limit="4/minute", join_rate_limit="")
    tid, organiser = tournament_of(client, 4)  # one creation; the round needs two tables
    assert [client.post("/games", json=GAME).status_code for _ in range(2)] == [201, 201]  # one left
    games_before = games_created(service)
    version_before = client.get(f"/tournaments/{tid}").json()["version"]
    refused = client.post(f"/tournaments/{tid}/rounds", headers=auth(organiser))
    assert refused.status_code == 429 and code_of(refused) == "RATE_LIMITED", refused.text
    assert "2 at once" in refused.json()["error"]["message"]
    assert games_created(service) == games_before  # no table's game was created
    assert client.get(f"/tournaments/{tid}").json()["version"] == version_before
    assert client.post("/games", json=GAME).status_code == 201  # the refused round used none of it
    assert client.post("/games", json=GAME).status_code == 429
    again = client.post(f"/tournaments/{tid}/rounds", headers=auth(organiser))  # after POST /games' 429
    assert again.status_code == 429 and games_created(service) == games_before + 1


def test_a_round_within_the_allowance_uses_one_creation_per_table(service: GameService) -> None:
    client = limited(service, creation_rate_limit="4/minute", join_rate_limit="")
    tid, organiser = tournament_of(client, 4)
    seated = client.post(f"/tournaments/{tid}/rounds", headers=auth(organiser))
    assert seated.status_code == 201 and len(seated.json()["tables"]) == 2
    assert client.post("/games", json=GAME).status_code == 201  # the fourth creation
    assert client.post("/games", json=GAME).status_code == 429


def test_a_non_organiser_is_refused_as_such_before_the_limit_is_asked(service: GameService) -> None:
    client = limited(service, creation_rate_limit="2/minute", join_rate_limit="")
    tid, _ = tournament_of(client, 4)
    forged = client.post(f"/tournaments/{tid}/rounds", headers=auth("forged"))
    assert forged.status_code == 403
    assert client.post("/games", json=GAME).status_code == 201  # the refusal used no allowance


@pytest.mark.parametrize("rate", ["2/minute"])
def test_joins_have_their_own_limit_per_client(service: GameService, rate: str) -> None:
    client = limited(service, creation_rate_limit="", join_rate_limit=rate)
    game = client.post("/games", json={**GAME, "players": 3, "open_seats": True}).json()["game_id"]
    assert [client.post(f"/games/{game}/join", json={"name": n}).status_code for n in ("A", "B")] == [201, 201]
    refused = client.post(f"/games/{game}/join", json={"name": "C"})
    assert refused.status_code == 429 and code_of(refused) == "RATE_LIMITED"
    assert "join 2/minute" in refused.json()["error"]["message"]
    assert client.get(f"/games/{game}").json()["names"] == {"0": "A", "1": "B"}
    other = TestClient(client.app, client=("10.0.0.2", 5000))
    assert other.post(f"/games/{game}/join", json={"name": "C"}).status_code == 201


def test_the_join_limit_is_on_by_default(service: GameService, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ALEXANDRIA_JOIN_RATE_LIMIT", raising=False)
    assert Settings().join_rate_limit == "60/minute"
