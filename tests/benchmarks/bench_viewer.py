"""The replay viewer's timeline step, in Chromium (Playwright), over a long game.

``python -m tests.benchmarks.bench_viewer [steps] [--game G] [--players N] [--seed S] [--phone] [--baseline DIR]
[--profile N]``

A game (``--game``: catan_alexander, the default, peloponnes, alexandros or empire_builder) is
played to its end by random bots through the service, with as many players as the game takes (a
4-player Catan "Alexander the Great" game has well over a thousand records, the others a few
hundred), served by uvicorn in this process, and opened in
Chromium as a spectator at its last version. Then the timeline is stepped by move, as a person does
it with the arrow keys: ``steps`` steps back from the end, then as many forward again, a pause of
``PAUSE_MS`` between two steps (a person looks at the board before the next).

A step is measured two ways: inside the page, the wall-clock time from the keydown event the page
handles to the end of the step (the view drawn, the timeline and log updated, the page's style and
layout recomputed), with ``performance.now()``; and the CPU time the page's main thread spent in
that while (Chrome's ``Performance.getMetrics`` TaskDuration with thread ticks), which a busy
machine inflates far less than the wall clock. Reported: the page's load (to the last version
drawn) and the log's download, then median, p95 and the worst step in each direction, and the
parts of the CPU time Chrome counts as running scripts, recalculating style and laying out.
``--profile N`` also samples the main thread (CDP ``Profiler``) over the steps and prints the N
functions it was found in most; the profiler slows the steps, so its run's times are not the
figures to quote. The figures in docs/web-client.md come from this script; tests never time
anything.

``--baseline DIR`` opens the same game a second time, in its own browser context, with the web
client of another checkout (``DIR/api/static``, e.g. ``git worktree add /tmp/base HEAD~3``): the
two pages take their steps in turn, one each, so that both meet the same load of the machine, and
each page's figures are reported beside the other's.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Response, sync_playwright

from domain.catalog import GAMES
from domain.kernel.bots import RandomBot
from infra.games.simulation import play_with_bot
from tests.web.conftest import CHROMIUM, no_undo_window
from tests.web.screenshots import PHONE, VIEWPORT
from tests.web.server import live_server

PAUSE_MS = 250

# The games with a board of their own in the web client (api/static/js/games/).
BOARDS = ("catan_alexander", "peloponnes", "alexandros", "empire_builder")

# One step by move with an arrow key, timed from its keydown to its end (style and layout done).
STEP = """async (key) => {
    const app = window.alexandria;
    const before = app.version;
    const t0 = performance.now();
    document.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }));
    await app.stepping;
    void document.body.offsetHeight; // the style and layout of what the step changed
    return [performance.now() - t0, app.version !== before];
}"""


# Where a step's main-thread time goes, by Chrome's own count (Performance.getMetrics, seconds).
PARTS = {"script": "ScriptDuration", "style": "RecalcStyleDuration", "layout": "LayoutDuration"}


def busy(cdp: Any) -> dict[str, float]:
    """The page's main thread's busy time so far (CPU time: Performance.enable with threadTicks), in
    all ("TaskDuration") and in running scripts, recalculating style and laying out."""
    metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    return {"task": float(metrics["TaskDuration"])} | {part: float(metrics[name]) for part, name in PARTS.items()}


Timed = tuple[list[float], list[float], dict[str, list[float]]]


def steps(pages: list[Any], cdps: list[Any], count: int, key: str) -> list[Timed]:
    """For each page, the wall-clock and main-thread CPU milliseconds of up to ``count`` steps, and
    the CPU time's parts: the pages step in turn, one step each, a person's pause after each."""
    timed: list[Timed] = [([], [], {part: [] for part in PARTS}) for _ in pages]
    for _ in range(count):
        moved_any = False
        for page, cdp, (wall, cpu, parts) in zip(pages, cdps, timed, strict=True):
            before = busy(cdp)
            took, moved = page.evaluate(STEP, key)
            if not moved:
                continue
            moved_any = True
            after = busy(cdp)
            cpu.append((after["task"] - before["task"]) * 1000)
            for part, times in parts.items():
                times.append((after[part] - before[part]) * 1000)
            wall.append(took)
            page.wait_for_timeout(PAUSE_MS)
        if not moved_any:
            break
    return timed


def profiled(profile: dict[str, Any], top: int) -> list[str]:
    """The functions a CPU profile (CDP ``Profiler.stop``) found the main thread in most, by self
    time: a step's cost, by where it goes (the page's own functions, style, layout, the collector)."""
    nodes = {node["id"]: node for node in profile["nodes"]}
    gaps = profile["timeDeltas"]
    own: dict[str, float] = {}
    for sample, gap in zip(profile["samples"], [*gaps[1:], 0], strict=True):
        frame = nodes[sample]["callFrame"]
        where = frame["url"].rsplit("/", 1)[-1]
        name = frame["functionName"] or "(anonymous)"
        if where:
            name = f"{name} {where}:{frame['lineNumber'] + 1}"
        own[name] = own.get(name, 0.0) + gap / 1000
    total = sum(ms for name, ms in own.items() if name not in ("(idle)", "(program)"))
    ranked = sorted(own.items(), key=lambda item: -item[1])
    return [f"busy {total:.0f} ms"] + [f"{ms:8.1f} ms {100 * ms / total:5.1f}%  {name}" for name, ms in ranked[:top]]


def log_sizes(sizes: list[int]) -> Callable[[Response], None]:
    """A response handler noting the size of each read of the log."""

    def note(response: Response) -> None:
        if "/events" in response.url:
            sizes.append(int(response.headers.get("content-length", 0)))

    return note


def served_from(folder: Path) -> Any:
    """A route handler answering the page's static files from another checkout's web client."""

    def handle(route: Any) -> None:
        relative = route.request.url.split("/static/", 1)[1].split("?", 1)[0]
        route.fulfill(path=str(folder / "api" / "static" / relative))

    return handle


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def summary(name: str, times: list[float]) -> str:
    return (
        f"{name:>8}: {len(times)} steps, median {statistics.median(times):.1f} ms, "
        f"p95 {percentile(times, 0.95):.1f} ms, worst {max(times):.1f} ms"
    )


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("steps", nargs="?", type=int, default=200)
    parser.add_argument("--game", choices=BOARDS, default="catan_alexander")
    parser.add_argument("--players", type=int, help="the game's most players unless given")
    parser.add_argument("--seed", default="bench-viewer")
    parser.add_argument("--phone", action="store_true", help="a 390x844 phone instead of 1280x800")
    parser.add_argument("--baseline", type=Path, help="another checkout whose web client steps in turn with this one")
    parser.add_argument(
        "--profile", type=int, default=0, metavar="N", help="print each page's N costliest functions (self time)"
    )
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder, live_server(Path(folder)) as (url, service, _):
        players = args.players or GAMES.get(args.game).max_players
        created = service.create_game(args.game, players, None, args.seed.encode())
        play_with_bot(service, created, RandomBot(args.seed.encode()))
        with service.reading(created.game_id) as aggregate:
            latest = aggregate.match.version
        print(f"{args.game} ({players} players, seed {args.seed!r}): {latest} records")
        clients = [("this checkout", None)] + ([(f"baseline {args.baseline}", args.baseline)] if args.baseline else [])
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            size = PHONE if args.phone else VIEWPORT
            pages, cdps = [], []
            for name, checkout in clients:
                context = browser.new_context(viewport=size, is_mobile=args.phone, has_touch=args.phone)  # type: ignore[arg-type]
                no_undo_window(context)
                if checkout is not None:
                    context.route("**/static/**", served_from(checkout))
                page = context.new_page()
                page.set_default_timeout(120_000)
                log_bytes: list[int] = []
                page.on("response", log_sizes(log_bytes))
                started = time.perf_counter()
                page.goto(f"{url}/viewer?game={created.game_id}")
                page.wait_for_selector(f'body[data-version="{latest}"]')
                loaded = time.perf_counter() - started
                page.wait_for_selector("#log li[data-position]")
                print(
                    f"{name}, {'1280x800' if not args.phone else '390x844 phone'}: opened at the end in "
                    f"{loaded * 1000:.0f} ms; the log read: {sum(log_bytes) / 1024:.0f} KB in {len(log_bytes)} "
                    f"request(s), {page.locator('#log li[data-position]').count()} records held"
                )
                page.focus("body")
                cdp = context.new_cdp_session(page)
                cdp.send("Performance.enable", {"timeDomain": "threadTicks"})
                pages.append(page)
                cdps.append(cdp)
            if args.profile:
                for cdp in cdps:
                    cdp.send("Profiler.enable")
                    cdp.send("Profiler.setSamplingInterval", {"interval": 200})
                    cdp.send("Profiler.start")
            back = steps(pages, cdps, args.steps, "ArrowLeft")
            forward = steps(pages, cdps, max(len(wall) for wall, _, _ in back), "ArrowRight")
            if args.profile:  # the profiler slows the steps down: their figures are not comparable then
                for (name, _), cdp in zip(clients, cdps, strict=True):
                    print(f"{name}: where the steps' time went (a CPU profile):")
                    print("\n".join(profiled(cdp.send("Profiler.stop")["profile"], args.profile)))
            for (name, _), (back_wall, back_cpu, back_parts), (ahead_wall, ahead_cpu, ahead_parts) in zip(
                clients, back, forward, strict=True
            ):
                print(f"{name}: wall clock, keydown to the step drawn and laid out:")
                for label, times in (("back", back_wall), ("forward", ahead_wall), ("all", back_wall + ahead_wall)):
                    print(summary(label, times))
                print(f"{name}: the page's main thread, CPU time a step:")
                for label, times in (("back", back_cpu), ("forward", ahead_cpu), ("all", back_cpu + ahead_cpu)):
                    print(summary(label, times))
                print(f"{name}: of which, a step (both ways):")
                for part in PARTS:
                    print(summary(part, back_parts[part] + ahead_parts[part]))
            if len(clients) == 2:
                ours = statistics.median(back[0][1] + forward[0][1])
                theirs = statistics.median(back[1][1] + forward[1][1])
                print(f"median CPU a step, this checkout / baseline: {ours:.1f} / {theirs:.1f} ms: {ours / theirs:.2f}")
                ours = percentile(back[0][1] + forward[0][1], 0.95)
                theirs = percentile(back[1][1] + forward[1][1], 0.95)
                print(f"p95 CPU a step, this checkout / baseline: {ours:.1f} / {theirs:.1f} ms: {ours / theirs:.2f}")
            browser.close()


if __name__ == "__main__":
    main(sys.argv[1:])
    sys.exit(0)
