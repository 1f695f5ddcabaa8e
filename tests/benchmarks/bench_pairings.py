"""Pairing benchmark: seeded events of each shape seated by pairing rule 1 (the rule before
versioning, still what tournaments recorded with it are seated and verified by) beside rule 2,
in one run, on the pure rules with made-up results (``tests.tournament.pairing_quality``).

Per shape and rule, over the events: repeat meetings (total; avoidable: in a round a repeat-free
seating of it avoided; by lookahead: in a round a repeat-free seating of it and the round before
avoided), players more than one from perfect seat balance, players not perfectly balanced where
they played a multiple of the table size, players in one seat three games running at 2-player
tables, the mean spread of a table in the standings before its round (places from its best to
its worst player), byes, and the seconds the seating took.

Run: ``python -m tests.benchmarks.bench_pairings [EVENTS] [SHAPE ...]`` (default 100 events of
every shape).
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from typing import Any

from domain.tournament.config import PAIRING_V1, PAIRING_V2
from tests.tournament.pairing_quality import play


@dataclass(frozen=True)
class Shape:
    name: str
    players: int
    rounds: int
    table_size: int
    settings: dict[str, Any] = field(default_factory=dict)
    mixed: dict[str, Any] = field(default_factory=dict)  # rule 2 only: table sizes around table_size


SHAPES = (
    Shape("swiss 16 players, 4 rounds, tables of 4", 16, 4, 4),
    Shape("swiss 64 players, 6 rounds, tables of 4", 64, 6, 4),
    Shape("swiss 16 players, 5 rounds, tables of 2", 16, 5, 2),
    Shape("swiss 18 players, 4 rounds, tables of 4 (rule 2: 3 to 4)", 18, 4, 4, mixed={"min_table": 3}),
    Shape("balanced 16 players, 4 rounds, tables of 4", 16, 4, 4, {"format_": "balanced"}),
)


def run(shape: Shape, version: int, events: int) -> str:
    totals = [0.0] * 7
    spreads: list[int] = []
    started = time.perf_counter()
    for event in range(events):
        settings = {**shape.settings, **(shape.mixed if version == PAIRING_V2 else {})}
        quality = play(shape.players, shape.rounds, shape.table_size, f"bench-{event}", pairing=version, **settings)
        q = quality.quality
        for i, value in enumerate(
            (q.repeats, q.avoidable, q.lookahead_avoidable, q.off_by_more, q.imperfect, q.three_running, q.byes)
        ):
            totals[i] += value
        spreads += q.spread
    elapsed = time.perf_counter() - started
    players = shape.players * events
    repeats, avoidable, lookahead, off, imperfect, running, byes = totals
    return (
        f"  rule {version}: repeats {repeats:.0f} (avoidable {avoidable:.0f}, by lookahead {lookahead:.0f}); "
        f"seats off by more than one {off / players:.1%}, not perfect {imperfect / players:.1%}; "
        f"three running {running:.0f}; table spread {sum(spreads) / len(spreads):.2f}; byes {byes:.0f}; "
        f"{elapsed:.0f} s"
    )


def main() -> None:
    events = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    wanted = sys.argv[2:]
    for shape in SHAPES:
        if wanted and not any(w in shape.name for w in wanted):
            continue
        print(f"{shape.name}, {events} events:", flush=True)
        for version in (PAIRING_V1, PAIRING_V2):
            print(run(shape, version, events), flush=True)


if __name__ == "__main__":
    main()
