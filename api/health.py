"""Probes: ``/healthz`` (the process is alive and answers) and ``/readyz`` (its read models have
caught up with what the event store held when it started: route traffic to it now)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from infra.projector import transient_errors
from infra.readside import ReadSide


def health_routes(reads: ReadSide) -> APIRouter:
    router = APIRouter(tags=["probes"])

    @router.get("/healthz", summary="Alive: the process answers")
    async def healthz() -> dict[str, str]:
        return {"status": "alive"}

    @router.get(
        "/readyz",
        summary="Ready: the read models have caught up with the event store (503 until then)",
        responses={503: {"description": "still catching up (the body says how far)"}},
    )
    def readyz() -> Any:
        try:
            readiness = reads.readiness()
        except transient_errors() as problem:  # a store out of reach: not ready, and say why
            return JSONResponse({"ready": False, "problem": f"a store is out of reach: {problem}"}, status_code=503)
        return readiness if readiness["ready"] else JSONResponse(readiness, status_code=503)

    return router
