"""The typed check of options (``domain.kernel.options``): strict JSON types, and schemas that use
only the keywords the check enforces."""

from __future__ import annotations

from typing import Any

import pytest

from domain.kernel.errors import RuleViolation
from domain.kernel.options import OptionSpec, check_option_types

ROUNDS = OptionSpec("rounds", "rounds", {"type": "integer", "minimum": 1, "maximum": 9, "default": 3})
FLAG = OptionSpec("short", "short", {"type": "boolean", "default": False})


@pytest.mark.parametrize(
    "options",
    [
        {"rounds": 3.0},
        {"rounds": -0.0},
        {"rounds": True},
        {"rounds": "3"},
        {"rounds": 0},
        {"rounds": 10},
        {"rounds": 2**200},
        {"rounds": float("nan")},
        {"short": 0},
        {"short": "false"},
        {"colour": "red"},
        [("rounds", 3)],
        "rounds=3",
    ],
)
def test_a_value_off_its_schema_is_refused(options: Any) -> None:
    with pytest.raises(RuleViolation) as refused:
        check_option_types((ROUNDS, FLAG), options)
    assert refused.value.code == "BAD_OPTIONS"
    assert len(refused.value.message) < 200


def test_values_of_the_schema_pass_unchanged() -> None:
    assert check_option_types((ROUNDS, FLAG), {"rounds": 9, "short": True}) == {"rounds": 9, "short": True}
    assert check_option_types((ROUNDS, FLAG), {}) == {}


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "integer", "default": 1, "multipleOf": 2},  # a keyword the check does not enforce
        {"type": "array", "default": []},
        {"type": "integer"},  # no default
        {"type": "integer", "enum": [1, 2], "default": 3},  # a default off its own schema
    ],
)
def test_a_schema_the_check_cannot_enforce_is_a_bug(schema: dict[str, Any]) -> None:
    with pytest.raises((ValueError, RuleViolation)):
        OptionSpec("x", "x", schema)
