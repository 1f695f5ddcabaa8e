"""Commands and events: immutable, typed, JSON-native.

Every game declares its commands and events as frozen dataclasses deriving from
``Command`` and ``Event``. Field values must be JSON-native so that an event read back
from the store equals the one written: ``int``, ``str``, ``bool``, ``None``, ``list``
(never tuple) and ``dict`` with ``str`` keys. A property test per game (replay from the
serialised log rebuilds the live state) holds every game to that.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from typing import Any, ClassVar, Literal, Self, Union, get_args, get_origin

from domain.kernel.errors import BAD_INPUT, UNKNOWN_COMMAND, RuleViolation
from domain.kernel.seats import Seat

_NO_VALUE = object()  # a field with a default factory left out of the call


def _slot_init(cls: type) -> Any:
    """The ``__init__`` the dataclass would write, with the same parameters, filling the slots
    through their descriptors: a frozen dataclass's own sets each field with a lookup of
    ``object.__setattr__``, which made it most of the cost of building a message (``slots=True``
    re-creates the class, and this runs when it does, with the fields known). A class with a
    keyword-only or an ``init=False`` field keeps the dataclass's own."""
    if any(f.kw_only or not f.init for f in dataclasses.fields(cls)):
        return cls.__dict__["__init__"]
    params: list[str] = []
    body: list[str] = []
    names: dict[str, Any] = {"_NO_VALUE": _NO_VALUE}
    for i, f in enumerate(dataclasses.fields(cls)):
        names[f"_set{i}"] = cls.__dict__[f.name].__set__
        if f.default is not dataclasses.MISSING:
            names[f"_default{i}"] = f.default
            params.append(f"{f.name}=_default{i}")
            body.append(f"_set{i}(self, {f.name})")
        elif f.default_factory is not dataclasses.MISSING:
            names[f"_factory{i}"] = f.default_factory
            params.append(f"{f.name}=_NO_VALUE")
            body.append(f"_set{i}(self, _factory{i}() if {f.name} is _NO_VALUE else {f.name})")
        else:
            params.append(f.name)
            body.append(f"_set{i}(self, {f.name})")
    source = f"def __init__(self, {', '.join(params)}):\n" + "".join(f"    {line}\n" for line in body or ["pass"])
    exec(source, names)  # the source is built above from the field names only
    init = names["__init__"]
    init.__qualname__, init.__module__ = f"{cls.__qualname__}.__init__", cls.__module__
    return init


@dataclasses.dataclass(frozen=True, slots=True)
class Message:
    """Shared base of commands and events."""

    type: ClassVar[str] = ""

    def __init_subclass__(cls) -> None:
        # no super(): slotted dataclasses are re-created, which breaks its implicit cell
        if "type" not in cls.__dict__:
            cls.type = cls.__name__
        if "__slots__" in cls.__dict__ and "__dataclass_fields__" in cls.__dict__:
            cls.__init__ = _slot_init(cls)  # type: ignore[method-assign]

    def to_dict(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in _field_names(type(self))}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
        return cls(**data)


@dataclasses.dataclass(frozen=True, slots=True)
class Command(Message):
    """An imperative request by a seat (``type`` is snake_case, e.g. ``place_bid``).

    ``private`` commands (sealed moves) are recorded privately to the sender.
    """

    private: ClassVar[bool] = False


@dataclasses.dataclass(frozen=True, slots=True)
class Event(Message):
    """A past-tense fact (``type`` is the class name, e.g. ``BidPlaced``).

    Visibility: an event is public unless it declares ``private_to`` (fields that hold the
    seat, or list of seats, allowed to see it whole) or ``hidden`` fields. Everybody else sees
    the public form, which leaves out the ``hidden`` fields. An event with ``hidden`` fields and
    no ``private_to`` is secret from every seat until the game ends (e.g. a shuffled order that
    must be recorded so replay needs no random generator, but that nobody may see yet).
    """

    private_to: ClassVar[tuple[str, ...]] = ()
    hidden: ClassVar[tuple[str, ...]] = ()

    def viewers(self) -> frozenset[Seat] | None:
        """The seats that may see the whole event, or ``None`` when it is public."""
        if not self.private_to and not self.hidden:
            return None
        seats: set[Seat] = set()
        for name in self.private_to:
            value = getattr(self, name)
            if isinstance(value, list):
                seats.update(value)
            elif value is not None:
                seats.add(value)
        return frozenset(seats)

    def public_form(self) -> dict[str, Any]:
        data = self.to_dict()
        for name in self.hidden:
            data.pop(name, None)
        return data


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}
_FIELD_TYPES: dict[type, dict[str, Any]] = {}


