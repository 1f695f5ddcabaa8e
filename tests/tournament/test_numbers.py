"""Non-finite numbers are refused everywhere: in a tournament's settings and rulings, in any JSON
body the API reads, and by ``canonical`` itself, so nothing non-finite is ever hashed."""

from __future__ import annotations

import math

import pytest
from fastapi.testclient import TestClient

from domain.catalog import GAMES
from domain.kernel.errors import RuleViolation
from domain.kernel.log import canonical
from domain.tournament import rules
from domain.tournament.config import NON_FINITE_NUMBER, normalize_config
from infra.tournaments.service import TournamentService

PELOPONNES = GAMES.get("peloponnes")
JSON = {"Content-Type": "application/json"}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}", **JSON}


@pytest.mark.parametrize(
    "settings",
    [
        {"table_size": 2, "points_per_place": [math.inf, 0]},
        {"table_size": 2, "points_per_place": [1, -math.inf]},
        {"table_size": 2, "bye_points": math.nan},
        {"table_size": 2, "bye_points": math.inf},
        {"table_size": 2, "time_control": {"base_seconds": math.inf}},
    ],
)
def test_a_configuration_with_a_non_finite_number_is_refused(settings: dict[str, object]) -> None:
    with pytest.raises(RuleViolation) as refusal:
        normalize_config(PELOPONNES, settings)
    assert refusal.value.code == NON_FINITE_NUMBER


def test_a_correction_with_a_non_finite_score_is_refused(tournaments: TournamentService) -> None:
    created = tournaments.create("peloponnes", {"rounds": 1, "table_size": 2}, b"nan", salted=False)
    for name in ("Ada", "Bo"):
        tournaments.register(created.tournament_id, created.organiser_token, name)
    seated = tournaments.seat_next_round(created.tournament_id, created.organiser_token)
    state = tournaments.load(created.tournament_id).log.state
    ruling = {"kind": "correct", "game_id": seated["tables"][0]["game_id"], "reason": "r", "placings": [1, 2]}
    for scores in ([math.nan, 0], [0, math.inf]):
        with pytest.raises(RuleViolation) as refusal:
            rules.adjudicated(state, {**ruling, "scores": scores}, 0)
        assert refusal.value.code == NON_FINITE_NUMBER
    assert rules.adjudicated(state, {**ruling, "scores": [3, 2.5]}, 0)["scores"] == [3, 2.5]


def test_canonical_refuses_what_is_no_json() -> None:
    for value in (math.nan, math.inf, -math.inf):
        with pytest.raises(ValueError):
            canonical({"scores": [value]})
    assert canonical({"b": 1.5, "a": [1, 0]}) == '{"a":[1,0],"b":1.5}'


@pytest.mark.parametrize("number", ["1e400", "-1e400", "NaN", "Infinity", "-Infinity"])
def test_every_route_refuses_a_body_with_a_non_finite_number(client: TestClient, number: str) -> None:
    body = '{"game": "peloponnes", "settings": {"table_size": 2, "points_per_place": [@, 0]}}'.replace("@", number)
    refused = client.post("/tournaments", content=body, headers=JSON)
    assert refused.status_code == 400 and refused.json()["error"]["code"] == NON_FINITE_NUMBER
    game = client.post(
        "/games", content='{"game": "peloponnes", "players": 2, "options": {"x": @}}'.replace("@", number), headers=JSON
    )
    assert game.status_code == 400 and game.json()["error"]["code"] == NON_FINITE_NUMBER


def test_a_ruling_with_nan_over_http_is_refused_and_records_nothing(client: TestClient) -> None:
    created = client.post("/tournaments", json={"game": "peloponnes", "settings": {"rounds": 1, "table_size": 2}})
    tid, organiser = created.json()["tournament_id"], created.json()["organiser_token"]
    for name in ("Ada", "Bo"):
        client.post(f"/tournaments/{tid}/players", json={"name": name}, headers=bearer(organiser))
    game_id = client.post(f"/tournaments/{tid}/rounds", headers=bearer(organiser)).json()["tables"][0]["game_id"]
    version = client.get(f"/tournaments/{tid}").json()["version"]
    body = '{"kind": "correct", "game_id": "@", "reason": "r", "placings": [1, 2], "scores": [NaN, 0]}'.replace(
        "@", game_id
    )
    refused = client.post(f"/tournaments/{tid}/adjudications", content=body, headers=bearer(organiser))
    assert refused.status_code == 400 and refused.json()["error"]["code"] == NON_FINITE_NUMBER
    assert client.get(f"/tournaments/{tid}").json()["version"] == version
