"""``GET /games/{id}/versions/{v}/everything``: after the end nothing is hidden, so anybody may see
every seat's view at any past version (the replay viewer's "everything" perspective)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path
from starlette.concurrency import run_in_threadpool

from api.contract.models import BOARD_VIEW, documented
from api.http.deps import MAX_VERSION, Reads
from api.http.viewers import game_is_over
from infra.games.service import Conflict

router = APIRouter()


@router.get(
    "/games/{game_id}/versions/{version}/everything",
    summary="After the end: the game at a past version with every seat's view (nothing is hidden any more)",
    **documented(BOARD_VIEW, 400, 404, 409, 503),
)
async def everything_at_version(
    game_id: str, version: Annotated[int, Path(ge=1, le=MAX_VERSION)], reads: Reads
) -> dict[str, Any]:
    # Whether the game is over is the event store's word: the read models may still be a move behind.
    if not await run_in_threadpool(game_is_over, reads.service, game_id):
        raise Conflict(f"game {game_id} is still running: every seat's view is shown only after the end")
    public = await run_in_threadpool(reads.at_version, game_id, version, None)
    seats = [await run_in_threadpool(reads.at_version, game_id, version, seat) for seat in range(public["players"])]
    return {**public, "seat_views": [s["state"] for s in seats]}
