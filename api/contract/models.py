"""The HTTP contract as pydantic models, derived from the domain's own types so that the code and
the OpenAPI document cannot drift: each game's command dataclasses become one model each and a
discriminated union on ``type``; the TypedDicts each game's ``view`` returns type its views; the
error codes come from the code that raises them."""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Callable
from functools import cache
from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model
from typing_extensions import is_typeddict

from domain.catalog import GAMES
from domain.kernel.chance import CONTRIBUTION_MAX_BYTES, CONTRIBUTION_MIN_BYTES
from domain.kernel.game import GameDefinition
from domain.kernel.messages import Command, Event
from domain.kernel.verification import VerificationReport
from infra.games.service import Invalid

# One rule for every body a client sends (commands, creation, forks, joins): exact JSON types
# (no "3" for 3, no true for 1) and no unknown fields.
STRICT = ConfigDict(extra="forbid", strict=True)


class StrictBody(BaseModel):
    model_config = STRICT


# -- bodies -----------------------------------------------------------------------------------------


class CommandControls(StrictBody):
    """Fields every command may carry beside its own."""

    expected_version: int | None = Field(
        default=None,
        ge=1,
        le=2**31 - 1,
        description="refuse the command (409 STALE_VERSION) unless the game is at this version",
    )
    command_id: str | None = Field(
        default=None,
        min_length=1,
        max_length=200,
        description="a client id for the command: a retry with the same id returns the first result",
    )
    contribution: str | None = Field(
        default=None,
        min_length=2 * CONTRIBUTION_MIN_BYTES,
        max_length=2 * CONTRIBUTION_MAX_BYTES,
        pattern="^([0-9a-fA-F]{2})+$",
        description="random bytes as hex that this seat mixes into the game's chance, once per game "
        "(docs/trust.md: Seeds and contributed chance)",
    )
    signature: str | None = Field(
        default=None,
        min_length=86,
        max_length=86,
        pattern="^[A-Za-z0-9_-]{86}$",
        description="a keyed seat's Ed25519 signature (64 bytes, base64url without padding) over the command, "
        "required of a keyed seat and refused from any other (docs/signed-commands.md)",
    )


CONTROL_FIELDS = tuple(CommandControls.model_fields)


def model_prefix(game_id: str) -> str:
    """``catan_alexander`` -> ``CatanAlexander``: schema names must be unique across games."""
    return "".join(part.capitalize() for part in game_id.split("_"))


def _field_description(field: dataclasses.Field[Any]) -> str | None:
    description = field.metadata.get("description")
    return str(description) if description is not None else None


def command_model(game: GameDefinition[Any], command: type[Command]) -> type[BaseModel]:
    """The pydantic model of one command dataclass as a client sends it: its ``type`` as a
    constant, every field with its annotation, default and description, and the controls."""
    hints = typing.get_type_hints(command)
    fields: dict[str, Any] = {"type": (Literal[command.type], Field(description="the command"))}
    for field in dataclasses.fields(command):
        if field.default is not dataclasses.MISSING:
            default = field.default
        elif field.default_factory is not dataclasses.MISSING:
            default = field.default_factory()
        else:
            default = ...
        fields[field.name] = (
            hints[field.name],
            Field(
                default=default,
                description=_field_description(field),
                ge=field.metadata.get("minimum"),
                le=field.metadata.get("maximum"),
            ),
        )
    name = model_prefix(game.id) + "".join(part.capitalize() for part in command.type.split("_"))
    doc = (command.__doc__ or "").strip()
    if doc.startswith(f"{command.__name__}("):  # the dataclass's generated signature is no description
        doc = ""
    private = " Sealed: its fields are recorded for the sender only until the game ends." if command.private else ""
    return create_model(
        name,
        __base__=CommandControls,
        __doc__=(doc or f"The {command.type} command of {game.title}.") + private,
        **fields,
    )


def event_model(game: GameDefinition[Any], event: type[Event]) -> type[BaseModel]:
    """The ``data`` of a record whose ``type`` is this event. Fields the event hides from some
    viewers (``hidden``) may be absent: they are left out of the public form."""
    hints = typing.get_type_hints(event)
    fields: dict[str, Any] = {}
    for field in dataclasses.fields(event):
        hidden = field.name in event.hidden
        hint = hints[field.name] | None if hidden else hints[field.name]
        fields[field.name] = (hint, Field(default=None if hidden else ..., description=_field_description(field)))
    doc = (event.__doc__ or "").strip()
    if doc.startswith(f"{event.__name__}("):
        doc = ""
    return create_model(
        model_prefix(game.id) + event.type,
        __doc__=(doc or f"The data of a {event.type} record of {game.title}.")
        + (f" Hidden from other seats until the end: {', '.join(event.hidden)}." if event.hidden else ""),
        **fields,
    )


