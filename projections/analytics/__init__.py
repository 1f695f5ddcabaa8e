"""The analytics read model: the public facts of every game as rows of plain tables.

Pure: this package turns a game's records (in log order) into rows; ``infra.analytics.store`` stores
them in DuckDB with the projection's position. What a row may hold is what the per-viewer
filter (``domain.kernel.log.for_viewer``) shows a spectator: the public forms while a game
runs, everything once it has ended (the seed is revealed then, and the full log with it).

Three kinds of tables:

- ``games``: one row per game (who played what, when, how it ended);
- ``records``: one row per record, its data as JSON (``data`` of ``for_viewer``);
- fact tables per game, one row per fact the players ask about (dice rolls, bids, allocations,
  walls ...), made from the public records as they arrive (so that a fact row never changes when
  its game ends) by the game's own handlers, one per record type (``GameDefinition.facts``:
  ``domain/<game>/facts.py``), and ``<game>_moves``, every player's act, one row each.

Scores by round come from the game's own ``scoreboard`` over a replay of the full record, so
they exist only for ended games (a running game's state cannot be rebuilt from public forms).

The modules, along the seams: ``schema`` (the tables and their columns), ``rows`` (rows to
insert), ``facts`` (a game's analytics as the projection reads them), ``moves`` (rows of
``<game>_moves``), ``games`` (one game's rows), ``docs`` (what every column means).
"""

from domain.kernel.facts import Context, Row
from projections.analytics.games import (
    Ended,
    TablePlayers,
    advance_clock,
    ended_game,
    period_started,
    running_game,
)
from projections.analytics.rows import Rows, record_json, record_jsons
from projections.analytics.schema import (
    GAMES_TABLE,
    RECORDS_TABLE,
    SCORES_TABLE,
    SEATS_TABLE,
    TABLES,
    moves_table,
)

__all__ = [
    "GAMES_TABLE",
    "RECORDS_TABLE",
    "SCORES_TABLE",
    "SEATS_TABLE",
    "TABLES",
    "Context",
    "Ended",
    "Row",
    "Rows",
    "TablePlayers",
    "advance_clock",
    "ended_game",
    "moves_table",
    "period_started",
    "record_json",
    "record_jsons",
    "running_game",
]
