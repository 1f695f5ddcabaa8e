"""One name rule for joins and tournament registrations (``domain.kernel.names``): names are
NFKC-normalised, hold no invisible or direction-changing character, and look-alike names collide."""

from __future__ import annotations

import pytest

from domain.catalog import GAMES
from domain.kernel.errors import RuleViolation
from domain.kernel.match import Match
from domain.kernel.names import BAD_NAME, NAME_TAKEN, check_name_free, name_key, player_name
from domain.tournament import rules
from domain.tournament.log import TournamentState

INVISIBLE = [
    "\u200b",  # zero-width space
    "\u200c",  # zero-width non-joiner
    "\u200d",  # zero-width joiner
    "\ufeff",  # zero-width no-break space (byte order mark)
    "\u2060",  # word joiner
    "\u00ad",  # soft hyphen
    *(chr(c) for c in range(0x202A, 0x202F)),  # embeddings and overrides
    *(chr(c) for c in range(0x2066, 0x206A)),  # isolates
    "\u200e",  # left-to-right mark
    "\u200f",  # right-to-left mark
    "\u061c",  # Arabic letter mark
    "\x00",
    "\x07",
    "\x1b",
    "\x7f",
    "\x85",  # next line (a control)
    "\n",
    "\t",
    "\u2028",  # line separator
    "\u2029",  # paragraph separator
    "\ud800",  # a lone surrogate (JSON can carry one)
    "\ue000",  # private use
]

LOOK_ALIKES = [
    ("Ann", "\u0410nn"),  # Cyrillic capital A
    ("Ann", "\u0391nn"),  # Greek capital alpha
    ("Ann", "ann"),  # case
    ("Ann", "\uff21\uff4e\uff4e"),  # full width
    ("paypal", "paypaI"),  # capital I for l
    ("Ann Lee", "Ann  Lee"),  # a second space
    ("Olga", "\u041el\u0261a"),  # Cyrillic O and Latin script g
]


@pytest.mark.parametrize("char", INVISIBLE, ids=[f"U+{ord(c):04X}" for c in INVISIBLE])
@pytest.mark.parametrize("where", ["Ann{}", "A{}nn", "{}Ann"])
def test_a_name_with_an_invisible_or_direction_changing_character_is_refused(char: str, where: str) -> None:
    with pytest.raises(RuleViolation) as refused:
        player_name(where.format(char), 40)
    assert refused.value.code == BAD_NAME
    assert f"U+{ord(char):04X}" in refused.value.message


def test_a_name_is_nfkc_normalised_and_stripped() -> None:
    assert player_name("  \uff21nn  ", 40) == "Ann"
    assert player_name("\ufb01ona", 40) == "fiona"  # the ligature fi
    assert player_name("Zoe\u0308", 40) == "Zo\u00eb"  # a combining diaeresis composes
    assert player_name("Ann\u00a0Lee", 40) == "Ann Lee"  # a no-break space is a space
    assert player_name("\u0410nn", 40) == "\u0410nn"  # a Cyrillic name is a name (it only collides)


@pytest.mark.parametrize("raw", ["", "   ", "x" * 41, 3, None, ["Ann"], "\u0301"])
def test_a_name_must_be_1_to_the_limit_of_visible_characters(raw: object) -> None:
    with pytest.raises(RuleViolation) as refused:
        player_name(raw, 40)
    assert refused.value.code == BAD_NAME


@pytest.mark.parametrize(("first", "second"), LOOK_ALIKES)
def test_look_alike_names_have_one_key_and_collide(first: str, second: str) -> None:
    assert name_key(player_name(first, 40)) == name_key(player_name(second, 40))
    with pytest.raises(RuleViolation) as refused:
        check_name_free(player_name(second, 40), [first])
    assert refused.value.code == NAME_TAKEN


@pytest.mark.parametrize(("first", "second"), [("Ann", "Anna"), ("Jurgen", "J\u00fcrgen"), ("Ann", "Ann 2")])
def test_different_names_do_not_collide(first: str, second: str) -> None:
    check_name_free(second, [first])


def open_match() -> Match:
    return Match.create(GAMES.get("sealed_guess"), 3, {}, b"names", open_seats=True)[0]


@pytest.mark.parametrize(("first", "second"), LOOK_ALIKES)
def test_a_join_under_a_look_alike_name_is_refused_and_changes_nothing(first: str, second: str) -> None:
    match = open_match()
    match.take_seat(first)
    version = match.version
    with pytest.raises(RuleViolation) as refused:
        match.take_seat(second)
    assert refused.value.code == NAME_TAKEN
    assert match.version == version and match.names == {0: first}


def test_a_join_records_the_normalised_name_and_refuses_invisible_characters() -> None:
    match = open_match()
    seat, records = match.take_seat(" \uff22o ")
    assert match.names[seat] == "Bo" and records[0].data["name"] == "Bo"
    for name in ("Ann\u200b", "\u202eAnn", "Ann\u2028Lee"):
        with pytest.raises(RuleViolation) as refused:
            match.take_seat(name)
        assert refused.value.code == BAD_NAME
    assert match.names == {0: "Bo"}


@pytest.mark.parametrize(("first", "second"), LOOK_ALIKES)
def test_a_registration_under_a_look_alike_name_is_refused(first: str, second: str) -> None:
    state = TournamentState()
    state.names.append(rules.register(state, first, 0)["name"])
    with pytest.raises(RuleViolation) as refused:
        rules.register(state, second, 0)
    assert refused.value.code == NAME_TAKEN
    with pytest.raises(RuleViolation) as invisible:
        rules.register(state, "Bo\u200d", 0)
    assert invisible.value.code == BAD_NAME