@cache
def event_models(game_id: str) -> tuple[type[BaseModel], ...]:
    game = GAMES.get(game_id)
    return tuple(event_model(game, event) for event in game.events)


@cache
def command_models(game_id: str) -> tuple[type[BaseModel], ...]:
    game = GAMES.get(game_id)
    return tuple(command_model(game, command) for command in game.commands)


@cache
def command_union(game_id: str) -> Any:
    """The body of a command of ``game_id``: one of its commands, told apart by ``type``."""
    models = command_models(game_id)
    if len(models) == 1:
        return models[0]
    return Annotated[Union[models], Field(discriminator="type")]  # noqa: UP007 (a runtime tuple of models)


# -- responses --------------------------------------------------------------------------------------


class SeatToken(BaseModel):
    seat: int = Field(ge=0, description="the seat (0 is the first)")
    token: str = Field(description="the seat's bearer token: send it as Authorization: Bearer TOKEN")


class CreatedGame(BaseModel):
    game_id: str = Field(description="the new game's id")
    version: int = Field(ge=1, description="the game's version (number of records) after its creation")
    seats: list[SeatToken] = Field(
        description="every seat's token (empty when the seats are open to join), but the server's bots'"
    )
    open_seats: list[int] = Field(default_factory=list, description="seats still open to join by name")
    bots: dict[str, str] = Field(default_factory=dict, description="seat -> the bot the server plays it with")


class SeatJoined(BaseModel):
    game_id: str
    seat: int = Field(ge=0, description="the seat the joiner got")
    name: str = Field(description="the joiner's name as the lobby shows it")
    token: str = Field(description="this seat's bearer token; it is shown once, to the joiner only")
    version: int = Field(ge=1, description="the game's version after the join")
    started: bool = Field(description="true when this join filled the last seat and the game began")


class CatalogEntry(BaseModel):
    game: str = Field(description="the game id to create it with")
    title: str
    min_players: int
    max_players: int


class LobbyEntry(BaseModel):
    game_id: str
    game: str
    players: int
    options: dict[str, Any]
    status: Literal["waiting", "running", "ended"] = Field(description="waiting: seats are still open to join")
    version: int
    created_at: str = Field(description="ISO 8601")
    last_activity: str = Field(description="ISO 8601")
    forked_from: dict[str, Any] | None = None
    open_seats: list[int] = Field(default_factory=list, description="seats open to join by name")
    names: dict[str, str] = Field(default_factory=dict, description="seat -> the name it joined with")


class Record(BaseModel):
    """One entry of a game's log as the bearer may see it."""

    position: int = Field(ge=1, description="1-based; the game's version once this record is applied")
    type: str = Field(
        description="GameCreated, CommandAccepted, SeatTaken, SeatKeyed or one of the game's events, whose data is the "
        "schema named after the game and the event (e.g. PeloponnesBidPlaced)"
    )
    data: dict[str, Any] | None = Field(
        description="the record's fields (a private record's public form for those who may not see it)"
    )
    viewers: list[int] | None = Field(description="the seats that may see the whole record; null: public")
    prev: str = Field(description="the hash of the previous record")
    hash: str = Field(description="sha256 over the record's public content and prev")
    public: dict[str, Any] | None = Field(default=None, description="the public form (private records only)")
    digest: str | None = Field(default=None, description="HMAC of the hidden data (private records only)")
    chance: dict[str, int] | None = Field(default=None, description="chance counters after this record")


class GameCreatedData(BaseModel):
    """The data of the first record of every game."""

    game: str
    players: int
    options: dict[str, Any]
    seed_commitment: str = Field(description="sha256 of the secret seed, revealed by GameEnded")
    forked_from: dict[str, Any] | None = Field(default=None, description="a fork: {game_id, version, fingerprint}")
    open_seats: bool | None = Field(default=None, description="true: the seats are taken by joining")
    keys_required: bool | None = Field(default=None, description="true: every seat joins with a public key")


