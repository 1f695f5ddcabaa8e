"""Alexander the Great - the Empire Builder (Hofstätter & Keusch, Phalanx 2005), 2-5 players.

Rules: docs/empire_builder/rules.md. The map (board.json) is a reconstruction (§2.4).
"""

from __future__ import annotations

from domain.empire_builder import bot, data
from domain.empire_builder.commands import COMMANDS
from domain.empire_builder.events import EVENTS
from domain.empire_builder.facts import FACTS
from domain.empire_builder.moves import legal_moves
from domain.empire_builder.rules import advance, awaited, decide, evolve, is_over, normalize_options
from domain.empire_builder.scoring import scoreboard
from domain.empire_builder.state import State, initial_state
from domain.empire_builder.views import view
from domain.kernel import GameDefinition

GAME: GameDefinition[State] = GameDefinition(
    id="empire_builder",
    title="Alexander the Great - the Empire Builder",
    min_players=2,
    max_players=5,
    commands=COMMANDS,
    events=EVENTS,
    option_rules=normalize_options,
    options=data.OPTIONS,
    initial_state=initial_state,
    advance=advance,
    decide=decide,
    evolve=evolve,
    awaited=awaited,
    is_over=is_over,
    view=view,
    legal_moves=legal_moves,
    scoreboard=scoreboard,
    sample_state=bot.sample_state,
    evaluate=bot.evaluate,
    observe=bot.observe,
    facts=FACTS,
)
