"""What one client may ask of the server: a body size, bounded fields, a rate of game creation
(games, forks, tournaments and the tables of each round seated) and a rate of joins.

Every refusal leaves in the error envelope of ``api/http/errors.py``: a body that is too large is
``413 PAYLOAD_TOO_LARGE`` (refused before it is read whole), a field that is too large
``400 BAD_INPUT``, and one game creation or join too many ``429 RATE_LIMITED`` with ``Retry-After``.
The bounds are settings (``infra/settings.py``, ``ALEXANDRIA_*``).
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NoReturn

import h11
import limits
import limits.storage
import limits.strategies
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.protocols.http.h11_impl import H11Protocol

from api.http.errors import error_response
from domain.kernel.log import canonical
from infra.games.service import Invalid, ServiceError
from infra.settings import Settings

PAYLOAD_TOO_LARGE = "PAYLOAD_TOO_LARGE"


class RateLimited(ServiceError):
    code = "RATE_LIMITED"

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


def json_size(value: Any) -> int:
    return len(canonical(value).encode())


@dataclass(frozen=True)
class FieldBounds:
    seed_chars: int
    options_bytes: int
    command_bytes: int

    def check_new_game(self, seed: str | None, options: Any) -> None:
        if seed is not None and len(seed) > self.seed_chars:
            raise Invalid(f"seed must be at most {self.seed_chars} characters (it has {len(seed)})")
        if options is not None and (size := json_size(options)) > self.options_bytes:
            raise Invalid(f"options must be at most {self.options_bytes} bytes of JSON (they have {size})")

    def check_command(self, fields: dict[str, Any]) -> None:
        if (size := json_size(fields)) > self.command_bytes:
            raise Invalid(f"a command must be at most {self.command_bytes} bytes of JSON (this one has {size})")


# What each limit counts, its setting, and how a refusal says it.
CREATE, JOIN = "create", "join"
RATE_SETTINGS = {CREATE: "creation_rate_limit", JOIN: "join_rate_limit"}
RATE_PHRASES = {
    CREATE: "create {rate} games (a tournament, and each table of a round it seats, counts as one)",
    JOIN: "join {rate} games",
}


class RateLimit:
    """Actions of one kind (``what``: game creations, joins) per client address over a moving
    window; in Redis when the server is one of several workers, so that every worker counts
    against the same allowance."""

    def __init__(
        self, rate: str, redis_url: str | None = None, redis_prefix: str = "alexandria", what: str = CREATE
    ) -> None:
        try:
            self.rates = limits.parse_many(rate) if rate.strip() else []
        except ValueError:
            raise ValueError(
                f"ALEXANDRIA_{RATE_SETTINGS[what].upper()} must be like '60/minute' or '10/second;200/hour' "
                f"(or empty for no limit), not {rate!r}"
            ) from None
        storage: limits.storage.Storage = (
            limits.storage.RedisStorage(redis_url, key_prefix=f"{redis_prefix}:limits")
            if redis_url is not None and self.rates
            else limits.storage.MemoryStorage()
        )
        self.limiter = limits.strategies.MovingWindowRateLimiter(storage)
        self.described = rate
        self.what = what

    def take(self, client: str, cost: int = 1) -> None:
        """Count ``cost`` actions for ``client``, or refuse them all (counting none) when the
        allowance left is smaller."""
        for rate in self.rates:
            if not self.limiter.test(rate, self.what, client, cost=cost):
                self._refuse(rate, client, cost)
        for rate in self.rates:
            if not self.limiter.hit(rate, self.what, client, cost=cost):  # another worker was quicker
                self._refuse(rate, client, cost)

    def _refuse(self, rate: limits.RateLimitItem, client: str, cost: int) -> NoReturn:
        reset_at = self.limiter.get_window_stats(rate, self.what, client).reset_time
        retry_after = max(1, math.ceil(reset_at - time.time()))
        asked = f" ({cost} at once asked)" if cost > 1 else ""
        raise RateLimited(
            f"this client may {RATE_PHRASES[self.what].format(rate=self.described)}{asked}; "
            f"try again in {retry_after} s",
            retry_after,
        )


def client_address(request: Request) -> str:
    # Behind a proxy named in ALEXANDRIA_FORWARDED_ALLOW_IPS, uvicorn puts the forwarded address
    # here; from anyone else, X-Forwarded-For is ignored (``api/cli/main.py`` serve).
    return request.client.host if request.client is not None else "unknown"


def take_creation_slot(request: Request) -> None:
    """Dependency of every route that creates a game or a tournament."""
    limiter: RateLimit = request.app.state.creation_limiter
    limiter.take(client_address(request))


def take_join_slot(request: Request) -> None:
    """Dependency of the route that takes a seat by name."""
    limiter: RateLimit = request.app.state.join_limiter
    limiter.take(client_address(request))


def tables_admission(request: Request) -> Callable[[int], None]:
    """What seating a round asks before it creates its tables' games: each table counts as a game
    created by the client that seats the round, all of them or none."""
    limiter: RateLimit = request.app.state.creation_limiter
    client = client_address(request)
    return lambda tables: limiter.take(client, cost=tables)


class BodySizeLimit:
    """Refuses a request body above ``max_bytes`` (declared or as it arrives) with 413, before
    the application parses any of it; a body within the limit is passed on unchanged."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope["headers"])
        if b"content-length" not in headers and b"transfer-encoding" not in headers:
            await self.app(scope, receive, send)  # no body
            return
        try:
            body = await whole_body(headers, receive, self.max_bytes)
        except BodyTooLarge:
            await too_large(self.max_bytes)(scope, receive, send)
            return
        # Hand the body on as one message (or the client's leaving, for the app to see).
        first: Message | None = (
            {"type": "http.disconnect"} if body is None else {"type": "http.request", "body": body, "more_body": False}
        )

        async def replay() -> Message:
            nonlocal first
            if first is not None:
                message, first = first, None
                return message
            return await receive()

        await self.app(scope, replay, send)


