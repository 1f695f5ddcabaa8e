"""Every option of every game goes through one typed check derived from the catalog's JSON Schema
(``domain.kernel.options``): over the HTTP create route, a value of the wrong JSON type, a float
where an integer is asked for (``8.0``, ``-0.0``), a huge or a negative value is refused with
400 BAD_OPTIONS and creates nothing; the values the schema offers are taken and recorded as they are."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from domain.catalog import GAME_PACKAGES


def catalog_options(client: TestClient) -> list[tuple[str, int, dict[str, Any]]]:
    """(game, players, option) for every option the catalog shows, walking it as a client does."""
    listed = {entry["game"] for entry in client.get("/games/catalog").json()}
    assert set(GAME_PACKAGES) <= listed
    found = []
    for game in GAME_PACKAGES:
        data = client.get(f"/games/catalog/{game}").json()
        for option in data["options"]:
            players = option["players"][0] if option["players"] else data["min_players"]
            found.append((game, players, option))
    return found


def wrong_values(schema: dict[str, Any]) -> list[Any]:
    """Values outside ``schema``: other JSON types, floats for integers, huge and negative numbers."""
    default = schema["default"]
    values: list[Any] = [None, [default], {"value": default}]
    if schema["type"] == "integer":
        values += [float(default), -0.0, 0.0, 1.5, True, False, str(default), 10**30, -(10**30), 2**63, -1]
        values += [schema["maximum"] + 1] if "maximum" in schema else []
        values += [max(schema["enum"]) + 1, min(schema["enum"]) - 1] if "enum" in schema else []
    elif schema["type"] == "string":
        values += [0, 1, True, "", f"{default} ", default.upper(), "x" * 100]
    elif schema["type"] == "boolean":
        values += [0, 1, 1.0, "true", "false", ""]
    return [v for v in values if not any(type(v) is type(e) and v == e for e in schema.get("enum", []))]


def create(client: TestClient, game: str, players: int, options: dict[str, Any]) -> Any:
    return client.post("/games", json={"game": game, "players": players, "options": options})


def test_the_walk_reaches_every_game_and_option(client: TestClient) -> None:
    walked = {(game, option["name"]) for game, _, option in catalog_options(client)}
    assert {game for game, _ in walked} == set(GAME_PACKAGES)
    assert ("catan_alexander", "starting_gold") in walked and ("empire_builder", "oldest_seat") in walked


def test_every_option_of_every_game_refuses_wrong_types_floats_huge_and_negative_values(client: TestClient) -> None:
    tried = 0
    for game, players, option in catalog_options(client):
        name, schema, requires = option["name"], option["schema"], option["requires"]
        for value in wrong_values(schema):
            refused = create(client, game, players, {**requires, name: value})
            assert refused.status_code == 400, (game, name, value, refused.text)
            assert refused.json()["error"]["code"] == "BAD_OPTIONS", (game, name, value)
            assert name in refused.json()["error"]["message"]
            tried += 1
    assert tried > 60
    assert client.get("/games").json() == []  # nothing was created


def test_numbers_json_carries_that_are_no_numbers_are_refused(client: TestClient) -> None:
    """``NaN``, ``Infinity`` and a number too large for a float are refused when the body is read
    (no JSON number); ``8e0`` and ``8.000`` are floats, which an integer option refuses."""
    refusals = {"NaN": "NON_FINITE_NUMBER", "Infinity": "NON_FINITE_NUMBER", "-Infinity": "NON_FINITE_NUMBER"}
    refusals |= {"1e400": "NON_FINITE_NUMBER", "8e0": "BAD_OPTIONS", "8.000": "BAD_OPTIONS"}
    for literal, code in refusals.items():
        body = '{"game": "catan_alexander", "players": 3, "options": {"starting_gold": ' + literal + "}}"
        refused = client.post("/games", content=body, headers={"Content-Type": "application/json"})
        assert refused.status_code == 400 and refused.json()["error"]["code"] == code, (literal, refused.text)
    digits = '{"game": "empire_builder", "players": 3, "options": {"oldest_seat": ' + "9" * 5000 + "}}"
    huge = client.post("/games", content=digits, headers={"Content-Type": "application/json"})
    assert huge.status_code == 400, huge.text
    assert client.get("/games").json() == []


@pytest.mark.parametrize("gold", [8.0, -0.0, 0.0, True, "8"])
def test_catan_refuses_a_float_starting_gold_in_games_and_tournaments(client: TestClient, gold: Any) -> None:
    refused = create(client, "catan_alexander", 3, {"starting_gold": gold})
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "BAD_OPTIONS"
    settings = {"table_size": 3, "rounds": 1, "options": {"starting_gold": gold}}
    tournament = client.post("/tournaments", json={"game": "catan_alexander", "settings": settings})
    assert tournament.status_code == 400 and tournament.json()["error"]["code"] == "BAD_OPTIONS", tournament.text


def test_every_value_the_schema_offers_is_taken_and_recorded_with_its_type(client: TestClient) -> None:
    for game, players, option in catalog_options(client):
        name, schema, requires = option["name"], option["schema"], option["requires"]
        for value in [schema["default"], *schema.get("enum", [])]:
            created = create(client, game, players, {**requires, name: value})
            assert created.status_code == 201, (game, name, value, created.text)
            first = client.get(f"/games/{created.json()['game_id']}/events").json()[0]
            recorded = first["data"]["options"][name]
            assert type(recorded) is type(value) and recorded == value
            assert json.dumps(recorded) == json.dumps(value)
