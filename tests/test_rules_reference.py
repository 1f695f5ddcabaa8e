"""Every rule number the code and docs cite has its heading in that game's rules reference.

A citation is ``R<n>`` with an optional letter (``R14``, ``R5a``, ``Ruling R27``); a range
``R25-R33`` (or ``R25–R33``) cites every number from the first to the last. The rules reference of
a game is ``docs/<game>/rules.md``: one heading ``### R<n> — title`` per rule.

Which game a citation belongs to, first match wins:

1. a game named right before it: ``Peloponnes R14``, ``Empire Builder's R24``,
   ``Catan (Ruling R32)``;
2. the file's place: a path part that is a game's id (``domain/<game>/``,
   ``tests/domain/<game>/``, ``docs/<game>/``) or a file named after one
   (``api/static/js/games/<game>.js``, ``tests/benchmarks/<game>_moves_baseline.py``);
3. the game named last before it in the same paragraph (lines up to a blank line), so a README
   or CHANGELOG bullet that opens "Catan's cost per step ..." may cite R53 further on.

A citation that none of these places in a game is an error too: write the game's name before it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from domain.catalog import GAME_PACKAGES

ROOT = Path(__file__).resolve().parents[1]
SKIPPED_DIRS = {".git", ".venv", "venv", "node_modules", "__pycache__", "build", "dist"}
TEXT_SUFFIXES = {".py", ".md", ".js", ".json", ".html", ".css", ".toml", ".txt", ".sql", ".cfg", ".ini", ".yml", ".yaml"}

# How prose names each game; the longest spellings first so that "catan_alexander" is not read as "catan".
GAME_NAMES = {
    "alexandros": ("alexandros",),
    "catan_alexander": ("catan_alexander", "catan"),
    "empire_builder": ("empire_builder", "empire builder"),
    "peloponnes": ("peloponnes",),
}
NAME_TO_GAME = {name: game for game, names in GAME_NAMES.items() for name in names}
GAME_NAME = re.compile(
    r"\b(" + "|".join(sorted(map(re.escape, NAME_TO_GAME), key=len, reverse=True)) + r")\b", re.IGNORECASE
)
CITATION = re.compile(r"(?<![\w-])R(\d+)([a-z]?)(?:\s*[-–]\s*R?(\d+)([a-z]?))?(?![\w])")
# A game named right before a citation: "Peloponnes R14", "Empire Builder's R24", "Catan (Ruling R32)".
NAMED_BEFORE = re.compile(GAME_NAME.pattern + r"(?:'s)?\s*\(?\s*(?:Ruling\s+|rule\s+)?$", re.IGNORECASE)
HEADING = re.compile(r"^###\s+R(\d+[a-z]?)\s+—\s+\S")


@dataclass(frozen=True)
class Citation:
    """One rule number cited at a place in the repository, for a game (None: no game found)."""

    rule: str
    game: str | None
    path: Path
    line: int
    text: str

    def where(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}: {self.text.strip()[:120]}"


def source_files() -> Iterator[Path]:
    """The repository's text files, without virtual environments, caches and build output (and this
    file, whose examples are not citations)."""
    for path in sorted(ROOT.rglob("*")):
        parts = path.relative_to(ROOT).parts
        if any(part in SKIPPED_DIRS or part.endswith(".egg-info") for part in parts):
            continue
        if path.is_file() and path.suffix in TEXT_SUFFIXES and path != Path(__file__).resolve():
            yield path


def game_of_place(path: Path) -> str | None:
    """The game a file belongs to by its place: a folder named after the game, or a file whose name starts with it."""
    relative = path.relative_to(ROOT)
    for part in relative.parts[:-1]:
        if part in GAME_PACKAGES:
            return part
    for game in GAME_PACKAGES:
        if relative.name.startswith(game):
            return game
    return None


def cited_rules(first: str, first_letter: str, last: str | None, last_letter: str) -> list[str]:
    """The rule numbers one citation names: a single rule, or every number of a range."""
    if last is None:
        return [first + first_letter]
    low, high = int(first), int(last)
    if high <= low:
        raise ValueError(f"R{first}{first_letter}-R{last}{last_letter} is not a rising range")
    numbers = [f"{low}{first_letter}", *map(str, range(low + 1, high)), f"{high}{last_letter}"]
    return numbers


def citations_in(path: Path) -> Iterator[Citation]:
    """Every rule number cited in one file, each with the game it belongs to."""
    place = game_of_place(path)
    paragraph_game: str | None = None
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            paragraph_game = None
            continue
        position = 0
        for match in CITATION.finditer(line):
            for named in GAME_NAME.finditer(line, position, match.start()):
                paragraph_game = NAME_TO_GAME[named.group(1).lower()]
            position = match.start()
            right_before = NAMED_BEFORE.search(line, 0, match.start())
            if right_before:
                game: str | None = NAME_TO_GAME[right_before.group(1).lower()]
            else:
                game = place or paragraph_game
            for rule in cited_rules(*match.groups()):
                yield Citation(rule, game, path, number, line)
        for named in GAME_NAME.finditer(line, position):
            paragraph_game = NAME_TO_GAME[named.group(1).lower()]


def all_citations() -> list[Citation]:
    return [citation for path in source_files() for citation in citations_in(path)]


def headings(game: str) -> list[tuple[str, int]]:
    """The rule headings of a game's rules reference: (rule number, line)."""
    text = (ROOT / "docs" / game / "rules.md").read_text(encoding="utf-8")
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        if match := HEADING.match(line):
            found.append((match.group(1), number))
    return found


CITATIONS = all_citations()


def test_the_collector_finds_the_citations_of_every_game() -> None:
    """The collector reads the code: every game's package cites its rules (a broken pattern would find none)."""
    for game in GAME_PACKAGES:
        in_package = {c.rule for c in CITATIONS if c.game == game and c.path.is_relative_to(ROOT / "domain" / game)}
        assert len(in_package) > 10, f"only {sorted(in_package)} cited in domain/{game}"


def test_every_citation_names_its_game() -> None:
    lost = [c.where() for c in CITATIONS if c.game is None]
    assert not lost, "rule numbers whose game is unknown (write the game's name before them):\n" + "\n".join(lost)


@pytest.mark.parametrize("game", GAME_PACKAGES)
def test_every_cited_rule_has_its_heading(game: str) -> None:
    known = {rule for rule, _ in headings(game)}
    missing = [f"R{c.rule} at {c.where()}" for c in CITATIONS if c.game == game and c.rule not in known]
    assert not missing, f"cited rules without a heading in docs/{game}/rules.md:\n" + "\n".join(missing)


@pytest.mark.parametrize("game", GAME_PACKAGES)
def test_no_rule_heading_is_duplicated(game: str) -> None:
    seen: dict[str, int] = {}
    repeated = []
    for rule, line in headings(game):
        if rule in seen:
            repeated.append(f"R{rule} at lines {seen[rule]} and {line}")
        seen.setdefault(rule, line)
    assert not repeated, f"docs/{game}/rules.md has rule headings twice: " + "; ".join(repeated)
