"""The face-down stacks put in a new order when the game's chance changes under it (a fork's new
seed, a seat's contribution): the development deck, the scenario's resource supply and the task
tokens still face down on the board. Nothing anyone has seen moves; the odds of every future draw
are those of the stacks as they lie, only their order is drawn again."""

from __future__ import annotations

from dataclasses import dataclass

from domain.catan_alexander.data import RESOURCE_INDEX, RESOURCES, TOKEN_CROSSINGS
from domain.catan_alexander.rules import EVOLVERS
from domain.catan_alexander.state import State
from domain.kernel import Chance, Event


@dataclass(frozen=True, slots=True)
class HiddenStacksReshuffled(Event):
    """Sealed like ``StacksShuffled``: ``sealed_for`` is always empty, so no seat sees the orders
    until the seed is revealed. ``tokens`` maps each crossing (as text) still holding a face-down
    task token to its task."""

    private_to = ("sealed_for",)
    hidden = ("supply", "dev_deck", "tokens")
    sealed_for: list[int]
    supply: list[str]
    dev_deck: list[str]
    tokens: dict[str, str]


def reshuffle_hidden(state: State, chance: Chance) -> list[Event]:
    if not (state.dev_deck or state.supply or state.tokens_on_board):
        return []
    crossings = sorted(state.tokens_on_board)
    tasks = chance.shuffle("reseed:tokens", [state.tokens_on_board[c] for c in crossings])
    return [
        HiddenStacksReshuffled(
            sealed_for=[],
            supply=[RESOURCES[card] for card in chance.shuffle("reseed:supply", state.supply)],
            dev_deck=chance.shuffle("reseed:dev", state.dev_deck),
            tokens={str(c): task for c, task in zip(crossings, tasks, strict=True)},
        )
    ]


def on_hidden_stacks_reshuffled(state: State, event: HiddenStacksReshuffled) -> None:
    state.dev_deck = list(event.dev_deck)
    state.supply = [RESOURCE_INDEX[r] for r in event.supply]
    state.tokens_on_board = {int(c): task for c, task in event.tokens.items()}
    # token_order: the task laid on each token crossing, then the tokens set aside (unchanged)
    laid = len(TOKEN_CROSSINGS)
    on_board = [state.tokens_on_board.get(c, task) for c, task in zip(TOKEN_CROSSINGS, state.token_order, strict=False)]
    state.token_order = on_board + state.token_order[laid:]


# Registered beside the rules' own evolvers, so that applying an event costs no extra dispatch.
EVOLVERS[HiddenStacksReshuffled.type] = on_hidden_stacks_reshuffled
