"""Every game's view has exactly the shape its TypedDict declares (``domain/<game>/views.py``),
which is what the OpenAPI contract documents for ``state``: checked strictly (exact types, no
undeclared keys, every required key) on the views of random bot games, at many versions of the
log replayed as the server replays it, for every viewer, before and after the end (when every
hidden part is shown: the ``everything`` view's seat views are these)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any, get_args

import pytest
from pydantic import TypeAdapter, ValidationError

from api.contract.models import board_view_name, board_view_union, view_type
from domain.alexandros import state as alexandros_state
from domain.alexandros import views as alexandros_views
from domain.catalog import GAME_PACKAGES, GAMES
from domain.catan_alexander import state as catan_state
from domain.catan_alexander import views as catan_views
from domain.empire_builder import state as empire_builder_state
from domain.empire_builder import views as empire_builder_views
from domain.kernel.bots import RandomBot
from domain.kernel.chance import Chance
from domain.kernel.log import Record
from domain.kernel.match import Match
from domain.peloponnes import state as peloponnes_state
from domain.peloponnes import views as peloponnes_views
from projections.board import board_view

# (players, options) of the games the bots play, per game: every player count's edge and the options.
PLAYED: dict[str, list[tuple[int, dict[str, Any]]]] = {
    "peloponnes": [(1, {"solo_level": 5}), (2, {}), (5, {})],
    "empire_builder": [(2, {}), (3, {"short_game": True}), (5, {"region_scoring_variant": True})],
    "alexandros": [(2, {}), (3, {}), (4, {})],
    "catan_alexander": [(3, {}), (4, {"starting_gold": 0}), (3, {"board": "base", "layout": "random"})],
}
EVERY_VERSION_UNTIL = 60  # the setup and the first moves, version by version
SAMPLED_VERSIONS = 120  # then about this many versions spread over the rest of the game
MAX_COMMANDS = 20_000


def played(game_id: str, players: int, options: dict[str, Any], seed: str) -> tuple[Match, list[Record]]:
    """A whole game played by random bots through the match, as the server records it."""
    game = GAMES.get(game_id)
    match, records = Match.create(game, players, options, seed.encode())
    bot = RandomBot(f"bot-{seed}".encode())
    for _ in range(MAX_COMMANDS):
        if match.is_over:
            return match, records
        seat, command = bot.next_move(game, match.state)
        records += match.execute(seat, command)
    raise AssertionError(f"{game_id}: no end after {MAX_COMMANDS} commands")


def checked_versions(last: int) -> set[int]:
    stride = max(1, (last - EVERY_VERSION_UNTIL) // SAMPLED_VERSIONS)
    return {*range(1, EVERY_VERSION_UNTIL + 1), *range(EVERY_VERSION_UNTIL, last, stride), last - 1, last}


def replayed(match: Match, records: list[Record]) -> Iterator[Match]:
    """The match at every checked version, rebuilt from the records through JSON (as stored)."""
    versions = checked_versions(len(records))
    replay = Match(match.game, match.players, match.options, Chance(b"unused"))
    for record in records:
        replay.apply_record(Record.from_dict(json.loads(json.dumps(record.to_dict()))))
        if replay.version in versions:
            yield replay


def check(adapter: TypeAdapter[Any], view: Any, where: str) -> None:
    try:
        adapter.validate_python(view, strict=True)  # the Python objects the code builds
        adapter.validate_json(json.dumps(view), strict=True)  # what a client reads
    except ValidationError as error:
        raise AssertionError(f"{where}: the view differs from its declared type:\n{error}") from None


@pytest.mark.slow
@pytest.mark.parametrize("game_id", GAME_PACKAGES)
def test_every_view_has_its_declared_type(game_id: str) -> None:
    adapter: TypeAdapter[Any] = TypeAdapter(view_type(game_id))
    envelope: TypeAdapter[Any] = TypeAdapter(board_view_union())
    game = GAMES.get(game_id)
    for number, (players, options) in enumerate(PLAYED[game_id]):
        match, records = played(game_id, players, options, f"view-schemas-{game_id}-{number}")
        viewers = [None, *range(players)]
        for viewer in viewers:  # the live state at the end, every hidden part revealed
            check(adapter, game.view(match.state, viewer), f"{game_id} game {number}, the end, viewer {viewer}")
        checked = 0
        for replay in replayed(match, records):
            for viewer in viewers:
                where = f"{game_id} game {number}, version {replay.version}, viewer {viewer}"
                check(adapter, game.view(replay.state, viewer), where)
            # the whole answer of GET /games/{id}, its game's envelope told apart by `game`
            answer = json.loads(json.dumps(board_view("g", replay, None)))
            assert type(envelope.validate_python(answer)).__name__ == board_view_name(game_id)
            checked += 1
        assert replay.is_over and checked > EVERY_VERSION_UNTIL


@pytest.mark.parametrize("game_id", GAME_PACKAGES)
def test_a_view_that_drifts_from_its_type_is_refused(game_id: str) -> None:
    """The check can fail: an undeclared key, a missing one and a wrong type are each refused."""
    game = GAMES.get(game_id)
    match, _ = Match.create(game, game.min_players, {}, b"drift")
    view = dict(game.view(match.state, 0))
    adapter: TypeAdapter[Any] = TypeAdapter(view_type(game_id))
    adapter.validate_python(view, strict=True)
    first = next(iter(view))
    drifted = [
        {**view, "surprise": 1},
        {key: value for key, value in view.items() if key != first},
        {**view, "winners": ["0"]},
    ]
    for wrong in drifted:
        with pytest.raises(ValidationError):
            adapter.validate_python(wrong, strict=True)


VIEW_ROUTES = (
    "/games/{game_id}",
    "/games/{game_id}/versions/{version}",
    "/games/{game_id}/versions/{version}/everything",
    "/tournaments/{tournament_id}/games/{game_id}",
)


def test_the_contract_types_every_view_route_per_game() -> None:
    """Each view route answers its game's envelope, told apart by `game`, whose `state` and
    `seat_views` are the game's closed view schema."""
    from api.http.app import create_app
    from infra.bootstrap import build_service
    from infra.settings import Settings

    service = build_service(Settings(database_url="sqlite:///:memory:"))
    try:
        document = create_app(service).openapi()
    finally:
        service.close()
    schemas = document["components"]["schemas"]
    for route in VIEW_ROUTES:
        answer = document["paths"][route]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
        mapping = answer["discriminator"]["mapping"]
        assert answer["discriminator"]["propertyName"] == "game" and set(GAME_PACKAGES) <= set(mapping), route
        for game_id in GAME_PACKAGES:
            assert mapping[game_id] == f"#/components/schemas/{board_view_name(game_id)}"
    for game_id in GAME_PACKAGES:
        envelope = schemas[board_view_name(game_id)]["properties"]
        view_ref = {"$ref": f"#/components/schemas/{view_type(game_id).__name__}"}
        assert envelope["state"]["anyOf"] == [view_ref, {"type": "null"}]
        assert envelope["seat_views"]["anyOf"][0] == {"type": "array", "items": view_ref}
        # the view and every object in it declare all their keys
        prefix = view_type(game_id).__name__.removesuffix("View")
        objects = [name for name in schemas if name.startswith(prefix) and name.endswith("View")]
        for name in objects:
            if name != board_view_name(game_id):
                assert schemas[name]["additionalProperties"] is False, name
        assert len(objects) > 2


