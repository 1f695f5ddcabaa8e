"""The lobby's tournament list in a real browser (under the app's Content-Security-Policy): names,
status, players and rounds as the API lists them, the filters, the pages, and each row a link
to its tournament's page."""

from __future__ import annotations

import secrets
from typing import Any

import pytest

from tests.web.conftest import Site

pytestmark = pytest.mark.slow


def drawn(page: Any) -> list[dict[str, str]]:
    found: list[dict[str, str]] = page.eval_on_selector_all(
        "#tournaments tbody tr[data-tournament-id]",
        "rows => rows.map(r => ({id: r.dataset.tournamentId, status: r.dataset.status,"
        " name: r.querySelector('a').textContent, href: r.querySelector('a').getAttribute('href'),"
        " players: r.children[3].textContent, rounds: r.children[4].textContent}))",
    )
    return found


def loaded_after(page: Any, before: str | None) -> None:
    page.wait_for_function(
        "before => document.body.dataset.tournamentsLoaded && document.body.dataset.tournamentsLoaded !== before",
        arg=before,
    )


def filter_by(page: Any, name: str = "", status: str = "") -> None:
    before = page.get_attribute("body", "data-tournaments-loaded")
    page.fill("#tournament-name", name)
    page.select_option("#tournament-status", status)
    page.click("#tournament-filters button[type=submit]")
    loaded_after(page, before)


def test_the_lobby_lists_filters_and_pages_tournaments(policed_page: Any, site: Site) -> None:
    page = policed_page
    mark = secrets.token_hex(4)  # the site is shared by the session's tests: this test's tournaments only
    quiet = site.tournaments.create("peloponnes", {"table_size": 2}, name=f"{mark} <img src=x> quiet")
    busy = site.tournaments.create("peloponnes", {"table_size": 2, "rounds": 3}, name=f"{mark} busy")
    for player in ("Ann", "Bob", "Cy"):
        site.tournaments.register(busy.tournament_id, busy.organiser_token, player)
    site.tournaments.seat_next_round(busy.tournament_id, busy.organiser_token)

    page.goto(f"{site.url}/lobby")
    page.wait_for_selector("body[data-ready=true]")
    filter_by(page, name=mark)
    rows = drawn(page)
    assert [r["id"] for r in rows] == [busy.tournament_id, quiet.tournament_id]  # newest first
    assert rows[0]["status"] == "running" and rows[0]["players"] == "3" and rows[0]["rounds"] == "1 of 3"
    assert rows[1]["status"] == "registering" and rows[1]["name"] == f"{mark} <img src=x> quiet"  # text, not markup
    assert page.locator("#tournaments img").count() == 0

    filter_by(page, name=mark, status="running")
    assert [r["id"] for r in drawn(page)] == [busy.tournament_id]

    # Pages of 20: a 21st tournament of this name is on page 2.
    many = f"{mark}-many"
    made = [site.tournaments.create("alexandros", None, name=f"{many} {i}").tournament_id for i in range(21)]
    filter_by(page, name=many)
    first = [r["id"] for r in drawn(page)]
    assert first == made[::-1][:20] and page.is_enabled("#tournaments-next")
    before = page.get_attribute("body", "data-tournaments-loaded")
    page.click("#tournaments-next")
    loaded_after(page, before)
    assert [r["id"] for r in drawn(page)] == [made[0]] and not page.is_enabled("#tournaments-next")

    # Each row opens its tournament's page.
    filter_by(page, name=mark, status="running")
    page.click(f'#tournaments tr[data-tournament-id="{busy.tournament_id}"] a')
    page.wait_for_url(f"**/tournament?id={busy.tournament_id}")
