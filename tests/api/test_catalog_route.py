"""GET /games/catalog/{game}: options with schema and defaults that agree with the rules, player
counts, every command type, and static data from which a client resolves every id of a view.
Also the web client's pages and files, and the "everything" perspective's route."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from fastapi.testclient import TestClient

from domain.catalog import GAMES
from domain.kernel.bots import RandomBot
from domain.kernel.errors import RuleViolation
from infra.games.service import GameService
from infra.games.simulation import play_with_bot

PLAYERS = {"peloponnes": 3, "empire_builder": 3, "alexandros": 2, "catan_alexander": 3}


def catalog(client: TestClient, game: str) -> dict[str, Any]:
    response = client.get(f"/games/catalog/{game}")
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


@pytest.mark.parametrize("game", list(PLAYERS))
def test_the_catalog_names_the_games_player_counts_and_every_command(client: TestClient, game: str) -> None:
    data = catalog(client, game)
    definition = GAMES.get(game)
    assert (data["min_players"], data["max_players"]) == (definition.min_players, definition.max_players)
    assert {c["type"] for c in data["commands"]} == set(definition.command_types)
    assert {e["type"] for e in data["events"]} == set(definition.event_types)
    for command in data["commands"]:
        cls = definition.command_types[command["type"]]
        assert [f["name"] for f in command["fields"]] == [f.name for f in dataclasses.fields(cls)]


@pytest.mark.parametrize("game", list(PLAYERS))
def test_option_schemas_and_defaults_agree_with_the_rules(client: TestClient, game: str) -> None:
    data = catalog(client, game)
    definition = GAMES.get(game)
    for players in range(definition.min_players, definition.max_players + 1):
        defaults = data["default_options"][str(players)]
        assert defaults == definition.normalize_options(players, {})
        for option in data["options"]:
            applies = not option["players"] or players in option["players"]
            name, schema, given = option["name"], option["schema"], option["requires"]
            if not applies:
                with pytest.raises(RuleViolation):
                    definition.normalize_options(players, {**given, name: schema["default"]})
                continue
            if not given:
                assert defaults[name] == schema["default"]
            for value in [schema["default"], *schema.get("enum", [])]:  # every value offered is taken
                assert definition.normalize_options(players, {**given, name: value})[name] == value
            with pytest.raises(RuleViolation):  # and a value outside the schema is refused
                definition.normalize_options(players, {**given, name: "not a value"})
            for other, value in given.items():  # an option that needs another's value is refused without it
                others = next(o for o in data["options"] if o["name"] == other)["schema"].get("enum", [])
                for wrong in (v for v in others if v != value):
                    with pytest.raises(RuleViolation):
                        definition.normalize_options(players, {other: wrong, name: schema["default"]})


def test_an_unknown_game_is_a_404_in_the_error_envelope(client: TestClient) -> None:
    response = client.get("/games/catalog/chess")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "UNKNOWN_GAME"
    assert "peloponnes" in response.json()["error"]["message"]


def ids_resolve(game: str, static: dict[str, Any], state: dict[str, Any]) -> None:
    """Every id the view holds is found in the static data."""
    if game == "peloponnes":
        tiles = static["tiles"]
        for row in ("auction", "conquest"):
            assert all(t["tile_id"] in tiles for t in state[row])
        for seat in state["seats"]:
            assert seat["civilization"] is None or seat["civilization"] in static["civilizations"]
            assert all(t in tiles for t in seat["lands"])
            assert all(b["tile_id"] in tiles for b in seat["buildings"])
        assert all(t in tiles for t in state["box"])
        assert all(c in static["civilizations"] for c in state["undealt_civilizations"] or [])
    elif game == "empire_builder":
        locations = static["layout"]["locations"]
        for seat in state["seats"]:
            assert all(place in locations for place in seat["armies_at"])
        assert all(p in static["provinces"] for p in [*state["temples"], *state["cities"]])
        assert all(row["province"] in static["provinces"] for row in state["provinces"])
        assert state["symbol"] is None or state["symbol"] in static["symbols"]
        assert state["goal"] is None or state["goal"] in static["provinces"]
    elif game == "alexandros":
        spaces = {tuple(s["space"]) for s in static["spaces"]}
        points = {tuple(p["point"]) for p in static["points"]}
        assert tuple(state["alexander"]) in points
        assert all(tuple(end) in points for wall in state["walls"] for end in wall["side"])
        assert all(tuple(g["space"]) in spaces for g in state["governors"])
        assert all(tuple(s) in spaces for province in state["provinces"] for s in province["spaces"])
        assert all(card is None or card in static["symbols"] for card in state["display"])
    else:
        board = static["boards"][state["board"]]
        hexes = {tuple(h["hex"]) for h in board["hexes"]}
        vertices = {v["vertex"] for v in board["vertices"]}
        edges = {frozenset(e) for e in board["edges"]}
        assert all(tuple(h["hex"]) in hexes for h in state["hexes"])
        assert tuple(state["robber"]) in hexes
        assert all(b["vertex"] in vertices for b in state["buildings"])
        assert all(frozenset(r["edge"]) in edges for r in state["roads"])
        assert state["alexander"] < max(len(board["route"]), 1)
        assert all(h["product"] is None or h["product"] in static["goods"] for h in state["hexes"])


@pytest.mark.parametrize("game", list(PLAYERS))
def test_a_client_resolves_every_id_of_a_view_from_the_catalog(
    client: TestClient, service: GameService, game: str
) -> None:
    static = catalog(client, game)["static"]
    created = service.create_game(game, PLAYERS[game], None, f"ids-{game}".encode())
    play_with_bot(service, created, RandomBot(b"ids"))
    final = client.get(f"/games/{created.game_id}").json()
    for version in (final["version"] // 3, final["version"] * 2 // 3, final["version"]):
        ids_resolve(game, static, client.get(f"/games/{created.game_id}/versions/{version}").json()["state"])


def test_every_seat_view_at_a_past_version_only_after_the_end(client: TestClient, service: GameService) -> None:
    created = service.create_game("alexandros", 2, None, b"everything")
    running = client.get(f"/games/{created.game_id}/versions/3/everything")
    assert running.status_code == 409
    assert running.json()["error"]["code"] == "CONFLICT"
    play_with_bot(service, created, RandomBot(b"everything"))
    answer = client.get(f"/games/{created.game_id}/versions/20/everything").json()
    assert answer["version"] == 20
    for seat, seat_view in enumerate(answer["seat_views"]):
        assert (
            seat_view
            == client.get(
                f"/games/{created.game_id}/versions/20", headers={"Authorization": f"Bearer {created.tokens[seat]}"}
            ).json()["state"]
        )
    assert "hand" not in answer["state"]  # the spectator's own view stays what it was


def test_the_pages_and_their_modules_are_served_and_nothing_outside_them(client: TestClient) -> None:
    for page in ("/viewer", "/lobby"):
        response = client.get(page)
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/html")
    assert client.get("/", follow_redirects=False).headers["location"] == "/lobby"
    module = client.get("/static/js/core/viewer.js")
    assert module.status_code == 200
    assert module.headers["content-type"].startswith("text/javascript")
    for game in PLAYERS:
        assert client.get(f"/static/js/games/{game}.js").status_code == 200
    for outside in ("/static/../app.py", "/static/%2e%2e/app.py", "/static/js/core/nothing.js"):
        response = client.get(outside)
        assert response.status_code == 404, outside
        assert response.json()["error"]["code"] == "NOT_FOUND"
