"""A tournament's exports as routes (on the tournament router, prefix ``/tournaments``): a round's
pairings and the standings as CSV, a printable page, and the TRF of a 2-player event, rendered by
``api/http/tournament_exports.py``."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path
from fastapi.responses import HTMLResponse, Response

from api.contract.models import documented
from api.http.deps import Tournaments
from api.http.tournament_exports import CSV_TYPE, TRF_TYPE, pairings_csv, print_page, standings_csv, trf
from domain.tournament.log import TournamentState
from domain.tournament.rules import standings_view


def _attachment(name: str) -> dict[str, str]:
    return {"Content-Disposition": f'attachment; filename="{name}"'}


def ranked(state: TournamentState) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = standings_view(state)["standings"]
    return rows


# The export routes, included in the tournament router (prefix ``/tournaments``).
router = APIRouter()


@router.get(
    "/{tournament_id}/rounds/{number}/pairings.csv",
    summary="A round's pairings as CSV: round, table, seat (1 moves first), player, name, game id; byes last",
    **documented(None, 400, 404, media_type=CSV_TYPE.split(";")[0]),
)
def pairings_export(
    tournament_id: str, number: Annotated[int, Path(ge=1, le=10_000)], tournaments: Tournaments
) -> Response:
    state = tournaments.state(tournament_id)
    return Response(
        pairings_csv(state, number),
        media_type=CSV_TYPE,
        headers=_attachment(f"tournament-{tournament_id}-round-{number}-pairings.csv"),
    )


@router.get(
    "/{tournament_id}/standings.csv",
    summary="The standings as CSV, with the tie-breaks in the order they break ties",
    **documented(None, 404, media_type=CSV_TYPE.split(";")[0]),
)
def standings_export(tournament_id: str, tournaments: Tournaments) -> Response:
    state = tournaments.state(tournament_id)
    return Response(
        standings_csv(state, ranked(state)),
        media_type=CSV_TYPE,
        headers=_attachment(f"tournament-{tournament_id}-standings.csv"),
    )


@router.get(
    "/{tournament_id}/print",
    summary="A printable page: the latest round's pairings and the standings",
    response_class=HTMLResponse,
    **documented(None, 404, media_type="text/html"),
)
def print_export(tournament_id: str, tournaments: Tournaments) -> HTMLResponse:
    state = tournaments.state(tournament_id)
    return HTMLResponse(print_page(state, ranked(state)))


@router.get(
    "/{tournament_id}/trf",
    summary="The FIDE Tournament Report File (TRF16) of a 2-player event (409 for larger tables)",
    **documented(None, 404, 409, media_type="text/plain"),
)
def trf_export(tournament_id: str, tournaments: Tournaments) -> Response:
    state = tournaments.state(tournament_id)
    return Response(
        trf(state, ranked(state)), media_type=TRF_TYPE, headers=_attachment(f"tournament-{tournament_id}.trf")
    )
