"""The one rule for the names people give themselves: a seat taken by name and a tournament
registration both go through ``player_name`` and ``check_name_free``.

A name is shown to everyone in the lobby and the standings, so it must not be able to pass for
another person's: it is NFKC-normalised (full-width ``\uff21nn`` is ``Ann``), it may not hold characters
one cannot see or that reorder what one sees (controls, zero-width and bidirectional marks), and two
names that look alike (``Ann`` and ``\u0410nn`` with a Cyrillic A) are the same name: they are compared by their
confusable skeleton (Unicode TR39), which the ``disarm`` library computes from Unicode's own data.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from typing import Any

from domain.kernel.errors import RuleViolation

BAD_NAME = "BAD_NAME"
NAME_TAKEN = "NAME_TAKEN"

# Unicode general categories a name may not hold: controls (Cc), format characters (Cf: the
# zero-width space, joiner and non-joiner, U+FEFF, and every bidirectional mark, embedding,
# override and isolate), line and paragraph separators (Zl, Zp), surrogates (Cs: not text),
# private use (Co: no agreed glyph) and unassigned code points (Cn).
REFUSED_CATEGORIES = {
    "Cc": "a control character",
    "Cf": "an invisible or direction-changing character",
    "Zl": "a line separator",
    "Zp": "a paragraph separator",
    "Cs": "a lone surrogate",
    "Co": "a private-use character",
    "Cn": "an unassigned code point",
}


def player_name(raw: Any, max_length: int) -> str:
    """The name as recorded: NFKC-normalised and stripped, 1 to ``max_length`` characters, every
    one of them visible. Raises ``RuleViolation(BAD_NAME)`` otherwise."""
    if not isinstance(raw, str):
        raise RuleViolation(BAD_NAME, f"a name is a string of 1 to {max_length} characters")
    normalised = unicodedata.normalize("NFKC", raw)
    for index, char in enumerate(normalised):
        kind = REFUSED_CATEGORIES.get(unicodedata.category(char))
        if kind is not None:
            raise RuleViolation(BAD_NAME, f"a name may not hold {kind} (U+{ord(char):04X} at position {index + 1})")
    name = normalised.strip()
    if not name or len(name) > max_length:
        raise RuleViolation(BAD_NAME, f"a name is 1 to {max_length} characters")
    if not any(unicodedata.category(char)[0] in "LNPS" for char in name):  # marks and spaces alone
        raise RuleViolation(BAD_NAME, "a name needs a visible letter, digit or sign")
    return name


def name_key(name: str) -> str:
    """What two names are compared by: their confusable skeleton, case-folded and with runs of
    spaces as one, so that names which look alike have one key."""
    # Imported here: its tables cost every process tens of milliseconds at start, and only a
    # join or a registration compares names.
    from disarm import skeleton_key

    return skeleton_key(name)


def check_name_free(name: str, taken: Iterable[str]) -> None:
    """Refuse ``name`` (``NAME_TAKEN``) when it looks like one of the ``taken`` names."""
    key = name_key(name)
    for other in taken:
        if name_key(other) == key:
            same = "" if other == name else f" (it looks like {other!r})"
            raise RuleViolation(NAME_TAKEN, f"the name {name!r} is taken already{same}; choose another name")
