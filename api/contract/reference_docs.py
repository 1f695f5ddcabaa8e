"""The per-game reference in ``docs/<game>/reference.md``, generated from the code: commands (from
the command dataclasses, with an example payload each), events (from the event dataclasses, with
who may see them) and the view's fields (from the TypedDicts its ``view`` returns, which the
OpenAPI contract documents too).

Run ``python -m api.contract.reference_docs`` after changing a game's commands, events or views;
``tests/test_docs.py`` fails while the committed files differ from what this writes.
"""

from __future__ import annotations

import dataclasses
import json
import sys
import typing
from pathlib import Path
from typing import Any

from typing_extensions import is_typeddict

from domain.catalog import GAME_PACKAGES, GAMES
from domain.kernel import engine
from domain.kernel.bots import RandomBot
from domain.kernel.chance import Chance
from domain.kernel.game import GameDefinition
from domain.kernel.messages import Command, Event

DOCS = Path(__file__).resolve().parents[2] / "docs"
# The games the bots play to collect example payloads: (players, options).
SAMPLE_GAMES: dict[str, list[tuple[int, dict[str, Any]]]] = {
    "peloponnes": [(1, {}), (3, {})],
    "empire_builder": [(3, {}), (2, {"short_game": True})],
    "alexandros": [(2, {}), (4, {})],
    "catan_alexander": [(3, {}), (4, {}), (3, {"board": "base"})],
}
SAMPLE_COMMANDS = 3000  # per sample game: enough to reach the end, or most of the way


def type_name(hint: Any) -> str:
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if hint is type(None):
        return "null"
    if hint is Any:
        return "any"
    if is_typeddict(hint):
        return "object"
    if origin is typing.Literal:
        return " \\| ".join(json.dumps(a) for a in args)
    if origin in (typing.Union, __import__("types").UnionType):
        return " \\| ".join(type_name(a) for a in args)
    if origin is list:
        return f"list of {type_name(args[0])}" if args else "list"
    if origin is dict:
        return f"map of {type_name(args[0])} to {type_name(args[1])}" if args else "map"
    return {int: "integer", str: "string", bool: "boolean", float: "number"}.get(
        hint, getattr(hint, "__name__", str(hint))
    )


def describe_fields(cls: type[Command] | type[Event]) -> list[str]:
    hints = typing.get_type_hints(cls)
    rows = []
    for field in dataclasses.fields(cls):
        optional = field.default is not dataclasses.MISSING or field.default_factory is not dataclasses.MISSING
        if field.default is not dataclasses.MISSING:
            default = f" (default `{json.dumps(field.default)}`)"
        elif field.default_factory is not dataclasses.MISSING:
            default = f" (default `{json.dumps(field.default_factory())}`)"
        else:
            default = ""
        note = field.metadata.get("description", "")
        low, high = field.metadata.get("minimum"), field.metadata.get("maximum")
        if low is not None and high is not None:
            note += f" ({low} to {high})"
        elif low is not None:
            note += f" (at least {low})"
        elif high is not None:
            note += f" (at most {high})"
        rows.append(
            f"| `{field.name}` | {type_name(hints[field.name])} | {'no' if optional else 'yes'}{default} | {note} |"
        )
    return rows


def doc_of(cls: type) -> str:
    doc = (cls.__doc__ or "").strip()
    return "" if doc.startswith(f"{cls.__name__}(") else " ".join(doc.split())


# -- what bots meet ---------------------------------------------------------------------------------


@dataclasses.dataclass
class Samples:
    examples: dict[str, dict[str, Any]] = dataclasses.field(default_factory=dict)  # command type -> payload
    events_seen: set[str] = dataclasses.field(default_factory=set)


def sample(game: GameDefinition[Any]) -> Samples:
    samples = Samples()
    for number, (players, options) in enumerate(SAMPLE_GAMES.get(game.id, [(game.min_players, {})])):
        chance = Chance(f"docs-{game.id}-{number}".encode())
        bot = RandomBot(f"docs-bot-{game.id}-{number}".encode())
        state, events = engine.start(game, players, game.normalize_options(players, dict(options)), chance)
        samples.events_seen |= {e.type for e in events}
        for _ in range(SAMPLE_COMMANDS):
            if game.is_over(state):
                break
            seat, command = bot.next_move(game, state)
            samples.examples.setdefault(command.type, {"type": command.type, **command.to_dict()})
            state, events = engine.execute(game, state, seat, command, chance)
            samples.events_seen |= {e.type for e in events}
    return samples


def shape_example(command: type[Command]) -> dict[str, Any]:
    """A payload of the right shape, for a command the bots never sent."""
    placeholders = {int: 0, str: "…", bool: False}
    hints = typing.get_type_hints(command)
    payload: dict[str, Any] = {"type": command.type}
    for field in dataclasses.fields(command):
        if field.default is not dataclasses.MISSING or field.default_factory is not dataclasses.MISSING:
            continue
        hint = hints[field.name]
        origin = typing.get_origin(hint)
        if origin is typing.Literal:
            payload[field.name] = typing.get_args(hint)[0]
        elif origin is list:
            payload[field.name] = []
        elif origin is dict:
            payload[field.name] = {}
        else:
            payload[field.name] = placeholders.get(hint)
    return payload


# -- the view's fields ------------------------------------------------------------------------------


