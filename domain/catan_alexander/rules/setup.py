"""Rules file 3, setup, and the base game's board and founding phase (7.1)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.catan_alexander import events as ev
from domain.catan_alexander.data import (
    ADVISORS_IN_PLAY,
    BASE_RANDOM_NUMBERS,
    BASE_SPIRAL,
    CARDS_PER_RESOURCE,
    DEVELOPMENT_DECK,
    GOLD_PIECES,
    RESOURCE_INDEX,
    RESOURCES,
    TERRAIN_PRODUCT,
    TOKEN_CROSSINGS,
    TOKEN_MIX,
)
from domain.catan_alexander.rules.general import add_goods, hex_ref
from domain.catan_alexander.state import FOUNDING_SETTLEMENT, State
from domain.kernel import Chance, Event, RuleViolation


def normalize_options(players: int, options: dict[str, Any]) -> dict[str, Any]:
    """§7: board, layout (base only), starting_gold (scenario only)."""
    known = {"board", "layout", "starting_gold"}
    unknown = sorted(set(options) - known)
    if unknown:
        raise RuleViolation("BAD_OPTIONS", f"unknown option(s) {', '.join(unknown)}; options are {sorted(known)}")
    board = options.get("board", "alexander")
    if board not in ("alexander", "base"):
        raise RuleViolation("BAD_OPTIONS", "board must be 'alexander' or 'base'")
    if board == "base":
        layout = options.get("layout", "beginner")
        if layout not in ("beginner", "random"):
            raise RuleViolation("BAD_OPTIONS", "layout must be 'beginner' or 'random'")
        if "starting_gold" in options:
            raise RuleViolation("BAD_OPTIONS", "starting_gold belongs to the scenario board only")
        return {"board": "base", "layout": layout}
    if "layout" in options:
        raise RuleViolation("BAD_OPTIONS", "layout belongs to the base board only")
    gold = options.get("starting_gold", 8)
    if type(gold) is not int or gold not in (0, 8):
        raise RuleViolation("BAD_OPTIONS", "starting_gold must be 8 or 0")
    return {"board": "alexander", "starting_gold": gold}


def base_layout(state: State, chance: Chance) -> tuple[list[str], list[int]]:
    """§7.1: the beginner layout, or terrains shuffled and numbers laid along the spiral."""
    geometry = state.geometry
    if state.options.get("layout", "beginner") == "beginner":
        return list(geometry.default_terrain), list(geometry.default_numbers)
    terrains = chance.shuffle("setup", sorted(geometry.default_terrain))
    numbers = [0] * len(terrains)
    tokens = iter(BASE_RANDOM_NUMBERS)
    for h in BASE_SPIRAL:
        index = geometry.hex_index[h]
        if terrains[index] != "desert":
            numbers[index] = next(tokens)
    return terrains, numbers


def setup_events(state: State, chance: Chance) -> list[Event]:
    geometry = state.geometry
    n = state.players
    dev_deck = chance.shuffle("dev", list(DEVELOPMENT_DECK))
    if not state.scenario:
        terrains, numbers = base_layout(state, chance)
        desert = terrains.index("desert")
        return [
            ev.GameSetUp(
                board_id=geometry.board_id,
                robber_hex=hex_ref(geometry, desert),
                terrains=terrains,
                numbers=numbers,
                token_crossings=[],
                supply_size=0,
                bank_piles={r: CARDS_PER_RESOURCE for r in RESOURCES},
                gold_supply=0,
                dev_deck_size=len(dev_deck),
                advisors_in_play=[],
            ),
            ev.StacksShuffled(sealed_for=[], supply=[], dev_deck=dev_deck, tokens=[]),
        ]
    per_resource = CARDS_PER_RESOURCE if n == 4 else 15
    canonical = [r for r in RESOURCES for _ in range(per_resource)]
    supply = chance.shuffle("supply", canonical)
    tokens = chance.shuffle("tokens", list(TOKEN_MIX))
    starting_gold = state.options.get("starting_gold", 8)
    bank = CARDS_PER_RESOURCE - per_resource
    out: list[Event] = [
        ev.GameSetUp(
            board_id=geometry.board_id,
            robber_hex=hex_ref(geometry, geometry.robber_start),
            terrains=list(geometry.default_terrain),
            numbers=list(geometry.default_numbers),
            token_crossings=list(TOKEN_CROSSINGS),
            supply_size=len(supply) - 5 * n,
            bank_piles={r: bank for r in RESOURCES},
            gold_supply=GOLD_PIECES - n * starting_gold,
            dev_deck_size=len(dev_deck),
            advisors_in_play=list(ADVISORS_IN_PLAY[n]),
        ),
        ev.StacksShuffled(sealed_for=[], supply=supply, dev_deck=dev_deck, tokens=tokens),
    ]
    for seat in range(n):
        dealt = supply[5 * seat : 5 * seat + 5]
        cards = {r: dealt.count(r) for r in RESOURCES if r in dealt}
        out.append(ev.StartingHandDealt(seat=seat, cards=cards, card_count=5, gold=starting_gold))
    out.append(ev.TurnStarted(turn=1, seat=0))
    return out


def on_game_set_up(state: State, e: ev.GameSetUp) -> None:
    geometry = state.geometry
    state.hex_product = [TERRAIN_PRODUCT[t] for t in e.terrains]
    state.hex_number = list(e.numbers)
    corners = geometry.hex_vertices
    state.producing_hexes = [
        [
            (h, state.hex_product[h], corners[h])
            for h, n in enumerate(e.numbers)
            if n == total and state.hex_product[h] >= 0
        ]
        for total in range(13)
    ]
    state.producers = [[] for _ in range(13)]
    state.robber = geometry.hex_index[(e.robber_hex[0], e.robber_hex[1])]
    state.bank = [e.bank_piles.get(r, 0) for r in RESOURCES]
    state.gold_supply = e.gold_supply
    state.advisors = {card: None for card in e.advisors_in_play}
    if not state.scenario:
        state.phase = FOUNDING_SETTLEMENT
        state.active = 0


def on_stacks_shuffled(state: State, e: ev.StacksShuffled) -> None:
    state.dev_deck = list(e.dev_deck)
    state.token_order = list(e.tokens)
    state.tokens_on_board = dict(zip(TOKEN_CROSSINGS, e.tokens, strict=False))
    state.supply = [RESOURCE_INDEX[r] for r in e.supply]
    state.supply_open = bool(e.supply)


def on_hidden_stacks_reshuffled(state: State, e: ev.HiddenStacksReshuffled) -> None:
    state.dev_deck = list(e.dev_deck)
    state.supply = [RESOURCE_INDEX[r] for r in e.supply]
    state.tokens_on_board = {int(c): task for c, task in e.tokens.items()}
    # token_order: the task laid on each token crossing, then the tokens set aside (unchanged)
    laid = len(TOKEN_CROSSINGS)
    on_board = [state.tokens_on_board.get(c, task) for c, task in zip(TOKEN_CROSSINGS, state.token_order, strict=False)]
    state.token_order = on_board + state.token_order[laid:]


def on_starting_hand_dealt(state: State, e: ev.StartingHandDealt) -> None:
    for name, count in e.cards.items():
        state.hands[e.seat][RESOURCE_INDEX[name]] += count
    del state.supply[: e.card_count]
    state.gold[e.seat] = e.gold


def on_founding_resources_gained(state: State, e: ev.FoundingResourcesGained) -> None:
    add_goods(state, e.seat, e.cards, +1)


EVOLVERS: dict[type[Event], Callable[[State, Any], None]] = {
    ev.GameSetUp: on_game_set_up,
    ev.StacksShuffled: on_stacks_shuffled,
    ev.HiddenStacksReshuffled: on_hidden_stacks_reshuffled,
    ev.StartingHandDealt: on_starting_hand_dealt,
    ev.FoundingResourcesGained: on_founding_resources_gained,
}
