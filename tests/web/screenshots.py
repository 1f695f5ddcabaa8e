"""Screenshots of the web client for the README: each game as a spectator in the middle of a game,
as a seat (its own cards and its moves), and at the end; the lobby; and a tournament's page.

    python -m tests.web.screenshots docs/screenshots [games] [forms] [lobby] [tournament] [phone]

"phone" makes each game's seat page (and the lobby) at 390x844 too: <game>-phone.png, lobby-phone.png.

Games are set up through the service with fixed seeds, so the pictures are the same on every run.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import httpx
from PIL import Image
from playwright.sync_api import Page, sync_playwright

from domain.kernel.bots import RandomBot
from domain.tournament.log import Table
from infra.games.service import GameService
from infra.tournaments.run import play_table
from tests.web.conftest import CHROMIUM, GAMES, Site
from tests.web.server import live_server

VIEWPORT = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
SCALE = 0.7  # smaller files; the page is laid out at 1280x800 all the same


def picture(page: Page, path: Path) -> None:
    """The page as a small PNG: quantised to 256 colours (the pages are flat colours and text) and
    saved with the best deflate, about a third of Chromium's own file."""
    page.screenshot(path=str(path))
    with Image.open(path) as shot:
        small = shot.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    small.save(path, optimize=True)
    print(path, path.stat().st_size, "bytes")


def shoot(page: Page, url: str, version: int, path: Path) -> None:
    page.goto(url)
    page.wait_for_selector(f'body[data-version="{version}"]')
    page.wait_for_timeout(300)  # let the log scroll settle; only for the picture
    picture(page, path)


def version_of(service: GameService, game_id: str) -> int:
    """The game's version in the event store (the read models may not have caught up yet)."""
    with service.reading(game_id) as aggregate:
        version: int = aggregate.match.version
        return version


def tournament_shot(page: Page, site: Site, path: Path) -> None:
    """An 8-player Swiss tournament of Peloponnes at tables of 4: two of three rounds played, the third in play."""
    tournaments = site.tournaments
    created = tournaments.create("peloponnes", {"rounds": 3, "table_size": 4}, b"screenshot", salted=False)
    tid, organiser = created.tournament_id, created.organiser_token
    names = ["Ada", "Bo", "Cyrus", "Dara", "Eos", "Faye", "Gaius", "Hera"]
    tokens = [tournaments.register(tid, organiser, name).token for name in names]
    for number in (1, 2, 3):
        seated = tournaments.seat_next_round(tid, organiser)
        tables = [Table(number, t["table"], t["game_id"], t["players"]) for t in seated["tables"]]
        for table in tables[: len(tables) if number < 3 else 1]:
            play_table(tournaments, tid, table, tokens, RandomBot(f"screenshot:{number}:{table.table}".encode()))
    version = site.api.get(f"/tournaments/{tid}").json()["version"]
    page.goto(f"{site.url}/tournament?id={tid}")
    page.wait_for_selector(f'body[data-version="{version}"]')
    picture(page, path)


def main(folder: Path, shots: set[str]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    with (
        live_server(Path(tempfile.mkdtemp())) as (url, service, tournaments),
        httpx.Client(base_url=url) as api,
        sync_playwright() as playwright,
    ):
        site = Site(url, service, api, tournaments)
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        context = browser.new_context(viewport=VIEWPORT, device_scale_factor=SCALE)  # type: ignore[arg-type]
        page = context.new_page()
        for game in GAMES if "games" in shots else ():
            ended = site.played(game, f"screenshot-{game}")
            last = version_of(service, ended.game_id)
            middle = last // 2
            base = f"{url}/viewer?game={ended.game_id}"
            shoot(page, f"{base}&v={middle}", middle, folder / f"{game}-spectator.png")
            shoot(page, f"{base}&v={last}", last, folder / f"{game}-end.png")
            running = site.played(game, f"screenshot-{game}", commands=max(8, middle // 6))
            now = version_of(service, running.game_id)
            shoot(
                page, f"{url}/viewer?game={running.game_id}#token={running.tokens[0]}", now, folder / f"{game}-seat.png"
            )
        if "forms" in shots:
            # Empire Builder's first allocation: the seat's form to split its 15 cubes, half filled in
            fresh = site.create("empire_builder", "screenshot-form")
            page.goto(f"{url}/viewer?game={fresh.game_id}#token={fresh.tokens[0]}")
            page.wait_for_selector('form[data-form="allocate_resources"]')
            for label, value in (("Turn order", "2"), ("Armies", "8"), ("Temples box", "3")):
                page.get_by_label(label).fill(value)
            picture(page, folder / "empire_builder-form.png")
        if "lobby" in shots:
            if "games" not in shots:
                site.played("peloponnes", "screenshot-peloponnes")
            # a game with open seats, one of them taken: the lobby lists it with a Join field
            waiting = service.create_game("alexandros", 3, None, b"screenshot-open", open_seats=True)
            service.join(waiting.game_id, "Ada")
            page.goto(f"{url}/lobby")
            page.wait_for_selector("#games tbody tr[data-game-id]")
            picture(page, folder / "lobby.png")
        if "tournament" in shots:
            tournament_shot(page, site, folder / "tournament.png")
        if "phone" in shots:
            phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)  # type: ignore[arg-type]
            small = phone.new_page()
            for game in GAMES:
                running = site.played(game, f"screenshot-{game}", commands=24)
                now = version_of(service, running.game_id)
                url_of = f"{url}/viewer?game={running.game_id}#token={running.tokens[0]}"
                shoot(small, url_of, now, folder / f"{game}-phone.png")
            small.goto(f"{url}/lobby")
            small.wait_for_selector("#games tbody tr")
            picture(small, folder / "lobby-phone.png")
        browser.close()


if __name__ == "__main__":
    main(
        Path(sys.argv[1] if len(sys.argv) > 1 else "docs/screenshots"),
        set(sys.argv[2:]) or {"games", "forms", "lobby", "tournament"},
    )
