"""The face-down stacks put in a new order when the game's chance changes under it (a fork's new
seed, a seat's contribution): the development deck, the scenario's resource supply and the task
tokens still face down on the board. Nothing anyone has seen moves; the odds of every future draw
are those of the stacks as they lie, only their order is drawn again. The event is applied with the
setup's shuffle (``rules.setup``)."""

from __future__ import annotations

from domain.catan_alexander.data import RESOURCES
from domain.catan_alexander.events import HiddenStacksReshuffled
from domain.catan_alexander.state import State
from domain.kernel import Chance, Event


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
