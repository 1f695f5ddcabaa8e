"""Settings from the environment, one variable per choice, with the embedded default when unset."""

from __future__ import annotations

from urllib.parse import unquote, urlparse

from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="ALEXANDRIA_")

    # sqlite:///path/to/file.sqlite (the embedded default) or postgresql://user@host:port/db
    database_url: str = "sqlite:///data/alexandria.sqlite"
    # Redis for read models and live updates; unset: read models in process.
    redis_url: str | None = None
    redis_prefix: str = "alexandria"
    host: str = "127.0.0.1"
    port: int = 8000
    snapshot_interval: int = 100
    # Games kept loaded for commands (least recently used); the rest load from their snapshots.
    aggregate_cache_size: int = 256
    postgres_pool_size: int = 10
    # Embedded mode: serve keeps the read models in a background thread (false: run
    # `alexandria project` beside it, on the same files).
    project_in_serve: bool = True
    # ... and after a save waits this long (ms) for more commands before it projects them together,
    # unless a read waits for them (min_version), which has them projected at once.
    projection_gather_ms: int = 20
    # min_version reads wait at most this long, and at most this many wait at once per server.
    wait_seconds: float = 5.0
    max_waiters: int = 1000
    # Decoded matches kept for reads (rendered views: four times as many), least recently used.
    read_cache_size: int = 256
    # Memory bounds that hold however many games a server has seen (docs/benchmarks.md):
    # the documents a projector keeps of what it last wrote (bytes, shared among its projections),
    projector_cache_bytes: int = 4_000_000
    # the matches the board read model keeps decoded from one batch to the next (a count, and the
    # bytes of their decoded states), and SQLite's page caches of every connection in the process
    # together (bytes; 0: no bound).
    projector_matches: int = 256
    projector_matches_bytes: int = 4_000_000
    sqlite_heap_bytes: int = 8 * 1024 * 1024
    # Browser origins allowed to call the API (CORS), comma separated, e.g.
    # "https://play.example.org,http://localhost:5173"; unset: none (CORS off).
    cors_origins: str = ""

    @property
    def cors_origin_list(self) -> list[str]:
        return [origin.strip() for origin in self.cors_origins.split(",") if origin.strip()]

    # What one request may ask (api/http/limits.py). A body above max_body_bytes is refused unread (413).
    max_body_bytes: int = 65_536
    max_seed_chars: int = 256
    max_options_bytes: int = 4_096  # the options object as compact JSON
    max_command_bytes: int = 4_096  # a command's fields as compact JSON
    # Games created (POST /games, forks, tournaments) per client address, in the `limits` library's notation
    # ("60/minute", "10/second;200/hour"); "" for none. Shared through Redis in the scale-out mode.
    # A tournament counts as one creation, and seating a round as one per table.
    creation_rate_limit: str = "60/minute"
    # Seats taken by name (POST /games/{id}/join) per client address, in the same notation.
    join_rate_limit: str = "60/minute"
    # A request's headers and body must arrive within this many seconds (from the connection's
    # opening, or the previous answer on it), or the connection is closed; a request head (its
    # line and headers) has at most max_header_bytes.
    request_timeout_seconds: float = 5.0
    max_header_bytes: int = 16_384
    # The proxies whose X-Forwarded-For / X-Forwarded-Proto are believed (comma separated
    # addresses or networks, "*" for any); unset: none, the peer's address is the client's.
    forwarded_allow_ips: str = ""
    # A stop ends live streams at once and waits this long for other requests in flight.
    shutdown_grace_seconds: int = 5


def sqlite_path(settings: Settings) -> str | None:
    """The SQLite event store's file (``:memory:`` for none), or None for another database."""
    url = urlparse(settings.database_url)
    if url.scheme != "sqlite":
        return None
    path = unquote(url.path.removeprefix("/")) if url.netloc == "" else unquote(url.netloc + url.path)
    return ":memory:" if path in ("", ":memory:") else path


def eventsourcing_env(settings: Settings) -> dict[str, str]:
    """The ``eventsourcing`` environment for the configured event store."""
    url = urlparse(settings.database_url)
    common = {
        "AGGREGATE_CACHE_MAXSIZE": str(settings.aggregate_cache_size),
        "DEEPCOPY_FROM_AGGREGATE_CACHE": "n",
    }
    path = sqlite_path(settings)
    if path is not None:
        return {
            **common,
            "PERSISTENCE_MODULE": "eventsourcing.sqlite",
            # One process writes an SQLite file (``serve``): its cached games are current, so a
            # load need not ask the file for newer events first (a round trip per command).
            "AGGREGATE_CACHE_FASTFORWARD": "n",
            "SQLITE_DBNAME": path,
            "SQLITE_LOCK_TIMEOUT": "10",
        }
    if url.scheme in ("postgres", "postgresql"):
        return {
            **common,
            # eventsourcing's PostgreSQL store, made safe against dropped connections and against
            # processes that create its tables at the same moment (infra/postgres.py).
            "PERSISTENCE_MODULE": "infra.postgres:Factory",
            "POSTGRES_DBNAME": url.path.removeprefix("/") or "postgres",
            "POSTGRES_HOST": url.hostname or "127.0.0.1",
            "POSTGRES_PORT": str(url.port or 5432),
            "POSTGRES_USER": unquote(url.username or "postgres"),
            "POSTGRES_PASSWORD": unquote(url.password or ""),
            "POSTGRES_POOL_SIZE": str(settings.postgres_pool_size),
            "POSTGRES_MAX_OVERFLOW": str(settings.postgres_pool_size),
            "POSTGRES_LOCK_TIMEOUT": "5",
            "POSTGRES_CONNECT_TIMEOUT": "5",
            # A pooled connection the server dropped (a restart, pg_terminate_backend) is
            # replaced before use instead of failing the next request.
            "POSTGRES_PRE_PING": "y",
        }
    raise ValueError(
        f"ALEXANDRIA_DATABASE_URL must be sqlite:///FILE or postgresql://..., not {settings.database_url!r}"
    )
