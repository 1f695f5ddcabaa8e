"""Rules file 5.9, end of round and end of campaign (R55-R56)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.empire_builder.data import LAST_ROUND
from domain.empire_builder.events import CampaignEnded, RoundStarted
from domain.empire_builder.rules.reallocation import reallocation_due
from domain.empire_builder.state import CAMPAIGN_OVER, DONE, REALLOCATION, TURNS, State
from domain.kernel import Event


def end_of_round(state: State) -> Event:
    """R55: the campaign ends after a round in which the goal was entered, or after round 3."""
    if state.goal_reached:
        return CampaignEnded(state.campaign, "goal_reached")
    if state.round >= LAST_ROUND:
        return CampaignEnded(state.campaign, "round_limit")
    return RoundStarted(state.campaign, state.round + 1)


def _round_started(state: State, e: RoundStarted) -> None:
    state.round = e.round
    state.goal_reached = False
    state.attempts = []
    state.sealed = {}
    state.position = -1
    state.step = DONE
    state.phase = REALLOCATION if e.round >= 2 and reallocation_due(state) else TURNS


def _campaign_ended(state: State, e: CampaignEnded) -> None:
    state.phase = CAMPAIGN_OVER
    state.position = -1
    state.step = DONE
    state.attempts = []  # the last round's attempts were evaluated just before (R45): none is open


EVOLVERS: dict[type[Event], Callable[[State, Any], None]] = {
    RoundStarted: _round_started,
    CampaignEnded: _campaign_ended,
}