def _field_names(cls: type) -> tuple[str, ...]:
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = tuple(f.name for f in dataclasses.fields(cls))
        _FIELD_NAMES[cls] = names
    return names


def _field_types(cls: type) -> dict[str, Any]:
    hints = _FIELD_TYPES.get(cls)
    if hints is None:
        all_hints = typing.get_type_hints(cls)
        hints = {name: all_hints[name] for name in _field_names(cls)}
        _FIELD_TYPES[cls] = hints
    return hints


def command_class(command_types: dict[str, type[Command]], payload: Any) -> type[Command]:
    """The command class a client JSON object names in ``type`` (its fields are not looked at)."""
    if not isinstance(payload, dict):
        raise RuleViolation(BAD_INPUT, "a command must be a JSON object")
    kind = payload.get("type")
    if not isinstance(kind, str) or kind not in command_types:
        known = ", ".join(sorted(command_types))
        raise RuleViolation(UNKNOWN_COMMAND, f"unknown command type {kind!r}; this game knows: {known}")
    return command_types[kind]


def parse_command(command_types: dict[str, type[Command]], payload: dict[str, Any]) -> Command:
    """Build a command from client JSON, checking every field against its annotation.

    Raises ``RuleViolation(BAD_INPUT)`` with a message naming the offending field.
    """
    cls = command_class(command_types, payload)
    kind = cls.type
    fields = {f.name: f for f in dataclasses.fields(cls)}
    extra = sorted(set(payload) - set(fields) - {"type"})
    if extra:
        raise RuleViolation(BAD_INPUT, f"{kind} has no field(s) {', '.join(extra)}")
    values: dict[str, Any] = {}
    for name, hint in _field_types(cls).items():
        if name in payload:
            values[name] = _check(payload[name], hint, f"{kind}.{name}")
        elif fields[name].default is dataclasses.MISSING and fields[name].default_factory is dataclasses.MISSING:
            raise RuleViolation(BAD_INPUT, f"{kind} needs the field {name!r}")
    return cls(**values)


def _check(value: Any, hint: Any, where: str) -> Any:
    origin = get_origin(hint)
    if hint is Any:
        return value
    if origin in (Union, types.UnionType):
        for option in get_args(hint):
            try:
                return _check(value, option, where)
            except RuleViolation:
                continue
        raise RuleViolation(BAD_INPUT, f"{where} has the wrong type ({_describe(hint)} expected)")
    if hint is type(None):
        if value is None:
            return None
    elif origin is Literal:
        if value in get_args(hint) and type(value) in {type(a) for a in get_args(hint)}:
            return value
        allowed = ", ".join(repr(a) for a in get_args(hint))
        raise RuleViolation(BAD_INPUT, f"{where} must be one of {allowed}")
    elif hint is bool:
        if isinstance(value, bool):
            return value
    elif hint is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    elif hint is float:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return value
    elif hint is str:
        if isinstance(value, str):
            return value
    elif origin is list:
        if isinstance(value, list):
            (item,) = get_args(hint) or (Any,)
            return [_check(v, item, f"{where}[{i}]") for i, v in enumerate(value)]
    elif origin is dict:
        if isinstance(value, dict):
            key_hint, value_hint = get_args(hint) or (str, Any)
            return {_check(k, key_hint, where): _check(v, value_hint, f"{where}.{k}") for k, v in value.items()}
    elif hint in (list, dict):
        if isinstance(value, hint):
            return value
    else:
        raise TypeError(f"unsupported annotation {hint!r} at {where}")
    raise RuleViolation(BAD_INPUT, f"{where} has the wrong type ({_describe(hint)} expected)")


def _describe(hint: Any) -> str:
    return getattr(hint, "__name__", None) or str(hint).replace("typing.", "")
