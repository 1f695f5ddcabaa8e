"""Seating a round: who plays whom (Swiss or a balanced schedule), who sits out, and in which seat.

Everything here is a pure function of the tournament so far and a seed derived from the master
seed, so the verifier can seat every round again and compare.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, permutations

from domain.kernel.chance import Chance

Player = int

# How many partial seatings the search for fewer repeat meetings may try per round: enough to
# find a repeat-free round where one exists in the usual sizes, bounded so seating stays quick.
SEARCH_BUDGET = 20_000
GROUPING_BUDGET = 20  # partial groupings tried per round of the schedule search
PLAN_BUDGET = 60  # rounds tried in the search for a whole balanced schedule
WINDOW = 16  # a table is filled from the next WINDOW players in order (and the greedy pick beyond)


@dataclass(frozen=True)
class Seating:
    tables: list[list[Player]]  # each table's players in seat order
    byes: list[Player]
    reason: str | None = None  # the organiser's reason, for a manual seating


def meetings(tables_so_far: Sequence[Sequence[Player]]) -> Counter[tuple[Player, Player]]:
    """How often each pair of players has sat at one table."""
    met: Counter[tuple[Player, Player]] = Counter()
    for table in tables_so_far:
        for a, b in combinations(sorted(table), 2):
            met[(a, b)] += 1
    return met


def _pair(a: Player, b: Player) -> tuple[Player, Player]:
    return (a, b) if a < b else (b, a)


def _repeats(table: Sequence[Player], met: Counter[tuple[Player, Player]]) -> int:
    """How many pairs at the table have met before: each is an opponent nobody gains."""
    return sum(1 for a, b in combinations(table, 2) if met[_pair(a, b)])


def choose_byes(order: Sequence[Player], table_size: int, byes_so_far: Counter[Player]) -> list[Player]:
    """Who sits out when the players do not divide into full tables: those with the fewest byes
    so far, and among them the last in ``order`` (in Swiss: the lowest in the standings)."""
    count = len(order) % table_size
    if count == 0:
        return []
    ranked = sorted(range(len(order)), key=lambda i: (byes_so_far[order[i]], -i))
    return sorted((order[i] for i in ranked[:count]), key=order.index)


def group_tables(
    order: Sequence[Player], table_size: int, met: Counter[tuple[Player, Player]], budget: int = SEARCH_BUDGET
) -> list[list[Player]]:
    """Split ``order`` (its length a multiple of ``table_size``) into tables with as few repeat
    meetings as possible, keeping players close to their neighbours in ``order``.

    The first table found is the greedy one (each table anchored by the first player left, filled
    with the first players left who add the fewest repeats); then a bounded depth-first search
    looks for fewer repeats, and takes a seating only when it is strictly better.
    """
    best: list[list[Player]] = []
    best_cost = [float("inf")]
    nodes = [0]

    def search(remaining: list[Player], tables: list[list[Player]], cost: int) -> None:
        if cost >= best_cost[0] or nodes[0] > budget:
            return
        nodes[0] += 1
        if not remaining:
            best[:] = [list(t) for t in tables]
            best_cost[0] = cost
            return
        anchor, rest = remaining[0], remaining[1:]
        for extra_cost, members in _completions(anchor, rest, table_size, met):
            if cost + extra_cost >= best_cost[0]:
                continue
            taken = set(members)
            search([p for p in rest if p not in taken], [*tables, [anchor, *members]], cost + extra_cost)
            if best_cost[0] == 0 or nodes[0] > budget:
                return

    search(list(order), [], 0)
    return best


def _completions(
    anchor: Player, rest: list[Player], table_size: int, met: Counter[tuple[Player, Player]], limit: int = 60
) -> list[tuple[int, list[Player]]]:
    """Ways to fill the anchor's table from ``rest``, fewest repeats first, then nearest in order."""
    window = rest[:WINDOW] if len(rest) > WINDOW else rest
    # Pairs of the window that met before, and which window players met the anchor: the cost of a
    # filling is then a few set look-ups instead of a count over every pair.
    met_anchor = {i for i, p in enumerate(window) if met[_pair(anchor, p)]}
    met_pairs = {(i, j) for i, j in combinations(range(len(window)), 2) if met[_pair(window[i], window[j])]}
    options: list[tuple[int, tuple[int, ...]]] = []
    for picked in combinations(range(len(window)), table_size - 1):
        cost = sum(1 for i in picked if i in met_anchor) + sum(
            1 for pair in combinations(picked, 2) if pair in met_pairs
        )
        options.append((cost, picked))
    options.sort()
    chosen = [(cost, [window[i] for i in picked]) for cost, picked in options[:limit]]
    if len(window) < len(rest):
        # Beyond the window, the greedy fill by repeats then order (keeps far players reachable).
        greedy: list[Player] = [anchor]
        pool = list(rest)
        while len(greedy) < table_size:
            pick = min(pool, key=lambda p: (sum(1 for q in greedy if met[_pair(p, q)]), pool.index(p)))
            greedy.append(pick)
            pool.remove(pick)
        cost = _repeats(greedy, met)
        if greedy[1:] not in [m for _, m in chosen]:
            chosen.append((cost, greedy[1:]))
            chosen.sort(key=lambda o: o[0])
    return chosen