def test_the_advisor_hand_down_has_its_declared_type() -> None:
    """A Catan branch random games rarely reach (R32: the new First Advisor's holder chooses who
    gets the card they pass on) has its declared type too."""
    from domain.catan_alexander.state import Handdown

    game = GAMES.get("catan_alexander")
    match, _ = Match.create(game, 3, {}, b"hand-down")
    match.state.handdown = Handdown(card="second", giver=0, eligible=[1, 2])
    adapter: TypeAdapter[Any] = TypeAdapter(view_type("catan_alexander"))
    for viewer in (None, 0, 1, 2):
        view = game.view(match.state, viewer)
        assert view["advisor_choice"] == {"giver": 0, "card": "second", "eligible": [1, 2]}
        check(adapter, view, f"catan_alexander, a hand-down, viewer {viewer}")


# game -> (the view's field, its type, the state module's phases and any names only the view gives)
PHASE_TYPES: dict[str, tuple[str, Any, tuple[str, ...]]] = {
    "peloponnes": ("phase", peloponnes_views.PeloponnesPhase, peloponnes_state.PHASES),
    "empire_builder": (
        "phase",
        empire_builder_views.EmpireBuilderPhase,
        empire_builder_state.PHASES + empire_builder_views.PUBLIC_TURN_PHASES,
    ),
    "alexandros": ("step", alexandros_views.AlexandrosStep, alexandros_state.STEPS),
    "catan_alexander": ("phase", catan_views.CatanAlexanderPhase, catan_state.PHASES),
}


@pytest.mark.parametrize("game_id", sorted(PHASE_TYPES))
def test_the_contracts_phase_enum_is_the_games_phases(game_id: str) -> None:
    field, literal, phases = PHASE_TYPES[game_id]
    assert sorted(get_args(literal)) == sorted(phases)
    schema = TypeAdapter(view_type(game_id)).json_schema()
    assert sorted(schema["properties"][field]["enum"]) == sorted(phases)
