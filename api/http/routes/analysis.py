"""``GET /games/{id}/analysis``: the search bot's best moves for an awaited seat with their win
chances — any version of an ended game, a hint for a person playing only bots, never a running
tournament game (``infra/games/analysis.py`` holds the rules). The search runs in the thread pool."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool

from api.contract.models import documented
from api.http.deps import MAX_VERSION, GameAnalyst, Token
from infra.games.analysis import DEFAULT_PLAYOUTS, MAX_PLAYOUTS, MAX_SEED_CHARS


class AnalysisLine(BaseModel):
    move: dict[str, Any] = Field(description="the command, as the seat would send it")
    win_chance: float = Field(ge=0, le=1, description="the search's estimate of the seat's share of the win after it")
    playouts: int = Field(ge=0, description="the playouts that went through this move (the most searched first)")


class AnalysisBudget(BaseModel):
    playouts: int = Field(description="the playouts asked for")
    searched: int = Field(description="the playouts made (0 when the seat had a lone move)")
    max_playouts: int = Field(description="the most playouts an analysis may ask for")
    seed: str = Field(description="the search's seed: the same seed and playouts give the same lines")


class GameAnalysis(BaseModel):
    version: int = Field(ge=1, description="the version analysed")
    seat: int | None = Field(description="the seat analysed; null when nobody moves at the version")
    awaited: list[int] = Field(description="the seats awaited at the version")
    lines: list[AnalysisLine]
    budget: AnalysisBudget


router = APIRouter()


@router.get(
    "/games/{game_id}/analysis",
    summary="The search bot's best moves for an awaited seat, with their win chances (ended games; "
    "a hint against bots)",
    description="An ended game: any version, any awaited seat. A running casual game: a hint for the bearer's "
    "awaited seat when every other seat is a bot (403 ANALYSIS_FORBIDDEN otherwise, 409 SEAT_NOT_AWAITED "
    "when it is not the seat's move). A running tournament game: never (403 TOURNAMENT_GAME_RUNNING). The "
    "search decides from the analysed seat's knowledge only.",
    **documented(GameAnalysis, 400, 401, 403, 404, 409, 503),
)
async def analysis(
    game_id: str,
    token: Token,
    analyst: GameAnalyst,
    v: Annotated[
        int | None, Query(ge=1, le=MAX_VERSION, description="the version to analyse; default: the last")
    ] = None,
    seat: Annotated[int | None, Query(ge=0, le=99, description="an awaited seat; default: the lowest awaited")] = None,
    playouts: Annotated[
        int, Query(ge=1, le=MAX_PLAYOUTS, description="the search's budget in playouts")
    ] = DEFAULT_PLAYOUTS,
    seed: Annotated[
        str | None,
        Query(
            min_length=1,
            max_length=MAX_SEED_CHARS,
            description="the search's seed; default: from the game, version and seat",
        ),
    ] = None,
) -> dict[str, Any]:
    result = await run_in_threadpool(analyst.analyse, game_id, token, v, seat, playouts, seed)
    return result.to_dict()
