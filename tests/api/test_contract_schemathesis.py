"""Schemathesis against the OpenAPI document, every check on every route: what the document says
is what the server does (status codes, media types, response schemas, valid input accepted,
invalid input refused in the error envelope).

Requests go to real games half of the time (a running game of the route's game, with the token
of an awaited seat, and an ended game), so command bodies meet the game's own parser rather
than a 404 for an unknown id. Bounded: a few examples per route."""

from __future__ import annotations

import itertools
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, assume, settings
from schemathesis.config import SchemathesisConfig

from api.http.app import create_app
from domain.catalog import GAMES
from domain.kernel.bots import RandomBot
from infra.bootstrap import build_service
from infra.games.service import GameService
from infra.games.simulation import play_with_bot
from infra.readside.projector import Projector
from infra.readside.reader import ReadSide
from infra.readside.readmodels import MemoryStore
from infra.settings import Settings

CONFIG = SchemathesisConfig.from_str(
    """
[checks.positive_data_acceptance]
# 422: a well-formed request that a game rule refuses (a schema cannot hold the rules of a game);
# 403: a well-formed request its bearer may not make (a running game's analysis for a spectator);
# 413 and 429: the server's limits on body size and on games created per client.
expected-statuses = ["2xx", "401", "403", "404", "409", "413", "422", "429"]
"""
)
PLAYERS = {"peloponnes": 3, "empire_builder": 3, "alexandros": 3, "catan_alexander": 3}


def has_float(value: Any) -> bool:
    if isinstance(value, float):
        return True
    if isinstance(value, dict):
        return any(has_float(v) for v in value.values())
    if isinstance(value, list):
        return any(has_float(v) for v in value)
    return False


class Games:
    """Real games the generated requests are pointed at."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self.running = {
            g: service.create_game(g, PLAYERS.get(g, GAMES.get(g).min_players), None, f"contract-{g}".encode())
            for g in GAMES.ids()
        }
        self.ended = service.create_game("peloponnes", 3, None, b"contract-ended")
        play_with_bot(service, self.ended, RandomBot(b"contract-ended-bot"))
        self.turn = itertools.count()

    def awaited_token(self, game: str) -> str:
        created = self.running[game]
        with self.service.reading(created.game_id) as aggregate:
            match = aggregate.match
            awaited = sorted(match.game.awaited(match.state)) or [0]
        return created.tokens[awaited[0]]

    def point(self, case: Any) -> None:
        """Half of the cases: a real game id (and for a command route, an awaited seat's token)."""
        if "game_id" not in (case.path_parameters or {}) or next(self.turn) % 2:
            return
        path = case.operation.path
        route_game = path.rsplit("/", 1)[-1] if "/commands/" in path else None
        if route_game is not None:
            case.path_parameters["game_id"] = self.running[route_game].game_id
            if "Authorization" in (case.headers or {}):  # a generated token becomes a real one
                case.headers["Authorization"] = f"Bearer {self.awaited_token(route_game)}"
        elif path.endswith("/stream"):
            case.path_parameters["game_id"] = self.ended.game_id  # a live stream of a running game never ends
        else:
            case.path_parameters["game_id"] = self.running["peloponnes"].game_id


def contract_app() -> tuple[Any, GameService, Path]:
    folder = Path(tempfile.mkdtemp(prefix="alexandria-contract-"))
    service = build_service(Settings(database_url=f"sqlite:///{folder}/events.sqlite"))
    store = MemoryStore()
    # A short wait: min_version far ahead answers 409 at once instead of after the usual 5 s.
    reads = ReadSide(service, store, Projector(service, store), wait_seconds=0.05)
    return create_app(service, reads, cors_origins=()), service, folder


# The schema is loaded when the tests are collected; the games are made when they run.
APP, SERVICE, FOLDER = contract_app()
schema = schemathesis.openapi.from_asgi("/openapi.json", APP, config=CONFIG)


# For the session, not the module: work stealing may run this module's tests apart, and a module
# fixture is then torn down (closing SERVICE) and made again in between.
@pytest.fixture(scope="session")
def games() -> Iterator[Games]:
    yield Games(SERVICE)
    SERVICE.close()
    shutil.rmtree(FOLDER, ignore_errors=True)


@pytest.mark.slow
@schema.parametrize()
@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_route_keeps_the_contract(case: Any, games: Games) -> None:
    # JSON Schema counts 3.0 as the integer 3; this server, on purpose, takes only 3 (a client
    # that writes 3.0 for a count has a bug worth hearing about): no such "valid" cases.
    positive = case.meta is not None and case.meta.generation.mode.is_positive
    assume(not (positive and has_float(case.body)))
    # The schema of `options` is one object for every game (it cannot depend on the `game` beside
    # it), so a "valid" case may name options its game does not have: 400 BAD_OPTIONS, rightly.
    assume(not (positive and isinstance(case.body, dict) and case.body.get("options")))
    games.point(case)
    case.call_and_validate()
