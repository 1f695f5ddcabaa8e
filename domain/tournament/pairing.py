"""Seating a round: who plays whom (Swiss or a balanced schedule), who sits out, and in which seat.

Everything here is a pure function of the tournament so far and a seed derived from the master
seed, so the verifier can seat every round again and compare.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations, permutations

from domain.kernel.chance import Chance

Player = int

# How many partial seatings the search for fewer repeat meetings may try per round: enough to
# find a repeat-free round where one exists in the usual sizes, bounded so seating stays quick.
SEARCH_BUDGET = 20_000
WINDOW = 16  # a table is filled from the next WINDOW players in order (and the greedy pick beyond)


@dataclass(frozen=True)
class Seating:
    tables: list[list[Player]]  # each table's players in seat order
    byes: list[Player]


def meetings(tables_so_far: Sequence[Sequence[Player]]) -> Counter[tuple[Player, Player]]:
    """How often each pair of players has sat at one table."""
    met: Counter[tuple[Player, Player]] = Counter()
    for table in tables_so_far:
        for a, b in combinations(sorted(table), 2):
            met[(a, b)] += 1
    return met


def _pair(a: Player, b: Player) -> tuple[Player, Player]:
    return (a, b) if a < b else (b, a)


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
    options: list[tuple[int, list[int], list[Player]]] = []
    for members in combinations(window, table_size - 1):
        cost = sum(met[_pair(a, b)] for a, b in combinations((anchor, *members), 2))
        options.append((cost, [rest.index(m) for m in members], list(members)))
    options.sort(key=lambda o: (o[0], o[1]))
    chosen = [(cost, members) for cost, _, members in options[:limit]]
    if len(window) < len(rest):
        # Beyond the window, the greedy fill by repeats then order (keeps far players reachable).
        greedy: list[Player] = [anchor]
        pool = list(rest)
        while len(greedy) < table_size:
            pick = min(pool, key=lambda p: (sum(met[_pair(p, q)] for q in greedy), pool.index(p)))
            greedy.append(pick)
            pool.remove(pick)
        cost = sum(met[_pair(a, b)] for a, b in combinations(greedy, 2))
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


def _repeat_free_groupings(
    remaining: list[Player], table_size: int, met: Counter[tuple[Player, Player]], nodes: list[int], budget: int
) -> list[list[list[Player]]]:
    """Up to a few groupings of ``remaining`` into tables where nobody meets anyone again."""
    if not remaining:
        return [[]]
    found: list[list[list[Player]]] = []
    anchor, rest = remaining[0], remaining[1:]
    for members in combinations(rest, table_size - 1):
        nodes[0] += 1
        if nodes[0] > budget:
            break
        table = (anchor, *members)
        if any(met[_pair(a, b)] for a, b in combinations(table, 2)):
            continue
        taken = set(members)
        for tail in _repeat_free_groupings([p for p in rest if p not in taken], table_size, met, nodes, budget):
            found.append([list(table), *tail])
            if len(found) >= 3:
                return found
    return found


def plan_balanced(
    players: Sequence[Player], table_size: int, byes_by_round: Sequence[Sequence[Player]], seed: bytes
) -> list[list[list[Player]]] | None:
    """A whole balanced schedule (tables per round, seat order not yet chosen) in which nobody
    meets anyone twice, found by a bounded search across rounds; None when none was found."""
    nodes = [0]
    budget = SEARCH_BUDGET * 5
    rng = Chance(seed)

    def search(round_index: int, met: Counter[tuple[Player, Player]]) -> list[list[list[Player]]] | None:
        if round_index == len(byes_by_round):
            return []
        order = rng.shuffle(
            f"plan:{round_index}:{nodes[0]}", [p for p in players if p not in byes_by_round[round_index]]
        )
        for grouping in _repeat_free_groupings(order, table_size, met, nodes, budget):
            later = search(round_index + 1, met + meetings(grouping))
            if later is not None:
                return [grouping, *later]
            if nodes[0] > budget:
                return None
        return None

    return search(0, Counter())
