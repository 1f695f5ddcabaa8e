"""What every column of the analytics tables means, and in what unit: the source of
``docs/analytics-schema.md`` (``alexandria analytics schema`` writes it; a test keeps it current).
The tables every game has are explained here, each game's fact tables by the game
(``FactTable.summary`` and ``meanings``).

The schema's version (which rebuilds the tables) is of the columns alone, so that rewording a
meaning does not change it. Every column of ``TABLES`` must have a meaning: the test fails on a
column without one.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from domain.kernel.facts import Meaning, Move
from projections.analytics.schema import CATALOG, TABLES, facts_of, moves_table


@dataclass(frozen=True)
class TableDoc:
    summary: str
    columns: dict[str, Meaning] = field(default_factory=dict)  # name -> meaning, or (meaning, unit)


# Columns that mean the same in every table that has them (a table may say more).
COMMON: dict[str, Meaning] = {
    "game_id": "the game's id (a UUID), the key to `games`",
    "game": "which game: " + ", ".join(f"`{game}`" for game in CATALOG),
    "position": "the record's place in its game's log (1 = `GameCreated`), the key to `records`",
    "recorded_at": ("when the event store stored the record", "UTC"),
    "seat": "the seat (numbered from 0) the row is about: who acted",
    "turn": "the game's turn at the record: Catan's and Alexandros' own turn numbers, Empire Builder's "
    "turns counted (`TurnStarted`), NULL in Peloponnes (no turns) and before the first turn",
    "round": "the round at the record, what `scores.round` counts: Peloponnes rounds, Empire Builder "
    "campaigns, Catan and Alexandros rounds of turns (every seat once); NULL before the first",
    "players": ("the number of seats", "seats"),
}

MOVE_COLUMNS: dict[str, Meaning] = {
    "seat": "who moved (Catan `steal`: the thief; `offer`, `trade`: the maker)",
    "move": "the kind of move (see the list of moves below the table)",
    "item": "what: a card, a building's kind, a colour, a cause or reason (NULL where hidden or not applicable)",
    "place": "where: a vertex, an edge (its two vertices), a hex `q,r`, a path or side `q,r q,r`, a tile, a province",
    "other_seat": "the other seat of the move: the victim of a theft, a trade's partner, the seat outbid or taken over",
    "amount": "how many: a dice total, a bid, a distance, a count of armies, spaces or points",
    "gave": ("what the seat gave or paid: cards, goods or pieces by name (a typed map, not JSON)", "count each"),
    "received": ("what the seat received, by name", "count each"),
}

DOCS: dict[str, TableDoc] = {
    "games": TableDoc(
        "one row per game",
        {
            "options": "the options as recorded in `GameCreated` (defaults filled in), JSON text: `options->>'board'`",
            "status": "`running` or `ended`",
            "version": ("records so far (the last position)", "records"),
            "commands": ("accepted commands", "commands"),
            "rounds": "the last round begun (see `round`)",
            "created_at": ("the first record's time", "UTC"),
            "last_activity": ("the last record's time", "UTC"),
            "ended_at": ("`GameEnded`'s time (NULL while running)", "UTC"),
            "scores": ("final scores by seat (the game's own scoreboard), ended games", "points"),
            "placings": "final places by seat (1 = first; ties share a place)",
            "winners": "the winning seats",
            "fingerprint": "the last record's hash (ended games): what `alexandria verify` checks",
            "seed": "the revealed seed (ended games)",
            "forked_from": "the game this game was forked from",
            "forked_from_version": ("the version it was forked at", "records"),
            "tournament": "the tournament the game is a table of (NULL: none)",
        },
    ),
    "records": TableDoc(
        "one row per record, as a spectator sees it while the game runs, in full once it has ended",
        {
            "type": "`GameCreated`, `CommandAccepted`, `SeatTaken`, or the game's event type (`DiceRolled` ...)",
            "seat": "the record's `seat` field when it has one (for `CommandAccepted`: who sent it)",
            "private": "a sealed record (shown as its public form while the game runs)",
            "data": "the record's data as a spectator sees it (in full once the game has ended), JSON text",
        },
    ),
    "game_seats": TableDoc(
        "one row per seat of each game: who sat there and how they finished",
        {
            "seat": "the seat, numbered from 0 (seat 0 moves first)",
            "name": "the name the seat was taken with (a join, or a study's bot), else the tournament player's",
            "tournament": "the tournament the game is a table of (NULL: none)",
            "tournament_player": "the tournament's number of the player at this seat (NULL: no tournament)",
            "status": "the game's: `running` or `ended`",
            "score": ("the seat's final score (ended games)", "points"),
            "place": "the seat's final place (1 = first; ties share a place)",
            "won": "whether the seat is among the winners (ended games)",
        },
    ),
    "scores": TableDoc(
        "scores by round, from the game's own scoreboard over a replay (ended games)",
        {
            "unit": "what `round` counts: `round` or `campaign` (Empire Builder)",
            "round": "the round that had just finished (the final row: the last round)",
            "position": "the record after which the scores were taken",
            "final": "the final scores (after `GameEnded`)",
            "score": ("the seat's score then (Catan: public VP during the game, all VP at the end)", "points"),
            "place": "the seat's place then",
        },
    ),
}
for _game in CATALOG:
    _facts = facts_of(_game)
    DOCS.update({name: TableDoc(table.summary, dict(table.meanings)) for name, table in _facts.tables.items()})
    if _facts.moves:
        DOCS[moves_table(_game)] = TableDoc(
            f"{_game}: every move, one row each, from what a spectator sees of it (a hidden card or allocation "
            "stays NULL, so a row never changes when the game ends)",
            MOVE_COLUMNS,
        )


def meaning(table: str, column: str) -> tuple[str, str]:
    """(meaning, unit) of a column; KeyError if it has none."""
    found = DOCS[table].columns.get(column, COMMON.get(column))
    if found is None:
        raise KeyError(f"{table}.{column} has no meaning in projections/analytics/docs.py or its game's facts")
    return found if isinstance(found, tuple) else (found, "")


def _filled(spec: Move) -> str:
    names = ("seat", "item", "place", "other_seat", "amount", "gave", "received")
    return ", ".join(f"`{n}`" for n in names if getattr(spec, n) is not None)


def schema_markdown() -> str:
    """``docs/analytics-schema.md``."""
    out = [
        "# Analytics tables: the schema",
        "",
        "Generated from the code (`projections/analytics/`, each game's `domain/<game>/facts.py`) by",
        "`alexandria analytics schema --out docs/analytics-schema.md`; a test fails when it is not current.",
        "Types are DuckDB's. Times are `TIMESTAMPTZ` in UTC; seats are numbered from 0; JSON columns hold",
        "JSON text (`data->>'field'` reads a field); `MAP(VARCHAR, INTEGER)` columns are typed maps",
        "(`gave['brick']`).",
        "",
    ]
    for table, columns in TABLES.items():
        out += [f"## `{table}`", "", DOCS[table].summary[0].upper() + DOCS[table].summary[1:] + ".", ""]
        out += ["| column | type | unit | meaning |", "|---|---|---|---|"]
        for name, kind in columns:
            text, unit = meaning(table, name)
            out.append(f"| `{name}` | {kind} | {unit} | {text} |")
        out.append("")
        game = table.removesuffix("_moves")
        if table.endswith("_moves") and game in CATALOG:
            out += ["| move | from the record | columns filled |", "|---|---|---|"]
            for record_type, spec in facts_of(game).moves.items():
                out.append(f"| `{spec.move}` | `{record_type}` | {_filled(spec)} |")
            out.append("")
    return "\n".join(out)
