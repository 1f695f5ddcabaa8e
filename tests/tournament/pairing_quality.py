"""How good a tournament's pairings are, measured on seeded events seated by the pure rules with
made-up results: repeat meetings (and those a repeat-free seating of the round, or of the round
before and it, would have avoided), seat balance, the colour rule at 2-player tables, the spread
of each table in the standings, and byes. For the pairing tests and the pairing benchmark."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from itertools import permutations
from typing import Any

from domain.tournament.log import TournamentLog
from domain.tournament.pairing import meetings
from domain.tournament.pairing_v2 import Budget, pair, partitions
from tests.tournament.simulated import simulate

CHECK_NODES = 400_000  # the measure's own searches: far beyond the seating's budgets
PERFECT_NODES = 2_000_000  # the search for a perfect seat assignment over an event's tables


@dataclass
class Quality:
    repeats: int = 0  # repeat meetings (each pair's meetings after its first)
    avoidable: int = 0  # in rounds a repeat-free seating of the round (given those before) avoided
    lookahead_avoidable: int = 0  # in rounds a repeat-free seating of it and the round before avoided
    players: int = 0
    off_by_more: int = 0  # players with a seat count more than one from perfect (games / seats)
    imperfect: int = 0  # players who played a multiple of the table size, not every seat equally often
    perfect_exists: bool = True  # some seat orders of the same tables give all those players every seat equally
    imperfect_avoidable: int = 0  # the imperfect players when perfect_exists, else 0
    three_running: int = 0  # at 2-player tables: a player in the same seat three games running
    spread: list[int] = field(default_factory=list)  # each table's spread in the standings before its round
    byes: int = 0


@dataclass
class Event:
    log: TournamentLog
    orders: list[list[int]]  # the standings' order before each round
    quality: Quality


def play(players: int, rounds: int, table_size: int, seed: str, format_: str = "swiss", **settings: Any) -> Event:
    """Seat every round by the rules; each game's scores drawn at random (ties happen)."""
    orders: list[list[int]] = []
    log = simulate(players, rounds, table_size, format_, seed, orders=orders, **settings)
    return Event(log, orders, measure(log, orders))


def _repeat_free_exists(players: list[int], sizes: list[int], met: Counter[tuple[int, int]]) -> bool:
    def free(a: int, b: int) -> bool:
        return not met[pair(a, b)]

    found = partitions(players, sizes, free, lambda _: True, Budget(CHECK_NODES), constrained=True, any_size=True)
    return next(found, None) is not None


def _two_rounds_free(
    first: tuple[list[int], list[int]], second: tuple[list[int], list[int]], met: Counter[tuple[int, int]]
) -> bool:
    """Whether some repeat-free seating of a round leaves a repeat-free seating of the next."""
    budget = Budget(CHECK_NODES)

    def free(a: int, b: int) -> bool:
        return not met[pair(a, b)]

    for grouping in partitions(first[0], first[1], free, lambda _: True, budget, any_size=True):
        if _repeat_free_exists(second[0], second[1], met + meetings(grouping)):
            return True
        if budget.spent:
            return False
    return False


def measure(log: TournamentLog, orders: list[list[int]]) -> Quality:
    state = log.state
    quality = Quality(players=len(state.names), byes=len(state.all_byes()))
    met: Counter[tuple[int, int]] = Counter()
    seated: list[tuple[list[int], list[int]]] = []  # each round's players and table sizes
    befores: list[Counter[tuple[int, int]]] = []
    for number, tables in enumerate(state.rounds):
        groups = [t.players for t in tables]
        in_round = meetings(groups)
        repeats = sum(n for key, n in in_round.items() if met[key])
        quality.repeats += repeats
        players = [p for g in groups for p in g]
        sizes = sorted((len(g) for g in groups), reverse=True)
        seated.append((players, sizes))
        befores.append(Counter(met))
        if repeats:
            if _repeat_free_exists(players, sizes, met):
                quality.avoidable += repeats
            elif number and _two_rounds_free(seated[number - 1], seated[number], befores[number - 1]):
                quality.lookahead_avoidable += repeats
        rank = {p: i for i, p in enumerate(orders[number])}
        quality.spread += [max(rank[p] for p in g) - min(rank[p] for p in g) for g in groups]
        met += in_round
    seats: dict[int, list[int]] = {}
    sizes_of: dict[int, set[int]] = {}
    for table in state.tables():
        for seat, player in enumerate(table.players):
            seats.setdefault(player, []).append(seat)
            sizes_of.setdefault(player, set()).add(len(table.players))
    counted: dict[int, int] = {}  # the players perfect balance applies to: games per seat
    for player, history in seats.items():
        if len(sizes_of[player]) != 1:
            continue  # seats at tables of different sizes are not compared
        size = next(iter(sizes_of[player]))
        counts = Counter(history)
        spread = max(counts[s] for s in range(size)) - min(counts[s] for s in range(size))
        quality.off_by_more += any(abs(counts[s] - len(history) / size) > 1 for s in range(size))
        if len(history) % size == 0:
            counted[player] = len(history) // size
            quality.imperfect += spread > 0
        if size == 2:
            quality.three_running += any(
                history[i] == history[i + 1] == history[i + 2] for i in range(len(history) - 2)
            )
    quality.perfect_exists = perfect_seats_exist([t.players for t in state.tables()], counted)
    quality.imperfect_avoidable = quality.imperfect if quality.perfect_exists else 0
    return quality


def perfect_seats_exist(tables: list[list[int]], counted: dict[int, int]) -> bool:
    """Whether some seat order of every one of ``tables`` (the same players at each) gives each
    ``counted`` player every seat of their tables exactly ``counted[player]`` times (the others
    anywhere), by a search (one too long to finish counts as finding them). Since a counted
    player plays at tables of one size only, such orders always exist: the counted players and
    the tables of each size form a bipartite graph, whose edges König's theorem colours with as
    many colours (seats) as a table has; the search confirms it event by event."""
    left = {p: Counter({s: n for s in range(len(next(t for t in tables if p in t)))}) for p, n in counted.items()}
    # The most constrained tables (most counted players) first.
    ordered = sorted(tables, key=lambda t: -sum(1 for p in t if p in counted))
    budget = Budget(PERFECT_NODES)

    def search(index: int) -> bool:
        if index == len(ordered):
            return True
        table = ordered[index]
        for order in permutations(table):
            if not budget.tick():
                return True
            if any(p in left and not left[p][seat] for seat, p in enumerate(order)):
                continue
            for seat, p in enumerate(order):
                if p in left:
                    left[p][seat] -= 1
            found = search(index + 1)
            for seat, p in enumerate(order):
                if p in left:
                    left[p][seat] += 1
            if found:
                return True
        return False

    return search(0)
