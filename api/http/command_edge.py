"""``POST /games/{id}/commands[/{game}]``, the most frequent request of a server, answered where
requests arrive, before FastAPI's stack: its layers (the body check, the ids' spelling, the
security headers, FastAPI's own), its routing (every route's pattern tried in turn) and its
request and dependency machinery cost a command more CPU than the command's rules and its save
together (``docs/benchmarks.md``).

The edge does for this request what the stack does, with the same functions: the body is read
within the size limit (``limits.whole_body``), parsed strictly (``body.strict_json``), the bearer
read as every route reads it (``auth.bearer_of``), the game's id taken in any spelling
(``game_ids``), the command played on the one command path (``api/http/commands.py``), a refusal
answered as the app's handlers answer it (``errors.refusal``), and the answer carries the
security headers of every answer. Anything else it leaves to the stack: another method or path,
a typed route of no game, and, when the server allows cross-origin calls, a request that names
its origin (CORS is the stack's). The routes of ``api/http/routes/commands.py`` stay: they are the
documented contract (OpenAPI), and they serve what the edge leaves."""

from __future__ import annotations

import re

from starlette.datastructures import State
from starlette.responses import Response
from starlette.types import ASGIApp, Receive, Scope, Send

from api.http.auth import bearer_of
from api.http.body import NOT_JSON, strict_json
from api.http.commands import CommandThreads, game_command
from api.http.errors import refusal
from api.http.game_ids import canonical_game_id
from api.http.limits import BodyTooLarge, too_large, whole_body
from api.http.web import NOT_A_PAGE
from domain.catalog import GAMES
from infra.games.service import Invalid

COMMAND_PATH = re.compile(r"/games/([^/]+)/commands(?:/([^/]+))?")
SECURITY_HEADERS = [(name.lower().encode(), value.encode()) for name, value in NOT_A_PAGE.items()]


class CommandEdge:
    def __init__(self, app: ASGIApp, state: State, max_body_bytes: int, cross_origin: bool) -> None:
        """``state``: the app's (its services, set once it is built); ``cross_origin``: CORS is on."""
        self.app = app
        self.state = state
        self.max_body_bytes = max_body_bytes
        self.cross_origin = cross_origin
        self.games = frozenset(GAMES.ids())

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        found = COMMAND_PATH.fullmatch(scope["path"]) if scope["type"] == "http" and scope["method"] == "POST" else None
        headers = dict(scope["headers"]) if found is not None else {}
        if (
            found is None
            or (found[2] is not None and found[2] not in self.games)
            or (self.cross_origin and b"origin" in headers)
        ):
            await self.app(scope, receive, send)
            return
        try:
            body = await whole_body(headers, receive, self.max_body_bytes)
        except BodyTooLarge:
            answer: Response = too_large(self.max_body_bytes)
        else:
            if body is None:  # the client left
                return
            try:
                answer = await self.command(canonical_game_id(found[1]), found[2], headers, body)
            except Exception as exc:
                refused = refusal(exc)
                if refused is None:
                    raise
                answer = refused
        answer.raw_headers += SECURITY_HEADERS
        await answer(scope, receive, send)

    async def command(self, game_id: str, game: str | None, headers: dict[bytes, bytes], body: bytes) -> Response:
        authorization = headers.get(b"authorization")
        token = bearer_of(None if authorization is None else authorization.decode("latin-1"))
        state = self.state
        play = game_command(state.service, state.tournaments, game_id, token, game)
        try:
            payload = strict_json(body)
        except ValueError:
            raise Invalid(NOT_JSON) from None
        threads: CommandThreads = state.command_threads
        return await threads.send(payload, state.field_bounds, play)
