"""``GET /games/{id}/versions/{v}/everything``: after the end nothing is hidden, so anybody may see
every seat's view at any past version (the replay viewer's "everything" perspective)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Request
from starlette.concurrency import run_in_threadpool

from api.contract import BoardView, documented
from infra.readside import ReadSide
from infra.service import Conflict

router = APIRouter()

MAX_VERSION = 2**31 - 1


@router.get(
    "/games/{game_id}/versions/{version}/everything",
    summary="After the end: the game at a past version with every seat's view (nothing is hidden any more)",
    **documented(BoardView, 400, 404, 409, 503),
)
async def everything_at_version(
    game_id: str, version: Annotated[int, Path(ge=1, le=MAX_VERSION)], request: Request
) -> dict[str, Any]:
    reads: ReadSide = request.app.state.read_side
    current = await run_in_threadpool(reads.board, game_id, None)
    if current["status"] != "ended":
        raise Conflict(f"game {game_id} is still running: every seat's view is shown only after the end")
    public = await run_in_threadpool(reads.at_version, game_id, version, None)
    seats = [await run_in_threadpool(reads.at_version, game_id, version, seat) for seat in range(public["players"])]
    return {**public, "seat_views": [s["state"] for s in seats]}
