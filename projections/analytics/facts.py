"""A game's analytics (``GameDefinition.facts``) as the projection reads them: looked up once per
game, with what the projection derives from them (its moves' row makers, the record types it
looks at one by one)."""

from __future__ import annotations

from dataclasses import dataclass

from domain.kernel.facts import AnalyticsFacts
from domain.kernel.log import COMMAND_ACCEPTED, GAME_CREATED, Record
from domain.kernel.match import SEAT_TAKEN
from projections.analytics.moves import MoveRow, move_rows
from projections.analytics.schema import facts_of, moves_table

# Every game's turns: ``turn`` counts a game's ``TurnStarted`` records (or is the number it gives).
TURN_STARTED = "TurnStarted"


@dataclass(frozen=True)
class GameFacts:
    """``facts`` of one game; ``clock_kinds`` the record types that start a turn or a round (every
    other leaves the clock as it is); ``visited`` those ``add_records`` looks at one by one (every
    other is only its row of ``records``)."""

    facts: AnalyticsFacts
    move_rows: dict[str, MoveRow]
    moves_table: str | None
    clock_kinds: frozenset[str]
    visited: frozenset[str]

    def round_started(self, players: int, record: Record) -> int | None:
        """The round (campaign) that ``record`` starts, if it starts one."""
        started = self.facts.rounds.get(record.type)
        return None if started is None else started(players, record.data)


_READ: dict[str, GameFacts] = {}


def game_facts(game: str) -> GameFacts:
    """The analytics of the game called ``game``, as the projection reads them."""
    found = _READ.get(game)
    if found is None:
        facts = facts_of(game)
        clock_kinds = frozenset({TURN_STARTED, *facts.rounds})
        visited = clock_kinds | {SEAT_TAKEN} | set(facts.moves) | set(facts.handlers)
        found = _READ[game] = GameFacts(
            facts,
            move_rows(facts.moves),
            moves_table(game) if facts.moves else None,
            clock_kinds,
            frozenset(visited - {GAME_CREATED, COMMAND_ACCEPTED}),
        )
    return found
