"""Our ``search`` bot in Catanatron's engine, 1-v-1 against the players its package ships.

An adapter (``catanatron_game``) wraps Catanatron's base game as a ``GameDefinition``: the state is
Catanatron's ``Game`` (copied on every move, never changed in place), a command is one of its
playable actions, the evaluation is the one our Catan uses (victory points, production, cards,
development cards, road length: a softmax of points), and ``sample_state`` deals the opponent's
development cards again from its hand and the deck (what a seat may not know; resource cards are
kept, which a player who follows the table knows but for the robber's thefts). Our ``SearchBot``
(information-set MCTS, unchanged) then plays inside Catanatron's engine; Catanatron's own dice
and shuffles are its ``random`` module's.

Needs the optional extra ``bench`` (``pip install -e ".[bench]"``: ``catanatron==3.2.1``)::

    python -m tests.benchmarks.bench_catanatron [games per opponent] [playouts per decision] [seed]

It prints, for ``WeightedRandomPlayer`` and ``VictoryPointPlayer``, our win rate with a 95 %
(Wilson) interval, and the CPU time per decision on both sides. Never part of the test run.
"""

from __future__ import annotations

import random
import sys
import time
from dataclasses import dataclass, field
from typing import Any

from catanatron.game import TURNS_LIMIT, Game
from catanatron.models.enums import DEVELOPMENT_CARDS, VICTORY_POINT
from catanatron.models.player import Color, Player
from catanatron.players.search import VictoryPointPlayer
from catanatron.players.weighted_random import WeightedRandomPlayer
from catanatron.state_functions import (
    get_actual_victory_points,
    get_longest_road_length,
    player_key,
    player_num_dev_cards,
    player_num_resource_cards,
)

from domain.kernel.chance import Chance
from domain.kernel.game import GameDefinition, Scoreboard
from domain.kernel.messages import Command, Event
from domain.kernel.sampling import deal, win_shares
from domain.kernel.search import SearchBot
from tests.benchmarks.bench_bots import wilson

SPREAD = 1.5  # as domain/catan_alexander/bot.py
PIP_WEIGHT = 2.0  # production per roll (a probability, so some 0.3 for a good settlement) in points
CARD_WEIGHT = 0.08
OVER_LIMIT_WEIGHT = 0.1
DEV_WEIGHT = 0.3
ROAD_WEIGHT = 0.05


@dataclass(frozen=True, slots=True)
class Act(Command):
    """One of Catanatron's playable actions (frozen: the tree keys it by ``repr``)."""

    action: Any


@dataclass(frozen=True, slots=True)
class Acted(Event):
    action: Any


@dataclass(frozen=True)
class Table:
    """Catanatron's game, never changed in place: every move works on a copy (so ``clone_state``,
    which shares frozen values, is safe)."""

    game: Game


def _seat(state: Table) -> int:
    return state.game.state.current_player_index


def _awaited(state: Table) -> dict[int, tuple[str, ...]]:
    return {} if _over(state) else {_seat(state): (Act.type,)}


def _over(state: Table) -> bool:
    return state.game.winning_color() is not None or state.game.state.num_turns >= TURNS_LIMIT


def _legal_moves(state: Table, seat: int, _chance: Chance) -> list[Command]:
    if seat != _seat(state) or _over(state):
        return []
    return [Act(action) for action in state.game.state.playable_actions]


def _decide(state: Table, seat: int, command: Command, _chance: Chance) -> list[Event]:
    assert isinstance(command, Act)
    return [Acted(command.action)]


def _evolve(state: Table, event: Event) -> Table:
    assert isinstance(event, Acted)
    game = state.game.copy()
    game.execute(event.action, validate_action=False)
    return Table(game)


def _production(state: Table, color: Color) -> float:
    catan = state.game.state
    production = catan.board.map.node_production
    total = 0.0
    for building, nodes in (("SETTLEMENT", 1), ("CITY", 2)):
        for node in catan.buildings_by_color[color][building]:
            total += nodes * sum(production[node].values())
    return total


def _evaluate(state: Table) -> list[float]:
    catan = state.game.state
    limit = catan.discard_limit
    points = []
    for color in catan.colors:
        cards = player_num_resource_cards(catan, color)
        points.append(
            get_actual_victory_points(catan, color)
            + PIP_WEIGHT * _production(state, color)
            + CARD_WEIGHT * min(cards, limit)
            - OVER_LIMIT_WEIGHT * max(cards - limit, 0)
            + DEV_WEIGHT * player_num_dev_cards(catan, color)
            + ROAD_WEIGHT * get_longest_road_length(catan, color)
        )
    return win_shares(points, SPREAD)


def _scoreboard(state: Table) -> Scoreboard:
    catan = state.game.state
    scores = [get_actual_victory_points(catan, color) for color in catan.colors]
    winner = state.game.winning_color()
    winners = [] if winner is None else [catan.colors.index(winner)]
    placings = [1 + sum(other > mine for other in scores) for mine in scores]
    return Scoreboard(scores=list(scores), placings=placings, winners=winners, final=_over(state))


def _sample_state(state: Table, seat: int, chance: Chance) -> Table:
    """The other seats' development cards dealt again with the deck (their counts are public). The
    seat knows one thing more: nobody else has won yet, so a deal that gives another seat enough
    victory point cards to have won is dealt again (the real hands if no deal of a few will do)."""
    for _ in range(20):
        sample = _deal_development(state, seat, chance)
        if not _over(sample):
            return sample
    return Table(state.game.copy())


