"""Playing a tournament from the browser, as its people would: four players register through the
organiser's link in four browsers, each holds only their own token, is told "your turn" and plays
their table by clicking, and sees the next round seated without reloading; the organiser, from
the same page with the organiser token, withdraws a player, enters a late one, seats the rounds
and downloads the CSV."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from domain.kernel.bots import RandomBot
from domain.tournament.log import Table
from infra.tournaments.run import play_table
from tests.web.conftest import BYPASS_CSP, Site, no_undo_window
from tests.web.test_browser import play_one_move_by_clicking
from tests.web.test_content_security import violations, watched
from tests.web.test_play_client import axe_violations

pytestmark = pytest.mark.slow

NAMES = ["Ada", "Bo", "Cy", "Di"]
MOST_CLICKED_MOVES = 8  # a turn of several commands is clicked through; the bot plays the rest


class Browsers:
    """One browser context per person (each its own local storage), closed at the end; a page
    that raised fails the test."""

    def __init__(self, browser: Any) -> None:
        self.browser = browser
        self.contexts: list[Any] = []
        self.errors: list[str] = []

    def page(self, context: Any | None = None) -> Any:
        if context is None:
            context = self.browser.new_context(viewport={"width": 1280, "height": 900}, **BYPASS_CSP)
            no_undo_window(context)
            self.contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.set_default_timeout(90_000)  # a bound for a stuck page on a busy machine, not a measurement
        return page


@pytest.fixture
def browsers(browser: Any) -> Iterator[Browsers]:
    people = Browsers(browser)
    yield people
    for context in people.contexts:
        context.close()
    assert not people.errors, f"a page raised: {people.errors}"


def stored(page: Any, tournament_id: str) -> dict[str, Any]:
    entry: dict[str, Any] = page.evaluate(
        "id => JSON.parse(localStorage.getItem(`alexandria.tournament.${id}`) || '{}')", tournament_id
    )
    return entry


def local_storage(page: Any) -> str:
    text: str = page.evaluate("JSON.stringify(Object.fromEntries(Object.entries(localStorage)))")
    return text


def awaited_seats(site: Site, game_id: str) -> set[int]:
    with site.service.reading(game_id) as game:
        return set() if game.match.is_over else set(game.match.game.awaited(game.match.state))


def play_by_clicking(people: Browsers, site: Site, player_page: Any, seat: int, game_id: str) -> None:
    """The player told "your turn" opens their table from the page's Play link and plays their
    turn by clicking in the viewer, which acts with their own token, until another seat is awaited."""
    player_page.wait_for_selector(f'#me[data-game-id="{game_id}"][data-your-turn="true"] [data-your-turn]')
    href = player_page.get_attribute(f'#rounds a[data-play-link="{game_id}"]', "href")
    assert href == player_page.get_attribute("#me-play", "href") == f"/viewer?game={game_id}#p=seat:{seat}"
    viewer = people.page(player_page.context)
    viewer.goto(f"{site.url}{href}")
    viewer.wait_for_selector(f'#board[data-perspective="seat:{seat}"]')
    rng = random.Random(f"{game_id}:{seat}")
    for _ in range(MOST_CLICKED_MOVES):
        before = site.api.get(f"/games/{game_id}").json()["version"]
        viewer.wait_for_selector(f'body[data-version="{before}"]')
        play_one_move_by_clicking(viewer, rng)
        viewer.wait_for_function(f"Number(document.body.dataset.version) > {before}")
        records = site.api.get(f"/games/{game_id}/events", params={"after": before}).json()
        assert records[0]["type"] == "CommandAccepted" and records[0]["data"]["seat"] == seat
        if awaited_seats(site, game_id) != {seat}:
            break
    # The players are named in the game's log, not "Seat 1".
    log = viewer.inner_text("#log")
    assert "Seat 1" not in log and "Seat 2" not in log
    viewer.close()


def test_four_players_register_by_the_link_play_their_tables_and_follow_the_rounds(
    browsers: Browsers, site: Site, tmp_path: Path
) -> None:
    answer = site.api.post("/tournaments", json={"game": "alexandros", "settings": {"rounds": 2, "table_size": 2}})
    assert answer.status_code == 201, answer.text
    created = answer.json()
    tid, organiser_token, code = created["tournament_id"], created["organiser_token"], created["registration_code"]

    # The organiser opens the page with their token in the fragment: kept, and gone from the address bar.
    organiser = browsers.page()
    organiser.goto(f"{site.url}/tournament?id={tid}#organiser={organiser_token}")
    organiser.wait_for_selector("#registration-link")
    assert "#" not in organiser.url and stored(organiser, tid) == {"organiser": organiser_token}
    link = organiser.input_value("#registration-link")
    assert link == f"{site.url}/join?id={tid}&code={code}"

    # Four people open the link, each in their own browser, and join.
    players: list[Any] = []
    for name in NAMES:
        page = browsers.page()
        page.goto(link)
        page.fill("#join-name", name)
        page.click("#join-button")
        page.wait_for_url(f"{site.url}/tournament?id={tid}")
        page.wait_for_selector(f'#me-name:has-text("{name}")')
        players.append(page)
    entries = [stored(page, tid)["player"] for page in players]
    assert [e["name"] for e in entries] == NAMES
    tokens = {e["player"]: e["token"] for e in entries}
    assert len(set(tokens.values())) == 4
    # Each browser holds its own token only; no page shows a token, and the organiser sees none.
    for page, entry in zip(players, entries, strict=True):
        held = local_storage(page)
        assert entry["token"] in held and all(t not in held for t in tokens.values() if t != entry["token"])
        assert all(t not in page.content() for t in tokens.values())
    organiser.wait_for_selector(f'#standings tbody tr[data-player="{len(NAMES) - 1}"]')
    assert all(t not in organiser.content() + local_storage(organiser) for t in tokens.values())
    registered = site.api.get(f"/tournaments/{tid}").json()["players"]
    assert [p["registered_by"] for p in registered] == ["self"] * 4

    for page in players:  # a mark that survives only while the page is not reloaded
        page.evaluate("window.notReloaded = true")

    # Round 1: seated from the organiser's page; every player is told their table without a reload.
    organiser.click("#seat-round")
    organiser.wait_for_selector('#organiser-message.notice:has-text("Round 1 is seated")')
    seated = site.api.get(f"/tournaments/{tid}").json()["rounds"][0]
    page_of = {entries[i]["player"]: players[i] for i in range(4)}
    for table in seated["tables"]:
        for seat, player in enumerate(table["players"]):
            page = page_of[player]
            page.wait_for_selector(f'#me[data-round="1"][data-game-id="{table["game_id"]}"][data-seat="{seat}"]')
            other = registered[table["players"][1 - seat]]["name"]
            assert f"table {table['table']}: you are seat {seat + 1}" in page.inner_text("#me-table")
            assert other in page.inner_text("#me-table")
            assert page.locator(f'#rounds a[data-play-link="{table["game_id"]}"]').count() == 1
            assert page.locator("#rounds a[data-play-link]").count() == 1  # "Play" only beside one's own seat

    # At each table the awaited player is told "your turn", plays by clicking; then the other is told.
    for table in seated["tables"]:
        game_id = table["game_id"]
        (first,) = awaited_seats(site, game_id)
        waiting = page_of[table["players"][1 - first]]
        assert waiting.get_attribute("#me", "data-your-turn") == "false"
        play_by_clicking(browsers, site, page_of[table["players"][first]], first, game_id)
        assert awaited_seats(site, game_id) == {1 - first}  # the other's turn: told on their page
        play_by_clicking(browsers, site, waiting, 1 - first, game_id)

    # The rest of each game by the bot, through the players' tokens; the results reach every page.
    tokens_by_player = [tokens[p] for p in range(4)]
    for entry in seated["tables"]:
        table = Table(1, entry["table"], entry["game_id"], entry["players"])
        play_table(site.tournaments, tid, table, tokens_by_player, RandomBot(f"play:{table.game_id}".encode()))
    for page in players:
        page.wait_for_selector('#me[data-status="ended"]')
        page.wait_for_selector('body[data-status="between-rounds"]')

    # The organiser withdraws one player and enters a late one; refusals are shown plainly.
    withdrawn = entries[3]
    organiser.click("#withdraw")  # no reason given: refused, and nothing changes
    organiser.wait_for_selector('#organiser-message.error:has-text("Refused (BAD_INPUT)")')
    assert not any(p["withdrawn"] for p in site.api.get(f"/tournaments/{tid}").json()["players"])
    organiser.select_option("#withdraw-player", str(withdrawn["player"]))
    organiser.fill("#withdraw-reason", "had to leave")
    organiser.click("#withdraw")
    organiser.wait_for_selector(f'#organiser-message.notice:has-text("{withdrawn["name"]} is withdrawn")')
    page_of[withdrawn["player"]].wait_for_selector("#me-withdrawn")
    organiser.fill("#late-name", "Eve")
    organiser.select_option("#late-missed", "bye")
    organiser.click("#late-enter")
    organiser.wait_for_selector('#organiser-message.notice:has-text("Eve is entered, seated from round 2")')
    handed = organiser.input_value("#handed-link")
    assert handed.startswith(f"{site.url}/tournament?id={tid}#player=")

    # Eve opens the link the organiser handed her: her token is kept, and gone from the address bar.
    eve = browsers.page()
    eve.goto(handed)
    eve.wait_for_selector('#me-name:has-text("Eve")')
    assert "#" not in eve.url
    eve.evaluate("window.notReloaded = true")

    # Round 2: seated; the players still in see their new tables without a reload, the withdrawn none.
    organiser.click("#seat-round")
    organiser.wait_for_selector('#organiser-message.notice:has-text("Round 2 is seated")')
    second_round = site.api.get(f"/tournaments/{tid}").json()["rounds"][1]
    seated_players = sorted(p for t in second_round["tables"] for p in t["players"])
    eve_number = len(NAMES)
    assert seated_players == sorted([e["player"] for e in entries[:3]] + [eve_number])
    for page in [*players[:3], eve]:
        page.wait_for_selector('#me[data-round="2"][data-status="running"]')
        assert page.evaluate("window.notReloaded === true")
    dropped = page_of[withdrawn["player"]]
    dropped.wait_for_selector('#me[data-round="2"]')  # the panel has read round 2 (without a reload)
    assert dropped.get_attribute("#me", "data-game-id") == ""
    assert dropped.locator("#rounds a[data-play-link]").count() == 0

    # The organiser downloads the standings as CSV from the page.
    with organiser.expect_download() as download:
        organiser.click("#standings-csv")
    saved = tmp_path / "standings.csv"
    download.value.save_as(saved)
    text = saved.read_text(encoding="utf-8")
    assert all(name in text for name in [*NAMES, "Eve"])


def test_the_join_page_and_both_panels_work_under_the_pages_policy(policed_page: Any, site: Site) -> None:
    page = policed_page
    complaints = watched(page)
    answer = site.api.post("/tournaments", json={"game": "alexandros", "settings": {"rounds": 1, "table_size": 2}})
    created = answer.json()
    tid = created["tournament_id"]
    page.goto(f"{site.url}/join?id={tid}&code={created['registration_code']}")
    page.fill("#join-name", "Ada")
    page.click("#join-button")
    page.wait_for_url(f"{site.url}/tournament?id={tid}")
    page.wait_for_selector('#me-name:has-text("Ada")')
    # The same browser holds the organiser's token too (an organiser who plays): both panels.
    page.goto(f"{site.url}/tournament?id={tid}#organiser={created['organiser_token']}")
    page.wait_for_selector("#registration-link")
    page.wait_for_selector('body[data-role="player organiser"]')
    assert page.locator("#me-name").inner_text() == "You play as Ada"
    assert violations(page, complaints) == []


def test_a_bad_registration_link_or_token_is_told_and_registers_nobody(page: Any, site: Site) -> None:
    created = site.api.post("/tournaments", json={"game": "alexandros", "settings": {"rounds": 1}}).json()
    tid = created["tournament_id"]
    page.goto(f"{site.url}/join?id={tid}&code=not-the-code")
    page.fill("#join-name", "Mallory")
    page.click("#join-button")
    page.wait_for_selector('#error:not([hidden]):has-text("Not registered")')
    page.goto(f"{site.url}/join?id={tid}")
    page.wait_for_selector('#error:not([hidden]):has-text("incomplete")')
    page.goto(f"{site.url}/tournament?id={tid}#organiser=not-a-token")
    page.wait_for_selector("#error:not([hidden])")
    assert page.locator("#organiser-section").is_hidden()
    assert stored(page, tid) == {}
    assert site.api.get(f"/tournaments/{tid}").json()["players"] == []


def test_axe_finds_no_violation_on_the_join_page_and_the_players_and_organisers_panels(page: Any, site: Site) -> None:
    settings = {"rounds": 1, "table_size": 2}
    created = site.api.post("/tournaments", json={"game": "alexandros", "settings": settings}).json()
    tid, organiser, code = created["tournament_id"], created["organiser_token"], created["registration_code"]
    page.goto(f"{site.url}/join?id={tid}&code={code}")
    page.wait_for_selector("#join-form:not([hidden])")
    assert axe_violations(page) == []
    page.fill("#join-name", "Ada")
    page.click("#join-button")
    page.wait_for_selector('#me-name:has-text("Ada")')
    assert site.api.post(f"/tournaments/{tid}/join", json={"name": "Bo", "code": code}).status_code == 201
    seated = site.api.post(f"/tournaments/{tid}/rounds", headers={"Authorization": f"Bearer {organiser}"})
    assert seated.status_code == 201, seated.text
    page.goto(f"{site.url}/tournament?id={tid}#organiser={organiser}")
    page.wait_for_selector('#me[data-round="1"]')
    page.wait_for_selector("#seat-round")
    assert axe_violations(page) == []


def test_the_organiser_asks_for_check_in_and_the_player_checks_in_by_clicking(page: Any, site: Site) -> None:
    created = site.api.post("/tournaments", json={"game": "alexandros", "settings": {"rounds": 1, "table_size": 2}})
    tid = created.json()["tournament_id"]
    page.goto(f"{site.url}/join?id={tid}&code={created.json()['registration_code']}")
    page.fill("#join-name", "Ada")
    page.click("#join-button")
    page.wait_for_selector('#me-name:has-text("Ada")')
    page.goto(f"{site.url}/tournament?id={tid}#organiser={created.json()['organiser_token']}")
    page.click("#open-check-in")
    page.wait_for_selector('#check-in-status:has-text("0 of 1 players have checked in")')
    page.click("#me-check-in")  # the player's panel shows the button once check-in is open
    page.wait_for_selector("#me-checked-in")
    page.wait_for_selector('#check-in-status:has-text("1 of 1 players have checked in")')
    assert site.api.get(f"/tournaments/{tid}").json()["check_in"]["checked_in"] == [0]
