"""Browser tests: Debian's Chromium driven by Playwright for Python, against the API served by
uvicorn in a thread of the test process. One browser for the whole session; games are set up
through the application service in process (fast) and then watched and played through the page.

Without Playwright or Chromium these tests skip naming what is missing; with CI=true that is a
failure (`.ci/run` installs both)."""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest

from domain.kernel.bots import RandomBot
from infra.games.service import CreatedGame, GameService
from infra.games.simulation import play_with_bot
from infra.tournaments.service import TournamentService
from tests.infra.services import unavailable
from tests.web.server import live_server

CHROMIUM = os.environ.get("ALEXANDRIA_CHROMIUM", "/usr/bin/chromium")
READ_MODELS_DEADLINE_SECONDS = 120

# Each game as the browser tests play it: players and options.
GAMES: dict[str, tuple[int, dict[str, Any] | None]] = {
    "peloponnes": (3, None),
    "empire_builder": (3, None),
    "alexandros": (2, None),
    "catan_alexander": (3, None),
}


@dataclass
class Site:
    url: str
    service: GameService
    api: httpx.Client
    tournaments: TournamentService

    def create(self, game: str, seed: str, options: dict[str, Any] | None = None) -> CreatedGame:
        players, default_options = GAMES[game]
        return self.service.create_game(game, players, options or default_options, seed.encode())

    def played(self, game: str, seed: str, commands: int | None = None) -> CreatedGame:
        created = self.create(game, seed)
        play_with_bot(self.service, created, RandomBot(f"bot:{seed}".encode()), commands)
        return created

    def board(self, created: CreatedGame, token: str | None = None, version: int | None = None) -> dict[str, Any]:
        """The view at ``version``, or the current one: the read models follow in the background, so the
        current view is asked for at the event store's version (read-your-writes), never a stale one."""
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        if version is None:
            with self.service.reading(created.game_id) as aggregate:
                stored = aggregate.match.version
            # The server waits ALEXANDRIA_WAIT_SECONDS for its read models, then says they are behind
            # (503): on a busy machine (a whole game projected for another test) ask again, for as
            # long as a stalled projector would take to show.
            deadline = time.monotonic() + READ_MODELS_DEADLINE_SECONDS
            while True:
                response = self.api.get(f"/games/{created.game_id}", params={"min_version": stored}, headers=headers)
                if response.status_code != 503 or time.monotonic() > deadline:
                    break
        else:
            response = self.api.get(f"/games/{created.game_id}/versions/{version}", headers=headers)
        assert response.status_code == 200, response.text
        answer: dict[str, Any] = response.json()
        return answer


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    # The client waits longer than the server's own wait for its read models (5 s), so that the
    # server's answer, not the client's timeout, tells what happened.
    with (
        live_server(tmp_path_factory.mktemp("web")) as (url, service, tournaments),
        httpx.Client(base_url=url, timeout=30) as api,
    ):
        yield Site(url, service, api, tournaments)


@pytest.fixture(scope="session")
def ended(site: Site) -> dict[str, CreatedGame]:
    """One ended game of each game."""
    return {game: site.played(game, f"ended-{game}") for game in GAMES}


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        unavailable("Playwright for Python is not installed (pip install -e '.[test]')")
    if shutil.which(CHROMIUM) is None and not os.path.exists(CHROMIUM):
        unavailable(f"no Chromium at {CHROMIUM} (apt-get install chromium, or set ALEXANDRIA_CHROMIUM)")
    with sync_playwright() as playwright:
        # --no-sandbox: CI runs as root, where Chromium's sandbox refuses to start.
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield browser
        browser.close()


def no_undo_window(context: Any) -> None:
    """One-click moves go at once (the page's undo window is a player's setting, tested on its own)."""
    # about:blank has no storage of its own: there the script does nothing
    context.add_init_script("try { localStorage.setItem('alexandria:undo-ms', '0'); } catch {}")


# Playwright's wait_for_function evaluates its predicate with eval inside the page, which the
# pages' own Content-Security-Policy (no 'unsafe-eval') refuses: the tests' contexts bypass the
# policy, and tests/web/test_content_security.py checks the policy with a context that keeps it.
BYPASS_CSP = {"bypass_csp": True}


def _page(browser: Any, **options: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 800}, **options)
    no_undo_window(context)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.set_default_timeout(60_000)  # a bound for a stuck page, not a measurement
    yield page
    context.close()
    assert not errors, f"the page raised: {errors}"


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A fresh context per test (its own local storage, so tokens never leak between tests)."""
    yield from _page(browser, **BYPASS_CSP)


@pytest.fixture
def policed_page(browser: Any) -> Iterator[Any]:
    """A fresh context that keeps the pages' Content-Security-Policy (no wait_for_function here)."""
    yield from _page(browser)
