"""Alexandros (Leo Colovini, 2003), 2-4 players: rules in ``docs/alexandros/rules.md``."""

from __future__ import annotations

from typing import Any

from domain.alexandros import bot, hidden
from domain.alexandros.commands import COMMANDS
from domain.alexandros.data import BOARD_ID, OPTIONS
from domain.alexandros.events import EVENTS
from domain.alexandros.facts import FACTS
from domain.alexandros.moves import legal_moves
from domain.alexandros.rules import advance, awaited, decide, evolve, is_over
from domain.alexandros.scoring import scoreboard
from domain.alexandros.state import AlexandrosState
from domain.alexandros.views import view
from domain.kernel import GameDefinition, RuleViolation
from domain.kernel.errors import BAD_OPTIONS


def normalize_options(players: int, options: dict[str, Any]) -> dict[str, Any]:
    """The game has no variants (rules section 7); the board id is recorded in GameCreated."""
    unknown = sorted(set(options) - {"board"})
    if unknown:
        raise RuleViolation(BAD_OPTIONS, f"alexandros has no options {', '.join(unknown)} (it has no variants)")
    board = options.get("board", BOARD_ID)
    if board != BOARD_ID:
        raise RuleViolation(BAD_OPTIONS, f"the only board is {BOARD_ID!r}")
    return {"board": board}


def initial_state(players: int, options: dict[str, Any]) -> AlexandrosState:
    return AlexandrosState.new(players)


GAME: GameDefinition[AlexandrosState] = GameDefinition(
    id="alexandros",
    title="Alexandros",
    min_players=2,
    max_players=4,
    commands=COMMANDS,
    events=EVENTS,
    option_rules=normalize_options,
    options=OPTIONS,
    initial_state=initial_state,
    advance=advance,
    decide=decide,
    evolve=evolve,
    awaited=awaited,
    is_over=is_over,
    view=view,
    legal_moves=legal_moves,
    scoreboard=scoreboard,
    reshuffle_hidden=hidden.reshuffle_hidden,
    sample_state=bot.sample_state,
    evaluate=bot.evaluate,
    observe=bot.observe,
    facts=FACTS,
)