class CommandAcceptedData(BaseModel):
    """The data of the record before a command's events."""

    seat: int
    command: dict[str, Any] = Field(
        description="the command as sent (its game's command schema); others see only the type of a sealed one"
    )
    command_id: str | None = Field(default=None, description="the client's id, for its sender only")
    contribution: str | None = Field(default=None, description="the chance the seat contributed with this command")
    signature: str | None = Field(
        default=None, description="a keyed seat's Ed25519 signature over the command (docs/signed-commands.md)"
    )
    by: Literal["server", "organiser"] | None = Field(
        default=None,
        description="a command that is no act of its seat's, unsigned: the server's (a tournament clock rule's move) "
        "or the organiser's (a seat they ruled forfeited, played by the bot)",
    )


class SeatTakenData(BaseModel):
    """The data of a join (games created with open seats)."""

    seat: int
    name: str
    public_key: str | None = Field(default=None, description="a keyed seat's Ed25519 public key (base64url)")
    game_id: str | None = Field(default=None, description="with a key: the game id its signatures are made over")


class SeatKeyedData(BaseModel):
    """The data of a key registered for a taken seat, before its first command (or, with ``by``, the
    organiser's handing of the seat to a replacement player, whose key signs from there on)."""

    seat: int
    public_key: str = Field(description="the seat's Ed25519 public key (base64url without padding)")
    game_id: str = Field(description="the game id its signatures are made over")
    by: str | None = Field(default=None, description="\"organiser\": a replacement player's key, the organiser's act")


PLATFORM_RECORDS: tuple[type[BaseModel], ...] = (GameCreatedData, CommandAcceptedData, SeatTakenData, SeatKeyedData)


class CommandResult(BaseModel):
    version: int = Field(ge=1, description="the game's version after the command")
    duplicate: bool = Field(description="true: a retry of a recorded command id; nothing new was recorded")
    events: list[Record] = Field(description="CommandAccepted and the events the command caused")


class ScoreSummary(BaseModel):
    scores: list[int | float]
    placings: list[int] = Field(description="1 = first; ties share a place")
    winners: list[int]
    final: bool = Field(description="false while the game runs: the figures can still change")


class BoardView(BaseModel):
    """The game as one viewer may see it: the envelope every game shares. Each game's own model
    (``board_view_model``) types ``state`` and ``seat_views`` with the game's view."""

    game_id: str
    game: str
    players: int
    options: dict[str, Any]
    version: int
    status: Literal["waiting", "running", "ended"]
    viewer: int | None = Field(description="the bearer's seat; null: a spectator")
    awaited: dict[str, list[str]] = Field(description="seat -> the command types the game waits for")
    optional: dict[str, list[str]] = Field(description="seat -> command types it may send without being awaited")
    scoreboard: ScoreSummary
    state: dict[str, Any] | None = Field(description="the game's own view (see docs/<game>.md); null while waiting")
    seat_views: list[dict[str, Any]] | None = Field(default=None, description="after the end: every seat's view")
    open_seats: list[int] = Field(default_factory=list, description="seats open to join by name")
    names: dict[str, str] = Field(default_factory=dict, description="seat -> the name it joined with")
    clock: dict[str, Any] | None = Field(default=None, description="a clocked tournament game's clocks")
    tournament: str | None = Field(default=None, description="a tournament table's view: the tournament's id")
    seat: int | None = Field(default=None, description="a tournament table's view: the bearer's seat at the table")


# A view's TypedDicts declare every key the view may have: the contract says so
# (additionalProperties: false) and validating a view refuses a key its type does not declare.
CLOSED = ConfigDict(extra="forbid")


def closed(hint: Any) -> Any:
    """``hint`` with every TypedDict in it (nested ones too) closed to undeclared keys: pydantic
    reads a TypedDict's ``__pydantic_config__``, which the pure domain does not set itself."""
    if is_typeddict(hint):
        if "__pydantic_config__" in vars(hint):
            return hint
        hint.__pydantic_config__ = CLOSED
        for field in typing.get_type_hints(hint).values():
            closed(field)
    for arg in typing.get_args(hint):
        closed(arg)
    return hint


@cache
def view_type(game_id: str) -> Any:
    """A game's own view: the TypedDict its ``view`` returns (``domain/<game>/views.py``); an open
    object for a game that declares none."""
    return closed(typing.get_type_hints(GAMES.get(game_id).view).get("return", dict[str, Any]))


