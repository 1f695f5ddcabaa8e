"""Catan historical scenario "Alexander the Great" on complete base Catan (3-4 players), with
the standard base game as the option ``board = "base"``."""

from __future__ import annotations

from domain.catan_alexander import bot, data, reshuffle
from domain.catan_alexander.commands import COMMANDS
from domain.catan_alexander.events import EVENTS
from domain.catan_alexander.facts import FACTS
from domain.catan_alexander.moves import clocked, legal_moves, optional
from domain.catan_alexander.rules import advance, awaited, decide, evolve, is_over, normalize_options
from domain.catan_alexander.scoring import scoreboard
from domain.catan_alexander.state import State, initial_state
from domain.catan_alexander.views import view
from domain.kernel import GameDefinition

GAME: GameDefinition[State] = GameDefinition(
    id="catan_alexander",
    title="Catan: Alexander the Great (historical scenario)",
    min_players=3,
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
    optional=optional,
    clocked=clocked,
    reshuffle_hidden=reshuffle.reshuffle_hidden,
    sample_state=bot.sample_state,
    evaluate=bot.evaluate,
    observe=bot.observe,
    facts=FACTS,
)
