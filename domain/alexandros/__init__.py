"""Alexandros (Leo Colovini, 2003), 2-4 players: rules in ``docs/alexandros/rules.md``."""

from __future__ import annotations

from domain.alexandros import bot, data, reshuffle
from domain.alexandros.commands import COMMANDS
from domain.alexandros.events import EVENTS
from domain.alexandros.facts import FACTS
from domain.alexandros.moves import legal_moves
from domain.alexandros.rules import advance, awaited, decide, evolve, is_over, normalize_options
from domain.alexandros.scoring import scoreboard
from domain.alexandros.state import State, initial_state
from domain.alexandros.views import view
from domain.kernel import GameDefinition

GAME: GameDefinition[State] = GameDefinition(
    id="alexandros",
    title="Alexandros",
    min_players=2,
    max_players=4,
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
    reshuffle_hidden=reshuffle.reshuffle_hidden,
    sample_state=bot.sample_state,
    evaluate=bot.evaluate,
    observe=bot.observe,
    facts=FACTS,
)
