"""Our ``search`` bot in Catanatron's engine, 1-v-1: the adapter and the players around it.

An adapter (``catanatron_game``) wraps Catanatron's base game as a ``GameDefinition``: the state is
Catanatron's ``Game`` (copied on every move, never changed in place), a command is one of its
playable actions, the evaluation is the one our Catan uses (victory points, production, cards,
development cards, road length, the hand's nearness to a city or settlement, the best spot the
roads reach: a softmax of points; its weights and the nearness are our Catan's own), and
``sample_state`` deals the opponent's development cards again from its hand and the deck, and drops
Catanatron's action log (which names the cards bought). That is all a seat may not know in 1-v-1,
where every resource card either seat gains or loses is seen by both (a theft by its thief and its
victim): so the adapter plays two players only. Our ``SearchBot`` (information-set MCTS, unchanged)
then plays inside Catanatron's engine; Catanatron's own dice and shuffles are its ``random`` module's.

Catanatron is imported here, at the top: ``bench_catanatron`` (the command) imports this module only
once it has chosen which Catanatron to load (the pinned package, or a checkout's core).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from math import comb
from typing import Any

from catanatron.game import TURNS_LIMIT, Game
from catanatron.models.enums import BRICK, DEVELOPMENT_CARDS, ORE, SHEEP, VICTORY_POINT, WHEAT, WOOD
from catanatron.models.map import DICE_PROBAS
from catanatron.models.player import Color, Player
from catanatron.state_functions import (
    get_actual_victory_points,
    get_longest_road_length,
    player_key,
    player_num_dev_cards,
    player_num_resource_cards,
)

from domain.catan_alexander.bot import READY_WEIGHT, SPOT_WEIGHT, build_readiness
from domain.catan_alexander.data import CITIES_PER_PLAYER, SETTLEMENTS_PER_PLAYER
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
CPU_CAP = 0.9  # seconds of CPU a decision may take (the target's limit is one, and a playout may overrun)
PIPS_PER_PROBABILITY = 36  # our Catan counts production in pips, Catanatron in chances per roll
OUR_ORDER = (BRICK, WHEAT, WOOD, ORE, SHEEP)  # our Catan's resource order: brick, grain, lumber, ore, wool


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
    return int(state.game.state.current_player_index)


def _awaited(state: Table) -> dict[int, tuple[str, ...]]:
    return {} if _over(state) else {_seat(state): (Act.type,)}


def _over(state: Table) -> bool:
    return state.game.winning_color() is not None or state.game.state.num_turns >= TURNS_LIMIT


def playable(game: Game) -> list[Any]:
    """The current player's playable actions: the game's since Catanatron 3.3, its state's before."""
    actions = getattr(game, "playable_actions", None)
    return list(game.state.playable_actions if actions is None else actions)


def _legal_moves(state: Table, seat: int, _chance: Chance) -> list[Command]:
    if seat != _seat(state) or _over(state):
        return []
    return [Act(action) for action in playable(state.game)]


def _decide(state: Table, seat: int, command: Command, _chance: Chance) -> list[Event]:
    assert isinstance(command, Act)
    return [Acted(command.action)]


def _evolve(state: Table, event: Event) -> Table:
    assert isinstance(event, Acted)
    game = state.game.copy()
    game.execute(event.action, validate_action=False)
    return Table(game)


def _node_production(state: Table) -> Callable[[int], float]:
    """The chance per roll of a card from a building on a node, the robber's tile not producing."""
    board = state.game.state.board
    production = board.map.node_production
    robber = board.map.land_tiles[board.robber_coordinate]
    blocked = robber.nodes.values() if robber.number is not None else ()
    lost = DICE_PROBAS[robber.number] if robber.number is not None else 0.0
    return lambda node: sum(production[node].values()) - (lost if node in blocked else 0.0)


def _production(state: Table, color: Color) -> float:
    """The chance per roll of each card the seat's buildings produce (a city's twice), the robber's
    tile not producing: as our Catan's ``production``, which counts pips."""
    buildings = state.game.state.buildings_by_color[color]
    node = _node_production(state)
    return sum(node(n) for n in buildings["SETTLEMENT"]) + 2 * sum(node(n) for n in buildings["CITY"])


