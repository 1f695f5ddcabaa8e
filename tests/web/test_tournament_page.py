"""The tournament page in a real browser: a small tournament played by bots through the tournament
service; the page's standings are the standings route's, row for row, it follows the tournament
while it runs, and every table links to its own game in the viewer."""

from __future__ import annotations

import json
from typing import Any

import pytest

from domain.kernel.bots import RandomBot
from domain.tournament.log import Table
from infra.tournaments.run import play_table
from tests.web.conftest import BYPASS_CSP, Site

pytestmark = pytest.mark.slow

SETTINGS = {"rounds": 2, "table_size": 2}


def play_round(site: Site, tournament_id: str, organiser: str, tokens: list[str]) -> list[Table]:
    seated = site.tournaments.seat_next_round(tournament_id, organiser)
    tables = [Table(seated["round"], t["table"], t["game_id"], t["players"]) for t in seated["tables"]]
    for table in tables:
        play_table(site.tournaments, tournament_id, table, tokens, RandomBot(f"web:{table.game_id}".encode()))
    return tables


def drawn_standings(page: Any) -> list[dict[str, Any]]:
    """Each standings row as the page drew it: the value behind every cell."""
    rows: list[dict[str, str]] = page.eval_on_selector_all(
        "#standings tbody tr[data-player]",
        "rows => rows.map(r => Object.fromEntries([...r.querySelectorAll('[data-field]')]"
        ".map(c => [c.dataset.field, c.dataset.value])))",
    )
    return [{field: json.loads(value) for field, value in row.items()} for row in rows]


def expected_standings(site: Site, tournament_id: str) -> list[dict[str, Any]]:
    tie_breaks = site.api.get(f"/tournaments/{tournament_id}").json()["settings"]["tie_breaks"]
    rows = site.api.get(f"/tournaments/{tournament_id}/standings").json()["standings"]
    fields = ("place", "name", "points", "games", "byes", *tie_breaks)
    return [{**{f: row[f] for f in fields}, "rating": row["rating"]["ordinal"]} for row in rows]


def drawn_tables(page: Any) -> dict[str, list[str]]:
    """Each table's game id and its players' names in seat order, as drawn."""
    found: dict[str, list[str]] = page.eval_on_selector_all(
        "#rounds tr[data-game-id]",
        "rows => Object.fromEntries(rows.map(r => [r.dataset.gameId,"
        " [...r.querySelectorAll('.seats li .name')].map(name => name.textContent)]))",
    )
    return found


def test_the_tournament_page_shows_the_standings_follows_the_rounds_and_links_each_tables_game(
    page: Any, site: Site
) -> None:
    created = site.tournaments.create("peloponnes", SETTINGS, b"web-page", salted=False)
    tid, organiser = created.tournament_id, created.organiser_token
    names = ["Ada", "Bo", "Cy", "Di"]
    tokens = [site.tournaments.register(tid, organiser, name).token for name in names]
    first = play_round(site, tid, organiser, tokens)

    page.goto(f"{site.url}/tournament?id={tid}")
    version = site.api.get(f"/tournaments/{tid}").json()["version"]
    page.wait_for_selector(f'body[data-version="{version}"]')
    assert page.get_attribute("body", "data-status") == "between-rounds"
    assert drawn_standings(page) == expected_standings(site, tid)
    assert page.locator("#standings thead th").all_inner_texts()[:3] == ["Place", "Player", "Points"]
    commitment = site.api.get(f"/tournaments/{tid}").json()["master_seed_commitment"]
    assert page.locator("#commitment").inner_text() == commitment
    assert page.locator("#master-seed").count() == 0  # revealed only at the end

    # The page follows the tournament: the second round is seated and played, then the end.
    second = play_round(site, tid, organiser, tokens)
    ended = site.tournaments.end(tid, organiser)
    final = site.api.get(f"/tournaments/{tid}").json()
    page.wait_for_selector(f'body[data-version="{final["version"]}"][data-ended="true"]')
    assert drawn_standings(page) == expected_standings(site, tid)
    assert [row["name"] for row in drawn_standings(page)] == [row["name"] for row in ended["standings"]]
    assert page.locator("#fingerprint").inner_text() == final["fingerprint"]
    assert page.locator("#master-seed").inner_text() == ended["master_seed"]
    assert page.locator("#live").inner_text() == "final"

    # Every table: its players in seat order, and a link to its own game.
    tables = drawn_tables(page)
    assert tables == {t.game_id: [names[p] for p in t.players] for t in first + second}
    for table in first + second:
        link = page.locator(f'#rounds a[data-game-link="{table.game_id}"]')
        assert link.get_attribute("href") == f"/viewer?game={table.game_id}"
    game = second[-1].game_id
    page.click(f'#rounds a[data-game-link="{game}"]')
    page.wait_for_url(f"**/viewer?game={game}")
    board = site.api.get(f"/games/{game}").json()
    page.wait_for_selector(f'body[data-version="{board["version"]}"][data-status="ended"]')


def test_the_lobby_opens_a_tournament_by_id_and_an_unknown_id_is_named(page: Any, site: Site) -> None:
    created = site.tournaments.create("peloponnes", SETTINGS, b"web-lobby", salted=False)
    page.goto(f"{site.url}/lobby")
    page.get_by_label("Tournament id").fill(created.tournament_id)
    page.get_by_label("Tournament id").press("Enter")
    page.wait_for_selector('body[data-status="registering"]')
    assert page.locator("#standings tbody").inner_text() == "No players yet."

    page.goto(f"{site.url}/tournament?id=not-a-tournament")
    page.wait_for_selector("#error:not([hidden])")
    assert "not-a-tournament" in page.locator("#error").inner_text()
    assert page.locator("#pick").is_visible()


def test_the_tournament_page_fits_a_phone(browser: Any, site: Site) -> None:
    created = site.tournaments.create("peloponnes", SETTINGS, b"web-phone", salted=False)
    tid, organiser = created.tournament_id, created.organiser_token
    tokens = [site.tournaments.register(tid, organiser, f"player {i}").token for i in range(4)]
    play_round(site, tid, organiser, tokens)
    version = site.api.get(f"/tournaments/{tid}").json()["version"]
    context = browser.new_context(**BYPASS_CSP, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    try:
        phone = context.new_page()
        phone.goto(f"{site.url}/tournament?id={tid}")
        phone.wait_for_selector(f'body[data-version="{version}"]')
        # wide tables scroll inside their section; the page itself does not scroll sideways
        assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
        assert phone.locator("#standings tbody tr[data-player]").count() == 4
    finally:
        context.close()
