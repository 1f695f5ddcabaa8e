"""Rules file 6, end of game and scoring (R55-R58)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.catan_alexander import events as ev
from domain.catan_alexander.data import ADVISOR_VP, BASE_GOAL, PERSEPOLIS_POSITION, RESOURCES, SCENARIO_GOAL
from domain.catan_alexander.rules.general import bundle_of
from domain.catan_alexander.state import FOUNDING_ROAD, FOUNDING_SETTLEMENT, GAME_OVER, State
from domain.kernel import Chance, Event


def public_vp(state: State, seat: int) -> int:
    points = state.settlements[seat] + 2 * state.cities[seat]
    if state.longest_road == seat:
        points += 2
    if state.largest_army == seat:
        points += 2
    if state.scenario:
        for card, holder in state.advisors.items():
            if holder == seat:
                points += ADVISOR_VP[card]
    return points


def vp_cards(state: State, seat: int) -> int:
    return state.dev_hand[seat].count("victory_point") + state.dev_new[seat].count("victory_point")


def total_vp(state: State, seat: int) -> int:
    return public_vp(state, seat) + vp_cards(state, seat)


def reaches(state: State, seat: int, goal: int) -> bool:
    """total_vp(state, seat) >= goal, counting the hidden VP cards only when they could matter."""
    hidden = len(state.dev_hand[seat]) + len(state.dev_new[seat])
    points = public_vp(state, seat)
    if points >= goal:
        return True
    if points + hidden < goal:
        return False
    return points + vp_cards(state, seat) >= goal


def end_reason(state: State) -> str | None:
    """R19/R57 Persepolis first, then R56 (14 VP, anyone, any time); base: 10 VP on one's own turn."""
    if state.scenario:
        if state.position >= PERSEPOLIS_POSITION:
            return "persepolis"
        for s in range(state.players):
            if reaches(state, s, SCENARIO_GOAL):
                return "vp14"
        return None
    seat = state.active
    if (
        state.settlements[seat] + 2 * state.cities[seat] + 4 + len(state.dev_hand[seat]) + len(state.dev_new[seat])
        < BASE_GOAL
    ):
        return None  # the usual case: 10 VP out of reach even with both special cards and only VP cards
    if state.phase in (FOUNDING_SETTLEMENT, FOUNDING_ROAD):
        return None
    return "vp10" if reaches(state, seat, BASE_GOAL) else None


def winners_of(state: State, reason: str) -> list[int]:
    """R58: most VP, then most task tokens, then shared; base: the player who reached 10 on his turn."""
    if reason == "vp10":
        return [state.active]
    totals = [total_vp(state, s) for s in range(state.players)]
    best = max(totals)
    leaders = [s for s in range(state.players) if totals[s] == best]
    most_tokens = max(state.tokens_won[s] for s in leaders)
    return [s for s in leaders if state.tokens_won[s] == most_tokens]


def game_ended(state: State, reason: str, chance: Chance) -> ev.GameEnded:
    scores = {
        str(s): {
            "public_vp": public_vp(state, s),
            "vp_cards": vp_cards(state, s),
            "total": total_vp(state, s),
            "tokens": state.tokens_won[s],
        }
        for s in range(state.players)
    }
    hands = {
        str(s): {
            "resources": bundle_of(state.hands[s], RESOURCES),
            "gold": state.gold[s],
            "development": sorted(state.dev_hand[s] + state.dev_new[s]),
        }
        for s in range(state.players)
    }
    return ev.GameEnded(
        reason=reason,
        scores=scores,
        winners=winners_of(state, reason),
        hands=hands,
        token_order=list(state.token_order),
        seed=chance.seed_hex,
    )


def on_game_ended(state: State, e: ev.GameEnded) -> None:
    state.phase = GAME_OVER
    state.end_reason = e.reason
    state.winners = list(e.winners)
    state.final_totals = [e.scores[str(s)]["total"] for s in range(state.players)]


EVOLVERS: dict[type[Event], Callable[[State, Any], None]] = {
    ev.GameEnded: on_game_ended,
}
