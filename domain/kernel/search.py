"""The ``search`` bot: information-set Monte Carlo tree search over determinised states.

Each playout draws a full state from what the seat may know (``GameDefinition.sample_state``),
walks one tree shared by all samples (single-observer ISMCTS, Cowling, Powley and Whitehouse 2012):
a node's children are keyed by the mover and the move, a child's UCB counts the playouts in which
it was available, since a move of a hidden hand exists in some samples only. Below the tree a few
random moves, then the game's evaluation (``bots.position_value``) scores the position for every
seat, and each node takes the score of the seat that moved into it. How many random moves: the
game's ``playout_depth`` (none where the evaluation sees far enough, as random moves blur it).
Before the evaluation, a turn under way is finished greedily (``turn_underway``) and, where the
game asks for it (``greedy_turns``), whole turns to come are played greedily too; the tree then
covers the searching seat's own turn only (a tree through the other seats' turns chose their moves
among the first few it tried of dozens: a poorer model of a greedy reply than greedy itself).

The budget is a number of playouts (the same seed and budget give the same move) and, optionally,
seconds on a clock the edge passes in. The cost is the engine's: a playout lists legal moves and
executes commands some twenty times, and copies the state once.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from domain.kernel import engine
from domain.kernel.bots import RandomBot, one_ply, position_value
from domain.kernel.errors import RuleViolation
from domain.kernel.game import GameDefinition
from domain.kernel.messages import Command
from domain.kernel.seats import Seat

DEFAULT_PLAYOUTS = 200
ROOT_WIDTH = 6  # root moves searched: the best by the evaluation one ply ahead
EXPLORATION = 0.15  # UCB's constant: the evaluations of a position's moves differ by a few hundredths to tenths
TURN_STEPS = 4  # at most this many greedy moves finish a turn under way (Alexandros: two actions and the end)
TURN_WIDTH = 12  # a greedy move of the turns to come picks the best of at most this many moves, drawn at random


@dataclass(slots=True)
class Node:
    mover: Seat  # the seat whose move led here (the root's: the searching seat)
    move: Command | None = None
    visits: int = 0
    reward: float = 0.0  # summed over visits, for ``mover``
    available: int = 0  # playouts in which the move was legal at the parent
    children: dict[str, Node] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class MoveEstimate:
    """A root move with its playouts and its estimated share of the win (an analysis line)."""

    move: Command
    playouts: int
    win_share: float


def move_key(mover: Seat, move: Command) -> str:
    return f"{mover}:{move!r}"


class SearchBot(RandomBot):
    name = "search"

    def __init__(
        self,
        seed: bytes,
        playouts: int = DEFAULT_PLAYOUTS,
        seconds: float | None = None,
        clock: Callable[[], float] | None = None,
        rollout: int | None = None,
        exploration: float = EXPLORATION,
        root_width: int | None = ROOT_WIDTH,
    ) -> None:
        super().__init__(seed)
        if seconds is not None and clock is None:
            raise ValueError("a time budget needs the clock to measure it by")
        self.playouts = playouts
        self.seconds = seconds
        self.clock = clock
        self.rollout = rollout  # None: the game's ``playout_depth``
        self.exploration = exploration
        self.root_width = root_width  # None: search every root move
        self.last_playouts = 0  # of the last decision, for benchmarks

    def choose(self, game: GameDefinition[Any], state: Any, seat: Seat) -> Command:
        return self.analyse(game, state, seat)[0].move

    def analyse(self, game: GameDefinition[Any], state: Any, seat: Seat) -> list[MoveEstimate]:
        """The seat's moves, most searched first, with their playouts and estimated win shares."""
        first = game.sample_state(state, seat, self.rng)
        root_moves = list(game.legal_moves(first, seat, self.rng))
        if not root_moves:
            raise RuntimeError(f"{game.id}: seat {seat} is awaited but has no legal move")
        if len(root_moves) == 1:
            self.last_playouts = 0
            return [MoveEstimate(root_moves[0], 0, 0.0)]
        # Only where the evaluation sees far enough to judge a move one ply ahead (no random playouts)
        if self.root_width is not None and len(root_moves) > self.root_width and not game.playout_depth:
            root_moves = self._promising(game, first, seat, root_moves)
        root = self._grow(game, state, seat, first, root_moves)
        ranked = sorted(root.children.values(), key=lambda n: (n.visits, n.reward / max(n.visits, 1)), reverse=True)
        return [MoveEstimate(n.move, n.visits, n.reward / max(n.visits, 1)) for n in ranked if n.move is not None]

    def _grow(self, game: GameDefinition[Any], state: Any, seat: Seat, first: Any, root_moves: list[Command]) -> Node:
        """The tree of the budget's playouts over ``root_moves``, the first on the sample ``first``."""
        root = Node(seat)
        deadline = None if self.seconds is None or self.clock is None else self.clock() + self.seconds
        done = 0
        while done < self.playouts:
            if deadline is not None and self.clock is not None and done and self.clock() >= deadline:
                break
            sample = first if done == 0 else game.sample_state(state, seat, self.rng)
            self._playout(game, sample, seat, root, root_moves)
            done += 1
        self.last_playouts = done
        return root

    def _promising(self, game: GameDefinition[Any], known: Any, seat: Seat, moves: list[Command]) -> list[Command]:
        """The ``root_width`` moves the evaluation likes best one ply ahead (greedy's view): a budget
        spread over dozens of moves would see each about once, and learn nothing deeper."""
        valued = one_ply(game, known, seat, moves, self.rng)
        best = sorted(valued, key=lambda item: item[2], reverse=True)[: self.root_width]
        return [move for move, _, _ in best] or moves

    def _playout(
        self, game: GameDefinition[Any], sample: Any, seat: Seat, root: Node, root_moves: list[Command]
    ) -> None:
        node = root
        path: list[Node] = []
        expanded = False
        while not expanded and not game.is_over(sample):
            awaited = game.awaited(sample)
            if not awaited:
                break
            if node is root:
                mover, moves = seat, root_moves
            else:
                mover = min(awaited)
                if mover != seat and game.greedy_turns(sample):  # the turns to come are played greedily
                    break
                moves = game.legal_moves(sample, mover, self.rng)
                if not moves:
                    break
            child = self._select(node, mover, moves)
            if child.visits == 0:
                expanded = True
            try:
                assert child.move is not None
                sample, _ = engine.execute(game, sample, mover, child.move, self.rng)
            except RuleViolation:  # refused in this sample: the playout ends where it stands
                break
            path.append(child)
            node = child
        sample = self._roll_out(game, sample)
        value = position_value(game, sample)
        for visited in path:
            visited.visits += 1
            visited.reward += value[visited.mover]

    def _select(self, node: Node, mover: Seat, moves: list[Command]) -> Node:
        """An untried move at random, else the available child with the highest UCB."""
        untried: list[tuple[str, Command]] = []
        available: list[Node] = []
        children = node.children
        for move in moves:
            key = move_key(mover, move)
            child = children.get(key)
            if child is None:
                untried.append((key, move))
            else:
                child.available += 1
                available.append(child)
        if untried:
            key, move = untried[self._below(len(untried))]
            child = Node(mover, move, available=1)
            children[key] = child
            return child
        c = self.exploration
        best, best_score = available[0], -1.0
        for child in available:
            if child.visits == 0:
                return child
            score = child.reward / child.visits + c * math.sqrt(math.log(child.available) / child.visits)
            if score > best_score:
                best, best_score = child, score
        return best

    def _roll_out(self, game: GameDefinition[Any], sample: Any) -> Any:
        return self._greedy_turns(game, self._finish_turn(game, self._random_moves(game, sample)))

    def _finish_turn(self, game: GameDefinition[Any], sample: Any) -> Any:
        """The rest of a turn that has begun, played greedily (``GameDefinition.turn_underway``):
        a position halfway through a seat's turn is not judged by what its evaluation sees."""
        for _ in range(TURN_STEPS):
            seat = game.turn_underway(sample)
            if seat is None or game.is_over(sample):
                break
            sample, moved = self._greedy_move(game, sample, seat)
            if not moved:
                break
        return sample

    def _greedy_turns(self, game: GameDefinition[Any], sample: Any) -> Any:
        """The game's ``greedy_turns`` whole turns to come, each seat's by greedy's choice: a greedy
        move, then the turn it begins finished greedily (where the next turns decide more than the
        evaluation sees: Alexandros near its end)."""
        for _ in range(game.greedy_turns(sample)):
            if game.is_over(sample):
                break
            awaited = game.awaited(sample)
            if not awaited:
                break
            sample, moved = self._greedy_move(game, sample, min(awaited), TURN_WIDTH)
            if not moved:
                break
            sample = self._finish_turn(game, sample)
        return sample

    def _greedy_move(
        self, game: GameDefinition[Any], sample: Any, seat: Seat, width: int | None = None
    ) -> tuple[Any, bool]:
        """The state after the seat's move that the evaluation likes best one ply ahead (greedy's),
        and whether there was one; among ``width`` of the moves drawn at random where there are more
        (an Alexandros move has dozens of routes, and each playout would judge them all)."""
        moves = list(game.legal_moves(sample, seat, self.rng))
        if width is not None:
            for k in range(min(width, len(moves))):  # the first ``width`` of a partial shuffle
                pick = k + self._below(len(moves) - k)
                moves[k], moves[pick] = moves[pick], moves[k]
            moves = moves[:width]
        valued = one_ply(game, sample, seat, moves, self.rng)
        if not valued:
            return sample, False
        return max(valued, key=lambda item: item[2])[1], True

    def _random_moves(self, game: GameDefinition[Any], sample: Any) -> Any:
        for _ in range(game.playout_depth if self.rollout is None else self.rollout):
            if game.is_over(sample):
                break
            awaited = game.awaited(sample)
            if not awaited:
                break
            mover = min(awaited)
            moves = game.legal_moves(sample, mover, self.rng)
            if not moves:
                break
            try:
                sample, _ = engine.execute(game, sample, mover, moves[self._below(len(moves))], self.rng)
            except RuleViolation:
                break
        return sample
