"""Static game data for clients: what a client needs to draw a game and to resolve every id a view
holds (board geometry, tiles, cards, costs, names), plus the game's options, player counts and
command types. Everything comes from the data modules the engine itself uses, never a second copy.

One module per game beside this one builds that game's ``static`` part and declares its options.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable
from importlib import import_module
from typing import Any, Literal, Union, get_args, get_origin

from domain.catalog import GAMES
from domain.kernel.game import GameDefinition
from domain.kernel.messages import Message
from domain.kernel.options import OptionSpec


def json_schema_of(hint: Any) -> dict[str, Any]:
    """A JSON Schema for one command or event field annotation."""
    origin = get_origin(hint)
    if hint is Any:
        return {}
    if origin in (Union, types.UnionType):
        return {"anyOf": [json_schema_of(option) for option in get_args(hint)]}
    if hint is type(None):
        return {"type": "null"}
    if origin is Literal:
        return {"enum": list(get_args(hint))}
    simple = {bool: "boolean", int: "integer", float: "number", str: "string", list: "array", dict: "object"}
    if hint in simple:
        return {"type": simple[hint]}
    if origin is list:
        (item,) = get_args(hint) or (Any,)
        return {"type": "array", "items": json_schema_of(item)}
    if origin is dict:
        _key, value = get_args(hint) or (str, Any)
        return {"type": "object", "additionalProperties": json_schema_of(value)}
    # A typed dict or dataclass inside an event (e.g. Peloponnes' counters): an object.
    return {"type": "object"}


def message_types(classes: tuple[type[Message], ...]) -> list[dict[str, Any]]:
    described = []
    for cls in classes:
        hints = typing.get_type_hints(cls)
        fields = []
        for f in dataclasses.fields(cls):
            required = f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
            fields.append({"name": f.name, "schema": json_schema_of(hints[f.name]), "required": required})
        entry: dict[str, Any] = {"type": cls.type, "fields": fields}
        if hasattr(cls, "private"):
            entry["private"] = bool(cls.private)
        described.append(entry)
    return described


def default_options(game: GameDefinition[Any]) -> dict[str, dict[str, Any]]:
    """The options each player count gets when the creator gives none: what normalize_options makes of {}."""
    return {str(n): game.normalize_options(n, {}) for n in range(game.min_players, game.max_players + 1)}


def _game_module(game_id: str) -> Any:
    return import_module(f"domain.client_data.{game_id}")


def client_data(game_id: str) -> dict[str, Any]:
    """Everything static a client needs for one game; an unknown game raises RuleViolation(UNKNOWN_GAME)."""
    game = GAMES.get(game_id)
    module = _game_module(game.id)
    options: tuple[OptionSpec, ...] = game.options
    static: Callable[[], dict[str, Any]] = module.static
    return {
        "game": game.id,
        "title": game.title,
        "min_players": game.min_players,
        "max_players": game.max_players,
        "options": [o.to_dict() for o in options],
        "default_options": default_options(game),
        "commands": message_types(game.commands),
        "events": message_types(game.events),
        "static": static(),
    }