def _deal_development(state: Table, seat: int, chance: Chance) -> Table:
    game = state.game.copy()
    catan = game.state
    others = [c for i, c in enumerate(catan.colors) if i != seat]
    pool = list(catan.development_listdeck)
    sizes = []
    for color in others:
        key = player_key(catan, color)
        for card in DEVELOPMENT_CARDS:
            pool.extend([card] * catan.player_state[f"{key}_{card}_IN_HAND"])
        sizes.append(player_num_dev_cards(catan, color))
    *hands, deck = deal(chance, "sample:development", pool, sizes)
    for color, hand in zip(others, hands, strict=True):
        key = player_key(catan, color)
        before = catan.player_state[f"{key}_{VICTORY_POINT}_IN_HAND"]
        for card in DEVELOPMENT_CARDS:
            catan.player_state[f"{key}_{card}_IN_HAND"] = hand.count(card)
        catan.player_state[f"{key}_ACTUAL_VICTORY_POINTS"] += hand.count(VICTORY_POINT) - before
    catan.development_listdeck = deck
    return Table(game)


def _initial_state(_players: int, _options: dict[str, Any]) -> Table:
    raise NotImplementedError("a Table wraps a game Catanatron has set up: Table(Game(players))")


def catanatron_game() -> GameDefinition[Table]:
    """Catanatron's base game as a game our bots can play (the state is built by ``Table``)."""
    return GameDefinition(
        id="catanatron",
        title="Catanatron's base Catan",
        min_players=2,
        max_players=4,
        commands=(Act,),
        events=(Acted,),
        option_rules=lambda _players, options: options,
        initial_state=_initial_state,
        advance=lambda _state, _chance: [],
        decide=_decide,
        evolve=_evolve,
        awaited=_awaited,
        is_over=_over,
        view=lambda _state, _viewer: {},
        legal_moves=_legal_moves,
        scoreboard=_scoreboard,
        sample_state=_sample_state,
        evaluate=_evaluate,
    )


class SearchPlayer(Player):
    """Catanatron's player interface around our ``SearchBot``: it decides on the game as its seat may
    know it (``sample_state`` for every playout), and times its decisions (CPU)."""

    def __init__(self, color: Color, playouts: int, seed: bytes) -> None:
        super().__init__(color)
        self.definition = catanatron_game()
        self.bot = SearchBot(seed, playouts=playouts)
        self.timer = Timer()

    def decide(self, game: Game, playable_actions: Any) -> Any:
        if len(playable_actions) == 1:
            return playable_actions[0]
        with self.timer:
            state = Table(game.copy())
            seat = game.state.colors.index(self.color)
            move = self.bot.choose(self.definition, state, seat)
        assert isinstance(move, Act)
        return move.action


class Timer:
    def __init__(self) -> None:
        self.seconds = 0.0
        self.decisions = 0
        self._start = 0.0

    def __enter__(self) -> None:
        self._start = time.process_time()

    def __exit__(self, *_: object) -> None:
        self.seconds += time.process_time() - self._start
        self.decisions += 1

    def per_decision_ms(self) -> float:
        return 1000 * self.seconds / max(self.decisions, 1)


class Timed(Player):
    """One of Catanatron's players, its decisions with a choice timed (CPU)."""

    def __init__(self, inner: Player) -> None:
        super().__init__(inner.color)
        self.inner = inner
        self.timer = Timer()

    def decide(self, game: Game, playable_actions: Any) -> Any:
        if len(playable_actions) == 1:
            return playable_actions[0]
        with self.timer:
            return self.inner.decide(game, playable_actions)


@dataclass
class Match:
    """Our search against one of Catanatron's players, 1-v-1 (Catanatron seats the two players
    in a random order every game)."""

    opponent: type[Player]
    games: int = 0
    wins: int = 0
    unfinished: int = 0
    ours: Timer = field(default_factory=lambda: Timer())
    theirs: Timer = field(default_factory=lambda: Timer())

    def play(self, number: int, playouts: int, seed: int) -> bool:
        random.seed(seed * 1_000_003 + number)
        us = SearchPlayer(Color.RED, playouts, f"catanatron:{seed}:{number}".encode())
        them = Timed(self.opponent(Color.BLUE))
        winner = Game([us, them], seed=seed * 1_000_003 + number + 1).play()
        self.games += 1
        self.wins += winner == Color.RED
        self.unfinished += winner is None
        for total, part in ((self.ours, us.timer), (self.theirs, them.timer)):
            total.seconds += part.seconds
            total.decisions += part.decisions
        return winner == Color.RED

    def row(self) -> str:
        low, high = wilson(self.wins, self.games)
        return (
            f"| {self.opponent.__name__} | {self.games} | {self.wins} | {self.wins / max(self.games, 1):.0%} "
            f"[{low:.0%}, {high:.0%}] | {self.ours.per_decision_ms():.0f} ms | "
            f"{self.theirs.per_decision_ms():.2f} ms |"
        )


def main(argv: list[str]) -> None:
    games = int(argv[0]) if argv else 20
    playouts = int(argv[1]) if len(argv) > 1 else 100
    seed = int(argv[2]) if len(argv) > 2 else 1
    print(f"search at {playouts} playouts per decision, {games} games per opponent, 1-v-1, seed {seed}")
    matches = [Match(WeightedRandomPlayer), Match(VictoryPointPlayer)]
    for number in range(games):  # the opponents in turn, so that a run cut short has both
        for match in matches:
            won = match.play(number, playouts, seed)
            print(f"  game {number + 1} against {match.opponent.__name__}: {'won' if won else 'lost'}", flush=True)
        print("  so far: " + " ".join(match.row() for match in matches), flush=True)  # a run cut short has its figures
    print("| opponent | games | search's wins | win rate [95 %] | search CPU/decision | opponent CPU/decision |")
    print("|---|---|---|---|---|---|")
    for match in matches:
        print(match.row())


if __name__ == "__main__":
    main(sys.argv[1:])
