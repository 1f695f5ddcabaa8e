"""Peloponnes (Bernd Eisenstein, Irongames 2009), 1-5 players. Rules: docs/peloponnes/rules.md."""

from __future__ import annotations

from domain.kernel import GameDefinition
from domain.peloponnes import bot, data
from domain.peloponnes.commands import COMMANDS
from domain.peloponnes.events import EVENTS
from domain.peloponnes.facts import FACTS
from domain.peloponnes.moves import legal_moves
from domain.peloponnes.rules import advance, awaited, decide, evolve, is_over, normalize_options
from domain.peloponnes.scoring import scoreboard
from domain.peloponnes.state import State, initial_state
from domain.peloponnes.views import view

GAME: GameDefinition[State] = GameDefinition(
    id="peloponnes",
    title="Peloponnes",
    min_players=1,
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
    evaluate=bot.evaluate,
    playout_depth=bot.PLAYOUT_DEPTH,
    facts=FACTS,
)
