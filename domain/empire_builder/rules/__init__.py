"""decide / evolve / advance for the Empire Builder, one module per section of the rules file
``docs/empire_builder/rules.md`` (rule numbers Rn refer to it); each module holds the decisions
(``DECIDERS``) and the event handlers (``EVOLVERS``) of its part side by side, assembled here.

- ``setup``: 3 setup and the options (§7)
- ``sequence``: 4 sequence of play: who is awaited, the automatic steps
- ``general``: 5.1 general, and the fields every command shares (§10.2 INVALID_FIELD)
- ``allocation``: 5.3 campaign start: allocation and turn order (R13-R23)
- ``reallocation``: 5.4 rounds 2 and 3: reallocation (R24)
- ``turns``: 5.5 turns
- ``movement``: 5.6 movement (R26-R37)
- ``building``: 5.7 building attempts (R38-R44)
- ``evaluation``: 5.8 evaluation (R45-R54)
- ``rounds``: 5.9 end of round and end of campaign (R55-R56)
- ``end``: 6 end of game and scoring (R57-R62)
"""

from __future__ import annotations

from domain.empire_builder.rules import allocation, building, end, evaluation, movement, reallocation, rounds, turns
from domain.empire_builder.rules.building import build_options
from domain.empire_builder.rules.movement import Group, group_costs
from domain.empire_builder.rules.sequence import advance, awaited, is_over
from domain.empire_builder.rules.setup import normalize_options
from domain.empire_builder.state import State
from domain.kernel.sections import Rules, assemble_rules

RULES: Rules[State] = assemble_rules(
    "empire_builder",
    [allocation, reallocation, turns, movement, building, evaluation, rounds, end],
    decisions_draw_chance=False,
)
decide = RULES.decide
evolve = RULES.evolve


__all__ = [
    "Group",
    "advance",
    "awaited",
    "build_options",
    "decide",
    "evolve",
    "group_costs",
    "is_over",
    "normalize_options",
]