def _settling_spots(state: Table, color: Color) -> list[int]:
    catan = state.game.state
    if catan.is_initial_build_phase:
        return []
    return list(catan.board.buildable_node_ids(color))


def _readiness(state: Table, color: Color) -> float:
    """As our Catan's ``seat_readiness``: the hand's nearness to a building the seat has room for."""
    catan = state.game.state
    key = player_key(catan, color)
    hand = [catan.player_state[f"{key}_{resource}_IN_HAND"] for resource in OUR_ORDER]
    buildings = catan.buildings_by_color[color]
    settlements, cities = len(buildings["SETTLEMENT"]), len(buildings["CITY"])
    can_city = settlements > 0 and cities < CITIES_PER_PLAYER
    can_settle = settlements < SETTLEMENTS_PER_PLAYER and bool(_settling_spots(state, color))
    return build_readiness(hand, can_city, can_settle)


def _best_spot(state: Table, color: Color) -> float:
    """As our Catan's ``best_spot_pips``, in chances per roll."""
    node = _node_production(state)
    return max((node(n) for n in _settling_spots(state, color)), default=0.0)


def _evaluate(state: Table) -> list[float]:
    catan = state.game.state
    limit = catan.discard_limit
    points = []
    for color in catan.colors:
        cards = player_num_resource_cards(catan, color)
        points.append(
            get_actual_victory_points(catan, color)
            + READY_WEIGHT * _readiness(state, color)
            + SPOT_WEIGHT * PIPS_PER_PROBABILITY * _best_spot(state, color)
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


DEALS = 20  # deals tried before the deal conditioned on the opponent being short of a win


@dataclass
class Sampling:
    """How the samples were dealt: ``fallbacks`` counts those in which no deal of ``DEALS`` kept the
    opponent short of a win (where the adapter used to hand the search the real cards)."""

    samples: int = 0
    fallbacks: int = 0

    def add(self, other: Sampling) -> None:
        self.samples += other.samples
        self.fallbacks += other.fallbacks


def _sample_state(state: Table, seat: int, chance: Chance, sampling: Sampling) -> Table:
    """The opponent's development cards dealt again with the deck (their number is public). The seat
    knows one thing more: the opponent has not won yet, so a deal that gives it enough victory point
    cards to have won is dealt again; after ``DEALS`` such deals, the hand is dealt from the deal's
    law under that condition (``_deal_short_of_win``). Never the real cards."""
    sampling.samples += 1
    for _ in range(DEALS):
        sample = _deal_development(state, seat, chance)
        if not _over(sample):
            return sample
    sampling.fallbacks += 1
    return _deal_development(state, seat, chance, short_of_win=True)


def _deal_development(state: Table, seat: int, chance: Chance, short_of_win: bool = False) -> Table:
    game = state.game.copy()
    catan = game.state
    (other,) = (c for i, c in enumerate(catan.colors) if i != seat)
    key = player_key(catan, other)
    pool = list(catan.development_listdeck)
    for card in DEVELOPMENT_CARDS:
        pool.extend([card] * catan.player_state[f"{key}_{card}_IN_HAND"])
    size = player_num_dev_cards(catan, other)
    before = catan.player_state[f"{key}_{VICTORY_POINT}_IN_HAND"]
    if short_of_win:
        most = game.vps_to_win - 1 - (catan.player_state[f"{key}_ACTUAL_VICTORY_POINTS"] - before)
        hand, deck = _deal_short_of_win(chance, pool, size, most)
    else:
        hand, deck = deal(chance, "sample:development", pool, [size])
    for card in DEVELOPMENT_CARDS:
        catan.player_state[f"{key}_{card}_IN_HAND"] = hand.count(card)
    catan.player_state[f"{key}_ACTUAL_VICTORY_POINTS"] += hand.count(VICTORY_POINT) - before
    catan.development_listdeck = deck
    # Catanatron's log names every card bought (nothing the search calls reads it): not in a sample
    for log in ("actions", "action_records"):
        if hasattr(catan, log):
            setattr(catan, log, [])
    return Table(game)


def _deal_short_of_win(chance: Chance, pool: list[str], size: int, most: int) -> tuple[list[str], list[str]]:
    """A hand of ``size`` cards from ``pool`` with at most ``most`` victory point cards, and the rest as
    the deck, drawn as a deal of the whole pool is under that condition: the number of victory point
    cards in the hand by its hypergeometric law cut at ``most``, the other cards of the hand and the
    deck's order dealt at random. Only the pool's counts and the public sizes go in. The real hand is
    one such hand (the game is not over), so the condition can always be met."""
    points = pool.count(VICTORY_POINT)
    others = [card for card in pool if card != VICTORY_POINT]
    lowest, highest = max(0, size - len(others)), min(size, points, most)
    if highest < lowest:
        raise RuntimeError("no deal of the unknown cards leaves the opponent short of a win")
    weights = [comb(points, k) * comb(len(others), size - k) for k in range(lowest, highest + 1)]
    pick = chance.below("sample:development:short", sum(weights))
    count = lowest
    for weight in weights:
        if pick < weight:
            break
        pick -= weight
        count += 1
    rest, left = deal(chance, "sample:development", others, [size - count])
    (deck,) = deal(chance, "sample:development", left + [VICTORY_POINT] * (points - count), [])
    return [VICTORY_POINT] * count + rest, deck


def _initial_state(_players: int, _options: dict[str, Any]) -> Table:
    raise NotImplementedError("a Table wraps a game Catanatron has set up: Table(Game(players))")


def catanatron_game(sampling: Sampling | None = None) -> GameDefinition[Table]:
    """Catanatron's base game, 1-v-1, as a game our bots can play (the state is built by ``Table``);
    ``sampling`` counts how its samples were dealt."""
    counts = Sampling() if sampling is None else sampling

    def sample_state(state: Table, seat: int, chance: Chance) -> Table:
        return _sample_state(state, seat, chance, counts)

    return GameDefinition(
        id="catanatron",
        title="Catanatron's base Catan, 1-v-1",
        min_players=2,
        max_players=2,
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
        sample_state=sample_state,
        evaluate=_evaluate,
    )


class SearchPlayer(Player):  # type: ignore[misc]  # Catanatron is untyped
    """Catanatron's player interface around our ``SearchBot``: it decides on the game as its seat may
    know it (``sample_state`` for every playout), and times its decisions (CPU)."""

    def __init__(self, color: Color, playouts: int, seed: bytes) -> None:
        super().__init__(color)
        self.sampling = Sampling()
        self.definition = catanatron_game(self.sampling)
        # the playouts are the budget; the clock only stops a decision that would pass the second
        self.bot = SearchBot(seed, playouts=playouts, seconds=CPU_CAP, clock=time.process_time)
        self.timer = Timer()
        self.decisions_with_fallback = 0

    def decide(self, game: Game, playable_actions: Any) -> Any:
        if len(playable_actions) == 1:
            return playable_actions[0]
        fallbacks = self.sampling.fallbacks
        with self.timer:
            state = Table(game.copy())
            seat = game.state.colors.index(self.color)
            move = self.bot.choose(self.definition, state, seat)
        self.decisions_with_fallback += self.sampling.fallbacks > fallbacks
        assert isinstance(move, Act)
        return move.action


class Timer:
    def __init__(self) -> None:
        self.seconds = 0.0
        self.decisions = 0
        self.longest = 0.0
        self._start = 0.0

    def __enter__(self) -> None:
        self._start = time.process_time()

    def __exit__(self, *_: object) -> None:
        spent = time.process_time() - self._start
        self.seconds += spent
        self.decisions += 1
        self.longest = max(self.longest, spent)

    def add(self, other: Timer) -> None:
        self.seconds += other.seconds
        self.decisions += other.decisions
        self.longest = max(self.longest, other.longest)

    def per_decision_ms(self) -> float:
        return 1000 * self.seconds / max(self.decisions, 1)


class Timed(Player):  # type: ignore[misc]
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


SEATING_TRIES = 64  # Catanatron seats the players at random: game seeds tried for the seating wanted


@dataclass
class Match:
    """Our search against one of Catanatron's players, 1-v-1, our seat rotated: first in the even
    games, second in the odd ones (Catanatron draws the seating from the game's seed, so the first
    seed that seats us as wanted is played)."""

    name: str
    opponent: Callable[[Color], Player]
    games: int = 0
    wins: int = 0
    unfinished: int = 0
    first: int = 0  # games in which we sat first
    wins_first: int = 0
    ours: Timer = field(default_factory=Timer)
    theirs: Timer = field(default_factory=Timer)
    sampling: Sampling = field(default_factory=Sampling)
    decisions_with_fallback: int = 0
    games_with_fallback: int = 0
    seconds: float = 0.0  # wall-clock time of the games

    def play(self, number: int, playouts: int, seed: int) -> bool:
        started = time.perf_counter()
        us = SearchPlayer(Color.RED, playouts, f"catanatron:{seed}:{number}".encode())
        them = Timed(self.opponent(Color.BLUE))
        we_first = number % 2 == 0
        for attempt in range(SEATING_TRIES):
            random.seed(seed * 1_000_003 + number + 7_919 * attempt)
            game = Game([us, them], seed=seed * 1_000_003 + number + 1 + 7_919 * attempt)
            if (game.state.colors[0] == Color.RED) == we_first:
                break
        else:
            raise RuntimeError(f"no seed of {SEATING_TRIES} seats us as wanted")
        winner = game.play()
        self.games += 1
        self.wins += winner == Color.RED
        self.unfinished += winner is None
        self.first += we_first
        self.wins_first += we_first and winner == Color.RED
        self.ours.add(us.timer)
        self.theirs.add(them.timer)
        self.sampling.add(us.sampling)
        self.decisions_with_fallback += us.decisions_with_fallback
        self.games_with_fallback += us.sampling.fallbacks > 0
        self.seconds += time.perf_counter() - started
        return bool(winner == Color.RED)

    def row(self) -> str:
        low, high = wilson(self.wins, self.games)
        return (
            f"| {self.name} | {self.games} | {self.wins} | {self.wins / max(self.games, 1):.1%} "
            f"[{low:.1%}, {high:.1%}] | {self.wins_first}/{self.first} first, "
            f"{self.wins - self.wins_first}/{self.games - self.first} second | "
            f"{self.ours.per_decision_ms():.0f} ms (max {1000 * self.ours.longest:.0f}) | "
            f"{self.theirs.per_decision_ms():.2f} ms (max {1000 * self.theirs.longest:.0f}) | "
            f"{self.sampling.fallbacks} fallbacks |"
        )

    def figures(self) -> dict[str, Any]:
        """Every count, to add up the runs of several processes."""
        return {
            "opponent": self.name,
            **{name: getattr(self, name) for name in ("games", "wins", "unfinished", "first", "wins_first")},
            "ours": {"seconds": self.ours.seconds, "decisions": self.ours.decisions, "longest": self.ours.longest},
            "theirs": {
                "seconds": self.theirs.seconds,
                "decisions": self.theirs.decisions,
                "longest": self.theirs.longest,
            },
            "samples": self.sampling.samples,
            "fallbacks": self.sampling.fallbacks,
            "decisions_with_fallback": self.decisions_with_fallback,
            "games_with_fallback": self.games_with_fallback,
            "seconds": self.seconds,
        }

    def sampling_line(self) -> str:
        return (
            f"{self.name}: {self.sampling.samples} samples, {self.sampling.fallbacks} with no deal of {DEALS} "
            f"short of a win (the old fallback to the real cards), in {self.decisions_with_fallback} of "
            f"{self.ours.decisions} decisions and {self.games_with_fallback} of {self.games} games; "
            f"{self.unfinished} unfinished; {self.seconds / max(self.games, 1):.1f} s a game"
        )
