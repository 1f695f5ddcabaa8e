"""Probes: ``/healthz`` (the process is alive and answers) and ``/readyz`` (its read models have
caught up with what the event store held when it started: route traffic to it now)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from api.http.deps import Reads
from infra.readside.projector import transient_errors

# Probes are for orchestrators, not for client developers: they stay out of the OpenAPI contract
# (whose 4xx/5xx answers are all the Error envelope; a 503 here is a readiness report).
router = APIRouter(tags=["probes"], include_in_schema=False)


@router.get("/healthz", summary="Alive: the process answers")
async def healthz() -> dict[str, str]:
    return {"status": "alive"}


@router.get(
    "/readyz",
    summary="Ready: the read models have caught up with the event store (503 until then)",
)
def readyz(reads: Reads) -> Any:
    try:
        readiness = reads.readiness()
    except transient_errors() as problem:  # a store out of reach: not ready, and say why
        return JSONResponse({"ready": False, "problem": f"a store is out of reach: {problem}"}, status_code=503)
    return readiness if readiness["ready"] else JSONResponse(readiness, status_code=503)
