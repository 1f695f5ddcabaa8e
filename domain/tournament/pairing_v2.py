"""Seating a round by pairing rules 2 and 3: tables of mixed sizes instead of byes, no repeat
meeting a repeat-free seating of the round avoids (nor one a round of lookahead avoids),
forbidden pairs honoured, seats balanced as an assignment, and the colour rule of 2-player tables.

Every choice is a pure function of the tournament so far and the round's seed, as in rule 1
(``domain.tournament.pairing``, kept as it is for the tournaments recorded with it), so the
verifier seats every round again and compares. Rule 2 is kept as it was for the tournaments
recorded with it; rule 3 (``rule=3``) is rule 2 with a lookahead that sees further:

The search, in the spirit of FIDE's Dutch system and lichess Swiss (absolute criteria first, then
the closest pairing in the standings): the players in order (the standings, or a seeded order),
each table anchored by the first player left and filled with the nearest players left who fit;
a grouping is taken from the first of these tiers that has one:

1. no repeat meeting, no forbidden pair, every seat a seat the player has had least, and (when a
   round follows) a repeat-free seating of the next round with every seat least used still possible;
2. the same with the next round repeat-free only; then with this round's seats relaxed to the
   colour rule (no seat three rounds running at 2, none more than one above perfect);
3. the same without the lookahead;
4. any repeat-free seating (the hardest-placed player seated first), with the colour rule, then without;
5. fewest repeat meetings (a bounded branch and bound), forbidden pairs as a heavy cost.

Rule 3's lookahead (tiers 1 and 2) first asks, when a round follows the next, that the next
round's repeat-free seating leave the round after it repeat-free too (with every seat least used
in the tier that asks for it); then as rule 2. Where seats are to come out perfectly balanced
(rounds a multiple of the table size), it tries this round's equally good seat orders (up to
SEAT_ALTERNATIVES), not only the first, so that the next round's tables can seat each player at
their missing seat, and checks the next round's seats within one of perfect, as that round will
need them (rule 2 checks only that it is repeat-free).

Rule 4 (``rule=4``) is rule 3 for mixed table sizes; where every table so far and this round is
of one size it seats exactly as rule 3. Seats at tables of different sizes are not compared, so
it holds to perfect balance (the strict tiers, the first of a seat order's costs) only the
players who have sat at tables of this table's size alone; and its searches let a table's anchor
take any table size left, not only the next in turn, so that none misses a grouping (rule 3's
could: its lookahead found a next round that its search of that round, anchored in a new order,
did not, and its strict tiers, asking a least-used seat of everybody, spent their whole budgets).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations, permutations, product

from domain.kernel.chance import Chance
from domain.tournament.pairing import Seating, meetings

Player = int
Pair = tuple[Player, Player]
Compatible = Callable[[Player, Player], bool]
Fits = Callable[[Sequence[Player]], bool]

SEARCH_NODES = 30_000  # per tier: enough to prove a 16-player round has no repeat-free seating
LOOKAHEAD_NODES = 20_000  # each tier with lookahead, its next-round searches included
FALLBACK_NODES = 8_000  # the fewest-repeats search when no repeat-free seating turned up
SEAT_ALTERNATIVES = 64  # (rule 3) seat orders of a grouping the lookahead tries for the next round's seats
SEAT_LOOKAHEAD_NODES = 100_000  # (rule 3) each lookahead tier that plans this round's seats for the next's
SEAT_PLAN_NODES = 200_000  # a balanced schedule's seats planned across its remaining rounds
WINDOW = 12  # the fewest-repeats search fills a table from the next WINDOW players
FALLBACK_OPTIONS = 12  # fillings tried per table there, fewest repeats first
FORBIDDEN_COST = 1_000  # a forbidden pair outweighs any number of repeats
UNFIT_COST = 0.5  # a table breaking the colour rule: less than one repeat meeting


def pair(a: Player, b: Player) -> Pair:
    return (a, b) if a < b else (b, a)


class Budget:
    """A count of search steps, spent once it reaches its limit."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.used = 0

    def tick(self) -> bool:
        self.used += 1
        return self.used <= self.limit

    @property
    def spent(self) -> bool:
        return self.used > self.limit


