"""The ``alexandria`` command line.

Data goes to stdout, as a table (rich) or, with ``--json``, as JSON; progress and errors go to
stderr. A refusal (a bad player count, a bad option, an unreadable file) is one line and a
non-zero exit status, never a traceback.
"""

from __future__ import annotations

import gc
import hashlib
import json
import sys
import time
from collections.abc import Iterator
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
import pydantic

from domain.catalog import GAMES
from domain.kernel.bots import BOT_NAMES, BotTable, RandomBot, make_bot
from domain.kernel.errors import RuleViolation
from domain.kernel.log import Record, canonical, for_viewer
from domain.kernel.match import Match
from domain.kernel.search import DEFAULT_PLAYOUTS
from domain.kernel.verification import EXIT_INCOMPLETE, EXIT_PROBLEM, Problem, parse_export, verify_export
from infra.bootstrap import build_service
from infra.games.service import CreatedGame, ServiceError
from infra.games.simulation import SimulationResults, play_with_bot
from infra.settings import Settings

if TYPE_CHECKING:  # rich is imported by the commands that print with it (not by serve)
    from rich.console import Console


SWITCH_INTERVAL_SECONDS = 0.001


class Commands(click.Group):
    """Refusals of the rules or the service become one clear line and exit status 1.

    The command groups in modules of their own are imported when they are asked for, so that
    ``serve`` does not import what only they use."""

    LAZY = {"tournament": "api.cli.tournament", "analytics": "api.cli.analytics"}

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.LAZY})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.LAZY and cmd_name not in self.commands:
            self.add_command(getattr(import_module(self.LAZY[cmd_name]), cmd_name))
        return super().get_command(ctx, cmd_name)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except (RuleViolation, ServiceError) as refusal:
            raise click.ClickException(f"{refusal.code}: {refusal.message}") from None
        except pydantic.ValidationError as bad_settings:  # an ALEXANDRIA_* variable of the wrong type
            problems = "; ".join(
                f"ALEXANDRIA_{'_'.join(map(str, e['loc'])).upper()}: {e['msg']}" for e in bad_settings.errors()
            )
            raise click.ClickException(problems) from None


def stdout() -> Console:
    from rich.console import Console

    return Console(highlight=False)


def print_json(data: Any) -> None:
    click.echo(json.dumps(data, indent=2))


json_option = click.option("--json", "as_json", is_flag=True, help="print JSON instead of a table")


@click.group("alexandria", cls=Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="alexandria", prog_name="alexandria")
def main() -> None:
    """Alexandria: an event-sourced game server for four board games about Alexander the Great."""


@main.command()
@click.option("--host", default=None, help="interface to listen on (default ALEXANDRIA_HOST or 127.0.0.1)")
@click.option("--port", default=None, type=click.IntRange(1, 65535), help="port (default ALEXANDRIA_PORT or 8000)")
def serve(host: str | None, port: int | None) -> None:
    """Run the HTTP API (embedded default: SQLite file, read models in process).

    SIGTERM or Ctrl-C stops it gracefully: live streams end at once (clients resume with
    Last-Event-ID), other requests get ALEXANDRIA_SHUTDOWN_GRACE_SECONDS to finish.

    It applies the clock rule of clocked tournaments by itself (a background thread; of several
    servers sharing the read models, one at a time, by lease).
    """
    from api.http.app import create_app
    from api.http.lifecycle import run_server
    from api.http.limits import server_options
    from infra.readside.reader import build_read_side

    settings = Settings()
    host = host or settings.host
    port = port or settings.port
    try:
        service = build_service(settings)
        app = create_app(service, build_read_side(service, settings), settings)
    except ValueError as bad_setting:  # a database URL or a limit the settings cannot mean
        raise click.ClickException(str(bad_setting)) from None
    click.echo(f"Alexandria serving on http://{host}:{port} (API docs at http://{host}:{port}/docs)")
    click.echo(f"event store: {settings.database_url}")
    click.echo(f"read models: {'Redis ' + settings.redis_url if settings.redis_url else 'SQLite beside the events'}")
    click.echo("tournament clocks: kept by this server (by one server at a time of those sharing the read models)")
    # What start-up made (modules, the app and its routes, schemas) lives as long as the process:
    # out of the collector's generations, it is not walked again by every full collection, a
    # pause of its own in the middle of a command.
    gc.freeze()
    # The background projectors hand the GIL to a request after 1 ms rather than 5 ms (Python's
    # default): a command waits for it after each of its I/O steps (its commit, the thread hops).
    sys.setswitchinterval(SWITCH_INTERVAL_SECONDS)
    run_server(app, host, port, settings.shutdown_grace_seconds, **server_options(settings))


