"""The web client: the lobby, the replay viewer and play page, the tournament page, and their
static ES modules and styles (``api/static/``, no build step). The pages are a thin client of the public API: they see
only what the API shows the bearer of a seat token, and keep tokens out of every URL a server sees
(they live in the fragment and in the browser's local storage)."""

from __future__ import annotations

import base64
import hashlib
import re
from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse, HTMLResponse, RedirectResponse
from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api.http.errors import error_response

STATIC = (Path(__file__).parents[1] / "static").resolve()
MEDIA_TYPES = {
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".html": "text/html; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
}

router = APIRouter(include_in_schema=False)


def page(name: str) -> HTMLResponse:
    return HTMLResponse((STATIC / name).read_text(encoding="utf-8"))


@router.get("/", summary="The lobby")
def home() -> RedirectResponse:
    return RedirectResponse("/lobby")


@router.get("/lobby", response_class=HTMLResponse, summary="The lobby: games, a new game, seat links")
def lobby() -> HTMLResponse:
    return page("lobby.html")


@router.get("/viewer", response_class=HTMLResponse, summary="The replay viewer and play page")
def viewer() -> HTMLResponse:
    return page("viewer.html")


@router.get("/tournament", response_class=HTMLResponse, summary="A tournament: standings, rounds, tables' games")
def tournament() -> HTMLResponse:
    return page("tournament.html")


@router.get("/join", response_class=HTMLResponse, summary="A tournament's registration link: a name, and join")
def join() -> HTMLResponse:
    return page("join.html")


@router.get("/static/{path:path}", summary="The web client's modules and styles")
def static_file(path: str) -> FileResponse:
    target = (STATIC / path).resolve()
    if not target.is_relative_to(STATIC) or not target.is_file() or target.suffix not in MEDIA_TYPES:
        return error_response(404, "NOT_FOUND", f"no static file {path!r}")  # type: ignore[return-value]
    # Revalidate on every load: a new server version must never run with yesterday's modules.
    return FileResponse(target, media_type=MEDIA_TYPES[target.suffix], headers={"Cache-Control": "no-cache"})


# -- security headers ------------------------------------------------------------------------------

# What the pages load, all from this server: ES modules, one style sheet, the API over fetch (live
# updates too: server-sent events read with fetch), the empty ``data:`` favicon. The scripts build
# the DOM with createElement and text nodes (``api/static/js/core/dom.js``), never from HTML, and no
# script may come from anywhere else, so injected markup could run nothing. Inline styles are set
# through the CSSOM (``node.style``), which ``style-src`` does not govern.
PAGE_POLICY = {
    "default-src": "'none'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self' data:",
    "connect-src": "'self'",
    "font-src": "'self'",
    "base-uri": "'none'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}
# Any other answer (JSON, streams, files) is nothing to render or to frame.
OTHER_POLICY = "default-src 'none'; frame-ancestors 'none'"
EVERY_ANSWER = {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    # Tokens live in URL fragments, which no Referer carries; a page's own path is nobody's business either.
    "Referrer-Policy": "no-referrer",
}
# The security headers of an answer that is not HTML.
NOT_A_PAGE = {**EVERY_ANSWER, "Content-Security-Policy": OTHER_POLICY}
INLINE = {
    "script-src": re.compile(rb"<script(?![^>]*\bsrc\s*=)[^>]*>(.*?)</script>", re.S | re.I),
    "style-src": re.compile(rb"<style[^>]*>(.*?)</style>", re.S | re.I),
}


def page_policy(html: bytes) -> str:
    """The Content-Security-Policy of one HTML answer: ``PAGE_POLICY``, and the hash of each
    inline script or style sheet the page itself holds (Swagger UI's /docs starts with one)."""
    policy = dict(PAGE_POLICY)
    for directive, pattern in INLINE.items():
        hashes = [base64.b64encode(hashlib.sha256(m.group(1)).digest()).decode() for m in pattern.finditer(html)]
        policy[directive] += "".join(f" 'sha256-{digest}'" for digest in hashes)
    return "; ".join(f"{directive} {sources}" for directive, sources in policy.items())


class SecurityHeaders:
    """Every answer says ``nosniff``, may not be framed and sends no referrer; an HTML answer
    carries the pages' Content-Security-Policy (its body is held until it is complete, to hash
    any inline script: pages are small), any other answer a policy that allows nothing."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start: Message | None = None
        body: list[bytes] = []

        async def send_with_headers(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in EVERY_ANSWER.items():
                    headers.setdefault(name, value)
                if not headers.get("content-type", "").startswith("text/html"):
                    headers.setdefault("Content-Security-Policy", OTHER_POLICY)
                    await send(message)
                    return
                start = message
                return
            if start is None or message["type"] != "http.response.body":
                await send(message)
                return
            body.append(message.get("body", b""))
            if message.get("more_body", False):
                return
            html = b"".join(body)
            MutableHeaders(scope=start).setdefault("Content-Security-Policy", page_policy(html))
            await send(start)
            await send({"type": "http.response.body", "body": html, "more_body": False})

        await self.app(scope, receive, send_with_headers)
