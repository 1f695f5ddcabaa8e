"""A game's decide and evolve assembled from its rules' section modules."""

from __future__ import annotations

from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import pytest

from domain.kernel import Chance, Command, Event, RuleViolation
from domain.kernel.sections import Rules, assemble_rules


@dataclass(frozen=True, slots=True)
class Add(Command):
    type = "add"
    amount: int


@dataclass(frozen=True, slots=True)
class Roll(Command):
    type = "roll"


@dataclass(frozen=True, slots=True)
class Added(Event):
    amount: int


@dataclass
class Counter:
    total: int = 0
    seen: list[str] = field(default_factory=list)


def section(name: str, **tables: Any) -> ModuleType:
    module = ModuleType(name)
    for key, table in tables.items():
        setattr(module, key, table)
    return module


def on_added(state: Counter, event: Added) -> None:
    state.total += event.amount


def test_sections_keyed_by_class_or_type_make_one_decide_and_evolve() -> None:
    adding = section(
        "adding",
        DECIDERS={Add: lambda state, seat, command, chance: [Added(command.amount)]},
        EVOLVERS={Added.type: on_added},
    )
    rolling = section("rolling", DECIDERS={"roll": lambda state, seat, command, chance: [Added(chance.die("d"))]})
    rules: Rules[Counter] = assemble_rules("counter", [adding, rolling, section("words only")])
    state = Counter()
    for event in rules.decide(state, 0, Add(3), Chance(b"c")) + rules.decide(state, 0, Roll(), Chance(b"c")):
        assert rules.evolve(state, event) is state
    assert state.total == 3 + Chance(b"c").die("d")
    assert set(rules.deciders) == {"add", "roll"} and set(rules.evolvers) == {"Added"}


def test_decisions_that_draw_no_chance_are_called_without_it() -> None:
    adding = section("adding", DECIDERS={Add: lambda state, seat, command: [Added(command.amount + seat)]})
    rules: Rules[Counter] = assemble_rules("counter", [adding], decisions_draw_chance=False)
    assert rules.decide(Counter(), 2, Add(1), Chance(b"unused")) == [Added(3)]


def test_a_command_the_game_has_not_is_bad_input() -> None:
    rules: Rules[Counter] = assemble_rules("counter", [section("adding", DECIDERS={Add: lambda *_: []})])
    with pytest.raises(RuleViolation) as refused:
        rules.decide(Counter(), 0, Roll(), Chance(b"c"))
    assert refused.value.code == "BAD_INPUT" and "counter has no command 'roll'" in refused.value.message


def test_a_message_handled_in_two_sections_fails_at_assembly() -> None:
    one = section("one", EVOLVERS={Added: on_added})
    other = section("other", EVOLVERS={"Added": on_added})
    with pytest.raises(ValueError, match="counter: Added is applied in two sections"):
        assemble_rules("counter", [one, other])
