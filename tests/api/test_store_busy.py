"""The event store not answering in time (a lock that timed out, no free connection) is a clear
``503 STORE_BUSY`` that records nothing, and the same command sent again is played once."""

from __future__ import annotations

from typing import Any

import pytest
from eventsourcing.persistence import OperationalError
from fastapi.testclient import TestClient

from infra.games.service import GameService
from tests.support.http import auth, create_game, error_code


def test_a_command_the_store_could_not_take_is_a_503_that_records_nothing_and_can_be_sent_again(
    client: TestClient, service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    created = create_game(client, "peloponnes", 3, "store-busy")
    game, tokens = created["game_id"], [s["token"] for s in created["seats"]]
    view = client.get(f"/games/{game}").json()
    seat = int(sorted(view["awaited"])[0])
    listed = client.get(f"/games/{game}/legal-moves", headers=auth(tokens[seat])).json()
    body = {**listed["moves"][0], "expected_version": listed["version"], "command_id": "busy-1"}
    recorded_before = len(service.records(game))

    insert = service.recorder.insert_events

    def locked(*args: Any, **kwargs: Any) -> Any:
        raise OperationalError("database is locked")

    monkeypatch.setattr(service.recorder, "insert_events", locked)
    refused = client.post(f"/games/{game}/commands", json=body, headers=auth(tokens[seat]))
    assert refused.status_code == 503, refused.text
    assert error_code(refused) == "STORE_BUSY"
    assert refused.headers["Retry-After"] == "1"
    assert "send the command again" in refused.json()["error"]["message"]
    assert len(service.records(game)) == recorded_before

    monkeypatch.setattr(service.recorder, "insert_events", insert)
    played = client.post(f"/games/{game}/commands", json=body, headers=auth(tokens[seat]))
    assert played.status_code == 200, played.text
    assert played.json()["duplicate"] is False
    assert played.json()["version"] > listed["version"]
    again = client.post(f"/games/{game}/commands", json=body, headers=auth(tokens[seat]))
    assert again.status_code == 200 and again.json()["duplicate"] is True
    assert len(service.records(game)) == played.json()["version"]
