"""A game's ``decide`` and ``evolve``, assembled from the sections of its rules file.

Every game keeps one module per section of its rules file. A section module holds the decisions
of its part (``DECIDERS``: command -> function) beside the handlers of its events (``EVOLVERS``:
event -> function), keyed by the message class or by its ``type``. ``assemble_rules`` merges a
game's sections into one table of each kind, keyed by ``type``, and gives the ``decide`` and
``evolve`` a ``GameDefinition`` takes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Generic, TypeVar

from domain.kernel.chance import Chance
from domain.kernel.errors import BAD_INPUT, RuleViolation
from domain.kernel.messages import Command, Event, Message
from domain.kernel.seats import Seat

S = TypeVar("S")

# (state, seat, command, chance) -> events, or (state, seat, command) -> events for a game whose
# decisions never draw chance (only its automatic steps do).
Decider = Callable[..., list[Event]]


@dataclass(frozen=True, slots=True)
class Rules(Generic[S]):
    """A game's merged tables and the ``decide`` and ``evolve`` that read them.

    ``evolve`` reads ``evolvers`` at every call, so a module the rules cannot import (it imports
    them) may still add the handler of its own event to it.
    """

    deciders: dict[str, Decider]
    evolvers: dict[str, Callable[[S, Any], None]]
    decide: Callable[[S, Seat, Command, Chance], list[Event]]
    evolve: Callable[[S, Event], S]


def assemble_rules(game: str, sections: Iterable[ModuleType], *, decisions_draw_chance: bool = True) -> Rules[S]:
    """One table of decisions and one of event handlers from the ``DECIDERS`` and ``EVOLVERS`` of
    the section modules (a section may have either, both or none).

    A command or event handled in two sections is a mistake in the rules and fails here, at
    import. ``decide`` refuses a command the game has none for with ``BAD_INPUT`` (the platform
    refuses those earlier, with ``UNKNOWN_COMMAND``); with ``decisions_draw_chance=False`` the
    deciders are called without the chance.
    """
    sections = list(sections)
    decide_table: dict[str, Decider] = _merge(game, "decided", [getattr(s, "DECIDERS", {}) for s in sections])
    evolve_table: dict[str, Callable[[S, Any], None]] = _merge(
        game, "applied", [getattr(s, "EVOLVERS", {}) for s in sections]
    )

    def decide(state: S, seat: Seat, command: Command, chance: Chance) -> list[Event]:
        decider = decide_table.get(command.type)
        if decider is None:
            raise RuleViolation(BAD_INPUT, f"{game} has no command {command.type!r}")
        if decisions_draw_chance:
            return decider(state, seat, command, chance)
        return decider(state, seat, command)

    def evolve(state: S, event: Event) -> S:
        evolve_table[event.type](state, event)
        return state

    return Rules(decide_table, evolve_table, decide, evolve)


def _merge(game: str, verb: str, tables: list[Mapping[type[Message] | str, Any]]) -> dict[str, Any]:
    merged: dict[str, Any] = {}
    for table in tables:
        for key, handler in table.items():
            name = key if isinstance(key, str) else key.type
            if name in merged:
                raise ValueError(f"{game}: {name} is {verb} in two sections of the rules")
            merged[name] = handler
    return merged
