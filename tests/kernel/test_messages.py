"""Messages built by the kernel's ``__init__`` behave as the dataclass's own would."""

from __future__ import annotations

import dataclasses

import pytest

from domain.catalog import GAME_PACKAGES, GAMES
from domain.kernel import Command, Event


@dataclasses.dataclass(frozen=True, slots=True)
class Sample(Command):
    required: int
    defaulted: str | None = None
    listed: list[int] = dataclasses.field(default_factory=list)


def test_a_message_is_built_with_every_kind_of_field() -> None:
    built = Sample(1)
    assert (built.required, built.defaulted, built.listed) == (1, None, [])
    assert Sample(1, "a", [2]) == Sample(required=1, defaulted="a", listed=[2])
    assert Sample(1).listed is not Sample(1).listed  # a new list from the factory each time
    assert dataclasses.replace(built, defaulted="b") == Sample(1, "b")
    assert built.to_dict() == {"required": 1, "defaulted": None, "listed": []}


@dataclasses.dataclass(frozen=True, slots=True)
class KeywordOnly(Event):
    first: int
    second: int = dataclasses.field(default=0, kw_only=True)


def test_a_message_with_a_keyword_only_field_keeps_the_dataclasss_init() -> None:
    assert KeywordOnly(1, second=2).second == 2
    with pytest.raises(TypeError):
        KeywordOnly(1, 2)  # type: ignore[misc]


def test_a_message_refuses_what_the_dataclass_refuses() -> None:
    with pytest.raises(TypeError):
        Sample()  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Sample(1, unknown=2)  # type: ignore[call-arg]
    with pytest.raises(dataclasses.FrozenInstanceError):
        Sample(1).required = 2  # type: ignore[misc]


@pytest.mark.parametrize("game_id", GAME_PACKAGES)
def test_every_message_of_every_game_uses_the_kernels_init(game_id: str) -> None:
    game = GAMES.get(game_id)
    for cls in (*game.command_types.values(), *game.event_types.values()):
        assert issubclass(cls, Command | Event)
        assert cls.__init__.__qualname__ == f"{cls.__qualname__}.__init__"
        assert "_set0" in cls.__init__.__code__.co_names or not dataclasses.fields(cls)