def parse_options(pairs: tuple[str, ...], param_hint: str = "--option") -> dict[str, Any]:
    """``KEY=VALUE`` pairs; a VALUE is read as JSON where it parses."""
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise click.BadParameter(f"{pair!r} is not KEY=VALUE", param_hint=param_hint)
        try:
            options[key] = json.loads(value)
        except json.JSONDecodeError:
            options[key] = value
    return options


@main.command()
@click.argument("game", type=click.Choice(GAMES.ids()))
@click.option("--players", type=int, required=True)
@click.option("--option", "option_pairs", multiple=True, help="KEY=VALUE (VALUE as JSON where it parses)")
@click.option("--seed", default=None, help="a fixed seed (secret by default)")
@json_option
def new(game: str, players: int, option_pairs: tuple[str, ...], seed: str | None, as_json: bool) -> None:
    """Create a game in the configured store and print its id and seat tokens."""
    from rich.table import Table

    from api.http.routes.games import created_game

    service = build_service()
    created = created_game(
        service.create_game(game, players, parse_options(option_pairs), seed.encode() if seed else None)
    )
    if as_json:  # exactly what POST /games answers
        print_json(created.model_dump())
        return
    table = Table(title=f"{game} game {created.game_id} (version {created.version})")
    table.add_column("seat", justify="right")
    table.add_column("token (hand it to the seat's player only)", no_wrap=True, overflow="fold")
    for seat in created.seats:
        table.add_row(str(seat.seat), seat.token)
    stdout().print(table)


