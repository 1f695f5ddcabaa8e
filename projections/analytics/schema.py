"""The analytics tables and their columns: those every game has, each game's fact tables (its
``facts.tables``) and a ``<game>_moves`` table for each game with moves.

Column types are DuckDB's; ``docs/analytics-schema.md`` explains every column.
"""

from __future__ import annotations

from domain.catalog import GAME_PACKAGES, GAMES
from domain.kernel.facts import AnalyticsFacts, Columns

GAMES_TABLE = "games"
RECORDS_TABLE = "records"
SCORES_TABLE = "scores"
SEATS_TABLE = "game_seats"

COMMON_TABLES: dict[str, Columns] = {
    GAMES_TABLE: (
        ("game_id", "VARCHAR"),
        ("game", "VARCHAR"),
        ("players", "INTEGER"),
        ("options", "JSON"),
        ("status", "VARCHAR"),
        ("version", "INTEGER"),
        ("commands", "INTEGER"),
        ("rounds", "INTEGER"),
        ("created_at", "TIMESTAMPTZ"),
        ("last_activity", "TIMESTAMPTZ"),
        ("ended_at", "TIMESTAMPTZ"),
        ("scores", "DOUBLE[]"),
        ("placings", "INTEGER[]"),
        ("winners", "INTEGER[]"),
        ("fingerprint", "VARCHAR"),
        ("seed", "VARCHAR"),
        ("forked_from", "VARCHAR"),
        ("forked_from_version", "INTEGER"),
        ("tournament", "VARCHAR"),
    ),
    RECORDS_TABLE: (
        ("game_id", "VARCHAR"),
        ("game", "VARCHAR"),
        ("position", "INTEGER"),
        ("type", "VARCHAR"),
        ("seat", "INTEGER"),
        ("private", "BOOLEAN"),
        ("recorded_at", "TIMESTAMPTZ"),
        ("data", "JSON"),
        ("turn", "INTEGER"),
        ("round", "INTEGER"),
    ),
    SEATS_TABLE: (
        ("game_id", "VARCHAR"),
        ("game", "VARCHAR"),
        ("players", "INTEGER"),
        ("seat", "INTEGER"),
        ("name", "VARCHAR"),
        ("tournament", "VARCHAR"),
        ("tournament_player", "INTEGER"),
        ("status", "VARCHAR"),
        ("score", "DOUBLE"),
        ("place", "INTEGER"),
        ("won", "BOOLEAN"),
    ),
    SCORES_TABLE: (
        ("game_id", "VARCHAR"),
        ("game", "VARCHAR"),
        ("unit", "VARCHAR"),
        ("round", "INTEGER"),
        ("position", "INTEGER"),
        ("final", "BOOLEAN"),
        ("seat", "INTEGER"),
        ("score", "DOUBLE"),
        ("place", "INTEGER"),
    ),
}

MOVE_COLUMNS: Columns = (
    ("game_id", "VARCHAR"),
    ("position", "INTEGER"),
    ("recorded_at", "TIMESTAMPTZ"),
    ("turn", "INTEGER"),
    ("round", "INTEGER"),
    ("seat", "INTEGER"),
    ("move", "VARCHAR"),
    ("item", "VARCHAR"),
    ("place", "VARCHAR"),
    ("other_seat", "INTEGER"),
    ("amount", "INTEGER"),
    ("gave", "MAP(VARCHAR, INTEGER)"),
    ("received", "MAP(VARCHAR, INTEGER)"),
)

NO_FACTS = AnalyticsFacts()


def facts_of(game: str) -> AnalyticsFacts:
    """The analytics of the game called ``game`` (none for a game the catalog has not)."""
    return GAMES.get(game).facts if game in GAMES else NO_FACTS


def moves_table(game: str) -> str:
    return f"{game}_moves"


# The catalog's games, in its order: the games whose tables the database has.
CATALOG = tuple(name for name in GAME_PACKAGES if name in GAMES)


def _tables() -> dict[str, Columns]:
    """Every table: those every game has, then each game's fact tables and its moves."""
    tables = dict(COMMON_TABLES)
    for game in CATALOG:
        facts = facts_of(game)
        own = {name: table.columns for name, table in facts.tables.items()}
        if facts.moves:
            own[moves_table(game)] = MOVE_COLUMNS
        taken = own.keys() & tables.keys()
        if taken:
            raise ValueError(f"{game}'s tables {sorted(taken)} have the names of other tables")
        tables.update(own)
    return tables


TABLES: dict[str, Columns] = _tables()
