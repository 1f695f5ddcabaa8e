"""A client generated from /openapi.json by an off-the-shelf generator (openapi-python-client)
plays a whole game of each of the four games with its typed models, the game's view (``state``)
included: the contract is enough to build a client on, with no dict poking."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from fastapi.testclient import TestClient

from domain.catalog import GAME_PACKAGES
from domain.kernel.chance import Chance

PLAYERS = {"peloponnes": 2, "empire_builder": 3, "alexandros": 2, "catan_alexander": 3}
PACKAGE = "alexandria_client"


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    from api.http.app import create_app
    from infra.bootstrap import build_service
    from infra.settings import Settings

    folder = tmp_path_factory.mktemp("generated")
    service = build_service(Settings(database_url="sqlite:///:memory:"))
    (folder / "openapi.json").write_text(json.dumps(create_app(service).openapi()))
    service.close()
    (folder / "config.yaml").write_text("post_hooks: []\n")
    generator = Path(sys.executable).parent / "openapi-python-client"
    result = subprocess.run(
        [
            str(generator),
            "generate",
            "--path",
            str(folder / "openapi.json"),
            "--output-path",
            str(folder / PACKAGE),
            "--meta",
            "none",
            "--config",
            str(folder / "config.yaml"),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    sys.path.insert(0, str(folder))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(folder))
        for name in [m for m in sys.modules if m == PACKAGE or m.startswith(f"{PACKAGE}.")]:
            del sys.modules[name]


def final_scores(game: str, state: Any) -> list[int]:
    """Each seat's final score, read from the generated models of the game's view."""
    if game == "peloponnes":
        return [result.final for result in state.results]
    if game == "empire_builder":
        return [seat.vp for seat in state.seats]
    if game == "alexandros":
        return list(state.scores)
    return [player.total_vp for player in state.players]  # catan_alexander: hidden points shown at the end


def operation(package: ModuleType, name: str) -> Any:
    return importlib.import_module(f"{package.__name__}.api.default.{name}")


def model(package: ModuleType, name: str) -> Any:
    return getattr(importlib.import_module(f"{package.__name__}.models"), name)


def http_client(package: ModuleType, app_client: TestClient) -> Any:
    """A generated client whose requests go to the app in process (TestClient is an httpx.Client)."""
    client = package.Client(base_url="http://testserver", raise_on_unexpected_status=True)
    client.set_httpx_client(app_client)
    return client


@pytest.mark.slow
@pytest.mark.parametrize("game", GAME_PACKAGES)
def test_a_generated_client_plays_a_whole_game(generated: ModuleType, client: TestClient, game: str) -> None:
    spectator = http_client(generated, client)
    create_body = model(generated, "CreateGame")(
        game=model(generated, "CreateGameGame")(game), players=PLAYERS[game], seed=f"generated-{game}"
    )
    created = operation(generated, "create_game").sync(client=spectator, body=create_body)
    assert isinstance(created, model(generated, "CreatedGame")), created
    seats = [
        http_client(generated, TestClient(client.app, headers={"Authorization": f"Bearer {s.token}"}))
        for s in created.seats
    ]
    prefix = "".join(part.capitalize() for part in game.split("_"))
    legal_moves_type = model(generated, f"{prefix}LegalMoves")
    send = operation(generated, f"send_{game}_command")
    rng = Chance(f"generated-client-{game}".encode())
    version = created.version
    for _ in range(20_000):
        # read your own write: the read models follow the commands in the background
        view = operation(generated, "get_game").sync(created.game_id, client=spectator, min_version=version)
        assert isinstance(view, model(generated, f"{prefix}BoardView")), view  # the game's own envelope
        assert isinstance(view.state, model(generated, f"{prefix}View")), view.state  # and its typed view
        if view.status.value == "ended":
            break
        seat = int(rng.choice("seat", sorted(view.awaited.additional_properties)))
        listed = operation(generated, "legal_moves").sync(created.game_id, client=seats[seat])
        assert isinstance(listed, legal_moves_type), listed
        move = rng.choice("move", listed.moves)
        assert type(move).__name__.startswith(prefix)  # the game's own typed command
        move.expected_version = listed.version
        result = send.sync(created.game_id, client=seats[seat], body=move)
        assert isinstance(result, model(generated, "CommandResult")), result
        assert result.version > listed.version
        version = result.version
    else:
        raise AssertionError("the game did not end")
    assert view.scoreboard.final
    # the view's own fields, typed: its winners are the scoreboard's, and every seat's view is there
    assert view.state.winners == view.scoreboard.winners
    assert final_scores(game, view.state) == view.scoreboard.scores
    assert len(view.seat_views) == PLAYERS[game]
    assert all(isinstance(seat_view, type(view.state)) for seat_view in view.seat_views)
    report = operation(generated, "verify").sync(created.game_id, client=spectator)
    assert report.chain_ok and report.seed_ok, report.problems
