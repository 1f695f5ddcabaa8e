"""Rules file 4, sequence of play: who is awaited and the automatic steps."""

from __future__ import annotations

from domain.empire_builder.events import (
    AllocationsRevealed,
    LotDrawn,
    ReallocationsRevealed,
    RoundStarted,
    TurnOrderSet,
    TurnStarted,
)
from domain.empire_builder.rules.allocation import campaign_start
from domain.empire_builder.rules.end import game_end
from domain.empire_builder.rules.evaluation import evaluate_round
from domain.empire_builder.rules.reallocation import reallocation_due
from domain.empire_builder.rules.rounds import end_of_round
from domain.empire_builder.rules.setup import campaigns
from domain.empire_builder.rules.turns import turn_step
from domain.empire_builder.state import (
    ALLOCATION,
    BUILD,
    CAMPAIGN_OVER,
    DONE,
    GAME_OVER,
    MOVE,
    REALLOCATION,
    ROUND_START,
    SETUP,
    TURN_ORDER,
    TURNS,
    State,
)
from domain.kernel import Chance, Event


def awaited(state: State) -> dict[int, tuple[str, ...]]:
    phase = state.phase
    if phase == TURNS:
        step = turn_step(state)
        if step == MOVE:
            return {state.order[state.position]: ("move_armies",)}
        if step == BUILD:
            return {state.order[state.position]: ("attempt_builds",)}
        return {}
    if phase == ALLOCATION:
        return {s: ("allocate_resources",) for s in range(state.players) if s not in state.sealed}
    if phase == REALLOCATION:
        return {s: ("reallocate_resources",) for s in reallocation_due(state)}
    if phase == TURN_ORDER and state.chooser is not None:
        return {state.chooser: ("choose_turn_position",)}
    return {}


def is_over(state: State) -> bool:
    return state.phase == GAME_OVER


def advance(state: State, chance: Chance) -> list[Event]:
    phase = state.phase
    if phase == TURNS:
        if turn_step(state) != DONE:
            return []
        if state.position + 1 < len(state.order):
            nxt = state.position + 1
            return [TurnStarted(state.campaign, state.round, state.order[nxt], nxt + 1)]
        return [*evaluate_round(state), end_of_round(state)]
    if phase == ALLOCATION:
        if len(state.sealed) < state.players:
            return []
        allocations = [
            dict(zip(("seat", "turn_order", "armies", "temples", "cities"), (s, *state.sealed[s]), strict=True))
            for s in range(state.players)
        ]
        return [AllocationsRevealed(state.campaign, allocations)]
    if phase == TURN_ORDER:
        if state.lot_needed is not None:
            purpose, candidates = state.lot_needed
            return [LotDrawn(purpose, state.campaign, candidates, chance.shuffle(purpose, candidates))]
        if state.final_order is not None:
            spent = {str(s): p.turn_order for s, p in enumerate(state.seats) if p.turn_order}
            return [TurnOrderSet(state.campaign, list(state.final_order), spent)]
        return []
    if phase == REALLOCATION:
        if reallocation_due(state):
            return []
        boxes = []
        for s, p in enumerate(state.seats):
            temples, cities = state.sealed.get(s, (p.temples, p.cities))
            boxes.append({"seat": s, "temples": temples, "cities": cities})
        return [ReallocationsRevealed(state.campaign, state.round, boxes)]
    if phase == ROUND_START:
        return [RoundStarted(state.campaign, state.round + 1)]
    if phase == SETUP:
        return [campaign_start(state, campaigns(state)[0])]
    if phase == CAMPAIGN_OVER:
        if state.campaign >= campaigns(state)[1]:
            return game_end(state, chance)
        return [campaign_start(state, state.campaign + 1)]
    return []
