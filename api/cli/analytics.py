"""``alexandria analytics``: keep, query, export and report on the analytics read model."""

from __future__ import annotations

import json
import signal
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, date, datetime
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from infra.bootstrap import build_service
from infra.settings import Settings

if TYPE_CHECKING:  # DuckDB and pyarrow load only when an analytics command runs
    from infra.analytics.store import Analytics


def _analytics(worker: bool = False) -> Analytics:
    from infra.analytics.store import Analytics, AnalyticsSettings

    return Analytics.for_service(build_service(Settings()), AnalyticsSettings(), worker=worker)


@contextmanager
def _clear_errors() -> Iterator[None]:
    """Refusals as one line on stderr and exit status 1, never a traceback."""
    import duckdb

    from infra.analytics.store import AnalyticsError

    try:
        yield
    except AnalyticsError as problem:
        raise click.ClickException(f"{problem.code}: {problem.message}") from None
    except duckdb.Error as problem:
        raise click.ClickException(f"the query failed: {problem}") from None


@click.group()
def analytics() -> None:
    """The analytics read model (DuckDB): every game's public records and facts as tables.

    The database is ALEXANDRIA_ANALYTICS_PATH (default: analytics.duckdb beside the SQLite
    event store). With the embedded event store each command first catches the tables up.
    """


@analytics.command()
@click.option("--once", is_flag=True, help="catch up with the event store, then exit")
@click.option("--rebuild", is_flag=True, help="empty the tables, recompute them from the event store, then exit")
def project(once: bool, rebuild: bool) -> None:
    """Keep the analytics tables current: follow the event store's notification log."""
    with _clear_errors():
        keeper = _analytics(worker=True)
        started = time.perf_counter()
        if rebuild or once:
            applied = keeper.projector.rebuild() if rebuild else keeper.projector.catch_up()
            keeper.database.publish(force=True)
            seconds = time.perf_counter() - started
            click.echo(
                f"analytics {'rebuilt' if rebuild else 'caught up'}: {applied} records in {seconds:.1f} s, "
                f"at notification {keeper.database.position()} ({keeper.database.path})"
            )
            return
        stop = threading.Event()
        for signum in (signal.SIGTERM, signal.SIGINT):
            signal.signal(signum, lambda *_: stop.set())
        click.echo(f"analytics projection following the event store into {keeper.database.path}", err=True)
        keeper.projector.run_forever(stop)


def _plain(value: Any) -> Any:
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return float(value)
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


@analytics.command()
@click.argument("sql")
@click.option("--json", "as_json", is_flag=True, help="print the rows as a JSON list of objects")
@click.option("--limit", type=click.IntRange(min=1), default=1000, show_default=True, help="rows shown at most")
def query(sql: str, as_json: bool, limit: int) -> None:
    """Run one read-only SQL query (DuckDB dialect) and print its rows.

    Example: alexandria analytics query "SELECT total, count(*) FROM catan_dice_rolls GROUP BY total ORDER BY total"
    """
    with _clear_errors():
        keeper = _analytics()
        keeper.refresh()
        with keeper.database.connect(read_only=True) as connection:
            result = connection.execute(sql)
            if result.description is None:
                raise click.ClickException("the statement returned no rows")
            columns = [c[0] for c in result.description]
            rows = result.fetchmany(limit + 1)
    more = len(rows) > limit
    rows = rows[:limit]
    if as_json:
        click.echo(json.dumps([{c: _plain(v) for c, v in zip(columns, row, strict=True)} for row in rows], indent=2))
    else:
        from rich.console import Console
        from rich.table import Table

        table = Table(*columns, show_lines=False)
        for row in rows:
            table.add_row(*(json.dumps(_plain(v)) if isinstance(v, list | dict) else str(_plain(v)) for v in row))
        console = Console()
        console.print(table)
        console.print(f"{len(rows)} row{'s' if len(rows) != 1 else ''}{' (more not shown: --limit)' if more else ''}")
    if more:
        click.echo(f"more than {limit} rows; the first {limit} are shown", err=True)


@analytics.command()
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
@click.option("--format", "file_format", type=click.Choice(["parquet", "csv"]), default="parquet", show_default=True)
@click.option(
    "--since",
    default=None,
    help="only the games that ended at or after this time (ISO 8601, no zone = UTC): an incremental export",
)
def export(directory: Path, file_format: str, since: str | None) -> None:
    """Write every table to DIRECTORY: Parquet partitioned by game and month, or one CSV per table."""
    from infra.analytics.store import export_tables

    moment = _moment(since, "--since") if since is not None else None
    with _clear_errors():
        keeper = _analytics()
        started = time.perf_counter()
        with keeper.reading() as connection:
            written = export_tables(connection, directory, file_format, moment)  # type: ignore[arg-type]
    seconds = time.perf_counter() - started
    total = sum(written.values())
    click.echo(f"{total} rows of {len(written)} tables written to {directory} as {file_format} in {seconds:.1f} s")


def _moment(text: str, option: str) -> datetime:
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise click.BadParameter(
            f"{text!r} is not an ISO 8601 time (e.g. 2026-11-01T00:00)", param_hint=option
        ) from None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


@analytics.command()
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
def dump(directory: Path) -> None:
    """Monthly dumps in DIRECTORY, as the lichess database publishes its games: for each month
    over in which games ended, YYYY-MM/TABLE.parquet with the rows of the games that ended that
    month, and index.json listing every file (rows, bytes, SHA-256). Months already dumped are
    kept; run it monthly (or daily: a month is dumped once it is over)."""
    from infra.analytics.store import dump_months

    with _clear_errors():
        keeper = _analytics()
        with keeper.reading() as connection:
            index = dump_months(connection, directory, datetime.now(UTC))
    months = index["months"]
    click.echo(
        f"{len(months)} month{'s' if len(months) != 1 else ''} dumped in {directory}: {', '.join(months) or 'none'}"
    )


@analytics.command()
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None, help="write it here")
def schema(out: Path | None) -> None:
    """Print the tables' schema as Markdown: every column's type, unit and meaning (what
    docs/analytics-schema.md holds)."""
    from projections.analytics.docs import schema_markdown

    text = schema_markdown() + "\n"
    if out is None:
        click.echo(text, nl=False)
    else:
        out.write_text(text, encoding="utf-8")
        click.echo(f"the schema of the analytics tables written to {out}")


@analytics.command()
@click.option("--game", default=None, help="only this game (e.g. catan_alexander)")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("report"), show_default=True)
@click.option("--format", "file_format", type=click.Choice(["markdown", "html"]), default="markdown", show_default=True)
def report(game: str | None, out: Path, file_format: str) -> None:
    """Write a report with charts (PNG): dice fairness, win rate by seat, scores, length, bids."""
    from domain.catalog import GAMES
    from infra.analytics.report import compute_report, write_report

    if game is not None and game not in GAMES.ids():
        raise click.BadParameter(f"{game!r}; the games are {', '.join(GAMES.ids())}", param_hint="--game")
    with _clear_errors():
        keeper = _analytics()
        with keeper.reading() as connection:
            numbers = compute_report(connection, game)
    path = write_report(numbers, out, file_format)  # type: ignore[arg-type]
    ended = sum(numbers.games.values())
    click.echo(f"report over {ended} ended game{'s' if ended != 1 else ''} written to {path}")
    if not ended:
        click.echo("no ended game yet: the report has no numbers", err=True)
    sys.stdout.flush()
