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
from domain.kernel.bots import BOT_NAMES
from domain.kernel.errors import RuleViolation
from domain.tournament.config import FORMATS, TIMEOUT_RULES
from domain.tournament.rules import standings_view
from domain.tournament.verification import verify_bundle_text
from infra.bootstrap import build_service
from infra.games.service import ServiceError
from infra.settings import Settings
from infra.tournaments.run import SteppingClock, run_tournament
from infra.tournaments.service import TournamentService


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

    from infra.readside.reader import read_model_store
    from infra.tournaments.clock_keeper import ClockKeeper, ClocksKeptElsewhere

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


# -- organising a tournament on a live server (the public HTTP API) -----------------------------------

SERVER_ENV, TOKEN_ENV = "ALEXANDRIA_SERVER", "ALEXANDRIA_ORGANISER_TOKEN"
HTTP_TIMEOUT_SECONDS = 60.0


class Server:
    """The server's public API, for the organiser's commands: every refusal becomes one line (the
    server's error code and message) and exit status 1."""

    def __init__(self, url: str, token: str | None) -> None:
        self.url = url.rstrip("/")
        self.token = token

    def call(self, method: str, path: str, body: Any = None, *, organiser: bool = False) -> Any:
        import httpx

        headers = {"Accept": "application/json"}
        if organiser:
            if not self.token:
                raise click.UsageError(f"this needs the organiser's token: --token, or the {TOKEN_ENV} variable")
            headers["Authorization"] = f"Bearer {self.token}"
        try:
            response = httpx.request(
                method, f"{self.url}{path}", json=body, headers=headers, timeout=HTTP_TIMEOUT_SECONDS
            )
        except httpx.HTTPError as problem:
            raise click.ClickException(f"cannot reach the server at {self.url}: {problem}") from None
        try:
            answer = response.json()
        except ValueError:
            answer = None
        if response.is_error:
            error = answer.get("error") if isinstance(answer, dict) else None
            if isinstance(error, dict):
                raise click.ClickException(f"{error.get('code')}: {error.get('message')} (HTTP {response.status_code})")
            raise click.ClickException(f"HTTP {response.status_code} from {self.url}{path}: {response.text[:200]}")
        return answer


def server_options(command: Any) -> Any:
    command = click.option(
        "--token",
        envvar=TOKEN_ENV,
        default=None,
        help=f"the organiser's token (or the {TOKEN_ENV} variable; create prints it)",
    )(command)
    return click.option(
        "--server",
        "url",
        envvar=SERVER_ENV,
        default="http://127.0.0.1:8000",
        show_default=True,
        help=f"the server's URL (or the {SERVER_ENV} variable)",
    )(command)


as_json_option = click.option("--json", "as_json", is_flag=True, help="print the server's answer as JSON")


def show(answer: Any, as_json: bool, human: Any) -> None:
    if as_json:
        click.echo(json.dumps(answer, indent=2))
    else:
        human(Console(highlight=False, soft_wrap=True), answer)


@tournament.command()
@click.argument("game", type=click.Choice(GAMES.ids()))
@click.option("--name", default=None, help="what lists and exports call it")
@click.option("--rounds", type=click.IntRange(1, 50), default=None)
@click.option("--table-size", type=click.IntRange(2, 5), default=None)
@click.option("--format", "format_", type=click.Choice(FORMATS), default=None)
@click.option("--setting", "pairs", multiple=True, metavar="KEY=VALUE", help="any other setting (repeatable)")
@server_options
@as_json_option
def create(
    game: str,
    name: str | None,
    rounds: int | None,
    table_size: int | None,
    format_: str | None,
    pairs: tuple[str, ...],
    url: str,
    token: str | None,
    as_json: bool,
) -> None:
    """Create a tournament of GAME on the server: prints its id, the organiser's token (keep it)
    and the registration link to publish."""
    from api.cli.main import parse_options

    settings = parse_options(pairs, "--setting")
    for key, value in (("rounds", rounds), ("table_size", table_size), ("format", format_)):
        if value is not None:
            settings[key] = value
    body: dict[str, Any] = {"game": game, "settings": settings}
    if name is not None:
        body["name"] = name
    answer = Server(url, token).call("POST", "/tournaments", body)
    base = url.rstrip("/")

    def human(console: Console, a: dict[str, Any]) -> None:
        console.print(f"tournament [bold]{a['tournament_id']}[/bold] created")
        console.print(f"organiser token (keep it; export {TOKEN_ENV}=…): {a['organiser_token']}")
        console.print(f"registration code (publish it): {a['registration_code']}")
        console.print(f"players register with POST {base}/tournaments/{a['tournament_id']}/join {{name, code}}")
        console.print(f"the tournament's page: {base}/tournament?id={a['tournament_id']}")

    show(answer, as_json, human)


