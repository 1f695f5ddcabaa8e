"""The HTTP API: ``create_app`` puts the services on ``app.state`` (the routes take them through
``api/http/deps.py``), and includes the routers of ``api/http/routes/``. Every game datum leaves
through the per-viewer filter (records) or the game's per-viewer view (state); nothing else sends
game data to clients."""

from __future__ import annotations

from collections.abc import Sequence

from fastapi import Depends, FastAPI
from starlette.types import Receive, Scope, Send

from api.contract.openapi import install_contract
from api.http import health, web
from api.http.analytics_source import AnalyticsSource
from api.http.background import ServerThreads
from api.http.body import finite_json_body
from api.http.command_edge import CommandEdge
from api.http.errors import install_error_handlers
from api.http.game_ids import NormaliseGameIds
from api.http.lifecycle import Shutdown
from api.http.limits import install_limits
from api.http.routes import analysis, analytics, catalog, commands, games, replay, seats
from api.http.routes import tournaments as tournaments_routes
from api.http.routes.streams import STREAM_KEEPALIVE_SECONDS
from api.http.watching import spectators_for
from infra.games.analysis import Analyst
from infra.games.service import GameService
from infra.readside.reader import ReadSide, embedded_read_side
from infra.settings import Settings
from infra.tournaments.listing import TournamentList
from infra.tournaments.service import TournamentService


class Alexandria(FastAPI):
    """The app, whose commands are answered at its door (``api/http/command_edge.py``), before
    any of its layers; every other request goes through them (``stack``)."""

    command_edge: CommandEdge

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.command_edge(scope, receive, send)

    async def stack(self, scope: Scope, receive: Receive, send: Send) -> None:
        await super().__call__(scope, receive, send)


def create_app(
    service: GameService,
    read_side: ReadSide | None = None,
    settings: Settings | None = None,
    tournaments: TournamentService | None = None,
    cors_origins: Sequence[str] | None = None,
    keep_clocks: bool = True,
) -> FastAPI:
    """The API; ``cors_origins`` None: from the settings (``ALEXANDRIA_CORS_ORIGINS``; unset: no CORS).
    ``keep_clocks``: see ``api.http.background.ServerThreads``."""
    reads = read_side or embedded_read_side(service)
    tournaments = tournaments or TournamentService(service)
    threads = ServerThreads(service, reads, tournaments, keep_clocks)
    app = Alexandria(
        title="Alexandria",
        description="Event-sourced game server for four board games about Alexander the Great.",
        version="0.1.0",
        lifespan=threads.lifespan,
        docs_url=None,
        redoc_url=None,
        # A command model is one schema whether a client sends it or reads it (legal moves).
        separate_input_output_schemas=False,
        generate_unique_id_function=lambda route: route.name,
        dependencies=[Depends(finite_json_body)],
    )
    install_error_handlers(app)
    app.add_middleware(NormaliseGameIds)
    app.include_router(health.router)
    settings = settings or Settings()
    origins = settings.cors_origin_list if cors_origins is None else cors_origins
    install_contract(app, origins)
    app.state.field_bounds = install_limits(app, settings)
    app.state.command_threads = threads.commands
    app.state.shutdown = Shutdown()
    app.state.spectators = spectators_for(reads.store, 3 * STREAM_KEEPALIVE_SECONDS)
    app.state.service = service
    app.state.read_side = reads
    app.state.tournaments = tournaments
    app.state.tournament_list = TournamentList(tournaments, reads.store)
    app.state.clock_keeper = threads.keeper
    app.state.bot_seats = threads.bot_seats
    app.state.analytics = AnalyticsSource(service)
    app.state.analyst = Analyst(service, tournaments.tournament_of)
    for router in (commands, seats, tournaments_routes, web, catalog, replay, analytics, analysis, games):
        app.include_router(router.router)
    # Outermost, so that every answer carries them, the limits' refusals too.
    app.add_middleware(web.SecurityHeaders)
    app.command_edge = CommandEdge(app.stack, app.state, settings.max_body_bytes, cross_origin=bool(origins))
    return app