class BodyTooLarge(Exception):
    pass


def too_large(max_bytes: int) -> JSONResponse:
    return error_response(413, PAYLOAD_TOO_LARGE, f"a request body may have at most {max_bytes} bytes")


async def whole_body(headers: dict[bytes, bytes], receive: Receive, max_bytes: int) -> bytes | None:
    """A request's whole body (it is small, or it is refused): ``BodyTooLarge`` as soon as it is
    declared or has arrived above ``max_bytes``, before the rest is read; None if the client left."""
    declared = headers.get(b"content-length")
    if declared is not None and declared.isdigit() and int(declared) > max_bytes:
        raise BodyTooLarge
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return None
        chunk: bytes = message.get("body", b"")
        size += len(chunk)
        if size > max_bytes:
            raise BodyTooLarge
        if not message.get("more_body", False):
            return b"".join((*chunks, chunk)) if chunks else chunk
        chunks.append(chunk)


class RequestDeadlineProtocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol (h11) with a deadline for each request to arrive whole: its
    headers and its body within ``deadline_seconds`` of the connection opening, or of the answer
    to the request before it. A client that sends slowly or stops half way (slowloris) is cut
    off then; uvicorn has a keep-alive timeout, but none for a request that has begun to arrive.
    A request that has arrived whole is answered however long the answer takes (live streams)."""

    deadline_seconds: float = 5.0
    _deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)  # type: ignore[arg-type]
        self._arm()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.conn.their_state is h11.DONE:
            self._disarm()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and self.conn.their_state is not h11.DONE:
            self._arm()  # the next request on this connection

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(self.deadline_seconds, self._cut_off)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _cut_off(self) -> None:
        self._deadline = None
        if self.conn.their_state is not h11.DONE and not self.transport.is_closing():
            self.transport.close()


def server_options(settings: Settings) -> dict[str, Any]:
    """How ``serve`` runs uvicorn (``uvicorn.Config`` arguments): the request deadline, the largest
    request head, and forwarded headers (``X-Forwarded-For``, the address the limits count by)
    believed only from the proxies the settings name, none by default."""
    deadline = settings.request_timeout_seconds
    protocol = type("RequestDeadlineH11", (RequestDeadlineProtocol,), {"deadline_seconds": deadline})
    proxies = settings.forwarded_allow_ips.strip()
    return {
        "http": protocol,
        "timeout_keep_alive": max(1, math.ceil(deadline)),
        "h11_max_incomplete_event_size": settings.max_header_bytes,
        "proxy_headers": bool(proxies),
        "forwarded_allow_ips": proxies,
    }


def install_limits(app: FastAPI, settings: Settings) -> FieldBounds:
    """The body-size limit and the creation rate limit on ``app``; the field bounds for its routes."""
    app.add_middleware(BodySizeLimit, max_bytes=settings.max_body_bytes)
    bounds = FieldBounds(
        seed_chars=settings.max_seed_chars,
        options_bytes=settings.max_options_bytes,
        command_bytes=settings.max_command_bytes,
    )
    app.state.creation_limiter = RateLimit(settings.creation_rate_limit, settings.redis_url, settings.redis_prefix)
    app.state.join_limiter = RateLimit(settings.join_rate_limit, settings.redis_url, settings.redis_prefix, JOIN)

    @app.exception_handler(RateLimited)
    async def rate_limited(_: Request, exc: RateLimited) -> JSONResponse:
        return error_response(429, exc.code, exc.message, headers={"Retry-After": str(exc.retry_after)})

    return bounds