@main.command()
@click.option("--game", "game_id", required=True, type=click.Choice(GAMES.ids()))
@click.option("--players", type=int, required=True)
@click.option("--games", "count", type=click.IntRange(min=1), default=1, show_default=True)
@click.option("--seed", default="alexandria", show_default=True, help="games use SEED-1, SEED-2, ...")
@click.option("--option", "option_pairs", multiple=True, help="KEY=VALUE game option")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None, help="write each record here")
@click.option(
    "--database-url",
    default=None,
    help="play into this event store (kept, for `alexandria analytics`) instead of one in memory",
)
@click.option(
    "--bots",
    "bot_list",
    default=None,
    help=f"one bot per seat in seat order, comma-separated ({', '.join(BOT_NAMES)}); default: random for all",
)
@click.option(
    "--bot-budget-ms",
    type=click.IntRange(min=1),
    default=None,
    help="the search bot's thinking time per decision (default: a budget of playouts)",
)
@click.option(
    "--bot-playouts",
    type=click.IntRange(min=1),
    default=DEFAULT_PLAYOUTS,
    show_default=True,
    help="the search bot's playouts per decision (the cap when --bot-budget-ms is given)",
)
@json_option
def simulate(
    game_id: str,
    players: int,
    count: int,
    seed: str,
    option_pairs: tuple[str, ...],
    out: Path | None,
    database_url: str | None,
    bot_list: str | None,
    bot_budget_ms: int | None,
    bot_playouts: int,
    as_json: bool,
) -> None:
    """Bots play full games through the application service (an in-memory store, or the one
    --database-url names: a study the analytics tables can read), then a table of the results:
    wins per seat, scores, game length, speed. ``--bots search,random,random`` seats a bot per
    seat; a search bot with ``--bot-budget-ms`` thinks that long per decision.

    With --database-url each seat is taken by its bot's name (``game_seats.name`` in the
    analytics tables), and the options are those of every game's GameCreated (``games.options``).
    With --out, ``games.ndjson`` beside the record files has a line per game: its id, file,
    seed, options and when it was created and ended."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    names = parse_bots(bot_list, players)
    service = build_service(Settings(database_url=database_url or "sqlite:///:memory:"))
    options = parse_options(option_pairs)
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
    results = SimulationResults.empty(game_id, players)
    started = time.perf_counter()
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as progress:
        task = progress.add_task(f"{game_id} x{players}", total=count)
        for number in range(1, count + 1):
            # Simulations are reproducible: the salt comes from the public --seed, not from secrets.
            salt = hashlib.sha256(f"simulate:{seed}-{number}".encode()).digest()
            if database_url is None:
                created = service.create_game(game_id, players, options, f"{seed}-{number}".encode(), salt)
            else:
                bots = names or [STUDY_BOT] * players
                created = seated_by_bots(service, game_id, bots, options, f"{seed}-{number}".encode(), salt)
            if names is None:
                play_with_bot(service, created, RandomBot(f"bot:{seed}-{number}".encode()))
            else:
                play_with_bot(service, created, bot_table(names, f"bot:{seed}-{number}", bot_playouts, bot_budget_ms))
            results.add(service, created.game_id)
            if out is not None:
                path = out / f"{game_id}-{number}-{created.game_id}.jsonl"
                records = service.records(created.game_id)
                path.write_text("".join(canonical(for_viewer(r, None, reveal_all=True)) + "\n" for r in records))
                with (out / "games.ndjson").open("a", encoding="utf-8") as index:
                    index.write(canonical(study_line(service, created.game_id, path.name, f"{seed}-{number}")) + "\n")
            progress.advance(task)
    results.seconds = time.perf_counter() - started
    summary = results.to_dict()
    for entry in summary["seats"]:
        entry["bot"] = names[entry["seat"]] if names is not None else "random"
    if as_json:
        print_json(summary)
        return
    show_simulation(summary, out)


STUDY_BOT = "random"  # the bot simulate plays a seat with unless --bots names another


def seated_by_bots(
    service: Any, game: str, bots: list[str], options: dict[str, Any], seed: bytes, salt: bytes
) -> CreatedGame:
    """A game whose seats are taken by name, each by the bot that plays it (``random 0`` ...)."""
    created = service.create_game(game, len(bots), options, seed, salt, open_seats=True)
    tokens = [service.join(created.game_id, f"{bot} {seat}", seat).token for seat, bot in enumerate(bots)]
    return CreatedGame(created.game_id, service.load(created.game_id).match.version, tokens)


def study_line(service: Any, game_id: str, file: str, seed: str) -> dict[str, Any]:
    """A simulated game's line in ``games.ndjson``: its id, record file, seed and times."""
    records = service.timed_records(game_id)
    (created, created_at), (ended, ended_at) = records[0], records[-1]
    return {
        "game_id": game_id,
        "file": file,
        "seed": seed,
        "game": created.data["game"],
        "players": created.data["players"],
        "options": created.data.get("options") or {},
        "created_at": created_at.isoformat(),
        "ended_at": ended_at.isoformat() if ended.type == "GameEnded" else None,
        "records": len(records),
    }


def parse_bots(bot_list: str | None, players: int) -> list[str] | None:
    if bot_list is None:
        return None
    names = [name.strip() for name in bot_list.split(",")]
    unknown = [name for name in names if name not in BOT_NAMES]
    if unknown:
        raise click.BadParameter(
            f"there is no bot {unknown[0]!r}; the bots are: {', '.join(BOT_NAMES)}", param_hint="--bots"
        )
    if len(names) != players:
        raise click.BadParameter(f"name one bot per seat: {players} seats, {len(names)} names", param_hint="--bots")
    return names


def bot_table(names: list[str], seed: str, playouts: int, budget_ms: int | None) -> BotTable:
    """The bots of one game, each with a stream of its own; a time budget is measured here, at the edge."""
    seconds = budget_ms / 1000 if budget_ms is not None else None
    return BotTable(
        {
            seat: make_bot(name, f"{seed}:{seat}".encode(), playouts, seconds, time.perf_counter)
            for seat, name in enumerate(names)
        }
    )


