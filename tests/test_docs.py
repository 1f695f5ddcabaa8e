"""The docs in the repository: the generated per-game references are up to date, every game has
its rules for players, and nothing in the repository points outside it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from api.contract.reference_docs import pages
from domain.catalog import GAME_PACKAGES
from tests.support.repository import ROOT, text_files

DOCUMENTS = [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").rglob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)")
# The working material the product was written from lies beside the repository, not in it.
OUTSIDE = re.compile(r"(?:\.\./|/work/)shared\b|\bshared/(?:games|rulebooks|design)\b")


def test_the_generated_references_are_up_to_date() -> None:
    for path, text in pages().items():
        assert path.exists(), f"{path.relative_to(ROOT)} is missing: run python -m api.contract.reference_docs"
        assert path.read_text() == text, (
            f"{path.relative_to(ROOT)} is out of date: run python -m api.contract.reference_docs"
        )


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


def test_no_file_points_to_the_material_beside_the_repository() -> None:
    """Code, data and docs stand alone: no path to the rules files and design notes the product was written from."""
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()[:100]}"
        for path in text_files()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if OUTSIDE.search(line)
    ]
    assert not found, "files point outside the repository:\n" + "\n".join(found)
