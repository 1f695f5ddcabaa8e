"""The pages under their Content-Security-Policy in a real browser: nothing they load or do is
refused (no violation reported, no console complaint), the board is drawn, and the inline styles the
scripts set (seat colours, label sizes) apply."""

from __future__ import annotations

from typing import Any

import pytest

from infra.games.service import CreatedGame
from tests.web.conftest import Site

pytestmark = pytest.mark.slow

RECORD_VIOLATIONS = """
window.__violations = [];
document.addEventListener('securitypolicyviolation',
  (e) => window.__violations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
"""


def watched(page: Any) -> list[str]:
    complaints: list[str] = []
    page.add_init_script(RECORD_VIOLATIONS)
    page.on("console", lambda message: complaints.append(message.text) if "Content Security" in message.text else None)
    return complaints


def violations(page: Any, complaints: list[str]) -> list[str]:
    found: list[str] = page.evaluate("window.__violations")
    return found + complaints


def test_the_viewer_draws_a_game_with_no_policy_violation(
    policed_page: Any, site: Site, ended: dict[str, CreatedGame]
) -> None:
    page = policed_page
    complaints = watched(page)
    created = ended["catan_alexander"]
    final = site.board(created)
    response = page.goto(f"{site.url}/viewer?game={created.game_id}")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    page.wait_for_selector(f'body[data-version="{final["version"]}"]')
    assert page.locator("#board [data-piece=hex]").count() == len(final["state"]["hexes"])
    # A style set by the scripts applies (through the CSSOM: the policy refuses style attributes).
    size = page.eval_on_selector("#board text.svg-small", "node => node.style.fontSize")
    assert size.endswith("px"), size
    chip = page.locator(".chip").first
    assert chip.evaluate("node => getComputedStyle(node).getPropertyValue('--seat').trim()").startswith("#")
    assert violations(page, complaints) == []


def test_the_lobby_and_the_tournament_page_work_with_no_policy_violation(
    policed_page: Any, site: Site, ended: dict[str, CreatedGame]
) -> None:
    page = policed_page
    complaints = watched(page)
    page.goto(f"{site.url}/lobby")
    page.wait_for_selector(f'tr[data-game-id="{ended["peloponnes"].game_id}"]', state="attached")
    created = site.tournaments.create("peloponnes", {"table_size": 2, "rounds": 1}, b"csp", salted=False)
    page.goto(f"{site.url}/tournament?id={created.tournament_id}")
    version = site.api.get(f"/tournaments/{created.tournament_id}").json()["version"]
    page.wait_for_selector(f'body[data-version="{version}"]')
    assert violations(page, complaints) == []
