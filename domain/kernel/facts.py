"""What a game tells the analytics projection about itself (``GameDefinition.facts``): its fact
tables, the records that make their rows, how its records become moves, and what its rounds are.

Each is a table keyed by record type, as the rules are: the projection (``projections.analytics``)
looks a record's type up and knows nothing of any game. Column types are DuckDB's names, as text:
the domain imports no database.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol

Columns = tuple[tuple[str, str], ...]  # (name, DuckDB type), in the table's order
Meaning = str | tuple[str, str]  # what a column means, or (meaning, unit)
Row = dict[str, Any]  # a row by column name
Context = dict[str, Any]  # a running game's public bookkeeping (JSON-serialisable)
Data = dict[str, Any]  # a record's (public) data


@dataclass(frozen=True)
class FactTable:
    """One fact table: its columns, and for the schema docs what it holds and what its columns mean
    (a column not named means what it means in every table: ``game_id``, ``position``, ``seat`` ...)."""

    columns: Columns
    summary: str
    meanings: Mapping[str, Meaning] = field(default_factory=dict)


class FactRows(Protocol):
    """Where a handler puts the rows it makes."""

    def add(self, table: str, row: Row) -> None: ...


class Fact(NamedTuple):
    """A public record, as a handler sees it. ``at``: when the event store stored it (the
    projection's timestamp, which the domain only passes on to a row: it reads no clock).
    A named tuple: the projection makes one per record a handler reads, and a frozen
    dataclass's construction cost more than twice as much."""

    game_id: str
    position: int
    at: object
    data: Data


# Makes the fact rows of one record type (or only notes what later rows need in the context).
Handler = Callable[[Context, Fact, FactRows], None]

Field = str | Callable[[Data], Any]  # a field of the record's data by name, or a function of the data


@dataclass(frozen=True, slots=True)
class Move:
    """How one record type becomes a row of ``<game>_moves``: the kind of move, and which field
    of the record's (public) data holds what, where, whom, how many, and the goods given and
    received. A field name, or a function of the data."""

    move: str
    seat: Field = "seat"
    item: Field | None = None
    place: Field | None = None
    other_seat: Field | None = None
    amount: Field | None = None
    gave: Field | None = None
    received: Field | None = None


# The round a record starts, given the number of seats and its data (None: it starts none).
RoundStart = Callable[[int, Data], int | None]


def round_of_turns(players: int, data: Data) -> int | None:
    """``TurnStarted`` as a round of turns, every seat once: turn 1 starts round 1, turn
    ``players + 1`` round 2 ..."""
    turn = int(data["turn"])
    return (turn - 1) // players + 1 if (turn - 1) % players == 0 else None


@dataclass(frozen=True)
class AnalyticsFacts:
    """A game's analytics: ``tables`` its fact tables by name; ``handlers`` by record type, called for
    that type's public records only (so that a fact row never changes when the game ends);
    ``moves`` by record type; ``score_unit`` what ``scores.round`` counts and ``rounds`` the record
    types that start one. By default a game has none of them (the tests' fixture game)."""

    tables: Mapping[str, FactTable] = field(default_factory=dict)
    handlers: Mapping[str, Handler] = field(default_factory=dict)
    moves: Mapping[str, Move] = field(default_factory=dict)
    score_unit: str = "round"
    rounds: Mapping[str, RoundStart] = field(default_factory=dict)
