"""Every rule number the code and docs cite has its heading in that game's rules reference.

A citation is ``R<n>`` with an optional letter (``R14``, ``R5a``, ``Ruling R27``, ``R55(b)`` for
item (b) of R55); a range ``R25-R33`` (or with an en dash) cites every number from the first to the
last, and several rules are written out in full (``R21c/R21d``, not ``R21c/d``). The rules
reference of a game is ``docs/<game>/rules.md``: one heading ``### R<n> — title`` per rule.

Which game a citation belongs to, the first that applies:

1. a game named right before it: ``Peloponnes R14``, ``Empire Builder's R24``,
   ``Catan (Ruling R32)``;
2. the file's place: a folder named after a game (``domain/<game>/``, ``tests/domain/<game>/``,
   ``docs/<game>/``) or a file whose name starts with a game's id
   (``api/static/js/games/<game>.js``, ``tests/benchmarks/<game>_moves_baseline.py``);
3. the game named last before it in the same paragraph (up to a blank line), so that a README or
   CHANGELOG bullet that opens "Catan's cost per step ..." may cite R53 further on.

A citation none of these gives a game fails the test: write the game's name before it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from domain.catalog import GAME_PACKAGES
from tests.support.repository import ROOT, text_files

THIS_FILE = Path(__file__).resolve()  # its examples are not citations

# How prose names each game (matched longest first, so that "catan_alexander" is not read as "catan").
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
DASH = "[-\N{EN DASH}]"  # R25-R33, or with an en dash as prose writes it
CITATION = re.compile(r"(?<![\w-])R(\d+)([a-z]?)(?:" + DASH + r"R?(\d+)([a-z]?))?(?!\w)")
# A shorthand the citation pattern would read wrong: "R21c/d", "R5a-b", "R19/20".
MALFORMED = re.compile(r"(?<![\w-])R\d+[a-z]?(?:(?:/|" + DASH + r")[a-z]\b|/\d)")
# A game named right before a citation: "Peloponnes R14", "Empire Builder's R24", "Catan (Ruling R32)".
NAMED_BEFORE = re.compile(GAME_NAME.pattern + r"(?:'s)?\s*\(?\s*(?:Ruling\s+|rule\s+)?$", re.IGNORECASE)
HEADING = re.compile(r"^###\s+R(\d+[a-z]?)\s+—\s+\S")


@dataclass(frozen=True)
class Citation:
    """Rule ``rule`` cited at ``path:line`` for ``game`` (None: no game could be found)."""

    rule: str
    game: str | None
    path: Path
    line: int
    text: str

    def where(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}: {self.text.strip()[:120]}"


def game_of_place(path: Path) -> str | None:
    """The game a file belongs to by its place: a folder named after the game, or a file whose name starts with it."""
    relative = path.relative_to(ROOT)
    for part in relative.parts[:-1]:
        if part in GAME_PACKAGES:
            return part
    return next((game for game in GAME_PACKAGES if relative.name.startswith(game)), None)


def cited_rules(first: str, first_letter: str, last: str | None, last_letter: str) -> list[str]:
    """The rule numbers one citation names: one rule, or every number of a rising range (none for a falling one)."""
    if last is None:
        return [first + first_letter]
    low, high = int(first), int(last)
    if high <= low:
        return []
    return [f"{low}{first_letter}", *map(str, range(low + 1, high)), f"{high}{last_letter}"]


def citations_in(path: Path) -> Iterator[Citation]:
    """Every rule number cited in one file, each with the game it belongs to."""
    place = game_of_place(path)
    paragraph_game: str | None = None
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            paragraph_game = None
        read_up_to = 0
        for match in CITATION.finditer(line):
            for named in GAME_NAME.finditer(line, read_up_to, match.start()):
                paragraph_game = NAME_TO_GAME[named.group(1).lower()]
            read_up_to = match.start()
            right_before = NAMED_BEFORE.search(line, 0, match.start())
            game = NAME_TO_GAME[right_before.group(1).lower()] if right_before else place or paragraph_game
            for rule in cited_rules(*match.groups()) or [match.group(0)]:
                yield Citation(rule, game, path, number, line)
        for named in GAME_NAME.finditer(line, read_up_to):
            paragraph_game = NAME_TO_GAME[named.group(1).lower()]


def malformed_in(path: Path) -> Iterator[str]:
    """The places of one file where a citation is written in a shorthand the collector cannot read."""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        for match in MALFORMED.finditer(line):
            yield f"{path.relative_to(ROOT)}:{number}: {match.group(0)!r} in {line.strip()[:100]}"


def headings(game: str) -> list[tuple[str, int]]:
    """The rule headings of a game's rules reference, as (rule number, line)."""
    text = (ROOT / "docs" / game / "rules.md").read_text(encoding="utf-8")
    lines = enumerate(text.splitlines(), start=1)
    return [(match.group(1), number) for number, line in lines if (match := HEADING.match(line))]


FILES = [path for path in text_files() if path != THIS_FILE]
CITATIONS = [citation for path in FILES for citation in citations_in(path)]


def test_the_collector_reads_every_games_code() -> None:
    """Every game's package cites many of its rules: a pattern that broke would find none and pass everything."""
    for game in GAME_PACKAGES:
        package = ROOT / "domain" / game
        in_package = {c.rule for c in CITATIONS if c.game == game and c.path.is_relative_to(package)}
        assert len(in_package) > 20, f"only {sorted(in_package)} found cited in domain/{game}"


def test_every_citation_names_its_game() -> None:
    lost = [c.where() for c in CITATIONS if c.game is None]
    assert not lost, "rule numbers of no known game (write the game's name before them):\n" + "\n".join(lost)


def test_every_citation_is_written_in_full() -> None:
    malformed = [place for path in FILES for place in malformed_in(path)]
    malformed += [f"{c.where()} (a range must rise)" for c in CITATIONS if not c.rule[0].isdigit()]
    assert not malformed, "write every rule number in full (R21c/R21d, R5a-R5b):\n" + "\n".join(malformed)


@pytest.mark.parametrize("game", GAME_PACKAGES)
def test_every_cited_rule_has_its_heading(game: str) -> None:
    known = {rule for rule, _ in headings(game)}
    cited = [c for c in CITATIONS if c.game == game and c.rule[0].isdigit()]  # a falling range fails above
    missing = [f"R{c.rule} at {c.where()}" for c in cited if c.rule not in known]
    assert not missing, f"cited rules without a heading in docs/{game}/rules.md:\n" + "\n".join(missing)


@pytest.mark.parametrize("game", GAME_PACKAGES)
def test_no_rule_heading_is_duplicated(game: str) -> None:
    first_line: dict[str, int] = {}
    repeated = []
    for rule, line in headings(game):
        if rule in first_line:
            repeated.append(f"R{rule} at lines {first_line[rule]} and {line}")
        first_line.setdefault(rule, line)
    assert not repeated, f"docs/{game}/rules.md has rule headings twice: " + "; ".join(repeated)
