"""Rules file 5.1, general, and the fields every command shares (10.2 INVALID_FIELD)."""

from __future__ import annotations

from typing import Any

from domain.kernel import RuleViolation
from domain.kernel.errors import BAD_INPUT


def check_counts(**counts: Any) -> None:
    """§10.2 INVALID_FIELD (the platform's BAD_INPUT): the API parser checks types, but decide is also called
    directly, and a negative count is a type the parser cannot express."""
    for name, value in counts.items():
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise RuleViolation(BAD_INPUT, f"{name} must be a whole number of cubes, 0 or more")
