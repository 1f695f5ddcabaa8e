"""The contract: every command of every game in the OpenAPI document with its fields, one error
enum holding every code the server sends, one strictness rule for every body, media types,
CORS off unless configured, and /docs served without any other host."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.contract.error_codes import error_codes
from api.contract.models import model_prefix
from api.http.app import create_app
from domain.catalog import GAME_PACKAGES, GAMES
from domain.kernel.bots import RandomBot
from domain.kernel.chance import Chance
from infra.games.service import GameService
from infra.games.simulation import play_with_bot
from infra.settings import Settings
from tests.support.http import auth


def create(client: TestClient, game: str = "peloponnes", players: int = 3, **more: Any) -> dict[str, Any]:
    response = client.post("/games", json={"game": game, "players": players, "seed": "contract", **more})
    assert response.status_code == 201, response.text
    return response.json()


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    from infra.bootstrap import build_service
    from infra.settings import Settings

    service = build_service(Settings(database_url="sqlite:///:memory:"))
    try:
        return create_app(service).openapi()
    finally:
        service.close()


def resolve(document: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        schema = document["components"]["schemas"][schema["$ref"].rsplit("/", 1)[-1]]
    return schema


@pytest.mark.parametrize("game", GAME_PACKAGES)
def test_every_command_is_in_the_openapi_with_its_fields(document: dict[str, Any], game: str) -> None:
    route = document["paths"][f"/games/{{game_id}}/commands/{game}"]["post"]
    body = resolve(document, route["requestBody"]["content"]["application/json"]["schema"])
    assert body["discriminator"]["propertyName"] == "type"
    mapping = body["discriminator"]["mapping"]
    definition = GAMES.get(game)
    assert set(mapping) == set(definition.command_types)
    for command_type, command in definition.command_types.items():
        schema = resolve(document, {"$ref": mapping[command_type]})
        assert schema["properties"]["type"]["const"] == command_type
        fields = {f.name for f in dataclasses.fields(command)}
        assert fields <= set(schema["properties"]), (command_type, fields - set(schema["properties"]))
        required = {
            f.name
            for f in dataclasses.fields(command)
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
        }
        assert set(schema.get("required", [])) == required | {"type"}
        assert schema["additionalProperties"] is False
    assert route["responses"]["200"]["content"]["application/json"]["schema"]["$ref"].endswith("/CommandResult")
    assert {"400", "401", "404", "409", "422"} <= set(route["responses"])


@pytest.mark.parametrize("game", GAME_PACKAGES)
def test_every_event_is_in_the_openapi_with_its_fields(document: dict[str, Any], game: str) -> None:
    schemas = document["components"]["schemas"]
    for event_type, event in GAMES.get(game).event_types.items():
        schema = schemas[f"{model_prefix(game)}{event_type}"]
        assert set(schema["properties"]) == {f.name for f in dataclasses.fields(event)}
        assert set(schema.get("required", [])) == {f.name for f in dataclasses.fields(event)} - set(event.hidden)
    for platform in ["GameCreatedData", "CommandAcceptedData", "SeatTakenData"]:
        assert platform in schemas


def test_no_route_documents_fastapis_422_detail(document: dict[str, Any]) -> None:
    assert "HTTPValidationError" not in document["components"]["schemas"]
    for path in document["paths"].values():
        for operation in path.values():
            for status, response in operation["responses"].items():
                if status.startswith(("4", "5")):
                    schema = response["content"]["application/json"]["schema"]
                    assert schema["$ref"].endswith("/Error"), (operation["operationId"], status)


def test_every_operation_has_its_own_id(document: dict[str, Any]) -> None:
    # a generated client names its functions after the operation ids: two alike, one is lost
    ids = [operation["operationId"] for path in document["paths"].values() for operation in path.values()]
    assert sorted({i for i in ids if ids.count(i) > 1}) == []


def test_stream_and_export_have_their_media_types(document: dict[str, Any]) -> None:
    stream = document["paths"]["/games/{game_id}/stream"]["get"]["responses"]["200"]["content"]
    export = document["paths"]["/games/{game_id}/export"]["get"]["responses"]["200"]["content"]
    assert list(stream) == ["text/event-stream"] and list(export) == ["application/x-ndjson"]


def test_the_error_enum_is_found_in_the_code(document: dict[str, Any]) -> None:
    enum = document["components"]["schemas"]["ErrorBody"]["properties"]["code"]["enum"]
    assert enum == list(error_codes())
    # platform codes (service errors, the kernel, the API's own) and every game's rule codes
    for code in ["UNKNOWN_GAME_ID", "STALE_VERSION", "READ_MODEL_BEHIND", "BAD_INPUT", "NOT_FOUND", "NAME_TAKEN"]:
        assert code in enum
    for code in ["CONQUEST_PRICE", "SUM_NOT_15", "TILE_NOT_OFFERED", "E_BID_TOO_LOW"]:
        assert code in enum


def test_every_code_the_server_sends_is_in_the_enum(client: TestClient, service: GameService) -> None:
    """Refusals met by playing: random fields on every command of every game, at many points of
    real games, plus the platform's refusals over HTTP. Each code must be one of the enum's."""
    enum = set(error_codes())
    seen: set[str] = set()
    rng = Chance(b"codes")
    for game in GAME_PACKAGES:
        created = create(client, game, 3 if game != "alexandros" else 2)
        tokens = [s["token"] for s in created["seats"]]
        for step in range(60):
            view = client.get(f"/games/{created['game_id']}").json()
            if view["status"] == "ended":
                break
            seat = int(rng.choice(f"s{step}", sorted(view["awaited"]) or ["0"]))
            for command_type, command in GAMES.get(game).command_types.items():
                body = {
                    "type": command_type,
                    **{f.name: junk(rng, f"{step}{f.name}") for f in dataclasses.fields(command)},
                }
                answer = client.post(
                    f"/games/{created['game_id']}/commands/{game}", json=body, headers=auth(tokens[seat])
                )
                if answer.status_code >= 400:
                    seen.add(answer.json()["error"]["code"])
            moves = client.get(f"/games/{created['game_id']}/legal-moves", headers=auth(tokens[seat])).json()["moves"]
            if moves:
                move = rng.choice(f"m{step}", moves)
                client.post(f"/games/{created['game_id']}/commands/{game}", json=move, headers=auth(tokens[seat]))
    running = create(client)
    view = client.get(f"/games/{running['game_id']}").json()
    turn_token = running["seats"][int(next(iter(view["awaited"])))]["token"]
    first = {"type": "pass_turn", "command_id": "once"}
    client.post(f"/games/{running['game_id']}/commands/peloponnes", json=first, headers=auth(turn_token))
    waiting = create(client, open_seats=True)
    joined = client.post(f"/games/{waiting['game_id']}/join", json={"name": "ann"}).json()
    ended = service.create_game("peloponnes", 2, None, b"ended")
    play_with_bot(service, ended, RandomBot(b"ended"))
    platform = [
        client.post("/games", json={"game": "chess", "players": 2}),
        client.post("/games", json={"game": "peloponnes", "players": 9}),
        client.post("/games", json={"game": "peloponnes", "players": 2, "options": {"x": 1}}),
        client.get("/games/nope"),
        client.get("/nowhere"),
        client.delete("/games"),
        client.post(f"/games/{ended.game_id}/commands/peloponnes", json={"type": "pass_turn"}, headers=auth("x")),
        client.post(
            f"/games/{ended.game_id}/commands/alexandros", json={"type": "end_turn"}, headers=auth(ended.tokens[0])
        ),
        client.post(
            f"/games/{ended.game_id}/commands/peloponnes", json={"type": "pass_turn"}, headers=auth(ended.tokens[0])
        ),
        client.get(f"/games/{ended.game_id}/versions/100000"),
        client.post(f"/games/{ended.game_id}/join", json={"name": "ann"}),
        client.post(f"/games/{running['game_id']}/fork", json={"version": 1}),
        client.post(
            f"/games/{running['game_id']}/commands/peloponnes",
            json={"type": "withdraw_bid", "command_id": "once"},
            headers=auth(turn_token),
        ),
        client.post(f"/games/{waiting['game_id']}/join", json={"name": "ANN"}),
        client.post(f"/games/{waiting['game_id']}/join", json={"name": "bo", "seat": 0}),
        client.post(
            f"/games/{waiting['game_id']}/commands/peloponnes",
            json={"type": "pass_turn"},
            headers=auth(joined["token"]),
        ),
        client.post(
            f"/games/{running['game_id']}/commands/peloponnes",
            json={"type": "pass_turn", "expected_version": 1},
            headers=auth(turn_token),
        ),
    ]
    # As a context manager: the app's background projector stops before the service closes.
    with TestClient(
        create_app(service, settings=Settings(creation_rate_limit="1/minute", max_body_bytes=2048))
    ) as limited:
        platform += [
            limited.post("/games", json={"game": "peloponnes", "players": 2}),
            limited.post("/games", json={"game": "peloponnes", "players": 2}),
            limited.post("/games", json={"game": "peloponnes", "players": 2, "seed": "x" * 4000}),
        ]
    platform.append(client.get(f"/games/{ended.game_id}", headers={"Authorization": "Basic abc"}))
    seen |= {answer.json()["error"]["code"] for answer in platform if answer.status_code >= 400}
    assert seen - enum == set()
    assert len(seen) > 15, seen  # the probe did meet many refusals
    platform_codes = {"CONFLICT", "NAME_TAKEN", "SEAT_TAKEN", "GAME_NOT_STARTED", "STALE_VERSION", "WRONG_GAME"}
    platform_codes |= {"RATE_LIMITED", "PAYLOAD_TOO_LARGE", "BAD_TOKEN"}
    assert platform_codes <= seen, platform_codes - seen


def junk(rng: Chance, label: str) -> Any:
    return rng.choice(label, [0, 1, -1, 7, "x", "A1", [], [0, 0], [[0, 0]], {}, {"wood": 1}, None, True, "N(0,0)"])


def test_malformed_command_bodies_are_bad_input_in_the_envelope(client: TestClient) -> None:
    created = create(client)
    game, token = created["game_id"], created["seats"][0]["token"]
    for route in [f"/games/{game}/commands/peloponnes", f"/games/{game}/commands"]:
        for body in [{"type": ["a"]}, {"type": {"a": 1}}, {"type": None}, [], "pass_turn", 3]:
            answer = client.post(route, json=body, headers=auth(token))
            assert answer.status_code == 400, (route, body, answer.text)
            assert answer.json()["error"]["code"] in ("BAD_INPUT", "UNKNOWN_COMMAND")
        broken = client.post(route, content=b"{not json", headers={**auth(token), "Content-Type": "application/json"})
        assert broken.status_code == 400 and broken.json()["error"]["code"] == "BAD_INPUT"
    assert client.get(f"/games/{game}").json()["version"] == created["version"]  # nothing recorded


@pytest.mark.parametrize(
    "change",
    [
        {"players": "3"},
        {"players": 3.0},
        {"players": True},
        {"game": 7},
        {"seed": 5},
        {"options": []},
        {"open_seats": "yes"},
        {"colour": "red"},
    ],
)
def test_creation_refuses_wrong_types_and_unknown_fields_like_commands(client: TestClient, change: dict) -> None:
    answer = client.post("/games", json={"game": "peloponnes", "players": 3, **change})
    assert answer.status_code == 400, answer.text
    assert answer.json()["error"]["code"] == "BAD_INPUT"
    assert client.get("/games").json() == []


def test_commands_refuse_the_same_wrong_types_and_unknown_fields(client: TestClient) -> None:
    created = create(client)
    game = created["game_id"]
    view = client.get(f"/games/{game}").json()
    seat = int(next(iter(view["awaited"])))
    token = created["seats"][seat]["token"]
    bodies = [
        {"type": "place_bid", "tile_id": "A01", "amount": "3"},
        {"type": "place_bid", "tile_id": "A01", "amount": 3.0},
        {"type": "place_bid", "tile_id": "A01", "amount": True},
        {"type": "pass_turn", "colour": "red"},
        {"type": "pass_turn", "expected_version": "1"},
        {"type": "pass_turn", "command_id": ""},
    ]
    for body in bodies:
        answer = client.post(f"/games/{game}/commands/peloponnes", json=body, headers=auth(token))
        assert answer.status_code == 400, (body, answer.text)
        assert answer.json()["error"]["code"] == "BAD_INPUT"


def test_a_command_to_another_games_route_is_refused(client: TestClient) -> None:
    created = create(client)
    game, token = created["game_id"], created["seats"][0]["token"]
    answer = client.post(f"/games/{game}/commands/alexandros", json={"type": "end_turn"}, headers=auth(token))
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "WRONG_GAME"
    assert f"/games/{game}/commands/peloponnes" in answer.json()["error"]["message"]


def test_cors_is_off_by_default_and_on_for_the_configured_origins(service: GameService) -> None:
    preflight = {"Origin": "https://play.example", "Access-Control-Request-Method": "POST"}
    with TestClient(create_app(service, cors_origins=())) as off:
        assert "access-control-allow-origin" not in off.options("/games", headers=preflight).headers
        assert (
            "access-control-allow-origin" not in off.get("/games", headers={"Origin": "https://play.example"}).headers
        )
    with TestClient(create_app(service, cors_origins=["https://play.example"])) as on:
        answer = on.options("/games", headers={**preflight, "Access-Control-Request-Headers": "Authorization"})
        assert answer.status_code == 200
        assert answer.headers["access-control-allow-origin"] == "https://play.example"
        assert on.get("/games", headers={"Origin": "https://play.example"}).headers["access-control-allow-origin"]
        other = on.get("/games", headers={"Origin": "https://elsewhere.example"})
    assert "access-control-allow-origin" not in other.headers


def test_cors_origins_come_from_one_setting(monkeypatch: pytest.MonkeyPatch, service: GameService) -> None:
    monkeypatch.setenv("ALEXANDRIA_CORS_ORIGINS", "https://a.example, https://b.example")
    with TestClient(create_app(service)) as client:
        answer = client.get("/games", headers={"Origin": "https://b.example"})
    assert answer.headers["access-control-allow-origin"] == "https://b.example"


def test_docs_are_served_from_this_server_only(client: TestClient) -> None:
    page = client.get("/docs")
    assert page.status_code == 200
    references = re.findall(r"""(?:src|href|url)\s*[=:]\s*['"]([^'"]+)['"]""", page.text)
    assert references, page.text
    for reference in references:
        assert reference.startswith("/"), f"/docs refers to another host: {reference}"
        assert client.get(reference).status_code == 200, reference
    assert "//" not in "".join(r.removeprefix("/") for r in references)
    assert client.get("/redoc").status_code == 404  # ReDoc would load from a CDN: not offered


def test_model_names_are_unique_per_game() -> None:
    assert len({model_prefix(g) for g in GAMES.ids()}) == len(GAMES.ids())
    assert Path(__file__).exists()
