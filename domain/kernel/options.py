"""A game's options as JSON Schema, and the one typed check every option given to any game goes
through before the game's own rules see it (``GameDefinition.normalize_options``).

The schemas are what the catalog shows clients (``GET /games/catalog/{game}``), so what a form
offers and what the server takes cannot drift apart. The check is stricter than JSON Schema in
one way on purpose: an ``integer`` is a JSON integer, never ``8.0`` or ``-0.0`` (JSON Schema counts
a float with no fraction as an integer, and a recorded float then breaks every rule that counts
with it), nor ``true``.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from typing import Any

from domain.kernel.errors import BAD_OPTIONS, RuleViolation

# The JSON Schema keywords an option's schema may use: the check understands each of them, and
# a schema with another keyword is a bug (it would show clients a bound nobody enforces).
KEYWORDS = frozenset({"type", "enum", "minimum", "maximum", "default"})
JSON_TYPES = {"integer": "an integer", "number": "a number", "string": "a string", "boolean": "true or false"}


@dataclasses.dataclass(frozen=True, slots=True)
class OptionSpec:
    """One game option. ``schema`` is JSON Schema (``KEYWORDS``) with the default; ``players`` lists
    the player counts the option applies to (empty: all); ``requires`` the values other options
    must have for it to apply (e.g. a layout for the base board only). The game's own
    ``normalize_options`` rules say which apply when; the tests check that both agree."""

    name: str
    description: str
    schema: dict[str, Any]
    players: tuple[int, ...] = ()
    requires: dict[str, Any] = dataclasses.field(default_factory=dict)

    def __post_init__(self) -> None:
        unknown = set(self.schema) - KEYWORDS
        if unknown or self.schema.get("type") not in JSON_TYPES or "default" not in self.schema:
            raise ValueError(f"option {self.name}: a schema has a type of {sorted(JSON_TYPES)} and a default only")
        check_value(self, self.schema["default"])

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "description": self.description,
            "schema": self.schema,
            "players": list(self.players),
            "requires": self.requires,
        }


def has_json_type(value: Any, json_type: str) -> bool:
    """``value`` as JSON parsed it is of ``json_type``; booleans are never numbers, floats never
    integers, and a number is finite (Python's JSON reader takes ``NaN`` and ``Infinity``)."""
    if json_type == "boolean":
        return isinstance(value, bool)
    if json_type == "string":
        return isinstance(value, str)
    if json_type == "integer":
        return type(value) is int
    return type(value) in (int, float) and math.isfinite(value)


def check_value(spec: OptionSpec, value: Any) -> None:
    """Refuse (``BAD_OPTIONS``) a value that is not of the option's schema."""
    schema = spec.schema
    json_type = schema["type"]
    offered = schema.get("enum")
    if offered is not None:
        expected = " or ".join(map(repr, offered))
    else:
        bounds = [f"at least {schema['minimum']}"] if "minimum" in schema else []
        bounds += [f"at most {schema['maximum']}"] if "maximum" in schema else []
        expected = " ".join([JSON_TYPES[json_type], *bounds])
    fits = has_json_type(value, json_type) and (
        any(type(value) is type(choice) and value == choice for choice in offered)
        if offered is not None
        else schema.get("minimum", value) <= value <= schema.get("maximum", value)
    )
    if not fits:
        raise RuleViolation(BAD_OPTIONS, f"option {spec.name} must be {expected}, not {_shown(value)}")


def check_option_types(specs: tuple[OptionSpec, ...], options: Any) -> dict[str, Any]:
    """``options`` when it is an object of known options, each of its schema's type and range;
    which options apply together is the game's rule, checked after this."""
    if not isinstance(options, Mapping):
        raise RuleViolation(BAD_OPTIONS, f"options must be an object, not {_shown(options)}")
    known = {spec.name: spec for spec in specs}
    unknown = sorted(str(name) for name in options if name not in known)
    if unknown:
        names = ", ".join(known) or "none"
        raise RuleViolation(BAD_OPTIONS, f"unknown option(s) {', '.join(unknown)}; this game's options: {names}")
    for name, value in options.items():
        check_value(known[name], value)
    return dict(options)


def _shown(value: Any) -> str:
    """A refused value as the message shows it: short, whatever was sent."""
    if type(value) is int and value.bit_length() > 64:
        return f"an integer of {value.bit_length()} bits"
    text = repr(value)
    return text if len(text) <= 40 else f"{text[:37]}..."