@tournament.command()
@click.argument("tournament_id")
@click.argument("names", nargs=-1, required=True)
@click.option(
    "--bot",
    type=click.Choice(BOT_NAMES),
    default=None,
    help="register bot players: the server's bot plays each one's seat (no token; before round 1)",
)
@server_options
@as_json_option
def register(
    tournament_id: str, names: tuple[str, ...], bot: str | None, url: str, token: str | None, as_json: bool
) -> None:
    """Register players by NAME (the organiser is handed each one's token): before round 1 a
    registration, after it a late entry seated from the next round."""
    server = Server(url, token)
    view = server.call("GET", f"/tournaments/{tournament_id}")
    path = "late-entries" if view["rounds"] else "players"
    extra = {} if bot is None else {"bot": bot}
    answers = [
        server.call("POST", f"/tournaments/{tournament_id}/{path}", {"name": n, **extra}, organiser=True) for n in names
    ]

    def human(console: Console, rows: list[dict[str, Any]]) -> None:
        table = RichTable(title="registered" if path == "players" else "late entries")
        for column in ("player", "name", "token"):
            table.add_column(column)
        for row in rows:
            played = f"(the server's {row['bot']} bot)" if row.get("bot") else row["token"]
            table.add_row(str(row["player"]), escape(row["name"]), played)
        console.print(table)

    show(answers, as_json, human)


@tournament.command("check-in")
@click.argument("tournament_id")
@click.option("--open", "open_", is_flag=True, help="ask for check-in now (before registration closes)")
@server_options
@as_json_option
def check_in(tournament_id: str, open_: bool, url: str, token: str | None, as_json: bool) -> None:
    """Check-in before round 1: ``--open`` asks for it; then (and without it) who has checked in and
    who has not. Whoever has not when registration closes (or round 1 is seated) is withdrawn."""
    server = Server(url, token)
    if open_:
        server.call("POST", f"/tournaments/{tournament_id}/check-in/open", {}, organiser=True)
    view = server.call("GET", f"/tournaments/{tournament_id}")
    answer = {"check_in": view["check_in"], "players": view["players"]}

    def human(console: Console, a: dict[str, Any]) -> None:
        status = a["check_in"]
        console.print(
            "check-in is open" if status["open"] else "check-in has ended" if status["asked"] else "no check-in asked"
        )
        table = RichTable(title="check-in")
        for column in ("player", "name", "checked in"):
            table.add_column(column)
        for p in a["players"]:
            here = "bot" if p.get("bot") else "withdrawn" if p["withdrawn"] else "yes" if p["checked_in"] else "no"
            table.add_row(str(p["player"]), escape(p["name"]), here)
        console.print(table)

    show(answer, as_json, human)


