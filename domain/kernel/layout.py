"""A game's definition read from its package, laid out as every game's is (docs/games.md).

The layout is read in this one place, so no game wires its parts differently, and a package that
leaves the layout (a part missing, or in another module) fails when it is imported.
"""

from __future__ import annotations

import importlib
import importlib.util
from types import ModuleType
from typing import Any

from domain.kernel.game import GameDefinition

# The parts a game may leave out, where the layout puts them: (definition field, module, name).
OPTIONAL_PARTS = (
    ("optional", "moves", "optional"),
    ("clocked", "moves", "clocked"),
    ("reshuffle_hidden", "reshuffle", "reshuffle_hidden"),
    ("sample_state", "bot", "sample_state"),
    ("evaluate", "bot", "evaluate"),
    ("observe", "bot", "observe"),
    ("playout_depth", "bot", "PLAYOUT_DEPTH"),
    ("turn_underway", "bot", "turn_underway"),
    ("greedy_turns", "bot", "greedy_turns"),
)


def game_of_package(package: str, *, title: str, min_players: int, max_players: int) -> GameDefinition[Any]:
    """The definition of the game in ``package`` (``domain.<game id>``): every part from the module
    the layout gives it, the parts a game may leave out where it has them."""

    def module(name: str) -> ModuleType | None:
        found = importlib.util.find_spec(f"{package}.{name}")
        return importlib.import_module(f"{package}.{name}") if found is not None else None

    def required(name: str) -> ModuleType:
        found = module(name)
        if found is None:
            raise ImportError(f"{package} has no module {name!r}: every game package has one (docs/games.md)")
        return found

    state, rules, moves, views = required("state"), required("rules"), required("moves"), required("views")
    given = {
        field: getattr(part, name)
        for field, module_name, name in OPTIONAL_PARTS
        if (part := module(module_name)) is not None and hasattr(part, name)
    }
    return GameDefinition(
        id=package.rsplit(".", 1)[-1],
        title=title,
        min_players=min_players,
        max_players=max_players,
        commands=required("commands").COMMANDS,
        events=required("events").EVENTS,
        option_rules=rules.normalize_options,
        options=required("data").OPTIONS,
        initial_state=state.initial_state,
        advance=rules.advance,
        decide=rules.decide,
        evolve=rules.evolve,
        awaited=rules.awaited,
        is_over=rules.is_over,
        view=views.view,
        legal_moves=moves.legal_moves,
        scoreboard=required("scoring").scoreboard,
        facts=required("facts").FACTS,
        **given,
    )
