"""What players of Board Game Arena and lichess take for granted (issue 25), in each of the four games
at both sizes (1280x800 and a 390x844 phone): the turn told (headline, tab title, sound and a
notification in the background), the last move marked, the timeline by move, an undo for a one-click
move, clocks in a clocked game, a link to the position, the spectator count, and a light page (a
window of a long game's log)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from domain.kernel.bots import RandomBot
from infra.games.service import CreatedGame
from tests.web.conftest import GAMES, Site
from tests.web.test_browser import at_version, viewer_url
from tests.web.test_play_client import SIZES, bot_move, close, new_page, played, records_of
from tests.web.test_play_forms import commands_of, open_as

pytestmark = pytest.mark.slow

EVERY = pytest.mark.parametrize("game", list(GAMES))
BOTH_SIZES = pytest.mark.parametrize("size", list(SIZES))
MOVES_BOUND = 400  # bot moves before a seat's turn comes round again: a bound for a broken game only

# The browser's notification and sound, recorded instead of shown; the tab "in the background".
ALERTS = """
window.alerted = { notifications: [], sounds: 0 };
window.Notification = class {
  static permission = 'granted';
  static requestPermission() { return Promise.resolve('granted'); }
  constructor(title, options) { window.alerted.notifications.push({ title, body: options?.body }); }
};
window.AudioContext = class {
  constructor() { window.alerted.sounds += 1; this.currentTime = 0; this.destination = {}; }
  createOscillator() { return { frequency: {}, connect: (n) => n, start() {}, stop() {} }; }
  createGain() { return { gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} }, connect: (n) => n }; }
};
Object.defineProperty(Document.prototype, 'hidden', { get: () => window.inBackground === true });
"""


@pytest.fixture(scope="module")
def read_only_pages(browser: Any) -> Iterator[dict[str, Any]]:
    """One page a size, opened once for the module's tests that only read ended games."""
    pages: dict[str, Any] = {}
    yield pages
    for page in pages.values():
        close(page)


@pytest.fixture
def reader(browser: Any, site: Site, read_only_pages: dict[str, Any], size: str) -> Iterator[Any]:
    """The module's page of this test's size, as a fresh one would be for what the test reads (no
    tokens or settings of an earlier test in its storage); what it raised is checked after the test."""
    if size not in read_only_pages:
        read_only_pages[size] = new_page(browser, SIZES[size])
    page = read_only_pages[size]
    page.goto(f"{site.url}/static/app.css")  # the site's origin, to empty its storage
    page.evaluate("localStorage.clear(); localStorage.setItem('alexandria:undo-ms', '0')")
    yield page
    errors = list(page.errors)
    page.errors.clear()
    assert not errors, f"the page raised: {errors}"


def move_ends(records: list[dict[str, Any]]) -> list[int]:
    """The versions at which a move is over: a command and its consequences, before the next command."""
    kinds = {r["position"]: r["type"] for r in records}
    last = len(records)
    return [p for p in kinds if kinds.get(p + 1) == "CommandAccepted" or p == last]


# -- your turn, told; a link to the position -------------------------------------------------------


@BOTH_SIZES
@EVERY
def test_your_turn_is_told_by_headline_tab_title_sound_and_a_background_notification(
    browser: Any, site: Site, game: str, size: str
) -> None:
    created = site.create(game, f"turn-told-{game}-{size}")
    bot = RandomBot(f"turn-told-{game}".encode())
    # a seat that is not awaited now (a simultaneous first move: once one seat has made it)
    while not (waiting := [s for s in range(len(created.tokens)) if str(s) not in site.board(created)["awaited"]]):
        bot_move(site, created, bot)
    seat = waiting[0]
    page = new_page(browser, SIZES[size])
    page.context.add_init_script(ALERTS)
    try:
        open_as(page, site, created, seat)
        assert not page.title().startswith("●") and page.locator("#turn [data-your-turn]").count() == 0
        page.check("#notify")
        page.evaluate("window.inBackground = true")
        for _ in range(MOVES_BOUND):
            if str(seat) in site.board(created)["awaited"]:
                break
            bot_move(site, created, bot)
        page.wait_for_function("document.title.startsWith('● Your turn')")
        assert page.inner_text("#turn [data-your-turn]").startswith("Your turn")
        alerted = page.evaluate("window.alerted")
        assert alerted["sounds"] == 1
        assert [n["title"] for n in alerted["notifications"]] == [f"Your turn — {page.inner_text('#title')}"]
        # a link to the position shown, with no token in it
        page.click("#copy-link")
        version = page.get_attribute("body", "data-version")
        assert page.get_attribute("#copy-link", "data-link") == f"{site.url}/viewer?game={created.game_id}&v={version}"
        assert created.tokens[seat] not in page.get_attribute("#copy-link", "data-link")
    finally:
        close(page)


