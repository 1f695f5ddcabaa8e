"""What the conformance suite (``tests/domain/test_conformance.py``) needs to know of Catan: its
invariants, what a seat cannot know, and the scores a spectator recomputes."""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any

from domain.catan_alexander.data import CARDS_PER_RESOURCE, GOLD_PIECES
from domain.catan_alexander.state import GAME_OVER, SETUP, TRADE_BUILD, State
from domain.kernel import Chance


def check_invariants(state: State) -> None:
    """Every resource card and gold piece is in exactly one place; pieces within their limits."""
    for r in range(5):
        supply = sum(1 for card in state.supply if card == r)
        total = state.bank[r] + supply + sum(hand[r] for hand in state.hands)
        assert total == CARDS_PER_RESOURCE, (r, total)
        assert min(hand[r] for hand in state.hands) >= 0
    if state.scenario:
        assert state.gold_supply + sum(state.gold) == GOLD_PIECES
        assert min(state.gold) >= 0
    for s in range(state.players):
        assert state.settlements[s] <= 5 and state.cities[s] <= 4 and state.roads[s] <= 15
        assert state.army[s] >= 0
    owned = [card for card, holder in state.advisors.items() if holder is not None]
    holders = [state.advisors[c] for c in owned]
    if state.handdown is None:
        assert len(holders) == len(set(holders)), "a player holds two Advisor cards"


def check_states(states: Iterable[State]) -> None:
    for state in states:
        if state.phase != SETUP:
            check_invariants(state)


def vary_hidden(state: State, viewer: int, chance: Chance) -> State | None:
    """The same game as far as ``viewer`` can tell: other hands recomposed (same sizes), undrawn
    stacks reshuffled, face-down tokens exchanged, others' development cards exchanged.

    None where no such state differs in what he cannot know alone: the active player knows that a
    partner who accepted still holds his side (during the turn other hands change only through
    public events and his own steals), and GameEnded reveals everything."""
    if (state.phase == TRADE_BUILD and state.offers and viewer == state.active) or state.phase == GAME_OVER:
        return None
    other = copy.deepcopy(state)
    others = [seat for seat in range(state.players) if seat != viewer]
    pool = chance.shuffle("hands", [r for seat in others for r in range(5) for _ in range(other.hands[seat][r])])
    for seat in others:
        size = sum(other.hands[seat])
        taken, pool = pool[:size], pool[size:]
        other.hands[seat] = [taken.count(r) for r in range(5)]
        cards = chance.shuffle("dev", other.dev_hand[seat] + other.dev_new[seat] + other.dev_deck)
        other.dev_hand[seat] = cards[: len(other.dev_hand[seat])]
        cards = cards[len(other.dev_hand[seat]) :]
        other.dev_new[seat] = cards[: len(other.dev_new[seat])]
        other.dev_deck = cards[len(other.dev_new[seat]) :]
    other.supply = chance.shuffle("supply", other.supply)
    face_down = sorted(other.tokens_on_board)
    tasks = chance.shuffle("tokens", [other.tokens_on_board[c] for c in face_down])
    other.tokens_on_board = dict(zip(face_down, tasks, strict=True))
    return other


def scores_from_public(public: list[dict[str, Any]], players: int) -> list[int]:
    """Buildings, special cards and Advisors from public records, plus the VP cards GameEnded reveals."""
    points = [0] * players
    tokens = [0] * players
    longest = army = None
    advisors: dict[str, int] = {}
    for r in public:
        data = r["data"]
        kind = r["type"]
        if kind in ("SettlementBuilt", "CityBuilt"):
            points[data["seat"]] += 1
        elif kind == "LongestRoadChanged":
            longest = data["holder"]
        elif kind == "LargestArmyChanged":
            army = data["holder"]
        elif kind == "AdvisorChanged":
            advisors[data["advisor"]] = data["to_seat"]
        elif kind == "TaskTokenAwarded":
            tokens[data["seat"]] = data["tokens_now"]
    for holder in (longest, army):
        if holder is not None:
            points[holder] += 2
    for card, holder in advisors.items():
        points[holder] += {"first": 4, "second": 3, "third": 2}[card]
    ended = public[-1]["data"]
    assert public[-1]["type"] == "GameEnded"
    for s in range(players):
        score = ended["scores"][str(s)]
        assert score["public_vp"] == points[s]
        vp_cards = ended["hands"][str(s)]["development"].count("victory_point")
        assert score["total"] == points[s] + vp_cards
        assert score["tokens"] == tokens[s]
    totals = [ended["scores"][str(s)]["total"] for s in range(players)]
    if ended["reason"] != "vp10":
        best = max(totals)
        leaders = [s for s in range(players) if totals[s] == best]
        most = max(tokens[s] for s in leaders)
        assert ended["winners"] == [s for s in leaders if tokens[s] == most]
    return totals