def show_simulation(summary: dict[str, Any], out: Path | None) -> None:
    from rich.table import Table

    games = summary["games"]
    table = Table(title=f"{games} {summary['game']} games, {summary['players']} players, played to the end")
    for heading in ("seat", "bot", "wins", "win rate", "mean score", "sd", "min", "max"):
        table.add_column(heading, justify="right")
    for seat in summary["seats"]:
        table.add_row(
            str(seat["seat"]),
            seat["bot"],
            str(seat["wins"]),
            f"{seat['win_rate']:.1%}",
            f"{seat['score_mean']:.2f}",
            f"{seat['score_sd']:.2f}",
            f"{seat['score_min']:g}",
            f"{seat['score_max']:g}",
        )
    if sum(seat["wins"] for seat in summary["seats"]) > games:
        table.caption = "a shared win counts for each winner"
    console = stdout()
    console.print(table)
    console.print(
        f"mean game length {summary['mean_commands']:.1f} commands ({summary['mean_records']:.1f} records); "
        f"{summary['records']} records in {summary['seconds']:.2f} s, {summary['records_per_second']:,.0f} records/s",
        soft_wrap=True,
    )
    if out is not None:
        console.print(f"records in {out}")


def read_record_file(path: Path) -> list[dict[str, Any]]:
    """An exported record, read as ``alexandria verify`` reads it (one reader for every export)."""
    try:
        return parse_export(path.read_bytes())
    except OSError as problem:
        raise click.ClickException(f"cannot read {path}: {problem}") from None
    except Problem as problem:
        raise click.ClickException(f"cannot read {path}: {problem.message}") from None


def passed(report: dict[str, Any]) -> bool:
    """A report passes when its record is complete and verifies."""
    return report.get("verified") is True


def verification_line(path: Path, report: dict[str, Any]) -> str:
    """One line (rich markup) for whatever a verification report holds: each check, then the rest."""
    from rich.markup import escape

    if "error" in report:
        return f"[red]FAIL[/] {escape(str(path))}: {escape(report['error'])}"
    checks = []
    for key, value in report.items():
        if key.endswith("_ok"):
            name = key.removesuffix("_ok")
            checks.append(
                f"{name} not checked" if value is None else f"{name} ok" if value else f"[red]{name} BROKEN[/]"
            )
    details = [
        f"{key.replace('_', ' ')} {escape(shortened(value))}"
        for key, value in report.items()
        if not key.endswith("_ok")
        and key not in ("problems", "file", "statement", "verified", "complete")
        and value not in (None, [], {})
    ]
    problems = [f"[red]{escape(str(problem))}[/]" for problem in report.get("problems", [])]
    verdict = "[green]ok[/]  " if passed(report) else "[red]FAIL[/]" if problems else "[yellow]incomplete[/]"
    completeness = ["complete" if report.get("complete") else "incomplete (not ended)"]
    return f"{verdict} {escape(str(path))}: " + "; ".join(checks + completeness + details + problems)


def shortened(value: Any) -> str:
    """Hashes and other long values by their first 16 characters (the JSON output has them whole)."""
    text = value if isinstance(value, str) else json.dumps(value)
    return text if len(text) <= 16 else text[:16] + "…"


def verification_of(path: Path, fingerprint: str | None = None, commitment: str | None = None) -> dict[str, Any]:
    """The verification report of one record file, or ``{"error"}`` when it cannot be read."""
    try:
        content = path.read_bytes()
    except OSError as unreadable:
        return {"error": f"cannot read {path}: {unreadable}"}
    return verify_export(content, GAMES.get, fingerprint, commitment).to_dict()


@main.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--fingerprint", default=None, metavar="HEX", help="the published fingerprint the record must end with")
@click.option("--commitment", default=None, metavar="HEX", help="the published seed commitment it must start with")
@json_option
def verify(files: tuple[Path, ...], fingerprint: str | None, commitment: str | None, as_json: bool) -> None:
    """Check exported game records offline (shape, hash chain, seed, and a re-execution of every
    command): one line per file, then a summary. Exit status 0 when every record is complete and
    verifies, 1 when any has a problem, 3 when none has but some are incomplete (not ended)."""
    if (fingerprint or commitment) and len(files) != 1:
        raise click.UsageError("--fingerprint and --commitment are a published game's: give one FILE with them")
    reports = [{"file": str(path), **verification_of(path, fingerprint, commitment)} for path in files]
    failed = sum("error" in report or bool(report["problems"]) for report in reports)
    verified = sum(passed(report) for report in reports)
    incomplete = len(reports) - verified - failed
    summary = {"files": len(reports), "passed": verified, "failed": failed, "incomplete": incomplete}
    if as_json:
        print_json({"files": reports, "summary": summary})
    else:
        console = stdout()
        for path, report in zip(files, reports, strict=True):
            console.print(verification_line(path, report), soft_wrap=True)
        style = "red" if failed else "yellow" if incomplete else "green"
        files_checked = f"{len(reports)} file{'s' if len(reports) != 1 else ''}"
        unfinished = f", {incomplete} incomplete" if incomplete else ""
        console.print(f"[{style}]{files_checked}: {verified} passed, {failed} failed{unfinished}[/]")
    if failed:
        sys.exit(EXIT_PROBLEM)
    if incomplete:
        sys.exit(EXIT_INCOMPLETE)


