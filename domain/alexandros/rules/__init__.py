"""decide / evolve / advance for Alexandros, one module per section of the rules file
``docs/alexandros/rules.md`` (rule numbers Rn refer to it); each module holds the decisions
(``DECIDERS``) and the event handlers (``EVOLVERS``) of its part side by side, assembled here.

- ``board``: 2.4 board terms (R1-R11): free spaces, closeness, provinces
- ``setup``: 3 setup (R12-R18) and the options (7)
- ``sequence``: 4 sequence of play (R19-R24): who is awaited, the automatic steps, ending the turn
- ``general``: 5.3 actions in general (R42-R44) and the fields every command shares
- ``moving``: 5.1 moving Alexander (R25-R34)
- ``walls``: 5.2 walls (R35-R41)
- ``take_card``: 5.4 take a card (R45-R47)
- ``occupy``: 5.5 and 5.6 occupy or take over a province (R48-R56)
- ``taxes``: 5.7 levy taxes (R57-R60)
- ``retire``: 5.8 retire a governor (R61-R62)
- ``cards``: 5.9 hand, display, supply, discard pile (R63-R66)
- ``end``: 6 end of game and scoring (R67-R72)
"""

from __future__ import annotations

from domain.alexandros.rules import cards, end, moving, occupy, retire, sequence, setup, take_card, taxes, walls
from domain.alexandros.rules.board import (
    closest_free_spaces,
    has_free_space,
    is_free,
    province_spaces,
    province_value,
    provinces,
    single_owner_violations,
)
from domain.alexandros.rules.end import final_winners
from domain.alexandros.rules.occupy import compensation_size, takeover_costs
from domain.alexandros.rules.sequence import advance, awaited, is_over
from domain.alexandros.rules.setup import normalize_options
from domain.alexandros.rules.taxes import tax_scoring
from domain.alexandros.state import State
from domain.kernel.sections import Rules, assemble_rules

RULES: Rules[State] = assemble_rules(
    "alexandros",
    [setup, sequence, moving, walls, take_card, occupy, taxes, retire, cards, end],
)
decide = RULES.decide
evolve = RULES.evolve


__all__ = [
    "advance",
    "awaited",
    "closest_free_spaces",
    "compensation_size",
    "decide",
    "evolve",
    "final_winners",
    "has_free_space",
    "is_free",
    "is_over",
    "normalize_options",
    "province_spaces",
    "province_value",
    "provinces",
    "single_owner_violations",
    "takeover_costs",
    "tax_scoring",
]
