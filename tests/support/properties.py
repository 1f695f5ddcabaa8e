"""Checks every game must pass, written once for the four games.

``tests/domain/test_conformance.py`` calls these for every game from hypothesis-driven seeds; a
game's own properties use them too.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from typing import Any

from domain.kernel import engine
from domain.kernel.bots import RandomBot
from domain.kernel.chance import Chance
from domain.kernel.game import GameDefinition
from domain.kernel.log import Record, for_viewer
from domain.kernel.match import Match
from domain.kernel.messages import Event
from domain.kernel.verification import verify_records


def play_recorded_game(
    game: GameDefinition[Any],
    players: int,
    options: dict[str, Any] | None = None,
    seed: bytes = b"seed",
    bot_seed: bytes = b"bot",
    max_commands: int = 20_000,
    check_each_move: bool = False,
) -> tuple[Match, list[Record]]:
    """A full game by random bots through ``Match`` (so it has a real log).

    With ``check_each_move`` every awaited seat's legal moves are each tried on a copy of the state.
    """
    match, records = Match.create(game, players, options, seed)
    bot = RandomBot(bot_seed)
    commands = 0
    while not match.is_over:
        awaited = game.awaited(match.state)
        assert awaited, f"{game.id}: deadlock, nobody is awaited at version {match.version}"
        if check_each_move:
            for seat in awaited:
                check_legal_moves_accepted(game, match.state, seat, match.chance)
        seat = bot.choose_seat(list(awaited))
        records.extend(match.execute(seat, bot.choose(game, match.state, seat)))
        commands += 1
        assert commands <= max_commands, f"{game.id}: no end after {max_commands} commands"
    return match, records


def states_along(game: GameDefinition[Any], match: Match, records: list[Record]) -> Iterator[Any]:
    """Replay the log, yielding the state after each game event (one object, updated in place),
    so a test can check its invariants at every step; the replay must end at the live state."""
    state = game.initial_state(match.players, match.options)
    for record in records:
        if record.type in game.event_types:
            state = game.evolve(state, match.event_of(record))
            yield state
    assert state == match.state


def state_partway(game: GameDefinition[Any], players: int, seed: bytes, fraction: float = 1 / 3) -> Any:
    """The state of a game by random bots once ``fraction`` of its log is applied."""
    match, records = play_recorded_game(game, players, seed=seed)
    state = game.initial_state(players, match.options)
    for record in records[: int(len(records) * fraction)]:
        if record.type in game.event_types:
            state = game.evolve(state, match.event_of(record))
    return state


def check_hidden_reshuffle(game: GameDefinition[Any], state: Any) -> tuple[Any, Event, Any]:
    """``reshuffle_hidden`` lists one event, secret from every seat, and listing it changes
    nothing. Returns a copy of ``state``, the event, and ``state`` with the event applied."""
    before = copy.deepcopy(state)
    (event,) = game.reshuffle_hidden(state, Chance(b"new"))
    assert state == before, "listing the reshuffle changes nothing"
    assert event.viewers() == frozenset(), "nobody sees the new order"
    return before, event, game.evolve(state, event)


def check_legal_moves_accepted(game: GameDefinition[Any], state: Any, seat: int, chance: Chance) -> None:
    """Every listed move is accepted, and listing or deciding never changes the state."""
    before = copy.deepcopy(state)
    moves = game.legal_moves(state, seat, Chance(b"moves"))
    assert moves, f"{game.id}: seat {seat} is awaited but has no legal move"
    assert state == before, "legal_moves changed the state"
    for move in moves:
        trial = copy.deepcopy(state)
        engine.execute(game, trial, seat, move, Chance(chance.seed_hex.encode(), chance.counters))
    assert state == before


def check_replay_rebuilds(game: GameDefinition[Any], match: Match, records: list[Record]) -> None:
    """The log, through JSON and back, rebuilds exactly the live state."""
    stored = [Record.from_dict(json.loads(json.dumps(r.to_dict()))) for r in records]
    replayed = Match.replay(game, match.players, match.options, stored)
    assert replayed.state == match.state
    assert replayed.version == match.version
    assert replayed.last_hash == match.last_hash


def check_record_verifies(game: GameDefinition[Any], records: list[Record]) -> None:
    """The finished game's record verifies: chain, seed, digests and re-execution."""
    exported = [for_viewer(r, None, reveal_all=True) for r in records]
    report = verify_records(exported, lambda _id: game)
    assert report.chain_ok and report.seed_ok, report.problems


def check_views_are_json(game: GameDefinition[Any], state: Any, players: int) -> None:
    for viewer in [None, *range(players)]:
        json.dumps(game.view(state, viewer))
