"""A board stepped to a version is the board opened at it: the boards keep their nodes from one
timeline step to the next (core/dom.js's reused()), each keyed by everything it shows, and a key
that missed something (an owner, a name, a label, a target) would leave a past version's node on
the board. Each game's ended game is stepped back and jumped about, and at several versions its
board and details are compared with a fresh page's drawing of the same version."""

from __future__ import annotations

from typing import Any

import pytest

from infra.games.service import CreatedGame
from tests.web.conftest import GAMES, Site
from tests.web.test_browser import at_version, viewer_url

pytestmark = pytest.mark.slow

# The board and the details as drawn, less what depends on the step that led there, not on the
# version: the pieces a step forward fades in.
DRAWN = """() => {
  const board = document.getElementById('board').cloneNode(true);
  for (const node of board.querySelectorAll('.appeared')) node.classList.remove('appeared');
  for (const node of board.querySelectorAll('[class=""]')) node.removeAttribute('class');
  board.removeAttribute('data-appeared');
  return [board.outerHTML, document.getElementById('details').innerHTML];
}"""


@pytest.mark.parametrize("game", list(GAMES))
def test_a_board_stepped_to_a_version_is_the_board_opened_there(
    page: Any, site: Site, ended: dict[str, CreatedGame], game: str
) -> None:
    created = ended[game]
    latest = site.board(created)["version"]
    page.goto(viewer_url(site, created))
    at_version(page, latest)
    # back one record at a time, then across the game in jumps back to its start and forward again:
    # a node drawn for one version is met again at others
    stride = max(1, latest // 12)
    walk = (
        [latest - k for k in range(1, 12)]
        + list(range(latest - 12, 0, -stride))
        + list(range(stride // 2 + 1, latest, stride))
    )
    drawn: dict[int, Any] = {}
    for version in walk:
        if version < 1:
            continue
        page.evaluate("v => window.alexandria.showVersion(v)", version)
        at_version(page, version)
        drawn[version] = page.evaluate(DRAWN)
    compared = {latest - 1, latest - 10} | set(walk[-len(walk) // 4 :: 3])  # some of the way forward again
    for version in sorted(compared & drawn.keys()):
        page.goto(viewer_url(site, created, version))
        at_version(page, version)
        assert page.evaluate(DRAWN) == drawn[version], f"{game} at version {version}"
