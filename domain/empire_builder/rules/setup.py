"""Rules file 3, setup, and the options of 7."""

from __future__ import annotations

from typing import Any

from domain.empire_builder.data import FULL_CAMPAIGNS, SHORT_CAMPAIGNS
from domain.empire_builder.state import State
from domain.kernel import RuleViolation
from domain.kernel.errors import BAD_OPTIONS

OPTION_DEFAULTS: dict[str, Any] = {"short_game": False, "region_scoring_variant": False, "oldest_seat": 0}


def normalize_options(players: int, options: dict[str, Any]) -> dict[str, Any]:
    unknown = sorted(set(options) - set(OPTION_DEFAULTS))
    if unknown:
        raise RuleViolation(BAD_OPTIONS, f"unknown option(s) {', '.join(unknown)}; known: {', '.join(OPTION_DEFAULTS)}")
    result = {**OPTION_DEFAULTS, **options}
    for flag in ("short_game", "region_scoring_variant"):
        if not isinstance(result[flag], bool):
            raise RuleViolation(BAD_OPTIONS, f"{flag} must be true or false")
    oldest = result["oldest_seat"]
    if not isinstance(oldest, int) or isinstance(oldest, bool) or not 0 <= oldest < players:
        raise RuleViolation(BAD_OPTIONS, f"oldest_seat must be a seat from 0 to {players - 1}")
    return result


def campaigns(state: State) -> tuple[int, int]:
    """First and last campaign played (R3, V2)."""
    return SHORT_CAMPAIGNS if state.short_game else FULL_CAMPAIGNS


def is_first_campaign(state: State) -> bool:
    """Ruling R20: the first campaign actually played."""
    return state.campaign == campaigns(state)[0]
