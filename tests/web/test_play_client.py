"""The play client as players use it (issue 25): no broken text over whole timelines, names wherever
a seat is shown, what a seat holds in view beside its moves, moves told apart, refusals that recover,
accessibility (axe-core, no violations) and a phone layout, in all four games."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from domain.kernel.bots import RandomBot
from infra.games.service import CreatedGame
from infra.games.simulation import play_with_bot
from tests.web.conftest import BYPASS_CSP, GAMES, Site, no_undo_window
from tests.web.test_browser import at_version, viewer_url
from tests.web.test_play_forms import commands_of, open_as, played_until, seat_view

pytestmark = pytest.mark.slow

DESK = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
SIZES = {"desk": DESK, "phone": PHONE}

BROKEN = re.compile(r"undefined|NaN|\[object Object\]")
ONE_PLURAL = re.compile(r"\b1 (cards|steps|armies|spaces|players|governors|tiles|coins|knights|tasks|walls)\b")
JAMMED = re.compile(r"Seat \d+Seat")  # two seats' chips with nothing between them


def played(site: Site, game: str, seed: str, commands: int) -> tuple[CreatedGame, int]:
    """A running game after (at most) ``commands`` bot moves, and a seat it awaits: a short game
    (a random bot may end Peloponnes early) is played again with fewer."""
    while True:
        created = site.played(game, f"{seed}:{commands}", commands)
        board = site.board(created)
        if board["status"] == "running" or commands == 0:
            break
        commands //= 2
    assert board["status"] == "running"
    return created, int(next(iter(board["awaited"])))


def bot_move(site: Site, created: CreatedGame, bot: RandomBot) -> None:
    """One random move, by whichever seat the bot picks among those awaited."""
    with site.service.reading(created.game_id) as aggregate:
        match = aggregate.match
        assert not match.is_over, "the game ended before the moment the test needs"
        mover, command = bot.next_move(match.game, match.state)
        version = aggregate.match.version
    site.service.execute(
        created.game_id, created.tokens[mover], {"type": command.type, **command.to_dict()}, expected_version=version
    )


def new_page(browser: Any, size: dict[str, int]) -> Any:
    context = browser.new_context(**BYPASS_CSP, viewport=size, is_mobile=size is PHONE, has_touch=size is PHONE)
    no_undo_window(context)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.set_default_timeout(60_000)  # a bound for a stuck page, not a measurement
    page.errors = errors
    return page


def close(page: Any) -> None:
    errors = page.errors
    page.context.close()
    assert not errors, f"the page raised: {errors}"


def texts_wrong(text: str) -> list[str]:
    return [m.group(0) for pattern in (BROKEN, ONE_PLURAL, JAMMED) for m in pattern.finditer(text)]


# -- broken text ----------------------------------------------------------------------------------


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("game", list(GAMES))
def test_no_broken_text_anywhere_over_a_whole_timeline(
    browser: Any, site: Site, ended: dict[str, Any], game: str, size: str
) -> None:
    created = ended[game]
    latest = site.board(created)["version"]
    page = new_page(browser, SIZES[size])
    try:
        page.goto(viewer_url(site, created, fragment="tokens=" + created.tokens[0]))
        at_version(page, latest)
        # every page of the timeline (a sample of ~30 versions and the last): board, details, turn,
        # scores; and at each, nothing but the board (which pans) wider than the screen
        step = max(1, latest // 30)
        found: list[str] = page.evaluate(TIMELINE_DEFECTS, [latest, step, SIZES[size]["width"], size == "phone"])
        assert found == []
        # the log (all of it, read when the page went back to the start) says every record in words
        log = page.inner_text("#log")
        assert page.locator("#log li[data-position]").count() == latest
        assert texts_wrong(log) == []
    finally:
        close(page)


def test_another_seats_sealed_allocation_is_told_without_numbers(page: Any, site: Site) -> None:
    created = site.create("empire_builder", "sealed-words")
    allocation = {"type": "allocate_resources", "turn_order": 3, "armies": 6, "temples": 3, "cities": 3}
    site.service.execute(
        created.game_id, created.tokens[0], allocation, expected_version=site.board(created)["version"]
    )
    for fragment in ("", f"token={created.tokens[1]}"):
        page.goto("about:blank")
        page.goto(viewer_url(site, created, fragment=fragment))
        at_version(page, site.board(created)["version"])
        log = page.inner_text("#log")
        assert "Seat 1: Allocate (sealed)." in log
        assert texts_wrong(log) == [] and "turn order" not in log
    # the seat itself reads its own numbers
    page.goto("about:blank")
    page.goto(viewer_url(site, created, fragment=f"token={created.tokens[0]}"))
    at_version(page, site.board(created)["version"])
    assert "Seat 1: Allocate: turn order 3, armies 6, temples 3, cities 3." in page.inner_text("#log")


def test_titles_menus_and_options_are_in_words_and_whole(page: Any, site: Site, ended: dict[str, Any]) -> None:
    base = site.create("catan_alexander", "title-base", {"board": "base"})
    page.goto(viewer_url(site, base))
    at_version(page, site.board(base)["version"])
    assert "historical scenario" not in page.inner_text("#title")
    assert "base game" in page.title()

    # the perspective menu shows its longest entry whole
    created = ended["alexandros"]
    page.goto("about:blank")
    page.goto(viewer_url(site, created, fragment="token=" + created.tokens[0]))
    page.wait_for_selector('#perspective option[value="everything"]', state="attached")
    page.select_option("#perspective", "everything")
    fits = page.evaluate(
        """() => {
            const select = document.getElementById('perspective');
            const font = getComputedStyle(select).font;
            const ctx = document.createElement('canvas').getContext('2d');
            ctx.font = font;
            const widest = Math.max(...[...select.options].map((o) => ctx.measureText(o.text).width));
            return widest + 16 <= select.clientWidth; // room for the menu's arrow
        }"""
    )
    assert fits

    # the lobby's options in words, not internal ids
    page.goto(f"{site.url}/lobby")
    page.wait_for_selector("body[data-ready]")
    page.select_option("#new-game", "alexandros")
    page.wait_for_selector("#option-board")
    shown = page.eval_on_selector_all("#option-board option", "os => os.map(o => o.textContent)")
    assert shown == ["the reconstructed board"]
    page.select_option("#new-game", "catan_alexander")
    # the form is drawn again for the game chosen: wait for Catan's options, not the ones still shown
    page.wait_for_selector("#option-board option[value='\"base\"']", state="attached")
    shown = page.eval_on_selector_all("#option-board option", "os => os.map(o => o.textContent)")
    assert shown == ["Alexander's campaign (the scenario board)", "the base game's board"]


# -- names ----------------------------------------------------------------------------------------


NAMES = ["Ann", "Ben", "Cyd", "Dov", "Eva"]


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("game", list(GAMES))
def test_joined_names_are_shown_wherever_a_seat_is(browser: Any, site: Site, game: str, size: str) -> None:
    players = GAMES[game][0]
    answer = site.api.post("/games", json={"game": game, "players": players, "open_seats": True})
    assert answer.status_code in (200, 201), answer.text
    game_id = answer.json()["game_id"]
    tokens = {}
    for name in NAMES[:players]:
        joined = site.api.post(f"/games/{game_id}/join", json={"name": name})
        assert joined.status_code in (200, 201), joined.text
        tokens[joined.json()["seat"]] = joined.json()["token"]
    page = new_page(browser, SIZES[size])
    try:
        page.goto(f"{site.url}/viewer?game={game_id}#token={tokens[0]}")
        page.wait_for_selector("#moves[data-version], #turn .headline")
        page.wait_for_selector("#scores tr[data-seat]")
        scores = page.inner_text("#scores")
        assert all(name in scores for name in NAMES[:players])
        log = page.inner_text("#log")
        assert all(f"{name} takes seat {seat + 1}." in log for seat, name in enumerate(NAMES[:players]))
        assert "seat taken" not in log.lower()
        assert "Ann" in page.inner_text("#perspective")
        # no seat is numbered where it has a name: not on the board, the details, the turn or the log
        assert re.findall(r"Seat \d", page.inner_text("body") + page.text_content("#board")) == []
        if game == "alexandros":
            assert "Ann: " in page.text_content("#board")  # the hand rows of the tray
    finally:
        close(page)


def test_a_tournament_tables_players_are_named_in_its_game(page: Any, site: Site) -> None:
    created = site.tournaments.create("alexandros", {"rounds": 1, "table_size": 2}, b"web-names", salted=False)
    tid, organiser = created.tournament_id, created.organiser_token
    for name in ("Ada", "Bo"):
        site.tournaments.register(tid, organiser, name)
    seated = site.tournaments.seat_next_round(tid, organiser)
    table = seated["tables"][0]
    view = site.api.get(f"/games/{table['game_id']}").json()
    assert view["names"] == {str(seat): ["Ada", "Bo"][player] for seat, player in enumerate(table["players"])}
    page.goto(f"{site.url}/viewer?game={table['game_id']}")
    page.wait_for_selector("#scores tr[data-seat]")
    names = [["Ada", "Bo"][player] for player in table["players"]]
    rows = page.eval_on_selector_all("#scores tbody th .chip", "chips => chips.map(c => c.textContent)")
    assert rows == names


# -- what a seat holds stays in view --------------------------------------------------------------


@pytest.mark.parametrize("game", list(GAMES))
def test_the_hand_and_the_public_state_stay_in_view_while_choosing_a_move(page: Any, site: Site, game: str) -> None:
    created, seat = played(site, game, "hand-in-view", 60)
    open_as(page, site, created, seat)

    def on_screen(selector: str) -> None:
        # read until the layout settles (on a busy machine the panels may still be filling): within
        # 10 s the element must stand on screen, above the timeline
        for _ in range(50):
            box = page.locator(selector).first.bounding_box()
            if box is not None and box["y"] >= 0 and box["y"] + box["height"] <= DESK["height"] - 40:
                break
            page.wait_for_timeout(200)
        assert box is not None, selector
        assert box["y"] >= 0 and box["y"] + box["height"] <= DESK["height"] - 40, (selector, box)

    # the public state (the details' first lines), the moves' heading and their first move
    on_screen("#details > :nth-child(2)")
    on_screen("#moves-heading")
    on_screen("#move-list button.move, #move-forms summary")
    if game == "catan_alexander":
        on_screen('#details h3:text-matches("\'s hand$")')
    assert page.locator("#log").bounding_box()["height"] >= 80


# -- moves told apart -----------------------------------------------------------------------------


def test_alexandros_moves_to_one_space_differ_by_their_route_shown_on_hover(page: Any, site: Site) -> None:
    created = site.create("alexandros", "routes")

    def many_routes(view: dict[str, Any]) -> int | None:
        seat = view["viewer"]
        if str(seat) not in view["awaited"]:
            return None
        token = created.tokens[seat]
        moves = site.api.get(f"/games/{created.game_id}/legal-moves", headers={"Authorization": f"Bearer {token}"})
        targets = [tuple(m["target"]) for m in moves.json()["moves"] if m["type"] == "move_alexander"]
        return seat if any(targets.count(t) >= 3 for t in targets) else None

    seat = played_until(site, created, "routes", many_routes)
    open_as(page, site, created, seat)
    moves = page.evaluate("window.alexandria.moves.moves.filter(m => m.type === 'move_alexander')")
    targets = [tuple(m["target"]) for m in moves]
    crowded = max(set(targets), key=targets.count)
    page.dispatch_event(f'#board [data-target="space:{crowded[0]},{crowded[1]}"]', "click")
    page.wait_for_selector("#moves[data-target]")
    labels = page.eval_on_selector_all(
        "#move-list button.move[data-type=move_alexander]", "buttons => buttons.map(b => b.textContent)"
    )
    assert len(labels) >= 3 and len(set(labels)) == len(labels)
    assert all(f"row {crowded[0] + 1}, place {crowded[1] + 1}" in label for label in labels)
    # hovering a move draws its route on the board, corner to corner
    first = page.locator("#move-list button.move[data-type=move_alexander]").first
    first.hover()
    route = page.get_attribute("#board [data-piece=route-preview]", "points")
    index = int(first.get_attribute("data-index"))
    path = page.evaluate(f"window.alexandria.moves.moves[{index}].path")
    assert route is not None and len(route.split(" ")) == len(path)
    page.mouse.move(0, 0)
    page.wait_for_selector("#board [data-piece=route-preview]", state="detached")


def test_alexandros_governors_spaces_are_named_and_picked_on_the_board(page: Any, site: Site) -> None:
    created = site.create("alexandros", "pick-governors")

    def occupiable(view: dict[str, Any]) -> int | None:
        st = view["state"]
        me = view["viewer"]
        if st["step"] != "actions" or st["current_seat"] != me:
            return None
        free = [
            p
            for p in st["provinces"]
            if p["owner"] is None and 1 <= len(p["symbol_spaces"]) <= st["governor_supply"][me]
        ]
        return int(me) if free else None

    seat = played_until(site, created, "pick-governors", occupiable)
    st = seat_view(site, created, seat)["state"]
    index, province = next(
        (i, p)
        for i, p in enumerate(st["provinces"])
        if p["owner"] is None and 1 <= len(p["symbol_spaces"]) <= st["governor_supply"][seat]
    )
    open_as(page, site, created, seat)
    page.click("#move-forms summary")
    form = page.locator('form[data-form="occupy_province"]')
    form.get_by_label("Province").select_option(str(index))
    labels = form.locator("fieldset.spaces label").all_inner_texts()
    assert labels and all(re.search(r"row \d+, place \d+", label) for label in labels)
    assert not any(re.search(r"\d+,\d+", label) for label in labels)
    assert not re.search(r"\d+,\d+", form.get_by_label("Province").inner_text())
    # a click on the space on the board ticks its box
    space = province["symbol_spaces"][0]
    page.dispatch_event(f'#board [data-target="space:{space[0]},{space[1]}"]', "click")
    assert form.locator(f'input[data-field="space"][value="{space[0]},{space[1]}"]').is_checked()
    assert "chosen" in (page.get_attribute(f'#board [data-target="space:{space[0]},{space[1]}"]', "class") or "")


# -- refusals -------------------------------------------------------------------------------------


def test_a_stale_version_refusal_re_reads_the_game_and_the_next_try_is_taken(page: Any, site: Site) -> None:
    created = site.create("empire_builder", "stale")
    page.route("**/stream*", lambda route: route.abort())  # the live connection is down
    open_as(page, site, created, 0)
    shown = site.board(created)["version"]
    split = {"turn_order": 3, "armies": 6, "temples": 3, "cities": 3}
    site.service.execute(
        created.game_id, created.tokens[1], {"type": "allocate_resources", **split}, expected_version=shown
    )
    form = page.locator('form[data-form="allocate_resources"]')
    for field, n in split.items():
        form.locator(f'input[data-field="{field}"]').fill(str(n))
    form.get_by_role("button", name="Commit the allocation").click()
    page.wait_for_selector("#refusal:not([hidden])")
    assert "moved on" in page.inner_text("#refusal")
    at_version(page, shown + 2)  # re-read: the other seat's command and its event
    assert "Seat 2: Allocate (sealed)." in page.inner_text("#log")
    form = page.locator('form[data-form="allocate_resources"]')
    for field, n in split.items():
        form.locator(f'input[data-field="{field}"]').fill(str(n))
    form.get_by_role("button", name="Commit the allocation").click()
    at_version(page, shown + 4)
    assert [c["data"]["seat"] for c in commands_of(site, created)] == [1, 0]


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("game", list(GAMES))
def test_a_command_out_of_turn_reads_not_your_turn_and_changes_nothing(
    browser: Any, site: Site, game: str, size: str
) -> None:
    created = site.create(game, f"out-of-turn-{game}-{size}")
    bot = RandomBot(f"out-of-turn-{game}".encode())
    # a seat that is not awaited (a simultaneous first move: once one seat has made it)
    while not (others := [s for s in range(len(created.tokens)) if str(s) not in site.board(created)["awaited"]]):
        bot_move(site, created, bot)
    board = site.board(created)
    mover = int(next(iter(board["awaited"])))
    moves = site.api.get(
        f"/games/{created.game_id}/legal-moves", headers={"Authorization": f"Bearer {created.tokens[mover]}"}
    ).json()["moves"]
    page = new_page(browser, SIZES[size])
    try:
        open_as(page, site, created, others[0])
        page.click("#moves details:has(#custom-form) > summary")
        page.fill("#custom-command", json.dumps(moves[0]))
        page.click("#custom-form button")
        page.wait_for_selector("#refusal:not([hidden])")
        refusal = page.inner_text("#refusal")
        assert re.fullmatch(r"Not your turn: .+ (is|are) to play\.", refusal), refusal
        assert f"Seat {mover + 1}" in refusal
        assert site.board(created)["version"] == board["version"]
    finally:
        close(page)


def test_a_keyboard_move_keeps_the_focus(page: Any, site: Site) -> None:
    created = site.create("alexandros", "keyboard-focus")
    board = site.board(created)
    mover = int(next(iter(board["awaited"])))
    open_as(page, site, created, mover)
    page.focus("#move-list button.move")
    page.keyboard.press("Enter")
    page.wait_for_function(f"Number(document.body.dataset.version) > {board['version']}")
    # The live stream may draw the new version before the sender's own redraw puts the focus back:
    # wait for the focus to land (it never does if the page leaves it on the body).
    page.wait_for_function(
        "document.activeElement !== document.body && document.activeElement.closest('#side') !== null"
    )


# -- accessibility --------------------------------------------------------------------------------


def axe_violations(page: Any) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe  # type: ignore[import-untyped]

    results = Axe().run(page)
    return [f"{v['id']}: {v['nodes'][0]['html'][:160]}" for v in results.response["violations"]]


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("game", list(GAMES))
def test_axe_finds_no_violation_on_a_game_page(browser: Any, site: Site, game: str, size: str) -> None:
    created, seat = played(site, game, f"axe-{game}", 30)
    page = new_page(browser, SIZES[size])
    try:
        open_as(page, site, created, seat)
        assert axe_violations(page) == []
    finally:
        close(page)


@pytest.mark.parametrize("size", list(SIZES))
def test_axe_finds_no_violation_in_the_lobby_and_a_tournament(browser: Any, site: Site, size: str) -> None:
    created = site.tournaments.create(
        "alexandros", {"rounds": 1, "table_size": 2}, f"axe-{size}".encode(), salted=False
    )
    for name in ("Ada", "Bo"):
        site.tournaments.register(created.tournament_id, created.organiser_token, name)
    site.tournaments.seat_next_round(created.tournament_id, created.organiser_token)
    page = new_page(browser, SIZES[size])
    try:
        page.goto(f"{site.url}/lobby")
        page.wait_for_selector("body[data-ready]")
        assert axe_violations(page) == []
        page.goto(f"{site.url}/tournament?id={created.tournament_id}")
        page.wait_for_selector("#standings tbody tr[data-player]")
        assert axe_violations(page) == []
    finally:
        close(page)


# -- a phone --------------------------------------------------------------------------------------

# Whether a node is drawn for a person to see: laid out, and not in a folded <details> (whose content
# Chromium still lays out) unless in its summary.
SHOWN = """(n) => {
    if (!n.getClientRects().length) return false;
    const folded = n.closest('details:not([open])');
    return !folded || n.closest('summary')?.parentElement === folded;
}"""

WIDER_THAN_THE_SCREEN = (
    """(width) => [...document.querySelectorAll('body *')]
    .filter((n) => !n.closest('#board-scroll') && ("""
    + SHOWN
    + """)(n))
    .filter((n) => n.getBoundingClientRect().right > width + 1)
    .map((n) => n.tagName + (n.id ? '#' + n.id : '') + '.' + n.className)"""
)


# The page's controls (the board's places aside: their own tests measure them) that a finger does not
# hit: less than 44 px either way (a box with a label: the label, which a touch on it ticks).
SMALL_TARGETS = (
    """() => [...document.querySelectorAll(
        'button, select, input:not([type=hidden]), textarea, summary, a[href], [role=button]')]
    .filter((n) => !n.closest('#board') && ("""
    + SHOWN
    + """)(n))
    .map((n) => [n, (n.matches('input[type=checkbox], input[type=radio]') && n.closest('label')) || n])
    .map(([n, box]) => [n, box.getBoundingClientRect()])
    .filter(([, r]) => r.width && (r.width < 44 || r.height < 44))
    .map(([n, r]) => `${n.tagName}#${n.id}.${n.className} "${(n.textContent || n.value || '').trim().slice(0, 20)}"`
      + ` ${Math.round(r.width)}x${Math.round(r.height)}`)"""
)

# The board's places (its [data-target] nodes) that a finger does not hit: less than 44 px either
# way on the screen. Catan's paths are lines, touched along and across by PATHS_MISSED instead.
SMALL_BOARD_TARGETS = """() => [...document.querySelectorAll('#board [data-target]:not(line)')]
    .map((n) => [n, n.getBoundingClientRect()])
    .filter(([, r]) => r.width < 44 || r.height < 44)
    .map(([n, r]) => `${n.tagName} ${n.dataset.target} ${Math.round(r.width)}x${Math.round(r.height)}`)"""

# The defects a page of the timeline may show, at each of a sample of versions: broken text, a cut
# board label, something wider than the screen (the board excepted: its pane pans).
TIMELINE_DEFECTS = (
    """async ([latest, step, width, phone]) => {
            const wider = """
    + WIDER_THAN_THE_SCREEN
    + """;
            const small = """
    + SMALL_TARGETS
    + """;
            const smallPlaces = """
    + SMALL_BOARD_TARGETS
    + """;
            const wrong = [];
            const versions = [];
            for (let v = 1; v <= latest; v += step) versions.push(v);
            versions.push(latest);
            for (const v of versions) {
              await window.alexandria.showVersion(v);
              const board = [...document.querySelectorAll('#board text')].map((t) => t.textContent).join('\\n');
              const text = `${document.body.innerText}\\n${board}`;
              const cut = [...document.querySelectorAll('#board text')].filter((t) => t.textContent.includes('…'));
              if (cut.length) wrong.push(`version ${v}: cut label ${cut[0].textContent}`);
              const patterns = [/undefined|NaN|\\[object Object\\]/, /Seat \\d+Seat/,
                /\\b1 (cards|steps|armies|spaces|players|governors|tiles|coins|knights|tasks|walls)\\b/];
              wrong.push(...patterns.flatMap((re) => (re.test(text) ? [`version ${v}: ${text.match(re)[0]}`] : [])));
              const wide = wider(width);
              if (wide.length) wrong.push(`version ${v}: wider than the screen: ${wide[0]}`);
              if (document.documentElement.scrollWidth > width) wrong.push(`version ${v}: the page scrolls sideways`);
              const tiny = phone ? small() : [];
              if (tiny.length) wrong.push(`version ${v}: a touch target under 44 px: ${tiny[0]}`);
              const tinyPlaces = phone ? smallPlaces() : [];
              if (tinyPlaces.length) wrong.push(`version ${v}: a board place under 44 px: ${tinyPlaces[0]}`);
            }
            return wrong;
        }"""
)


@pytest.mark.parametrize("game", list(GAMES))
def test_a_phone_shows_the_game_readable_touchable_and_no_wider_than_the_screen(
    browser: Any, site: Site, game: str
) -> None:
    created, seat = played(site, game, f"phone-{game}", 30)
    page = new_page(browser, PHONE)
    try:
        open_as(page, site, created, seat)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        assert page.evaluate(WIDER_THAN_THE_SCREEN, PHONE["width"]) == []
        # the board's text at 10 px or more on the screen (the board starts zoomed, the pane pans)
        smallest = page.evaluate(
            """() => Math.min(...[...document.querySelectorAll('#board text')].map((t) =>
                parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a))"""
        )
        assert smallest >= 10
        # every control, the moves among them, is a target a finger hits
        assert page.evaluate(SMALL_TARGETS) == []
        heights = page.eval_on_selector_all(
            "#move-list button.move", "bs => bs.map(b => b.getBoundingClientRect().height)"
        )
        assert heights and min(heights) >= 44
        # every place of the board a finger plays (Catan's paths aside: their own test touches them)
        assert page.evaluate(SMALL_BOARD_TARGETS) == []
        # the zoom buttons change the board's size; "fit" brings the whole board into the pane
        width = page.locator("#board").bounding_box()["width"]
        page.click("#zoom-in")
        assert page.locator("#board").bounding_box()["width"] > width
        page.click("#zoom-fit")
        assert page.locator("#board").bounding_box()["width"] <= PHONE["width"]
    finally:
        close(page)


# For each open path of the board (where a road may be built; a built road is drawn as a road): the
# points of a 44 px square on its middle, along it and across it, that a touch there would not reach
# the path with (another target, or nothing, there).
PATHS_MISSED = """() => {
    const missed = [];
    for (const line of document.querySelectorAll('#board line[data-target^="edge:"]:not([data-piece])')) {
      line.scrollIntoView({ block: 'center', inline: 'center' });
      const m = line.getScreenCTM();
      const at = (x, y) => [m.a * x + m.c * y + m.e, m.b * x + m.d * y + m.f];
      const [ax, ay] = at(line.x1.baseVal.value, line.y1.baseVal.value);
      const [bx, by] = at(line.x2.baseVal.value, line.y2.baseVal.value);
      const length = Math.hypot(bx - ax, by - ay);
      const [ux, uy] = [(bx - ax) / length, (by - ay) / length];
      const [mx, my] = [(ax + bx) / 2, (ay + by) / 2];
      for (const along of [-21.5, -11, 0, 11, 21.5]) for (const across of [-21.5, -11, 0, 11, 21.5]) {
        const hit = document.elementFromPoint(mx + along * ux - across * uy, my + along * uy + across * ux);
        if (hit?.closest('[data-target]') !== line) {
          const what = hit?.closest('[data-target]')?.dataset.target || hit?.tagName;
          missed.push(`${line.dataset.target} at ${along},${across}: ${what}`);
        }
      }
    }
    return missed;
}"""


@pytest.mark.parametrize("board", ["alexander", "base"])
def test_a_phone_touches_every_catan_path_and_intersection_on_a_44_px_target(
    browser: Any, site: Site, board: str
) -> None:
    created = site.create("catan_alexander", f"paths-{board}", {"board": board})
    play_with_bot(site.service, created, RandomBot(b"paths"), 40)  # buildings on the board
    page = new_page(browser, PHONE)
    try:
        open_as(page, site, created, 0)
        assert page.locator("#board [data-piece=settlement], #board [data-piece=city]").count() > 0
        assert page.locator('#board line[data-target^="edge:"]:not([data-piece])').count() > 50
        assert page.evaluate(PATHS_MISSED) == []
        sizes = page.eval_on_selector_all(
            "#board circle.spot",
            "ns => ns.map(n => { const r = n.getBoundingClientRect(); return Math.min(r.width, r.height); })",
        )
        assert sizes and min(sizes) >= 44
    finally:
        close(page)


def test_a_phone_shows_the_lobby_and_the_standings_within_the_screen(browser: Any, site: Site) -> None:
    created = site.tournaments.create("alexandros", {"rounds": 1, "table_size": 2}, b"phone-standings", salted=False)
    for name in ("Ada", "Bo", "Cyrus", "Dara"):
        site.tournaments.register(created.tournament_id, created.organiser_token, name)
    site.tournaments.seat_next_round(created.tournament_id, created.organiser_token)
    page = new_page(browser, PHONE)
    try:
        page.goto(f"{site.url}/lobby")
        page.wait_for_selector("body[data-ready]")
        page.wait_for_selector("#games tbody tr")
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        assert page.evaluate(WIDER_THAN_THE_SCREEN, PHONE["width"]) == []
        assert page.locator("#new-heading").bounding_box()["y"] < PHONE["height"]  # "New game" on the first screen
        page.goto(f"{site.url}/tournament?id={created.tournament_id}")
        page.wait_for_selector("#standings tbody tr[data-player]")
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        assert page.evaluate(WIDER_THAN_THE_SCREEN, PHONE["width"]) == []
    finally:
        close(page)


# -- records ---------------------------------------------------------------------------------------


def records_of(site: Site, created: CreatedGame) -> list[dict[str, Any]]:
    records: list[dict[str, Any]] = site.api.get(f"/games/{created.game_id}/events").json()
    return records


# -- overlaps --------------------------------------------------------------------------------------

OVERLAPS = """([inner, outer]) => {
    // pairs of boxes of `inner` that overlap a box of `outer` by more than a pixel each way
    const boxes = (selector) => [...document.querySelectorAll(selector)].map((n) => [n, n.getBoundingClientRect()]);
    const hits = [];
    for (const [a, ra] of boxes(inner)) for (const [b, rb] of boxes(outer)) {
      if (a === b || a.contains(b) || b.contains(a)) continue;
      const x = Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left);
      const y = Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top);
      if (x > 1 && y > 1) hits.push(`${a.textContent.slice(0, 30)} / ${b.textContent.slice(0, 30)}`);
    }
    return hits;
}"""

INSIDE = """([inner, outer]) => [...document.querySelectorAll(inner)].filter((n) => {
    // each `inner` within the `outer` box it belongs to (its nearest ancestor group's)
    const box = n.closest(outer.group).querySelector(outer.box).getBoundingClientRect();
    const r = n.getBoundingClientRect();
    return r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5;
}).map((n) => n.textContent)"""


def at_every_version(*checks: str) -> str:
    """Checks of the above at every version of the game shown, in one walk, each with its own
    argument (the page's policy allows no eval)."""
    return (
        """async ([latest, argumentsOf]) => {
    const checks = ["""
        + ", ".join(checks)
        + """];
    const wrong = [];
    for (let v = 1; v <= latest; v += 1) {
      await window.alexandria.showVersion(v);
      checks.forEach((checked, i) => wrong.push(...checked(argumentsOf[i]).map((found) => `version ${v}: ${found}`)));
    }
    return wrong;
}"""
    )


BID_CLEAR = ["#board [data-piece=bid] circle", "#board [data-tile] > text"]
TILE_TEXT_INSIDE = ["#board [data-tile] text", {"group": "[data-tile]", "box": "rect"}]


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("game", list(GAMES))
def test_the_boards_labels_and_pieces_do_not_overlap(
    browser: Any, site: Site, ended: dict[str, Any], game: str, size: str
) -> None:
    page = new_page(browser, SIZES[size])
    try:
        board_labels_apart(page, site, ended[game], game)
    finally:
        close(page)


def board_labels_apart(page: Any, site: Site, created: CreatedGame, game: str) -> None:
    middle = site.board(created)["version"] // 2
    page.goto(viewer_url(site, created, middle, fragment="tokens=" + ",".join(created.tokens)))
    at_version(page, middle)
    if game == "empire_builder":
        # the legend under the map, over no province
        assert page.evaluate(OVERLAPS, ["#board .legend text", "#board [data-province] circle"]) == []
    if game == "alexandros":
        page.wait_for_selector('#perspective option[value="everything"]', state="attached")
        page.select_option("#perspective", "everything")  # every hand shown: the longest rows
        page.wait_for_selector('#board[data-perspective="everything"]')
        rows = page.eval_on_selector_all("#board [data-hand-of]", "rows => rows.map(r => r.dataset.handOf)")
        for i, a in enumerate(rows):
            for b in rows[i + 1 :]:
                assert (
                    page.evaluate(OVERLAPS, [f'#board [data-hand-of="{a}"] > *', f'#board [data-hand-of="{b}"] > *'])
                    == []
                )
        assert page.evaluate(OVERLAPS, ["#board [aria-label='score track'] > *", "#board [data-hand-of] > *"]) == []
    if game == "peloponnes":
        # tile names and bid lines inside their boxes; a bid's disc clear of the tile's text
        assert page.evaluate(INSIDE, ["#board [data-tile] text", {"group": "[data-tile]", "box": "rect"}]) == []
        assert (
            page.evaluate(INSIDE, ["#board [data-piece=seat-bid]", {"group": "[data-seat-row]", "box": "rect"}]) == []
        )
        # a bid's disc clear of its tile's text and the tiles' text inside them, at every version:
        # which tiles are offered and bid on changes along the game
        latest = site.board(created)["version"]
        assert page.evaluate(at_every_version(OVERLAPS, INSIDE), [latest, [BID_CLEAR, TILE_TEXT_INSIDE]]) == []
    if game == "catan_alexander":
        # every hex's name on its own plate, clear of the numbers
        assert page.evaluate(OVERLAPS, ["#board .hex-name", "#board .hexes text"]) == []
        assert page.locator("#board .hex-name").count() == page.locator("#board [data-piece=hex]").count()


def test_what_a_move_adds_fades_in_and_stepping_back_shows_the_board_as_it_is(page: Any, site: Site) -> None:
    created = site.create("catan_alexander", "appeared", {"board": "base"})  # it starts by founding
    board = site.board(created)
    seat = int(next(iter(board["awaited"])))
    open_as(page, site, created, seat)
    vertex = page.get_attribute("#board [data-target^='vertex:'].playable", "data-target")
    page.dispatch_event(f'#board [data-target="{vertex}"]', "click")
    page.wait_for_function(f"Number(document.body.dataset.version) > {board['version']}")
    # The whole batch the move caused is in the page before it steps back (a busy machine may show
    # its first record first).
    at_version(page, site.board(created)["version"])
    page.wait_for_selector("#board [data-piece=settlement]")
    appeared = page.eval_on_selector_all("#board .appeared", "ns => ns.map(n => n.dataset.piece)")
    assert appeared == ["settlement"]
    page.focus("body")
    page.keyboard.press("ArrowLeft")
    at_version(page, board["version"])
    assert page.get_attribute("#board", "data-appeared") == "0"


# -- a light timeline step ------------------------------------------------------------------------

# The nodes of the board and the panels that a step took out of the page and put back (a node moved
# or re-attached is restyled and laid out anew, as if new), and how many nodes it added in all.
STEP_MUTATIONS = """async () => {
    const removed = new Set();
    const moved = new Set();
    let added = 0;
    const observer = new MutationObserver((records) => {
      for (const r of records) {
        for (const n of r.removedNodes) removed.add(n);
        for (const n of r.addedNodes) { added += 1; if (removed.has(n)) moved.add(n); }
      }
    });
    for (const id of ['board', 'details', 'scores', 'turn']) {
      observer.observe(document.getElementById(id), { childList: true, subtree: true });
    }
    const before = window.alexandria.version;
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
    await window.alexandria.stepping;
    for (const r of observer.takeRecords()) {
      for (const n of r.removedNodes) removed.add(n);
      for (const n of r.addedNodes) { added += 1; if (removed.has(n)) moved.add(n); }
    }
    observer.disconnect();
    return { stepped: window.alexandria.version > before, moved: moved.size, added,
             nodes: document.querySelectorAll('#board *, #details *').length };
}"""


def test_a_timeline_step_keeps_in_the_page_what_it_did_not_change(page: Any, site: Site, ended: dict[str, Any]) -> None:
    created = ended["catan_alexander"]
    middle = site.board(created)["version"] // 2
    page.goto(viewer_url(site, created, middle))
    at_version(page, middle)
    for _ in range(5):
        step = page.evaluate(STEP_MUTATIONS)
        assert step["stepped"]
        assert step["moved"] == 0  # nothing the step kept was taken out and put back
        assert step["added"] < step["nodes"] / 4  # only what changed is new
