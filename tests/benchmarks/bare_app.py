"""The peer for the platform benchmarks: a bare FastAPI + eventsourcing app, as small as such an
app gets. SQLite file, one aggregate per game, one event per POST, served by uvicorn with the
same settings as ``alexandria serve``. No rules, no read models, no hash chain: what the command
route costs without any of Alexandria's work.

``python -m tests.benchmarks.bare_app --port P --db FILE``
"""

from __future__ import annotations

import argparse
from typing import Any
from uuid import UUID

import uvicorn
from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.domain import Aggregate, event
from fastapi import Body, FastAPI, HTTPException


class Game(Aggregate):
    @event("Created")
    def __init__(self, game: str, players: int) -> None:
        self.game = game
        self.players = players
        self.moves = 0

    @event("Moved")
    def move(self, command: dict[str, Any]) -> None:
        self.moves += 1


class Games(Application[UUID]):
    pass


def create_app(db: str) -> FastAPI:
    # The same store settings as ``alexandria serve`` (infra/settings.py): games kept loaded, so a
    # command does not replay its game's events (a 600-command Catan game would cost the bare app
    # its whole history on every POST).
    games = Games(
        env={
            "PERSISTENCE_MODULE": "eventsourcing.sqlite",
            "SQLITE_DBNAME": db,
            "SQLITE_LOCK_TIMEOUT": "10",
            "AGGREGATE_CACHE_MAXSIZE": "256",
            "AGGREGATE_CACHE_FASTFORWARD": "n",
            "DEEPCOPY_FROM_AGGREGATE_CACHE": "n",
        }
    )
    app = FastAPI()

    @app.get("/healthz")
    def healthz() -> dict[str, str]:
        return {"status": "alive"}

    @app.post("/games", status_code=201)
    def create(body: dict[str, Any] = Body()) -> dict[str, Any]:  # noqa: B008 - FastAPI's way
        game = Game(str(body["game"]), int(body["players"]))
        games.save(game)
        return {"game_id": str(game.id), "version": game.version}

    @app.post("/games/{game_id}/commands")
    def command(game_id: UUID, body: dict[str, Any] = Body()) -> dict[str, Any]:  # noqa: B008
        try:
            game: Game = games.repository.get(game_id)
        except AggregateNotFoundError:
            raise HTTPException(404, "no such game") from None
        game.move(body)
        games.save(game)
        return {"version": game.version}

    @app.get("/games/{game_id}")
    def read(game_id: UUID) -> dict[str, Any]:
        game: Game = games.repository.get(game_id)
        return {"game_id": str(game.id), "version": game.version, "moves": game.moves}

    return app


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--db", required=True)
    arguments = parser.parse_args()
    uvicorn.run(create_app(arguments.db), host="127.0.0.1", port=arguments.port, log_level="warning")


if __name__ == "__main__":
    main()
