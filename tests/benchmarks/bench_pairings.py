"""Pairing benchmark: seeded events of each shape seated by pairing rule 1 (the rule before
versioning, still what tournaments recorded with it are seated and verified by) beside rules 2,
3 and 4 (rule 4 is what new tournaments get), interleaved event by event in one run, on the pure
rules with made-up results (``tests.tournament.pairing_quality``).

Per shape and rule, over the events: repeat meetings (total; avoidable: in a round a repeat-free
seating of it avoided; by lookahead: in a round a repeat-free seating of it and the round before
avoided), players more than one from perfect seat balance, players not perfectly balanced where
they played a multiple of the table size (of all players, and of the players of the events whose
tables have a perfect seat assignment, with how many events do), players in one seat three games running at 2-player
tables, the mean spread of a table in the standings before its round (places from its best to
its worst player), byes, and the seconds the seating took.

Run: ``python -m tests.benchmarks.bench_pairings [EVENTS] [SHAPE ...] [--rules=1,2,3,4]`` (default
100 events of every shape, by every rule).
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from typing import Any

from domain.tournament.config import PAIRING_V1, PAIRING_VERSIONS
from tests.tournament.pairing_quality import play


@dataclass(frozen=True)
class Shape:
    name: str
    players: int
    rounds: int
    table_size: int
    settings: dict[str, Any] = field(default_factory=dict)
    mixed: dict[str, Any] = field(default_factory=dict)  # rules 2 on only: table sizes around table_size


SHAPES = (
    Shape("swiss 16 players, 4 rounds, tables of 4", 16, 4, 4),
    Shape("swiss 64 players, 6 rounds, tables of 4", 64, 6, 4),
    Shape("swiss 16 players, 5 rounds, tables of 2", 16, 5, 2),
    Shape("swiss 18 players, 4 rounds, tables of 4 (rules 2 to 4: 3 to 4)", 18, 4, 4, mixed={"min_table": 3}),
    Shape("balanced 16 players, 4 rounds, tables of 4", 16, 4, 4, {"format_": "balanced"}),
)


@dataclass
class Totals:
    """One rule's figures over a shape's events."""

    counts: list[int] = field(default_factory=lambda: [0] * 8)
    spreads: list[int] = field(default_factory=list)
    perfect_events: int = 0
    seconds: float = 0.0


def measure_event(shape: Shape, version: int, event: int, totals: Totals) -> None:
    settings = {**shape.settings, **(shape.mixed if version != PAIRING_V1 else {})}
    started = time.perf_counter()
    q = play(shape.players, shape.rounds, shape.table_size, f"bench-{event}", pairing=version, **settings).quality
    totals.seconds += time.perf_counter() - started
    values = (q.repeats, q.avoidable, q.lookahead_avoidable, q.off_by_more, q.imperfect, q.imperfect_avoidable)
    for i, value in enumerate((*values, q.three_running, q.byes)):
        totals.counts[i] += value
    totals.spreads += q.spread
    totals.perfect_events += q.perfect_exists


def report(shape: Shape, version: int, events: int, totals: Totals) -> str:
    players = shape.players * events
    repeats, avoidable, lookahead, off, imperfect, avoidable_imperfect, running, byes = totals.counts
    where = avoidable_imperfect / (shape.players * totals.perfect_events) if totals.perfect_events else 0.0
    return (
        f"  rule {version}: repeats {repeats} (avoidable {avoidable}, by lookahead {lookahead}); "
        f"seats off by more than one {off / players:.1%}, not perfect {imperfect / players:.1%} "
        f"(where a perfect assignment exists: {where:.1%}, in {totals.perfect_events} events); "
        f"three running {running}; table spread {sum(totals.spreads) / len(totals.spreads):.2f}; byes {byes}; "
        f"{totals.seconds:.0f} s"
    )


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--rules=")]
    chosen = [a.removeprefix("--rules=") for a in sys.argv[1:] if a.startswith("--rules=")]
    versions = [int(v) for v in chosen[-1].split(",")] if chosen else list(PAIRING_VERSIONS)
    events = int(args[0]) if args else 100
    wanted = args[1:]
    for shape in SHAPES:
        if wanted and not any(w in shape.name for w in wanted):
            continue
        totals = {version: Totals() for version in versions}
        for event in range(events):  # the rules interleaved, so the machine's load falls on all alike
            for version in versions:
                measure_event(shape, version, event, totals[version])
        print(f"{shape.name}, {events} events:", flush=True)
        for version in versions:
            print(report(shape, version, events, totals[version]), flush=True)


if __name__ == "__main__":
    main()
