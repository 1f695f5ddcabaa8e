"""What one client may ask: body size (413), field sizes (400), the game-creation rate (429),
and a malformed Authorization header (401)."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from api.http.app import create_app
from infra.games.service import GameService
from infra.settings import Settings
from tests.support.http import auth

GAME = {"game": "sealed_guess", "players": 2}


def app_with(service: GameService, **limits: object) -> TestClient:
    return TestClient(create_app(service, settings=Settings(**limits)))  # type: ignore[arg-type]


def error_of(response: object) -> str:
    code: str = response.json()["error"]["code"]  # type: ignore[attr-defined]
    return code


def test_a_body_above_the_limit_is_refused_with_413_and_changes_nothing(service: GameService) -> None:
    client = app_with(service, max_body_bytes=1_000)
    padded = {**GAME, "options": {"padding": "x" * 2_000}}
    refused = client.post("/games", json=padded)
    assert refused.status_code == 413 and error_of(refused) == "PAYLOAD_TOO_LARGE"
    assert "1000 bytes" in refused.json()["error"]["message"]
    created = client.post("/games", json=GAME).json()
    command = {"type": "commit_guess", "guess": 3, "command_id": "x" * 2_000}
    headers = auth(created["seats"][0]["token"])
    too_big = client.post(f"/games/{created['game_id']}/commands", json=command, headers=headers)
    assert too_big.status_code == 413 and error_of(too_big) == "PAYLOAD_TOO_LARGE"
    assert [g["game_id"] for g in client.get("/games").json()] == [created["game_id"]]
    assert client.get(f"/games/{created['game_id']}").json()["version"] == created["version"]


def test_a_chunked_body_without_a_length_is_cut_off_at_the_limit(service: GameService) -> None:
    client = app_with(service, max_body_bytes=1_000)

    def chunks() -> Iterator[bytes]:
        yield json.dumps(GAME)[:-1].encode() + b', "seed": "'
        for _ in range(100):
            yield b"s" * 100
        yield b'"}'

    refused = client.post("/games", content=chunks(), headers={"Content-Type": "application/json"})
    assert refused.status_code == 413 and error_of(refused) == "PAYLOAD_TOO_LARGE"
    json_type = {"Content-Type": "application/json"}
    small = client.post("/games", content=iter([json.dumps(GAME).encode()]), headers=json_type)
    assert small.status_code == 201, small.text
    assert len(client.get("/games").json()) == 1


def test_the_seed_and_the_options_are_bounded(service: GameService) -> None:
    client = app_with(service, max_seed_chars=16, max_options_bytes=64)
    long_seed = client.post("/games", json={**GAME, "seed": "s" * 17})
    assert long_seed.status_code == 400 and error_of(long_seed) == "BAD_INPUT"
    assert "at most 16 characters" in long_seed.json()["error"]["message"]
    big_options = client.post("/games", json={**GAME, "options": {"note": "o" * 64}})
    assert big_options.status_code == 400 and error_of(big_options) == "BAD_INPUT"
    assert "options must be at most 64 bytes" in big_options.json()["error"]["message"]
    assert client.get("/games").json() == []
    assert client.post("/games", json={**GAME, "seed": "s" * 16}).status_code == 201


def test_the_default_bounds_refuse_a_4_mib_seed(client: TestClient) -> None:
    refused = client.post("/games", json={**GAME, "seed": "s" * (4 << 20)})
    assert refused.status_code == 413 and error_of(refused) == "PAYLOAD_TOO_LARGE"
    within_body = client.post("/games", json={**GAME, "seed": "s" * 10_000})
    assert within_body.status_code == 400 and error_of(within_body) == "BAD_INPUT"
    assert client.get("/games").json() == []


def test_a_command_is_bounded_and_a_refused_one_records_nothing(service: GameService) -> None:
    client = app_with(service, max_command_bytes=100)
    created = client.post("/games", json=GAME).json()
    game, token = created["game_id"], created["seats"][0]["token"]
    padded = {"type": "commit_guess", "guess": [1] * 100}
    refused = client.post(f"/games/{game}/commands", json=padded, headers=auth(token))
    assert refused.status_code == 400 and error_of(refused) == "BAD_INPUT"
    assert "at most 100 bytes" in refused.json()["error"]["message"]
    assert len(client.get(f"/games/{game}/events").json()) == created["version"]
    accepted = client.post(f"/games/{game}/commands", json={"type": "commit_guess", "guess": 3}, headers=auth(token))
    assert accepted.status_code == 200, accepted.text


def test_a_client_that_creates_too_many_games_gets_429_with_retry_after(service: GameService) -> None:
    app = create_app(service, settings=Settings(creation_rate_limit="3/minute"))
    client = TestClient(app, client=("10.0.0.1", 5000))
    for _ in range(3):
        assert client.post("/games", json=GAME).status_code == 201
    refused = client.post("/games", json=GAME)
    assert refused.status_code == 429 and error_of(refused) == "RATE_LIMITED"
    assert "3/minute" in refused.json()["error"]["message"]
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    assert len(client.get("/games").json()) == 3
    # Another client has its own allowance.
    assert TestClient(app, client=("10.0.0.2", 5000)).post("/games", json=GAME).status_code == 201


def test_a_fork_counts_as_a_creation(service: GameService) -> None:
    app = create_app(service, settings=Settings(creation_rate_limit="1/minute"))
    client = TestClient(app)
    created = client.post("/games", json=GAME).json()
    refused = client.post(f"/games/{created['game_id']}/fork", json={"version": 1})
    assert refused.status_code == 429 and error_of(refused) == "RATE_LIMITED"


def test_no_creation_limit_when_the_setting_is_empty(service: GameService) -> None:
    client = app_with(service, creation_rate_limit="")
    assert all(client.post("/games", json=GAME).status_code == 201 for _ in range(70))


def test_the_creation_limit_is_on_by_default(service: GameService, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ALEXANDRIA_CREATION_RATE_LIMIT", raising=False)
    client = TestClient(create_app(service))
    assert all(client.post("/games", json=GAME).status_code == 201 for _ in range(60))
    assert client.post("/games", json=GAME).status_code == 429


@pytest.mark.parametrize(
    "header",
    ["Basic dXNlcjpwYXNz", "Bearer", "Bearer ", "bearer", "Token abc", "Bearer two words", "", "abc"],
)
def test_a_malformed_authorization_header_is_401_not_a_spectator(client: TestClient, header: str) -> None:
    created = client.post("/games", json=GAME).json()
    for path in (f"/games/{created['game_id']}", f"/games/{created['game_id']}/events"):
        response = client.get(path, headers={"Authorization": header})
        assert response.status_code == 401, (header, response.text)
        assert error_of(response) == "BAD_TOKEN"
        assert "Bearer SEAT_TOKEN" in response.json()["error"]["message"]


def test_no_authorization_header_is_a_spectator_and_a_bearer_token_a_seat(client: TestClient) -> None:
    created = client.post("/games", json=GAME).json()
    path = f"/games/{created['game_id']}/legal-moves"
    assert client.get(path).json()["seat"] is None
    assert client.get(path, headers={"Authorization": f"bearer {created['seats'][1]['token']}"}).json()["seat"] == 1
