"""Every JSON body is read once more, strictly, before any route sees it.

Python's ``json`` takes ``NaN``, ``Infinity`` and ``1e400`` (as ``inf``), none of which is JSON: a
hash over such a value would not survive the trip back to a client (the API sends ``null``), so an
honest record would look tampered with. One dependency of the whole app refuses them, whatever the
route (``400 NON_FINITE_NUMBER``); ``canonical`` refuses them too, so nothing non-finite is ever hashed.

The value it parsed is kept with the request: a route that takes its body as JSON reads it there
(``parsed_body``) instead of parsing it once more.
"""

from __future__ import annotations

import json
import math
from typing import Any

from fastapi import Request

from domain.tournament.config import NON_FINITE_NUMBER
from infra.games.service import Invalid, ServiceError

PARSED = "alexandria.parsed_body"  # the request scope's key of the body parsed here


class NonFiniteNumber(ServiceError):
    code = NON_FINITE_NUMBER


def _constant(name: str) -> float:
    raise NonFiniteNumber(f"{name} is not a JSON number: every number must be finite")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise NonFiniteNumber(f"{text} is too large for a number: every number must be finite")
    return value


NOT_JSON = "the body must be a JSON object; this one is empty or not JSON"


def strict_json(body: bytes) -> Any:
    """``body`` parsed as JSON; ``NonFiniteNumber`` for a non-finite number, ``ValueError`` for
    anything that is not JSON (or not UTF-8)."""
    return json.loads(body, parse_constant=_constant, parse_float=_finite)


async def finite_json_body(request: Request) -> None:
    """Refuse a body with a non-finite number; a body that is no JSON is left to the route."""
    body = await request.body()
    if not body:
        return
    try:
        request.scope[PARSED] = strict_json(body)
    except ValueError:
        return  # not JSON (or not UTF-8): the route refuses it as it does today


def parsed_body(request: Request) -> Any:
    """The request's JSON body as ``finite_json_body`` parsed it; 400 ``BAD_INPUT`` if it is
    empty or not JSON."""
    if PARSED in request.scope:
        return request.scope[PARSED]
    raise Invalid(NOT_JSON)
