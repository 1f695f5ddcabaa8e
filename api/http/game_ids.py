"""Game ids are normalised once, where requests arrive: ``/games/{id}/...`` with any spelling
``UUID()`` accepts (upper case, no dashes, braces) is served as the canonical lower-case form,
which is the only one the stores key by. Anything that is not a UUID passes through unchanged
(the routes answer 404 for it, or it is another route such as ``/games/catalog``)."""

from __future__ import annotations

from uuid import UUID

from starlette.types import ASGIApp, Receive, Scope, Send

PREFIX = "/games/"


def canonical_game_id(game_id: str) -> str:
    """A game id in the canonical form; anything that is not a UUID unchanged."""
    try:
        return str(UUID(game_id))
    except ValueError:
        return game_id


def canonical_path(path: str) -> str:
    if not path.startswith(PREFIX):
        return path
    game_id, slash, rest = path[len(PREFIX) :].partition("/")
    canonical = canonical_game_id(game_id)
    return path if canonical == game_id else f"{PREFIX}{canonical}{slash}{rest}"


class NormaliseGameIds:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            path = canonical_path(scope["path"])
            if path != scope["path"]:
                scope = {**scope, "path": path, "raw_path": path.encode()}
        await self.app(scope, receive, send)