def board_view_name(game_id: str) -> str:
    return f"{model_prefix(game_id)}BoardView"


def board_view_model(game_id: str) -> type[BaseModel]:
    """The envelope of one game's views, its ``state`` that game's typed view."""
    game_type: Any = Literal[game_id]
    view = view_type(game_id)
    return create_model(
        board_view_name(game_id),
        __base__=BoardView,
        __doc__=f"A {GAMES.get(game_id).title} game as one viewer may see it.",
        game=(game_type, Field(description="the game, telling the games' views apart")),
        state=(
            view | None,
            Field(description=f"the game's own view (docs/{game_id}/reference.md); null while waiting"),
        ),
        seat_views=(list[view] | None, Field(default=None, description="after the end: every seat's view")),  # type: ignore[valid-type]
    )


@cache
def board_view_union() -> Any:
    """A game as one viewer may see it: the envelope of its game, told apart by ``game``."""
    models = tuple(board_view_model(game) for game in GAMES.ids())
    return Annotated[Union[models], Field(discriminator="game")]  # noqa: UP007 (a runtime tuple of models)


class Spectators(BaseModel):
    game_id: str
    spectators: int = Field(
        description="how many live streams follow the game as spectators now (a count only; seats are not counted)"
    )


class Scoreboard(BaseModel):
    game_id: str
    game: str
    version: int
    status: Literal["waiting", "running", "ended"]
    scores: list[int | float]
    placings: list[int]
    winners: list[int]
    final: bool
    details: dict[str, Any]


def legal_moves_model(game_id: str) -> type[BaseModel]:
    """The legal moves of one game: its own command union, so a client gets typed moves."""
    game_type: Any = Literal[game_id]
    moves_type: Any = list[command_union(game_id)]  # type: ignore[misc]
    return create_model(
        f"{model_prefix(game_id)}LegalMoves",
        __doc__=f"The bearer's legal commands in a {GAMES.get(game_id).title} game.",
        game=(game_type, Field(description="the game, telling the games' listings apart")),
        version=(int, Field(description="the game's version the listing is for")),
        seat=(int | None, Field(description="the bearer's seat; null: a spectator (no moves)")),
        moves=(moves_type, Field(description="commands the game accepts from the bearer now; each is a valid body")),
        complete=(bool, Field(description="false: moves is a sample of a space too large to list")),
    )


@cache
def legal_moves_union() -> Any:
    models = tuple(legal_moves_model(game) for game in GAMES.ids())
    return Annotated[Union[models], Field(discriminator="game")]  # noqa: UP007


@dataclasses.dataclass(frozen=True)
class Deferred:
    """An answer's schema, built with the OpenAPI document (``api/contract/openapi.py``) rather than when
    its route is made: FastAPI would build a validator for every documented answer of every
    route (hundreds, a good part of the server's start), and this one needs every game's
    definition, which a server loads only when the game is first used."""

    name: str
    model: Callable[[], Any]


DEFERRED_SCHEMA = "x-alexandria-deferred"
LEGAL_MOVES = Deferred("legal_moves", legal_moves_union)
BOARD_VIEW = Deferred("board_view", board_view_union)
DEFERRED: dict[str, Deferred] = {LEGAL_MOVES.name: LEGAL_MOVES, BOARD_VIEW.name: BOARD_VIEW}


def deferred(model: Any) -> dict[str, Any]:
    """The placeholder schema of an answer of type ``model`` (a Deferred, a model, ``list[...]``)."""
    if isinstance(model, Deferred):
        return {DEFERRED_SCHEMA: model.name}
    name = model.__name__ if isinstance(model, type) else repr(model)
    if DEFERRED.setdefault(name, Deferred(name, lambda: model)).model() != model:
        raise ValueError(f"two documented answers are named {name}")
    return {DEFERRED_SCHEMA: name}


# The verification report is the verifier's own dataclass: its schema follows the code.
Verification = VerificationReport


class ErrorBody(BaseModel):
    code: str = Field(description="stable: clients switch on it")
    message: str = Field(description="for a person: what was wrong and what to do")


class Error(BaseModel):
    """Every refusal: nothing was changed."""

    error: ErrorBody


# -- documenting a route's answers --------------------------------------------------------------------

