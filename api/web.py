"""The web client: the lobby, the replay viewer and play page, and their static ES modules and
styles (``api/static/``, no build step). The pages are a thin client of the public API: they see
only what the API shows the bearer of a seat token, and keep tokens out of every URL a server sees
(they live in the fragment and in the browser's local storage)."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse, HTMLResponse, RedirectResponse

from api.errors import error_response

STATIC = (Path(__file__).parent / "static").resolve()
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


@router.get("/static/{path:path}", summary="The web client's modules and styles")
def static_file(path: str) -> FileResponse:
    target = (STATIC / path).resolve()
    if not target.is_relative_to(STATIC) or not target.is_file() or target.suffix not in MEDIA_TYPES:
        return error_response(404, "NOT_FOUND", f"no static file {path!r}")  # type: ignore[return-value]
    # Revalidate on every load: a new server version must never run with yesterday's modules.
    return FileResponse(target, media_type=MEDIA_TYPES[target.suffix], headers={"Cache-Control": "no-cache"})