def nested_object(hint: Any) -> tuple[Any, str] | None:
    """The TypedDict inside a field's type (an object, a list of them, a map to them, or null),
    with the path from the field to it (``[]`` for a list item, ``.<key>`` for a map's value)."""
    if is_typeddict(hint):
        return hint, ""
    args = typing.get_args(hint)
    origin = typing.get_origin(hint)
    if origin is list or origin is dict:
        inner = nested_object(args[-1])
        return None if inner is None else (inner[0], ("[]" if origin is list else ".<key>") + inner[1])
    for arg in args:  # a union: the object beside null
        inner = nested_object(arg)
        if inner is not None:
            return inner
    return None


def describe_view(view: Any, prefix: str = "") -> list[str]:
    """One row per field of the TypedDict ``view``, then the fields of the objects it holds."""
    rows = []
    for name, hint in typing.get_type_hints(view, include_extras=True).items():
        # NotRequired: present only sometimes (``__required_keys__`` cannot see it in a string annotation)
        always = "no" if typing.get_origin(hint) is typing.NotRequired else "yes"
        if always == "no":
            hint = typing.get_args(hint)[0]
        nested = nested_object(hint)
        rows.append(f"| `{prefix}{name}` | {type_name(hint)} | {always} | {doc_of(nested[0]) if nested else ''} |")
        if nested is not None:
            rows += describe_view(nested[0], f"{prefix}{name}{nested[1]}.")
    return rows


# -- the page ---------------------------------------------------------------------------------------


def visibility(event: type[Event]) -> str:
    if event.private_to and event.hidden:
        return f"whole to the seat(s) in {', '.join(event.private_to)}; others see it without {', '.join(event.hidden)}"
    if event.private_to:
        return f"whole to the seat(s) in {', '.join(event.private_to)}; others see its public form"
    if event.hidden:
        return f"public without {', '.join(event.hidden)} until the game ends"
    return "public"


def reference(game: GameDefinition[Any]) -> str:
    samples = sample(game)
    route = f"/games/{{game_id}}/commands/{game.id}"
    lines = [
        f"# {game.title}: commands, events and view",
        "",
        "<!-- Generated by `python -m api.contract.reference_docs` from the game's code: do not edit by hand. -->",
        "",
        f"Game id `{game.id}`, {game.min_players} to {game.max_players} players. The rules the engine "
        f"implements are in [rules.md](rules.md).",
        "",
        "## Commands",
        "",
        f"Send a command as JSON to `POST {route}` with the seat's token (`Authorization: Bearer TOKEN`). "
        "Every command may also carry `expected_version` (refused with 409 `STALE_VERSION` unless the game "
        "is at that version) and `command_id` (a retry with the same id returns the first result). "
        "`GET /games/{game_id}/legal-moves` lists the commands the bearer may send now, each a valid body. "
        "Integers are written without a fraction (`3`, not `3.0`); unknown fields are refused.",
        "",
    ]
    for command in game.commands:
        lines += [f"### `{command.type}`", ""]
        if doc_of(command):
            lines += [doc_of(command), ""]
        if command.private:
            lines += ["Sealed: its fields are recorded for the sender only until the game ends.", ""]
        rows = describe_fields(command)
        if rows:
            lines += ["| field | type | required | notes |", "|---|---|---|---|", *rows, ""]
        else:
            lines += ["No fields.", ""]
        example = samples.examples.get(command.type)
        label = "Example (sent by a bot in a sample game):"
        if example is None:
            example, label = shape_example(command), "Example of its shape (no sample game sent it):"
        lines += [label, "", "```json", json.dumps(example, ensure_ascii=False), "```", ""]
    lines += [
        "## Events",
        "",
        "Every accepted command is recorded as `CommandAccepted` followed by the events it caused; the "
        "game's automatic steps (setup, income, scoring...) add events of their own. A record's `type` "
        "is the event's name and its `data` the fields below (`GET /games/{game_id}/events`). The log "
        "starts with the platform's `GameCreated` (`game`, `players`, `options`, `seed_commitment`), and "
        "in a game created with open seats a `SeatTaken` (`seat`, `name`) per join; the game's setup "
        "follows the last one. It ends with `GameEnded`, which reveals the `seed`.",
        "",
    ]
    for event in game.events:
        lines += [f"### `{event.type}`", ""]
        if doc_of(event):
            lines += [doc_of(event), ""]
        lines += [f"Visibility: {visibility(event)}.", ""]
        rows = describe_fields(event)
        if rows:
            lines += ["| field | type | always | notes |", "|---|---|---|---|", *rows, ""]
    view = typing.get_type_hints(game.view)["return"]
    lines += [
        "## View",
        "",
        "`GET /games/{game_id}` answers the platform's envelope (`game_id`, `game`, `players`, `options`, "
        "`version`, `status`, `viewer`, `awaited`, `optional`, `scoreboard`, `open_seats`, `names`) with the "
        f"game's own view in `state` (the schema `{view.__name__}` of the OpenAPI document, declared in "
        f"`domain/{game.id}/views.py`); after the end `seat_views` holds every seat's view. "
        f"{doc_of(view)} Its fields (always `no`: present only for some viewers or at some times; "
        "an object's fields follow it, a map's keys are written `<key>`):",
        "",
        "| field | type | always | notes |",
        "|---|---|---|---|",
        *describe_view(view),
        "",
    ]
    return "\n".join(lines)


def pages() -> dict[Path, str]:
    return {DOCS / name / "reference.md": reference(GAMES.get(name)) for name in GAME_PACKAGES}


def main() -> int:
    for path, text in pages().items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        print(f"wrote {path.relative_to(DOCS.parent)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