def full_records(entries: list[dict[str, Any]]) -> Iterator[Record]:
    """The exported records to replay, stopping at the first redacted one (replay needs them whole)."""
    for entry in entries:
        if entry.get("viewers") is not None and entry.get("data") == entry.get("public"):
            raise click.ClickException(
                f"position {entry['position']} is redacted in this export; replay needs a full record"
            )
        yield Record.from_dict(entry)


@main.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--to", "version", type=int, default=None, help="the version to rebuild (default: the last)")
@click.option("--seat", type=int, default=None, help="show the view of this seat (default: a spectator)")
@json_option
def replay(file: Path, version: int | None, seat: int | None, as_json: bool) -> None:
    """Rebuild a game from an exported record and print the view at a version."""
    from projections.board import board_view

    raw = read_record_file(file)
    if not raw or raw[0].get("type") != "GameCreated":
        raise click.ClickException("a game record starts with GameCreated")
    version = len(raw) if version is None else version
    if not 1 <= version <= len(raw):
        raise click.ClickException(f"--to must be between 1 and {len(raw)}")
    created = raw[0]["data"]
    if seat is not None and not 0 <= seat < created["players"]:
        raise click.ClickException(f"--seat must be between 0 and {created['players'] - 1} (the game's seats)")
    match = Match.replay(
        GAMES.get(created["game"]), created["players"], created["options"], full_records(raw[:version])
    )
    view = board_view(created.get("game_id", file.stem), match, seat)
    if as_json:
        print_json(view)
        return
    console = stdout()
    viewer = "a spectator" if seat is None else f"seat {seat}"
    console.print(f"[bold]{created['game']}[/] at version {version} of {len(raw)}, as {viewer} sees it:")
    console.print_json(canonical(view))


@main.command()
@click.option("--rebuild", default=None, metavar="NAME", help="recompute this read model from scratch, then exit")
@click.option("--once", is_flag=True, help="catch up with the event store, then exit")
def project(rebuild: str | None, once: bool) -> None:
    """Keep the read models current: follow the event store's notification log.

    Scale-out: the Redis read models (run as many as you like: a lease per read model lets one
    worker at a time apply a batch). Embedded: the SQLite read-model file beside the event store
    (what `serve` does in the background unless ALEXANDRIA_PROJECT_IN_SERVE=false).

    The analytics tables (one DuckDB file, one writer at a time) have a worker of their own:
    `alexandria analytics project`.
    """
    import logging
    import signal
    import threading

    from infra.readside.projector import Projector
    from infra.readside.reader import projections_of, read_model_store
    from projections.registry import PROJECTION_NAMES

    settings = Settings()
    if rebuild is not None and rebuild not in PROJECTION_NAMES:
        known = ", ".join(PROJECTION_NAMES)
        raise click.BadParameter(
            f"{rebuild!r}; the read models are {known} (the analytics tables: alexandria analytics project --rebuild)",
            param_hint="--rebuild",
        )
    try:
        store = read_model_store(settings)
    except ValueError as problem:
        raise click.ClickException(str(problem)) from None
    service = build_service(settings)
    projector = Projector(service, store, projections_of(settings), cache_bytes=settings.projector_cache_bytes)
    if rebuild is not None:
        projector.rebuild(rebuild)
        click.echo(f"{rebuild} rebuilt up to notification {projector.store.position(rebuild)}")
        return
    if once:
        projector.catch_up()
        projector.release_leases()
        return
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    click.echo(f"projection worker {projector.owner} following {settings.database_url}", err=True)
    import gc

    # What start-up loaded stays for good: a full collection then never walks it again (a pause
    # the projection's lag would show).
    gc.collect()
    gc.freeze()
    projector.run_forever(stop)


if __name__ == "__main__":
    main()
