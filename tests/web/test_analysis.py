"""The viewer's analysis panel in a real browser, with the pages' Content-Security-Policy kept: the
search bot's lines with win chances at the version shown of an ended game, and a "Hint" button for
a person playing bots in a casual game (none for a game against people)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from infra.games.service import CreatedGame
from tests.web.conftest import Site
from tests.web.test_browser import at_version, viewer_url

pytestmark = pytest.mark.slow

PERCENT = re.compile(r"\d+(\.\d)? %")


def a_command_version(site: Site, created: CreatedGame) -> int:
    records = site.api.get(f"/games/{created.game_id}/events").json()
    versions = [r["position"] - 1 for r in records if r["type"] == "CommandAccepted"]
    return versions[len(versions) // 3]


def test_an_ended_game_shows_the_search_bots_lines_at_the_version_shown(
    policed_page: Any, site: Site, ended: dict[str, CreatedGame]
) -> None:
    page = policed_page
    created = ended["peloponnes"]
    version = a_command_version(site, created)
    page.goto(viewer_url(site, created, version))
    at_version(page, version)
    page.wait_for_selector(f'#analysis[data-state="shown"][data-version="{version}"]')
    lines = page.locator("#analysis .analysis-lines li")
    assert lines.count() >= 1
    texts = lines.all_inner_texts()
    assert all(PERCENT.search(text) for text in texts), texts
    assert not any("undefined" in text or "NaN" in text for text in texts), texts
    # the same lines the API gives (the page's budget, its default seed)
    analysis = site.api.get(f"/games/{created.game_id}/analysis", params={"v": version, "playouts": 300}).json()
    chances = [
        float(c)
        for c in page.locator("#analysis .analysis-lines li").evaluate_all(
            "items => items.map(li => li.dataset.winChance)"
        )
    ]
    assert chances == [line["win_chance"] for line in analysis["lines"][: len(chances)]]
    # the end: nobody moves, nothing to analyse
    page.keyboard.press("End")
    last = site.board(created)["version"]
    at_version(page, last)
    page.wait_for_selector(f'#analysis[data-version="{last}"]')
    assert "Nobody moves" in page.locator("#analysis").inner_text()


def test_a_person_playing_bots_gets_a_hint_and_a_game_against_people_none(policed_page: Any, site: Site) -> None:
    page = policed_page
    answer = site.api.post(
        "/games", json={"game": "peloponnes", "players": 2, "seed": "web-hint", "bots": {"1": "greedy"}}
    )
    assert answer.status_code == 201, answer.text
    created = answer.json()
    game_id, token = created["game_id"], created["seats"][0]["token"]
    page.goto(f"{site.url}/viewer?game={game_id}#token={token}")
    page.wait_for_selector('#board[data-perspective="seat:0"]')
    page.wait_for_selector('#analysis[data-state="hint"]')
    page.click("#hint")
    page.wait_for_selector('#analysis[data-state="shown"]')
    texts = page.locator("#analysis .analysis-lines li").all_inner_texts()
    assert texts and all(PERCENT.search(text) for text in texts), texts

    people = site.api.post("/games", json={"game": "peloponnes", "players": 2, "seed": "web-people"}).json()
    page.goto("about:blank")
    page.goto(f"{site.url}/viewer?game={people['game_id']}#token={people['seats'][0]['token']}")
    page.wait_for_selector('#board[data-perspective="seat:0"]')
    page.wait_for_selector('#analysis[data-state="none"]', state="attached")
    assert page.locator("#hint").count() == 0