def table_sizes(players: int, size: int, low: int, high: int) -> tuple[list[int], int]:
    """The round's table sizes (largest first) and how many sit out: no byes where tables of
    ``low`` to ``high`` seat everybody, with as few seats away from ``size`` as can be (then the
    more, smaller, tables); else as few byes as can be."""
    for byes in range(players + 1):
        seated = players - byes
        best: tuple[tuple[int, int], list[int]] | None = None
        for count in range(1, seated // low + 1):
            base, extra = divmod(seated, count)
            if base < low or base + (1 if extra else 0) > high:
                continue
            sizes = [base + 1] * extra + [base] * (count - extra)
            key = (sum(abs(s - size) for s in sizes), -count)
            if best is None or key < best[0]:
                best = (key, sizes)
        if best is not None:
            return best[1], byes
    return [], players


def choose_byes(order: Sequence[Player], count: int, byes_so_far: Counter[Player]) -> list[Player]:
    """Who sits out: those with the fewest byes so far, and among them the last in ``order``."""
    if count <= 0:
        return []
    ranked = sorted(range(len(order)), key=lambda i: (byes_so_far[order[i]], -i))
    chosen = {order[i] for i in ranked[:count]}
    return [p for p in order if p in chosen]


@dataclass(frozen=True)
class History:
    """What seating needs of the rounds so far: who met whom, each player's seats and (rule 4)
    the sizes of the tables they sat at."""

    met: Counter[Pair]
    seat_counts: dict[Player, Counter[int]]
    last_seats: dict[Player, list[int]]  # each player's seats in the games they played, in order
    # Rule 4: each player's table sizes so far, whose seats are held to perfect balance only where
    # they all were the table's size (``held_to_perfect``); None (rules 2 and 3): every player's are.
    sizes_played: dict[Player, frozenset[int]] | None = None

    @classmethod
    def of(cls, tables_so_far: Sequence[Sequence[Player]], by_size: bool = False) -> History:
        empty = cls(Counter(), {}, {}, {} if by_size else None)
        return empty.after(tables_so_far)

    def after(self, tables: Sequence[Sequence[Player]]) -> History:
        """The history once ``tables`` (in seat order) have been played too."""
        counts = {p: Counter(c) for p, c in self.seat_counts.items()}
        last = {p: list(seats) for p, seats in self.last_seats.items()}
        sizes = None if self.sizes_played is None else dict(self.sizes_played)
        for table in tables:
            for seat, player in enumerate(table):
                counts.setdefault(player, Counter())[seat] += 1
                last.setdefault(player, []).append(seat)
                if sizes is not None:
                    sizes[player] = sizes.get(player, frozenset()) | {len(table)}
        return History(self.met + meetings(tables), counts, last, sizes)

    def counts(self, player: Player) -> Counter[int]:
        """The player's seat counts (read only)."""
        return self.seat_counts.get(player, NO_SEATS)

    def held_to_perfect(self, player: Player, table_size: int) -> bool:
        """Whether the player's seats at a table of ``table_size`` are to come out every seat
        equally often: rule 4 holds to it only a player who has sat at tables of that size alone
        (seats at tables of different sizes are not compared, so once a player has sat at two
        sizes any seat serves them as well); rules 2 and 3 hold every player to it."""
        if self.sizes_played is None:
            return True
        return self.sizes_played.get(player, frozenset()) <= {table_size}

    def third_running(self, player: Player, seat: int, table_size: int) -> bool:
        """At a 2-player table: the seat the player had in both of their last two games."""
        last = self.last_seats.get(player, [])
        return table_size == 2 and len(last) >= 2 and last[-1] == seat and last[-2] == seat

    def seats_allowed(self, player: Player, table_size: int, strict: bool) -> frozenset[int]:
        """The seats of a table the player may take: none that would put the player's count of it
        more than one above perfect (games / seats), never a third running at 2 (FIDE's absolute
        colour rules); ``strict``: only a seat the player has had least of the table's seats."""
        counts = self.counts(player)
        least = min(counts[s] for s in range(table_size))
        perfect = (sum(counts.values()) + 1) / table_size
        strict = strict and self.held_to_perfect(player, table_size)
        return frozenset(
            s
            for s in range(table_size)
            if not self.third_running(player, s, table_size)
            and counts[s] + 1 <= perfect + 1
            and (not strict or counts[s] == least)
        )


NO_SEATS: Counter[int] = Counter()


def fits(history: History, strict: bool) -> Fits:
    """Whether a table has a seat order giving each player a seat they have had least
    (``strict``) or at least none they had in both of their last two games at a 2-player table."""
    allowed: dict[tuple[Player, int], frozenset[int]] = {}

    def seats(player: Player, size: int) -> frozenset[int]:
        key = (player, size)
        if key not in allowed:
            allowed[key] = history.seats_allowed(player, size, strict)
        return allowed[key]

    def check(table: Sequence[Player]) -> bool:
        return _assignable([seats(p, len(table)) for p in table], frozenset())

    return check


def _assignable(options: list[frozenset[int]], taken: frozenset[int]) -> bool:
    """Whether each entry of ``options`` can be given a seat of its own from its set."""
    if not options:
        return True
    first, rest = options[0], options[1:]
    return any(_assignable(rest, taken | {seat}) for seat in first - taken)


def seat_orders(table: Sequence[Player], history: History, rng: Chance, purpose: str) -> list[list[Player]]:
    """The table's seat orders (permutations of its players) at least cost first: no seat three
    rounds running at 2, then every player at a seat they have had least, then the lowest seat
    count, the fewest seats a player had last time, then a seeded shuffle; only those as good as
    the first on the first two (the alternatives a seat plan may choose among)."""
    orders: list[tuple[Player, ...]] = rng.shuffle(purpose, list(permutations(table)))
    size = len(table)
    rows = {p: [history.counts(p)[s] for s in range(size)] for p in table}
    least = {p: min(rows[p]) for p in table}
    running = {p: {s for s in range(size) if history.third_running(p, s, size)} for p in table}
    last = {p: history.last_seats.get(p, [None])[-1] for p in table}

    held = {p: history.held_to_perfect(p, size) for p in table}

    def cost(order: tuple[Player, ...]) -> tuple[int, int, int, int, int, int]:
        counts = [rows[p][seat] for seat, p in enumerate(order)]
        extra = [c - least[p] for c, p in zip(counts, order, strict=True)]
        # The players held to perfect balance first (rules 2 and 3: all of them), the others after.
        first = [e for e, p in zip(extra, order, strict=True) if held[p]]
        others = sum(e for e, p in zip(extra, order, strict=True) if not held[p])
        thirds = sum(1 for seat, p in enumerate(order) if seat in running[p])
        again = sum(1 for seat, p in enumerate(order) if last[p] == seat)
        return thirds, max(first, default=0), sum(first), others, max(counts) * 100 + again, sum(c * c for c in counts)

    ranked = sorted(orders, key=cost)  # stable: the first in the shuffle among equals
    best = cost(ranked[0])[:2]
    return [list(order) for order in ranked if cost(order)[:2] == best]


def seat_order(table: Sequence[Player], history: History, rng: Chance, purpose: str) -> list[Player]:
    """The table's players in seat order, as an assignment of players to seats at least cost
    (``seat_orders``' first)."""
    return seat_orders(table, history, rng, purpose)[0]


def partitions(
    order: Sequence[Player],
    sizes: Sequence[int],
    compatible: Compatible,
    fit: Fits,
    budget: Budget,
    constrained: bool = False,
    any_size: bool = False,
) -> Iterator[list[list[Player]]]:
    """Every grouping of ``order`` into tables of ``sizes`` (in turn) whose pairs are all
    ``compatible`` and whose tables ``fit``, nearest in order first: each table anchored by the
    first player left (``constrained``: the one with the fewest compatible players left, for a
    search that asks only whether a grouping exists), filled with the nearest compatible players
    left. ``any_size`` (rule 4): an anchor's table is the next of ``sizes`` or, after it, any
    other size left (the search then misses no grouping of mixed sizes: in turn, the first
    player could only ever sit at the larger tables). Stops when the budget is spent."""
    players = list(order)
    partners = {p: {q for q in players if q != p and compatible(p, q)} for p in players}

    def cliques(pool: list[Player], wanted: int) -> Iterator[tuple[Player, ...]]:
        if wanted == 0:
            yield ()
            return
        for i, member in enumerate(pool):
            if not budget.tick():
                return
            rest = [q for q in pool[i + 1 :] if q in partners[member]]
            if len(rest) < wanted - 1:
                continue
            for more in cliques(rest, wanted - 1):
                yield (member, *more)

    def feasible(left: list[Player], later: Sequence[int]) -> bool:
        if not later:
            return not left
        need = min(later) - 1
        present = set(left)
        return all(len(partners[p] & present) >= need for p in left)

    def tables(remaining: list[Player], later: tuple[int, ...]) -> Iterator[list[list[Player]]]:
        if not remaining:
            yield []
            return
        anchor = remaining[0]
        if constrained:  # the player with the fewest partners left first: quickest to settle
            present = set(remaining)
            anchor = min(remaining, key=lambda p: len(partners[p] & present))
        rest = [p for p in remaining if p != anchor]
        pool = [q for q in rest if q in partners[anchor]]
        for size in dict.fromkeys(later) if any_size else later[:1]:
            after = _without_one(later, size)
            for members in cliques(pool, size - 1):
                table = [anchor, *members]
                if not fit(table):
                    continue
                taken = set(members)
                left = [p for p in rest if p not in taken]
                if not feasible(left, after):
                    continue
                for tail in tables(left, after):
                    yield [table, *tail]
                if budget.spent:
                    return

    if sum(sizes) == len(players):
        yield from tables(players, tuple(sizes))


def _without_one(sizes: tuple[int, ...], size: int) -> tuple[int, ...]:
    """``sizes`` less its first ``size``."""
    at = sizes.index(size)
    return sizes[:at] + sizes[at + 1 :]


def fewest_repeats(
    order: Sequence[Player], sizes: Sequence[int], cost_of: Callable[[Sequence[Player]], float], budget: Budget
) -> list[list[Player]]:
    """A grouping of ``order`` into tables of ``sizes`` at the least total ``cost_of`` a bounded
    branch and bound finds; its first leaf is the greedy grouping (every table filled by its
    cheapest nearest filling)."""
    best: list[list[list[Player]]] = []
    best_cost = [float("inf")]

    def search(remaining: list[Player], index: int, tables: list[list[Player]], cost: float) -> None:
        if cost >= best_cost[0] or (best and budget.spent):
            return
        budget.tick()
        if not remaining:
            best[:] = [[list(t) for t in tables]]
            best_cost[0] = cost
            return
        anchor, rest = remaining[0], remaining[1:]
        window = rest[:WINDOW] if len(rest) > WINDOW else rest
        options = [(cost_of((anchor, *picked)), picked) for picked in combinations(window, sizes[index] - 1)]
        options.sort(key=lambda o: o[0])  # stable: the nearest filling first among equals
        for extra, picked in options[:FALLBACK_OPTIONS]:
            taken = set(picked)
            search([p for p in rest if p not in taken], index + 1, [*tables, [anchor, *picked]], cost + extra)
            if best_cost[0] == 0 or (best and budget.spent):
                return

    search(list(order), 0, [], 0.0)
    return best[0] if best else []


@dataclass(frozen=True)
class NextRound:
    """What the lookahead assumes of the next round: who plays it, at which table sizes, and
    (rule 3) whether another round follows it (played by the same players, as far as the
    lookahead can tell)."""

    players: list[Player]
    sizes: list[int]
    more: bool = False


Grouping = list[list[Player]]


def group_round(
    order: Sequence[Player],
    sizes: Sequence[int],
    history: History,
    forbidden: frozenset[Pair],
    following: NextRound | None,
    seed: bytes,
    balance_seats: bool = True,
    rule: int = 2,
) -> tuple[Grouping, Grouping | None]:
    """The round's tables by the tiers of the module's docstring (the strict seat tiers only with
    ``balance_seats``), and their seat orders when the lookahead chose them (rule 3), else None."""
    met = history.met

    def free(a: Player, b: Player) -> bool:
        key = pair(a, b)
        return not met[key] and key not in forbidden

    colour = fits(history, strict=False)
    strict = fits(history, strict=True) if balance_seats else colour
    any_size = rule >= 4
    if following is not None:
        known: dict[tuple[int, tuple[Player, ...]], list[list[Player]]] = {}
        for fit, next_strict, deep in _lookahead_tiers(strict, colour, rule, following.more):
            planned = rule >= 3 and next_strict and balance_seats  # this round's seats chosen for the next's
            budget = Budget(SEAT_LOOKAHEAD_NODES if planned else LOOKAHEAD_NODES)
            for grouping in partitions(order, sizes, free, fit, budget, any_size=any_size):
                for seated in _seatings(grouping, history, seed, known, planned):
                    if _next_round_free(
                        following, seated, history, forbidden, next_strict, budget, rule, deep, planned, seed
                    ):
                        return grouping, seated if rule >= 3 else None
                    if budget.spent:
                        break
                if budget.spent:
                    break
    for fit in (strict, colour):
        found = next(partitions(order, sizes, free, fit, Budget(SEARCH_NODES), any_size=any_size), None)
        if found is not None:
            return found, None
    # Any repeat-free seating at all, the hardest-placed player first, before accepting a repeat.
    for fit in (colour, lambda _: True):
        searched = partitions(order, sizes, free, fit, Budget(SEARCH_NODES), constrained=True, any_size=any_size)
        found = next(searched, None)
        if found is not None:
            return found, None

    def cost_of(table: Sequence[Player]) -> float:
        pairs = [pair(a, b) for a, b in combinations(table, 2)]
        repeats = sum(FORBIDDEN_COST if key in forbidden else met[key] for key in pairs)
        return repeats + (0 if colour(table) else UNFIT_COST)

    return fewest_repeats(order, sizes, cost_of, Budget(FALLBACK_NODES)), None


def _lookahead_tiers(strict: Fits, colour: Fits, rule: int, more: bool) -> list[tuple[Fits, bool, bool]]:
    """The lookahead's tiers: this round's fit, whether the next round must seat everybody at a
    least-used seat, and whether the round after it must stay repeat-free too (rule 3, when one
    follows; then the same without that)."""
    tiers = [(strict, True), (strict, False), (colour, False)]
    if rule < 3:
        return [(fit, next_strict, False) for fit, next_strict in tiers]
    deep = [(fit, next_strict, True) for fit, next_strict in tiers] if more else []
    return [*deep, *((fit, next_strict, False) for fit, next_strict in tiers)]


def _seatings(
    grouping: Grouping,
    history: History,
    seed: bytes,
    known: dict[tuple[int, tuple[Player, ...]], list[list[Player]]],
    alternatives: bool,
) -> Iterator[Grouping]:
    """The grouping in seat order (``seat_tables``), then (``alternatives``) up to
    SEAT_ALTERNATIVES other orders as good for this round, for a lookahead that needs the next
    round's seats balanced too."""
    options = table_orders(grouping, history, seed, known)
    if not alternatives:
        yield [orders[0] for orders in options]
        return
    for count, seated in enumerate(product(*options)):
        if count >= SEAT_ALTERNATIVES:
            return
        yield list(seated)


def _next_round_free(
    nxt: NextRound,
    seated: Grouping,
    history: History,
    forbidden: frozenset[Pair],
    strict: bool,
    budget: Budget,
    rule: int = 2,
    deep: bool = False,
    planned: bool = False,
    seed: bytes = b"lookahead",
) -> bool:
    """Whether the next round has a repeat-free seating (with every seat least used: ``strict``;
    rule 3: else with seats within one of perfect, as the next round will need) once this
    round's tables are ``seated``; ``deep``: one that leaves a repeat-free round after it."""
    later = history.after(seated)

    def free(a: Player, b: Player) -> bool:
        key = pair(a, b)
        return not later.met[key] and key not in forbidden

    fit = fits(later, strict=True) if strict else fits(later, strict=False) if rule >= 3 else (lambda _: True)
    for grouping in partitions(nxt.players, nxt.sizes, free, fit, budget, constrained=True, any_size=rule >= 4):
        if not deep:
            return True
        # The round after: repeat-free (``strict``: with every seat least used; ``planned``: for
        # some seat orders of the next round as good as its best).
        for seated_next in _seatings(grouping, later, seed, {}, planned):
            if _next_round_free(nxt, seated_next, later, forbidden, strict, budget, rule):
                return True
            if budget.spent:
                return False
    return False


def table_orders(
    tables: Sequence[Sequence[Player]],
    history: History,
    seed: bytes,
    known: dict[tuple[int, tuple[Player, ...]], list[list[Player]]] | None = None,
) -> list[list[list[Player]]]:
    """Every table's seat orders, best first (``seat_orders``, each table its own seeded stream:
    the same table at the same place is seated alike, so ``known`` may keep them)."""
    known = {} if known is None else known
    options = []
    for i, table in enumerate(tables):
        key = (i, tuple(table))
        if key not in known:
            known[key] = seat_orders(table, history, Chance(seed), f"seats:{i}")
        options.append(known[key])
    return options


def seat_tables(tables: Sequence[Sequence[Player]], history: History, seed: bytes) -> Grouping:
    """Every table of the round in seat order: each table's best (``table_orders``)."""
    return [orders[0] for orders in table_orders(tables, history, seed)]


def seat_round(
    order: Sequence[Player],
    sizes: Sequence[int],
    byes: Sequence[Player],
    tables_so_far: Sequence[Sequence[Player]],
    forbidden: frozenset[Pair],
    seed: bytes,
    following: NextRound | None = None,
    balance_seats: bool = True,
    rule: int = 2,
) -> Seating:
    """Seat one round of players in ``order`` (those in ``byes`` sit out) at tables of ``sizes``;
    ``following`` (None in the last round) is who would play the next round, at which sizes;
    ``balance_seats``: the tables are chosen for perfectly balanced seats where they can be
    (else seats are only kept within one of perfect)."""
    history = History.of(tables_so_far, by_size=rule >= 4)
    playing = [p for p in order if p not in byes]
    tables, seated = group_round(playing, sizes, history, forbidden, following, seed, balance_seats, rule)
    return Seating(tables=seated if seated is not None else seat_tables(tables, history, seed), byes=list(byes))


def plan_seats(
    rounds: Sequence[Sequence[Sequence[Player]]], tables_so_far: Sequence[Sequence[Player]], seed: bytes
) -> list[list[Player]]:
    """The first of ``rounds`` (a fixed schedule's groupings, this round first) in seat order,
    chosen so that every player sits at a seat they have had least at every table of every round
    left where a search across those rounds finds such seats; else as ``seat_order`` seats it."""
    history = History.of(tables_so_far)
    counts = {p: Counter(history.counts(p)) for grouping in rounds for t in grouping for p in t}
    rng = Chance(seed)
    tables = [(r, i, list(t)) for r, grouping in enumerate(rounds) for i, t in enumerate(grouping)]
    orders = [rng.shuffle(f"plan-seats:{r}:{i}", list(permutations(t))) for r, i, t in tables]
    chosen: list[tuple[Player, ...]] = []
    budget = Budget(SEAT_PLAN_NODES)

    def search(index: int) -> bool:
        if index == len(tables):
            return True
        size = len(tables[index][2])
        for order in orders[index]:
            if not budget.tick():
                return False
            if any(counts[p][seat] != min(counts[p][s] for s in range(size)) for seat, p in enumerate(order)):
                continue
            for seat, p in enumerate(order):
                counts[p][seat] += 1
            chosen.append(order)
            if search(index + 1):
                return True
            chosen.pop()
            for seat, p in enumerate(order):
                counts[p][seat] -= 1
        return False

    if search(0):
        return [list(chosen[i]) for i, (r, _, _) in enumerate(tables) if r == 0]
    return seat_tables(rounds[0], history, seed)
