"""The ``alexandria`` command line."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from domain.catalog import GAMES
from domain.kernel.bots import RandomBot
from domain.kernel.chance import Chance
from domain.kernel.errors import RuleViolation
from domain.kernel.log import Record, canonical, for_viewer
from domain.kernel.match import Match
from domain.kernel.verification import verify_records
from infra.bootstrap import build_service
from infra.settings import Settings
from infra.simulation import play_with_bot


@click.group()
def main() -> None:
    """Alexandria: an event-sourced game server for four board games about Alexander the Great."""


@main.command()
@click.option("--host", default=None, help="interface to listen on (default ALEXANDRIA_HOST or 127.0.0.1)")
@click.option("--port", default=None, type=int, help="port (default ALEXANDRIA_PORT or 8000)")
def serve(host: str | None, port: int | None) -> None:
    """Run the HTTP API (embedded default: SQLite file, read models in process)."""
    import uvicorn

    from api.app import create_app

    settings = Settings()
    host = host or settings.host
    port = port or settings.port
    from infra.readside import build_read_side

    service = build_service(settings)
    app = create_app(service, build_read_side(service, settings))
    click.echo(f"Alexandria serving on http://{host}:{port} (API docs at http://{host}:{port}/docs)")
    click.echo(f"event store: {settings.database_url}")
    click.echo(f"read models: {'Redis ' + settings.redis_url if settings.redis_url else 'SQLite beside the events'}")
    uvicorn.run(app, host=host, port=port, log_level="warning")


def parse_options(pairs: tuple[str, ...]) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise click.BadParameter(f"{pair!r} is not KEY=VALUE", param_hint="--option")
        try:
            options[key] = json.loads(value)
        except json.JSONDecodeError:
            options[key] = value
    return options


@main.command()
@click.argument("game")
@click.option("--players", type=int, required=True)
@click.option("--option", "option_pairs", multiple=True, help="KEY=VALUE (VALUE as JSON where it parses)")
@click.option("--seed", default=None, help="a fixed seed (secret by default)")
def new(game: str, players: int, option_pairs: tuple[str, ...], seed: str | None) -> None:
    """Create a game in the configured store and print its id and seat tokens."""
    service = build_service()
    try:
        created = service.create_game(game, players, parse_options(option_pairs), seed.encode() if seed else None)
    except RuleViolation as refusal:
        raise click.ClickException(f"{refusal.code}: {refusal.message}") from None
    click.echo(json.dumps({"game_id": created.game_id, "version": created.version, "tokens": created.tokens}))


@main.command()
@click.option("--game", "game_id", required=True, type=click.Choice(GAMES.ids()))
@click.option("--players", type=int, required=True)
@click.option("--games", "count", type=int, default=1, show_default=True)
@click.option("--seed", default="alexandria", show_default=True, help="games use SEED-1, SEED-2, ...")
@click.option("--option", "option_pairs", multiple=True, help="KEY=VALUE game option")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None, help="write each record here")
def simulate(
    game_id: str, players: int, count: int, seed: str, option_pairs: tuple[str, ...], out: Path | None
) -> None:
    """Bots play full games through the application service (an in-memory store)."""
    from tqdm import tqdm

    service = build_service(Settings(database_url="sqlite:///:memory:"))
    options = parse_options(option_pairs)
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
    total_records = 0
    for number in tqdm(range(1, count + 1), desc=f"{game_id} x{players}", unit="game", file=sys.stderr):
        created = service.create_game(game_id, players, options, f"{seed}-{number}".encode())
        play_with_bot(service, created, RandomBot(f"bot:{seed}-{number}".encode()))
        records = service.records(created.game_id)
        total_records += len(records)
        if out is not None:
            path = out / f"{game_id}-{number}-{created.game_id}.jsonl"
            path.write_text("".join(canonical(for_viewer(r, None, reveal_all=True)) + "\n" for r in records))
    where = f"; records in {out}" if out is not None else ""
    click.echo(f"{count} {game_id} games played to the end, {total_records} records{where}")


def read_record_file(path: Path) -> list[dict[str, Any]]:
    try:
        return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    except (OSError, json.JSONDecodeError) as problem:
        raise click.ClickException(f"cannot read {path}: {problem}") from None


@main.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
def verify(file: Path) -> None:
    """Check the hash chain and (after the end) the seed of an exported game record, offline."""
    report = verify_records(read_record_file(file), GAMES.get)
    click.echo(json.dumps(report.to_dict(), indent=2))
    if not report.chain_ok or report.seed_ok is False:
        sys.exit(1)


@main.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--to", "version", type=int, default=None, help="the version to rebuild (default: the last)")
@click.option("--seat", type=int, default=None, help="show the view of this seat (default: a spectator)")
def replay(file: Path, version: int | None, seat: int | None) -> None:
    """Rebuild a game from an exported record and print the view at a version."""
    from projections.board import board_view

    raw = read_record_file(file)
    if not raw or raw[0].get("type") != "GameCreated":
        raise click.ClickException("a game record starts with GameCreated")
    version = len(raw) if version is None else version
    if not 1 <= version <= len(raw):
        raise click.ClickException(f"--to must be between 1 and {len(raw)}")
    created = raw[0]["data"]
    match = Match(GAMES.get(created["game"]), created["players"], created["options"], Chance(b"replay"))
    for entry in raw[:version]:
        if entry.get("viewers") is not None and entry.get("data") == entry.get("public"):
            raise click.ClickException(
                f"position {entry['position']} is redacted in this export; replay needs a full record"
            )
        match.apply_record(Record.from_dict(entry))
    click.echo(json.dumps(board_view(created.get("game_id", file.stem), match, seat), indent=2))


@main.command()
@click.option("--rebuild", default=None, metavar="NAME", help="recompute this read model from scratch, then exit")
@click.option("--once", is_flag=True, help="catch up with the event store, then exit")
def project(rebuild: str | None, once: bool) -> None:
    """Keep the read models current: follow the event store's notification log.

    Scale-out: the Redis read models (run as many as you like: a lease per read model lets one
    worker at a time apply a batch). Embedded: the SQLite read-model file beside the event store
    (what `serve` does in the background unless ALEXANDRIA_PROJECT_IN_SERVE=false).
    """
    import logging
    import signal
    import threading

    from infra.projector import Projector
    from infra.readside import read_model_store
    from projections.registry import PROJECTION_NAMES

    settings = Settings()
    if rebuild is not None and rebuild not in PROJECTION_NAMES:
        known = ", ".join(PROJECTION_NAMES)
        raise click.BadParameter(f"{rebuild!r}; the read models are {known}", param_hint="--rebuild")
    try:
        store = read_model_store(settings)
    except ValueError as problem:
        raise click.ClickException(str(problem)) from None
    service = build_service(settings)
    projector = Projector(service, store)
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
    projector.run_forever(stop)


if __name__ == "__main__":
    main()