def seat_order(
    table: Sequence[Player], seat_counts: dict[Player, Counter[int]], rng: Chance, purpose: str
) -> list[Player]:
    """The table's players in seat order, balancing each player's seat positions across rounds.

    Of all orders, the one whose fullest seat (how often a player has now sat there) is lowest,
    then with the fewest repeats of a seat a player has had, then the first in a seeded shuffle.
    """
    orders: list[tuple[Player, ...]] = rng.shuffle(purpose, list(permutations(table)))

    def cost(order: Sequence[Player]) -> tuple[int, int]:
        counts = [seat_counts[p][seat] for seat, p in enumerate(order)]
        return max(counts), sum(c * c for c in counts)

    best = min(orders, key=cost)
    return list(best)


def seat_round(
    order: Sequence[Player],
    table_size: int,
    tables_so_far: Sequence[Sequence[Player]],
    byes_so_far: Counter[Player],
    seat_counts: dict[Player, Counter[int]],
    seed: bytes,
) -> Seating:
    """Seat one round: byes, then tables from ``order``, then each table's seat order."""
    byes = choose_byes(order, table_size, byes_so_far)
    playing = [p for p in order if p not in byes]
    tables = group_tables(playing, table_size, meetings(tables_so_far))
    rng = Chance(seed)
    seated = [seat_order(t, seat_counts, rng, f"seats:{i}") for i, t in enumerate(tables)]
    return Seating(tables=seated, byes=byes)


def seeded_order(players: Sequence[Player], seed: bytes) -> list[Player]:
    return Chance(seed).shuffle("order", list(players))


def _groupings(
    remaining: list[Player], table_size: int, met: Counter[tuple[Player, Player]], budget: int, keep: int
) -> list[tuple[int, list[list[Player]]]]:
    """Up to ``keep`` of the groupings of ``remaining`` into tables with the fewest repeat
    meetings, found best-first (each table's fillings tried fewest repeats first) within ``budget``."""
    found: list[tuple[int, list[list[Player]]]] = []
    nodes = [0]

    def search(rest: list[Player], tables: list[list[Player]], cost: int) -> None:
        if nodes[0] > budget or (len(found) >= keep and cost >= found[-1][0]):
            return
        nodes[0] += 1
        if not rest:
            found.append((cost, [list(t) for t in tables]))
            found.sort(key=lambda f: f[0])
            del found[keep:]
            return
        anchor, others = rest[0], rest[1:]
        for extra, members in _completions(anchor, others, table_size, met):
            taken = set(members)
            search([p for p in others if p not in taken], [*tables, [anchor, *members]], cost + extra)
            if found and found[0][0] == 0 and len(found) >= keep:
                return

    search(remaining, [], 0)
    return found


@lru_cache(maxsize=64)  # a pure function, asked once per round of the same tournament
def plan_balanced(
    players: tuple[Player, ...], table_size: int, byes_by_round: tuple[tuple[Player, ...], ...], seed: bytes
) -> list[list[list[Player]]]:
    """A whole balanced schedule (each round's tables, seat order not yet chosen) with as few
    repeat meetings as a bounded search across all rounds finds: none where that is possible.

    Callers must not change the result (it is cached)."""
    rng = Chance(seed)
    orders = [rng.shuffle(f"plan:{r}", [p for p in players if p not in byes]) for r, byes in enumerate(byes_by_round)]
    free = _repeat_free_plan(orders, table_size)
    if free is not None:
        return free
    # The round-by-round seating is the bound to beat (what Swiss does with a fixed order).
    best: list[list[list[Player]]] = []
    met: Counter[tuple[Player, Player]] = Counter()
    for order in orders:
        grouping = group_tables(order, table_size, met)
        best.append(grouping)
        met += meetings(grouping)
    best_cost = [float(sum(count - 1 for count in met.values()))]
    nodes = [0]
    budget = PLAN_BUDGET

    def search(
        round_index: int, met: Counter[tuple[Player, Player]], plan: list[list[list[Player]]], cost: int
    ) -> None:
        if cost >= best_cost[0] or nodes[0] > budget:
            return
        if round_index == len(orders):
            best[:] = plan
            best_cost[0] = cost
            return
        keep = 1 if round_index == 0 else 6  # the first round's choice is a relabelling
        for extra, grouping in _groupings(orders[round_index], table_size, met, GROUPING_BUDGET, keep=keep):
            nodes[0] += 1
            search(round_index + 1, met + meetings(grouping), [*plan, grouping], cost + extra)
            if best_cost[0] == 0 or nodes[0] > budget:
                return

    search(0, Counter(), [], 0)
    return best


def _repeat_free_plan(orders: list[list[Player]], table_size: int) -> list[list[list[Player]]] | None:
    """A schedule in which nobody meets anyone twice, by a quick search across rounds; None if none turned up."""
    nodes = [0]
    budget = SEARCH_BUDGET * 5

    def groupings(remaining: list[Player], met: Counter[tuple[Player, Player]]) -> Iterator[list[list[Player]]]:
        if not remaining:
            yield []
            return
        anchor, rest = remaining[0], remaining[1:]
        for members in combinations(rest, table_size - 1):
            nodes[0] += 1
            if nodes[0] > budget:
                return
            table = (anchor, *members)
            if _repeats(table, met):
                continue
            taken = set(members)
            for tail in groupings([p for p in rest if p not in taken], met):
                yield [list(table), *tail]

    def search(round_index: int, met: Counter[tuple[Player, Player]]) -> list[list[list[Player]]] | None:
        if round_index == len(orders):
            return []
        for grouping in groupings(orders[round_index], met):
            later = search(round_index + 1, met + meetings(grouping))
            if later is not None:
                return [grouping, *later]
            if nodes[0] > budget:
                return None
        return None

    return search(0, Counter())