# -- the last move marked, the timeline by move ----------------------------------------------------

LAST_MOVE_PLACES = {
    "catan_alexander": lambda c: (
        [f"vertex:{c['vertex']}"]
        if c.get("vertex")
        else [f"edge:{'|'.join(sorted(c['edge']))}"]
        if c.get("edge")
        else [f"hex:{c['hex'][0]},{c['hex'][1]}"]
        if c.get("hex")
        else []
    ),
    "alexandros": lambda c: (
        [
            f"space:{c['target'][0]},{c['target'][1]}",
            f"point:{c['corner'][0]},{c['corner'][1]}",
            f"display:{c['slot']}" if c["source"] == "display" else f"hand:{c['card']}",
        ]
        if c["type"] == "move_alexander"
        else []
    ),
    "peloponnes": lambda c: [f"tile:{c['tile_id']}"] if c["type"] in ("place_bid", "move_bid") else [],
    "empire_builder": lambda c: (
        sorted({f"province:{p}" for g in c["groups"] for p in (g["from"], g["path"][-1])})
        if c["type"] == "move_armies" and c.get("groups")
        else []
    ),
}

ON_THE_BOARD = "keys => keys.filter((k) => document.querySelector(`#board [data-target='${k}']`))"


@BOTH_SIZES
@EVERY
def test_the_last_move_is_marked_on_the_board(
    reader: Any, site: Site, ended: dict[str, CreatedGame], game: str, size: str
) -> None:
    created = ended[game]
    records = records_of(site, created)
    ends = move_ends(records)
    commands = [(r["position"], r["data"]["command"]) for r in records if r["type"] == "CommandAccepted"]
    candidates = [(p, LAST_MOVE_PLACES[game](c)) for p, c in reversed(commands[: len(commands) // 2])]
    page = reader
    for position, keys in [(p, k) for p, k in candidates if k][:8]:
        end = next(v for v in ends if v >= position)
        page.goto("about:blank")
        page.goto(viewer_url(site, created, end, fragment="tokens=" + ",".join(created.tokens)))
        at_version(page, end)
        present = page.evaluate(ON_THE_BOARD, keys)  # a place the move emptied may be gone (a won tile)
        if not present:
            continue
        drawn = page.eval_on_selector_all(
            "#board [data-last-move]", "ns => [...new Set(ns.map(n => n.dataset.target))]"
        )
        assert sorted(drawn) == sorted(present)
        assert page.get_attribute("#board", "data-last-move") == str(position)
        return
    raise AssertionError("no move whose places are on the board")


@BOTH_SIZES
@EVERY
def test_the_timeline_steps_by_move_a_command_and_its_consequences(
    reader: Any, site: Site, ended: dict[str, CreatedGame], game: str, size: str
) -> None:
    created = ended[game]
    ends = move_ends(records_of(site, created))
    assert len(ends) > 14
    page = reader
    page.goto(viewer_url(site, created, ends[10]))
    at_version(page, ends[10])
    page.focus("body")
    for expected in ends[11:14]:
        page.keyboard.press("ArrowRight")
        at_version(page, expected)
    page.keyboard.press("ArrowLeft")
    at_version(page, ends[12])
    page.click("#back")  # the timeline's own buttons, on a phone too
    at_version(page, ends[11])
    page.click("#forward")
    at_version(page, ends[12])
    page.keyboard.press("Shift+ArrowRight")  # one record
    at_version(page, ends[12] + 1)


# -- a misclick undone ----------------------------------------------------------------------------


@BOTH_SIZES
@EVERY
def test_a_one_click_move_waits_with_an_undo_before_it_is_sent(browser: Any, site: Site, game: str, size: str) -> None:
    created, seat = played(site, game, f"undo-{size}", 6)
    board = site.board(created)
    sent = len(commands_of(site, created))
    page = new_page(browser, SIZES[size])
    try:
        open_as(page, site, created, seat)
        page.evaluate("localStorage.setItem('alexandria:undo-ms', '600000')")  # the window stays open until told
        button = page.locator("#move-list button.move").first
        label = button.inner_text()
        button.click()
        page.wait_for_selector("#pending:not([hidden])")
        assert label in page.inner_text("#pending")
        page.click("#undo")
        assert page.is_hidden("#pending")
        assert len(commands_of(site, created)) == sent and site.board(created)["version"] == board["version"]
        page.locator("#move-list button.move").first.click()
        page.click("#send-now")
        page.wait_for_function(f"Number(document.body.dataset.version) > {board['version']}")
        assert len(commands_of(site, created)) == sent + 1
    finally:
        close(page)


# -- clocks ---------------------------------------------------------------------------------------

NAMES = ["Ada", "Bo", "Cy", "Di", "Ed"]


@BOTH_SIZES
@EVERY
def test_a_clocked_tournament_game_shows_each_seats_clock(browser: Any, site: Site, game: str, size: str) -> None:
    players = GAMES[game][0]
    settings = {"rounds": 1, "table_size": players, "time_control": {"base_seconds": 600, "increment_seconds": 5}}
    created = site.tournaments.create(game, settings, f"web-clocks-{game}-{size}".encode(), salted=False)
    for name in NAMES[:players]:
        site.tournaments.register(created.tournament_id, created.organiser_token, name)
    table = site.tournaments.seat_next_round(created.tournament_id, created.organiser_token)["tables"][0]
    page = new_page(browser, SIZES[size])
    try:
        page.goto(f"{site.url}/viewer?game={table['game_id']}")
        page.wait_for_selector("#turn [data-clocks]")
        clocks = page.eval_on_selector_all(
            "#turn [data-clock-seat]", "ns => ns.map(n => Number(n.dataset.remainingMs))"
        )
        assert len(clocks) == players and all(0 < ms <= 600_000 for ms in clocks)
        text = page.inner_text("#turn")
        assert re.search(r"Clocks: " + r" · ".join([r"\w+ \d+:\d\d"] * players), text), text
        assert all(name in text for name in NAMES[:players])
        assert page.locator("#turn [data-clocks]").bounding_box()["width"] <= SIZES[size]["width"]
    finally:
        close(page)


# -- the spectator count --------------------------------------------------------------------------


def spectators_shown(page: Any, count: int) -> None:
    page.wait_for_selector(f'#spectators[data-count="{count}"]')
    assert page.inner_text("#spectators") == f"{count} {'spectator' if count == 1 else 'spectators'}"


# The count is the platform's, the same for every game: every game's page on a phone (where it must
# fit), and one at the desk.
@pytest.mark.parametrize(("game", "size"), [*((game, "phone") for game in GAMES), ("peloponnes", "desk")])
def test_the_spectator_count_is_shown_and_follows_spectators_coming_and_going(
    browser: Any, site: Site, game: str, size: str
) -> None:
    created = site.create(game, f"watched-{game}-{size}")
    first, second, seat = (new_page(browser, SIZES[size]) for _ in range(3))
    try:
        first.goto(viewer_url(site, created))
        spectators_shown(first, 1)
        second.goto(viewer_url(site, created))
        spectators_shown(second, 2)
        spectators_shown(first, 2)
        open_as(seat, site, created, 0)  # a seat is told the count and is not in it
        spectators_shown(seat, 2)
        assert seat.locator("#spectators").is_visible()
        box = seat.locator("#spectators").bounding_box()
        assert box["x"] + box["width"] <= SIZES[size]["width"]
        second.context.close()
        spectators_shown(first, 1)
        spectators_shown(seat, 1)
    finally:
        for page in (first, seat):
            close(page)


def test_an_ended_game_shows_no_spectator_count(page: Any, site: Site, ended: dict[str, CreatedGame]) -> None:
    created = ended["alexandros"]
    page.goto(viewer_url(site, created))
    at_version(page, site.board(created)["version"])
    page.wait_for_selector('#live[data-state="ended"]')
    assert page.is_hidden("#spectators")


# -- light pages ----------------------------------------------------------------------------------

LOG_WINDOW = 300  # api/static/js/core/viewer.js


@BOTH_SIZES
@EVERY
def test_a_games_page_reads_a_window_of_a_long_log_and_the_rest_when_asked(
    reader: Any, site: Site, ended: dict[str, CreatedGame], game: str, size: str
) -> None:
    created = ended[game]
    latest = site.board(created)["version"]
    page = reader
    asked: list[str] = []

    def note(request: Any) -> None:
        if "/events" in request.url:
            asked.append(request.url.split("/events")[1])

    page.on("request", note)
    try:
        page.goto(viewer_url(site, created))
        at_version(page, latest)
        if latest <= LOG_WINDOW:  # a short game's log is read whole, once
            assert asked == [""]
            assert page.locator("#log li[data-position]").count() == latest
            return
        assert asked == [f"?after={latest - LOG_WINDOW}"]
        assert page.locator("#log li[data-position]").count() == LOG_WINDOW
        page.click("#log li.earlier button")
        page.wait_for_function(f"document.querySelectorAll('#log li[data-position]').length === {latest}")
        # a deep link before the window (at its first record or earlier) reads the whole log at once
        before_the_window = latest - LOG_WINDOW
        page.goto(viewer_url(site, created, before_the_window))
        at_version(page, before_the_window)
        assert page.locator("#log li[data-position]").count() == latest
    finally:
        page.remove_listener("request", note)
