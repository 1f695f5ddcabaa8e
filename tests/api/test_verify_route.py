"""``GET /games/{id}/verify?fingerprint=&commitment=``: the game's record checked against what was
published about it, with the same verifier and the same meaning as ``alexandria verify``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from api.cli.main import main
from tests.support.http import create_game, play_to_end


@pytest.fixture
def ended(client: TestClient) -> dict[str, Any]:
    created = create_game(client, "sealed_guess", 2, seed="published")
    play_to_end(client, created)
    log = client.get(f"/games/{created['game_id']}/events").json()
    return {
        "game_id": created["game_id"],
        "fingerprint": log[-1]["hash"],
        "commitment": log[0]["data"]["seed_commitment"],
    }


def verify(client: TestClient, game_id: str, **published: str) -> dict[str, Any]:
    response = client.get(f"/games/{game_id}/verify", params=published)
    assert response.status_code == 200, response.text
    return dict(response.json())


def test_the_published_fingerprint_and_commitment_match(client: TestClient, ended: dict[str, Any]) -> None:
    report = verify(client, ended["game_id"], fingerprint=ended["fingerprint"], commitment=ended["commitment"])
    assert report["verified"] and report["problems"] == [] and report["fingerprint"] == ended["fingerprint"]
    # Hex in capitals is the same value (as on the command line).
    assert verify(client, ended["game_id"], fingerprint=ended["fingerprint"].upper())["verified"]


def test_another_fingerprint_or_commitment_is_reported_as_not_the_published_game(
    client: TestClient, ended: dict[str, Any]
) -> None:
    other = "ab" * 32
    report = verify(client, ended["game_id"], fingerprint=other)
    assert not report["verified"] and report["chain_ok"] and report["seed_ok"]
    (problem,) = report["problems"]
    assert f"is {ended['fingerprint']}, not the published" in problem and "not the published game record" in problem
    assert report["first_bad_position"] == report["records"] and report["expected"] == other
    report = verify(client, ended["game_id"], commitment=other)
    assert not report["verified"] and report["first_bad_position"] == 1 and report["expected"] == other
    assert f"the seed commitment is {ended['commitment']}, not the published" in report["problems"][0]


def test_the_route_and_the_command_line_give_the_same_report(
    client: TestClient, ended: dict[str, Any], tmp_path: Path
) -> None:
    record = tmp_path / "game.jsonl"
    record.write_text(client.get(f"/games/{ended['game_id']}/export").text)
    for published in ({"fingerprint": ended["fingerprint"]}, {"fingerprint": "0" * 64, "commitment": "1" * 64}):
        options = [part for name, value in published.items() for part in (f"--{name}", value)]
        offline = CliRunner().invoke(main, ["verify", str(record), *options, "--json"])
        (from_the_command_line,) = json.loads(offline.stdout)["files"]
        del from_the_command_line["file"]
        assert verify(client, ended["game_id"], **published) == from_the_command_line


@pytest.mark.parametrize("name", ["fingerprint", "commitment"])
@pytest.mark.parametrize("value", ["", "xyz", "a" * 63, "a" * 65, "g" * 64, " " + "a" * 64])
def test_a_malformed_published_value_is_bad_input(
    client: TestClient, ended: dict[str, Any], name: str, value: str
) -> None:
    response = client.get(f"/games/{ended['game_id']}/verify", params={name: value})
    assert response.status_code == 400, response.text
    error = response.json()["error"]
    assert error["code"] == "BAD_INPUT" and name in error["message"]


def test_the_published_values_are_in_the_openapi_document(client: TestClient) -> None:
    operation = client.get("/openapi.json").json()["paths"]["/games/{game_id}/verify"]["get"]
    parameters = {p["name"]: p for p in operation["parameters"] if p["in"] == "query"}
    assert set(parameters) == {"fingerprint", "commitment"}
    for name, parameter in parameters.items():
        assert not parameter.get("required", False)
        assert f"alexandria verify --{name}" in parameter["description"]
        schema = parameter["schema"]
        assert (schema["type"], schema["pattern"]) == ("string", "^[0-9a-fA-F]{64}$")
