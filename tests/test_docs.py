"""The docs in the repository: the generated per-game references are up to date, every game has
its rules for players, and nothing in the README or docs points outside the repository."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from api.reference_docs import pages
from domain.catalog import GAME_PACKAGES

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").rglob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)")


def test_the_generated_references_are_up_to_date() -> None:
    for path, text in pages().items():
        assert path.exists(), f"{path.relative_to(ROOT)} is missing: run python -m api.reference_docs"
        assert path.read_text() == text, f"{path.relative_to(ROOT)} is out of date: run python -m api.reference_docs"


@pytest.mark.parametrize("game", GAME_PACKAGES)
def test_every_game_has_rules_for_players(game: str) -> None:
    rules = ROOT / "docs" / game / "rules.md"
    assert rules.exists()
    assert len(rules.read_text().split()) > 300  # a real text, not a stub


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_nothing_points_outside_the_repository(document: Path) -> None:
    text = document.read_text()
    assert "shared/" not in text, f"{document.name} points to shared/ (users do not have it)"
    for target in LINK.findall(text):
        assert not re.match(r"[a-z]+:", target), f"{document.name} links outside the repository: {target}"
        local = (document.parent / target.split("#")[0]).resolve()
        assert local.is_relative_to(ROOT) and local.exists(), f"{document.name}: broken link {target}"
