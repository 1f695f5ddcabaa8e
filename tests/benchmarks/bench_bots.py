"""How strong the bots are: win rates of ``search`` against ``random`` and ``greedy``, with 95 % (Wilson)
intervals, the strong seat rotated game by game, at a stated budget of playouts per decision; and the
search's speed beside the engine's random playouts.

    python -m tests.benchmarks.bench_bots [games per cell] [playouts per decision] [game ...]
        [--first-game N] [--cell OPPONENT:PLAYERS]
    python -m tests.benchmarks.bench_bots 0 0 [game ...]   # the random playouts' rate alone

``--first-game N`` plays games N to N + games - 1 of each cell (the same seeds as in a longer run:
``bench_bots 100 100 alexandros --first-game 60`` plays the last 40 games of ``bench_bots 100 100
alexandros``'s cells, and 60 games more); ``--cell greedy:3`` plays that cell alone.

Cells: every game at 3 players, search against two random (target >= 90 %) and against two greedy
(>= 60 %); at 2 players where the game allows, search against greedy (>= 70 %). A shared win counts
as a share (1/k to each of k winners). A budget in playouts is deterministic: the same command prints
the same win rates; the times depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import math
import time
from dataclasses import dataclass, field
from typing import Any

from domain.catalog import GAMES
from domain.kernel.bots import Bot, make_bot, play_bot_game, play_random_game
from domain.kernel.game import GameDefinition
from domain.kernel.messages import Command
from domain.kernel.search import SearchBot
from domain.kernel.seats import Seat

GAMES_ORDER = ("peloponnes", "empire_builder", "alexandros", "catan_alexander")
CELLS = (("random", 3, 0.90), ("greedy", 3, 0.60), ("greedy", 2, 0.70))


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % interval of a win rate (Wilson's score interval)."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class Cell:
    game: str
    opponent: str
    players: int
    target: float
    wins: float = 0.0
    games: int = 0
    decisions: int = 0  # the search's decisions with a choice (a lone move is not searched)
    playouts: int = 0
    search_seconds: float = 0.0
    seconds: float = 0.0
    scores: list[float] = field(default_factory=list)

    def line(self) -> str:
        low, high = wilson(self.wins, self.games)
        rate = self.wins / self.games if self.games else 0.0
        verdict = "meets" if low >= self.target else ("below" if high < self.target else "undecided")
        per_decision = self.search_seconds / self.decisions * 1000 if self.decisions else 0.0
        playout_rate = self.playouts / self.search_seconds if self.search_seconds else 0.0
        return (
            f"| {self.game} | {self.players} | search vs {self.players - 1} {self.opponent} | {self.games} | "
            f"{rate:.0%} [{low:.0%}, {high:.0%}] | >= {self.target:.0%} ({verdict}) | "
            f"{per_decision:.0f} ms | {playout_rate:,.0f} |"
        )


class TimedSearch(SearchBot):
    """The search bot, counting its decisions, playouts and thinking time for the table."""

    def __init__(self, seed: bytes, playouts: int, cell: Cell) -> None:
        super().__init__(seed, playouts=playouts)
        self.cell = cell

    def choose(self, game: GameDefinition[Any], state: Any, seat: Seat) -> Command:
        began = time.process_time()
        move = super().choose(game, state, seat)
        if self.last_playouts:
            self.cell.decisions += 1
            self.cell.playouts += self.last_playouts
            self.cell.search_seconds += time.process_time() - began
        return move


def play_cell(cell: Cell, games: int, playouts: int, first: int = 0) -> Cell:
    game = GAMES.get(cell.game)
    began = time.process_time()
    for number in range(first, first + games):
        strong = number % cell.players  # the strong seat rotates
        bots: list[Bot] = [
            TimedSearch(f"bench-search-{number}".encode(), playouts, cell)
            if seat == strong
            else make_bot(cell.opponent, f"bench-{cell.opponent}-{number}-{seat}".encode())
            for seat in range(cell.players)
        ]
        played = play_bot_game(game, bots, seed=f"bench-bots-{cell.game}-{cell.players}-{number}".encode())
        board = game.scoreboard(played.state)
        if strong in board.winners:
            cell.wins += 1 / len(board.winners)
        cell.games += 1
        cell.scores.append(float(board.scores[strong]))
    cell.seconds = time.process_time() - began
    return cell


def main() -> None:
    parser = argparse.ArgumentParser(description="win rates of the search bot against random and greedy bots")
    parser.add_argument("games", nargs="?", type=int, default=20, help="games per cell")
    parser.add_argument("playouts", nargs="?", type=int, default=100, help="playouts per decision")
    parser.add_argument("game_ids", nargs="*", metavar="game", help="the games (all four by default)")
    parser.add_argument("--first-game", type=int, default=0, help="the first game's number (its seeds)")
    parser.add_argument("--cell", help="one cell only, as OPPONENT:PLAYERS (greedy:3)")
    args = parser.parse_args()
    chosen = args.game_ids or list(GAMES_ORDER)
    cells = [cell for cell in CELLS if args.cell is None or f"{cell[0]}:{cell[1]}" == args.cell]
    if not cells:
        parser.error(f"--cell must be one of {', '.join(f'{o}:{p}' for o, p, _ in CELLS)}")
    games, playouts = args.games, args.playouts
    print(
        f"search at {playouts} playouts per decision, {games} games per cell from game {args.first_game}, "
        "the strong seat rotated (CPU time)"
    )
    print("| game | players | match | games | search's win rate [95 %] | target | per decision | playouts/s |")
    print("|---|---|---|---|---|---|---|---|")
    for game_id in chosen if games else ():
        definition = GAMES.get(game_id)
        for opponent, players, target in cells:
            if not definition.min_players <= players <= definition.max_players:
                continue
            cell = play_cell(Cell(game_id, opponent, players, target), games, playouts, args.first_game)
            print(cell.line(), flush=True)
    print()
    print("the engine's own random playouts (full random games on the pure functions, 3 players, CPU time):")
    for game_id in chosen:
        games_per_second, commands_per_second = random_rate(game_id)
        print(f"  {game_id}: {games_per_second:.1f} random games/s, {commands_per_second:,.0f} commands/s")


def random_rate(game_id: str, seconds: float = 2.0) -> tuple[float, float]:
    """Random games and their commands per CPU second (the machine's other load does not count)."""
    game = GAMES.get(game_id)
    games = commands = 0
    began = time.process_time()
    while time.process_time() - began < seconds:
        commands += len(play_random_game(game, 3, seed=f"bench-random-{games}".encode()).commands)
        games += 1
    spent = time.process_time() - began
    return games / spent, commands / spent


if __name__ == "__main__":
    main()