ERROR_STATUSES: dict[int, str] = {
    400: "Bad input (BAD_INPUT, UNKNOWN_COMMAND, BAD_OPTIONS, BAD_NAME): the message names the field",
    403: "The token may not do this (FORBIDDEN), e.g. it is not the organiser's",
    401: "The token is not a seat token of this game (BAD_TOKEN), or a command was sent without one",
    404: "There is no such game (UNKNOWN_GAME_ID)",
    409: "Conflict with the game's state: STALE_VERSION, NOT_YOUR_TURN, WRONG_PHASE, GAME_OVER, "
    "VERSION_NOT_REACHED, a reused command id, a game that has not ended (fork) or not started",
    413: "The request body is too large (PAYLOAD_TOO_LARGE)",
    429: "Too many games created (tournaments and their tables too) or joined from this address (RATE_LIMITED): "
    "retry after Retry-After seconds",
    422: "A rule refuses it: the rule's code (e.g. CANNOT_AFFORD), or UNKNOWN_GAME, BAD_PLAYER_COUNT",
    503: "The read model has not caught up yet (READ_MODEL_BEHIND): retry shortly",
}


EVENT_STREAM = "text/event-stream"


def server_sent_event() -> dict[str, Any]:
    """One server-sent event of /stream (OpenAPI 3.2's itemSchema): its data is JSON, a record,
    a view (its game's envelope), the end, or the number of spectators (asked for with ?spectators=true)."""
    views = [{"$ref": f"#/components/schemas/{board_view_name(game)}"} for game in GAMES.ids()]
    return {
        "type": "object",
        "required": ["event", "data"],
        "properties": {
            "event": {"enum": ["record", "view", "end", "spectators"]},
            "id": {"type": "string", "description": "the version the event brings the client to"},
            "data": {
                "type": "string",
                "contentMediaType": "application/json",
                "contentSchema": {
                    "anyOf": [
                        {"$ref": "#/components/schemas/Record"},
                        *views,
                        {"type": "object", "required": ["version"], "properties": {"version": {"type": "integer"}}},
                        {
                            "type": "object",
                            "required": ["spectators"],
                            "properties": {"spectators": {"type": "integer", "minimum": 0}},
                        },
                    ]
                },
            },
        },
    }


def documented(
    ok: Any,
    *errors: int,
    status: int = 200,
    media_type: str = "application/json",
    description: str = "Success",
) -> dict[str, Any]:
    """Route keyword arguments that document the success answer and every error status it can send."""
    success: dict[str, Any] = {"description": description}
    if media_type == "application/json":
        if ok is not None:
            success["content"] = {media_type: {"schema": deferred(ok)}}
    elif media_type == EVENT_STREAM:
        success["content"] = {EVENT_STREAM: {"itemSchema": server_sent_event()}}
    else:
        success["content"] = {media_type: {"schema": {"type": "string"}}}
    responses: dict[int | str, dict[str, Any]] = {status: success}
    for code in errors:
        responses[code] = {
            "description": ERROR_STATUSES[code],
            "content": {"application/json": {"schema": deferred(Error)}},
        }
    return {"responses": responses, "response_model": None, "status_code": status}


def command_controls(payload: dict[str, Any]) -> CommandControls:
    """Take the controls out of a command body (``payload`` keeps the command itself)."""
    controls = {name: payload.pop(name) for name in CONTROL_FIELDS if name in payload}
    try:
        return CommandControls.model_validate(controls)
    except ValidationError as error:
        raise Invalid(validation_message(error)) from None


def validation_message(error: ValidationError | Any) -> str:
    """One line naming each offending field (pydantic's or FastAPI's validation errors)."""
    problems = "; ".join(
        f"{'.'.join(str(p) for p in e['loc'] if p != 'body') or 'body'}: {e['msg']}" for e in error.errors()
    )
    return problems or "the request is malformed"


def union_name(game_id: str) -> str:
    return f"{model_prefix(game_id)}Command"


def command_operation(game_id: str) -> str:
    """The operation id of a game's command route."""
    return f"send_{game_id}_command"


def command_body_doc(game_id: str) -> dict[str, Any]:
    """The request body of a game's command route: its command union (a component schema)."""
    return {
        "requestBody": {
            "required": True,
            "content": {
                "application/json": {
                    "schema": {"$ref": f"#/components/schemas/{union_name(game_id)}"},
                }
            },
        }
    }
