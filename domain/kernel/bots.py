"""The random bot, and full games played by bots on the pure functions."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from domain.kernel import engine
from domain.kernel.chance import Chance
from domain.kernel.game import GameDefinition
from domain.kernel.messages import Command, Event
from domain.kernel.seats import Seat


class RandomBot:
    """Plays uniformly at random among a seat's legal moves, with a chance stream of its own
    (changing the bot never changes the game's dice)."""

    _BITS = 1 << 256

    def __init__(self, seed: bytes) -> None:
        self.rng = Chance(seed)
        self._pool = 0
        self._range = 1

    def _below(self, n: int) -> int:
        """A near-uniform pick in ``[0, n)``: one keyed hash serves many picks (a hash per move
        would cost as much as the move), and it is drawn again before the bias could exceed 2**-64."""
        if self._range < n << 64:
            self._pool = self.rng.below("bot", self._BITS)
            self._range = self._BITS
        self._pool, pick = divmod(self._pool, n)
        self._range //= n
        return pick

    def choose_seat(self, awaited: Collection[Seat]) -> Seat:
        """One of the awaited seats (a list of them, or the awaited map itself)."""
        if len(awaited) == 1:  # most of the time: no draw needed
            for seat in awaited:
                return seat
        ordered = sorted(awaited)
        return ordered[self._below(len(ordered))]

    def next_move(self, game: GameDefinition[Any], state: Any) -> tuple[Seat, Command]:
        """An awaited seat and its move."""
        seat = self.choose_seat(game.awaited(state))
        return seat, self.choose(game, state, seat)

    def choose(self, game: GameDefinition[Any], state: Any, seat: Seat) -> Command:
        moves = game.legal_moves(state, seat, self.rng)
        if not moves:
            raise RuntimeError(f"{game.id}: seat {seat} is awaited but has no legal move")
        return moves[self._below(len(moves))]


@dataclass
class PlayedGame:
    state: Any
    events: list[Event]
    commands: list[tuple[Seat, Command]]


def play_random_game(
    game: GameDefinition[Any],
    players: int,
    options: dict[str, Any] | None = None,
    seed: bytes = b"game",
    bot_seed: bytes = b"bot",
    max_commands: int = 20_000,
) -> PlayedGame:
    """A whole game played by random bots on the pure functions (no store)."""
    chance = Chance(seed)
    bot = RandomBot(bot_seed)
    normalized = game.normalize_options(players, dict(options or {}))
    state, events = engine.start(game, players, normalized, chance)
    commands: list[tuple[Seat, Command]] = []
    while not game.is_over(state):
        if len(commands) >= max_commands:
            raise RuntimeError(f"{game.id}: no end after {max_commands} commands")
        awaited = game.awaited(state)
        if not awaited:
            raise RuntimeError(f"{game.id}: deadlock - the game is not over but awaits nobody")
        seat = bot.choose_seat(awaited)
        command = bot.choose(game, state, seat)
        state, new_events = engine.execute(game, state, seat, command, chance)
        events.extend(new_events)
        commands.append((seat, command))
    return PlayedGame(state=state, events=events, commands=commands)