@tournament.command()
@click.argument("tournament_id")
@server_options
@as_json_option
def seat(tournament_id: str, url: str, token: str | None, as_json: bool) -> None:
    """Seat the next round: prints each table's players in seat order and the byes."""
    server = Server(url, token)
    answer = server.call("POST", f"/tournaments/{tournament_id}/rounds", {}, organiser=True)
    names = [p["name"] for p in server.call("GET", f"/tournaments/{tournament_id}")["players"]]

    def human(console: Console, a: dict[str, Any]) -> None:
        table = RichTable(title=f"round {a['round']}")
        for column in ("table", "players (seat order)", "game"):
            table.add_column(column)
        for t in a["tables"]:
            table.add_row(str(t["table"]), escape(", ".join(names[p] for p in t["players"])), t["game_id"])
        console.print(table)
        if a["byes"]:
            console.print("bye: " + escape(", ".join(names[p] for p in a["byes"])))

    show(answer, as_json, human)


@tournament.command()
@click.argument("tournament_id")
@server_options
@as_json_option
def standings(tournament_id: str, url: str, token: str | None, as_json: bool) -> None:
    """The live standings, with tie-breaks and ratings (no token needed)."""
    answer = Server(url, token).call("GET", f"/tournaments/{tournament_id}/standings")

    def human(console: Console, a: dict[str, Any]) -> None:
        status = "final" if a["ended"] else f"after {a['rounds_seated']} of {a['rounds']} rounds seated"
        console.print(standings_table(a["standings"], f"standings ({status})"))

    show(answer, as_json, human)


def numbers(text: str | None, what: str) -> list[float] | None:
    if text is None:
        return None
    try:
        return [float(x) if "." in x else int(x) for x in text.split(",")]
    except ValueError:
        raise click.BadParameter(f"{text!r} is not numbers separated by commas", param_hint=what) from None


@tournament.command()
@click.argument("tournament_id")
@click.argument("kind", type=click.Choice(["forfeit", "void", "replace", "correct"]))
@click.option("--reason", required=True, help="why (recorded with the ruling, in public)")
@click.option("--game", "game_id", default=None, help="the game (forfeit, void, correct)")
@click.option("--player", type=int, default=None, help="the player's number (forfeit, replace)")
@click.option("--name", default=None, help="the replacement's name (replace)")
@click.option("--placings", default=None, metavar="1,2,...", help="the places by seat, 1 = first (correct)")
@click.option("--scores", default=None, metavar="N,N,...", help="the scores by seat (correct)")
@server_options
@as_json_option
def rule(
    tournament_id: str,
    kind: str,
    reason: str,
    game_id: str | None,
    player: int | None,
    name: str | None,
    placings: str | None,
    scores: str | None,
    url: str,
    token: str | None,
    as_json: bool,
) -> None:
    """Rule on a game or a player, as a recorded adjudication: forfeit (--game, --player), void
    (--game), replace (--player, --name: prints the new player token), correct (--game, --placings,
    --scores)."""
    body: dict[str, Any] = {"kind": kind, "reason": reason}
    for key, value in (
        ("game_id", game_id),
        ("player", player),
        ("name", name),
        ("placings", numbers(placings, "--placings")),
        ("scores", numbers(scores, "--scores")),
    ):
        if value is not None:
            body[key] = value
    answer = Server(url, token).call("POST", f"/tournaments/{tournament_id}/adjudications", body, organiser=True)

    def human(console: Console, a: dict[str, Any]) -> None:
        ruling = a["adjudication"]
        console.print(f"recorded at position {a['version']}: {ruling['kind']} — {escape(ruling['reason'])}")
        if "player_token" in a:
            console.print(f"the replacement's player token: {a['player_token']}")

    show(answer, as_json, human)


@tournament.command()
@click.argument("tournament_id")
@server_options
@as_json_option
def end(tournament_id: str, url: str, token: str | None, as_json: bool) -> None:
    """End the tournament after its last round: the final standings, and the master seed revealed."""
    answer = Server(url, token).call("POST", f"/tournaments/{tournament_id}/end", {}, organiser=True)

    def human(console: Console, a: dict[str, Any]) -> None:
        console.print(standings_table(a["standings"], "final standings"))
        console.print(f"master seed: {a['master_seed']}")
        console.print(f"check the bundle: GET {url.rstrip('/')}/tournaments/{tournament_id}/bundle")

    show(answer, as_json, human)
