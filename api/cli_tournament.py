"""``alexandria tournament``: verify a tournament bundle offline, or play a whole tournament with bots."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table as RichTable

from domain.catalog import GAMES
from domain.kernel.errors import RuleViolation
from domain.tournament.config import FORMATS, TIMEOUT_RULES
from domain.tournament.rules import standings_view
from domain.tournament.verification import verify_bundle_text
from infra.bootstrap import build_service
from infra.service import ServiceError
from infra.settings import Settings
from infra.tournament_run import SteppingClock, run_tournament
from infra.tournament_service import TournamentService


@click.group()
def tournament() -> None:
    """Tournaments: verify a bundle, or run one with bots."""


def standings_table(rows: list[dict[str, Any]], title: str) -> RichTable:
    table = RichTable(title=title)
    for column in ("place", "player", "points", "games", "byes", "head-to-head", "opp. points", "score sum", "rating"):
        table.add_column(column, justify="left" if column == "player" else "right")
    for row in rows:
        table.add_row(
            str(row["place"]),
            row["name"],
            f"{row['points']:g}",
            str(row["games"]),
            str(row["byes"]),
            f"{row['head_to_head']:g}",
            f"{row['opponents_points']:g}",
            f"{row['score_sum']:g}",
            f"{row['rating']['ordinal']:.2f}" if "rating" in row else "",
        )
    return table


@tournament.command()
@click.argument("bundle", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--fingerprint", default=None, metavar="HEX", help="the published fingerprint (the log's last hash)")
@click.option("--commitment", default=None, metavar="HEX", help="the published master seed commitment")
@click.option("--json", "as_json", is_flag=True, help="print the report as JSON")
def verify(bundle: Path, fingerprint: str | None, commitment: str | None, as_json: bool) -> None:
    """Check a tournament bundle: every game verified in full (re-executed), every seed derived
    from the master seed, every result the one its re-executed game ends with, the tournament's
    log re-executed against the rules (seatings, timeouts, rulings, standings), and, when given,
    the fingerprint and commitment the organiser published; print the tournament's fingerprint.
    Exit status 0 when everything holds, 1 otherwise."""
    try:
        content = bundle.read_bytes()
    except OSError as problem:
        raise click.ClickException(f"cannot read {bundle}: {problem}") from None
    started = time.perf_counter()
    report = verify_bundle_text(content, GAMES.get, fingerprint, commitment)
    elapsed = time.perf_counter() - started
    if as_json:
        click.echo(json.dumps({**report.to_dict(), "seconds": round(elapsed, 3)}, indent=2))
    else:
        console = Console()
        verdict = "[green]verified[/green]" if report.ok else "[red]NOT verified[/red]"
        checked = f"{report.games_checked} games checked in {elapsed:.2f} s"
        console.print(f"{escape(str(bundle))}: {verdict}; {checked}", soft_wrap=True)
        for line in report.problems:
            console.print(f"  [red]✗[/red] {escape(line)}", highlight=False, soft_wrap=True)
        console.print(f"fingerprint: {report.fingerprint}", soft_wrap=True)
    if not report.ok:
        sys.exit(1)


@tournament.command()
@click.argument("tournament_ids", nargs=-1, metavar="[TOURNAMENT_ID]...")
@click.option(
    "--every", type=click.FloatRange(0.05, 3600), default=1.0, show_default=True, help="seconds between looks"
)
@click.option("--once", is_flag=True, help="look once, then exit")
def clocks(tournament_ids: tuple[str, ...], every: float, once: bool) -> None:
    """A clock worker for a store no server keeps the clocks of (`serve` keeps them by itself):
    record every timeout that is due in the running clocked tournaments (or only these) and apply
    their clock rule, now and from then on. Refuses to start while another process keeps them."""
    import signal
    import threading

    from infra.clock_keeper import ClockKeeper, ClocksKeptElsewhere
    from infra.readside import read_model_store

    settings = Settings()
    try:
        store = read_model_store(settings)
    except ValueError as problem:
        raise click.ClickException(str(problem)) from None
    tournaments = TournamentService(build_service(settings))
    keeper = ClockKeeper(tournaments, store, interval=every, role="clock-worker")
    try:
        keeper.take_lease()
    except ClocksKeptElsewhere as refusal:
        raise click.ClickException(str(refusal)) from None
    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    try:
        while True:
            if not keeper.hold_lease():
                raise click.ClickException("another process took the clocks' lease (this worker renewed it too late)")
            if tournament_ids:
                for tournament_id in tournament_ids:
                    try:
                        moves = tournaments.enforce_clocks(tournament_id)
                    except ServiceError as problem:
                        raise click.ClickException(f"{problem.code}: {problem.message}") from None
                    if moves:
                        click.echo(f"{tournament_id}: the clock rule played {moves} moves", err=True)
            else:
                moves = keeper.step()
                if moves:
                    click.echo(f"the clock rule played {moves} moves", err=True)
            if once or stop.wait(every):
                return
    finally:
        keeper.release_lease()


@tournament.command()
@click.option("--game", "game_id", required=True, type=click.Choice(GAMES.ids()))
@click.option("--players", type=click.IntRange(2, 512), required=True)
@click.option("--rounds", type=click.IntRange(1, 50), default=4, show_default=True)
@click.option("--table-size", type=click.IntRange(2, 5), default=None, help="players per table (default 4 or fewer)")
@click.option("--format", "format_", type=click.Choice(FORMATS), default="swiss", show_default=True)
@click.option("--seed", default="alexandria", show_default=True, help="the master seed (a fixed seed is public)")
@click.option("--clock", type=float, default=None, help="seconds per seat per game (with --increment)")
@click.option("--increment", type=float, default=0.0, show_default=True)
@click.option("--on-timeout", type=click.Choice(TIMEOUT_RULES), default="random_move", show_default=True)
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None, help="write the bundle here")
@click.option("--database-url", default="sqlite:///:memory:", show_default=True, help="the event store to play in")
def run(
    game_id: str,
    players: int,
    rounds: int,
    table_size: int | None,
    format_: str,
    seed: str,
    clock: float | None,
    increment: float,
    on_timeout: str,
    out: Path | None,
    database_url: str,
) -> None:
    """Play a whole tournament with random bots through the services, then show the standings.
    The same seed gives the same seatings, records and fingerprint every time: ids and seeds are
    derived from it, and the server's clock is a stepping one, not the wall clock."""
    service = build_service(Settings(database_url=database_url))
    tournaments = TournamentService(service, now=SteppingClock())
    settings: dict[str, Any] = {"rounds": rounds, "format": format_}
    if table_size is not None:
        settings["table_size"] = table_size
    if clock is not None:
        settings["time_control"] = {"base_seconds": clock, "increment_seconds": increment, "on_timeout": on_timeout}
    definition = GAMES.get(game_id)
    size = table_size or min(4, definition.max_players)
    tables_per_round = players // size
    console = Console(stderr=True)
    started = time.perf_counter()
    try:
        with Progress(
            TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), console=console
        ) as progress:
            task = progress.add_task(f"{game_id}: {players} players, {rounds} rounds", total=rounds * tables_per_round)
            played = run_tournament(
                tournaments,
                game_id,
                players,
                settings,
                master_seed=seed.encode(),
                on_game_done=lambda table: progress.update(
                    task, advance=1, description=f"{game_id}: round {table.round}/{rounds}"
                ),
            )
    except RuleViolation as refusal:
        raise click.ClickException(f"{refusal.code}: {refusal.message}") from None
    except ServiceError as refusal:
        raise click.ClickException(f"{refusal.code}: {refusal.message}") from None
    elapsed = time.perf_counter() - started
    state = tournaments.state(played.tournament_id)
    view = standings_view(state)
    Console().print(standings_table(view["standings"], f"{definition.title}: final standings"))
    click.echo(
        f"{len(state.tables())} games, {played.commands} commands in {elapsed:.1f} s; "
        f"tournament {played.tournament_id}, fingerprint {tournaments.load(played.tournament_id).log.last_hash}"
    )
    if out is not None:
        out.write_text(json.dumps(tournaments.bundle(played.tournament_id)))
        click.echo(f"bundle written to {out} (check it with: alexandria tournament verify {out})")
