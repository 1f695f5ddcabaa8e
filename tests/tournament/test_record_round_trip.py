"""One canonical JSON: for every record type of the four games and of tournaments, what the API
sends (HTTP JSON, parsed back) is what was hashed: the hash recomputes from it, and its data is the
stored data, value for value."""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from domain.catalog import GAMES
from domain.kernel.bots import RandomBot
from domain.kernel.chance import Chance
from domain.kernel.log import (
    COMMAND_ACCEPTED,
    GAME_CREATED,
    GAME_ENDED,
    GENESIS,
    Record,
    canonical,
    event_record_parts,
    for_viewer,
    make_record,
    record_hash,
)
from domain.kernel.messages import Event
from domain.tournament import log as tournament_log
from domain.tournament.log import Table
from infra.games.service import GameService
from infra.games.simulation import play_with_bot
from infra.tournaments.run import play_table
from infra.tournaments.service import TournamentService
from tests.tournament.conftest import FakeClock
from tests.tournament.test_chance import commitment_of, secret_of

TOURNAMENT_TYPES = {
    value
    for name, value in vars(tournament_log).items()
    if name.isupper() and isinstance(value, str) and value[:1].isupper()
}


def hashed_content_of(sent: dict[str, Any]) -> dict[str, Any]:
    """What a client recomputes a record's hash over, from the record as the API sent it."""
    private = sent["viewers"] is not None
    return {
        "position": sent["position"],
        "type": sent["type"],
        "data": sent["public"] if private else sent["data"],
        "viewers": sent["viewers"],
        "digest": sent.get("digest"),
        "chance": sent.get("chance"),
        "prev": sent["prev"],
    }


def assert_sent_as_hashed(sent: dict[str, Any], stored: Record) -> None:
    assert record_hash(hashed_content_of(sent)) == stored.hash == sent["hash"], sent["type"]
    assert canonical(sent["data"]) == canonical(stored.data), sent["type"]
    if stored.is_private:
        assert canonical(sent["public"]) == canonical(stored.public), sent["type"]


@pytest.mark.parametrize("game_id", GAMES.ids())
def test_every_record_of_played_games_is_sent_as_it_was_hashed(
    games: GameService, client: TestClient, game_id: str
) -> None:
    definition = GAMES.get(game_id)
    played = []
    for i, players in enumerate(sorted({definition.min_players, definition.max_players})):
        created = games.create_game(game_id, players, None, f"round-trip-{i}".encode())
        play_with_bot(games, created, RandomBot(f"round-trip-{i}".encode()))
        played.append(created.game_id)
    # A fork reshuffles what is hidden; it starts where the game waited for a command.
    commands = [r.position for r in games.records(played[0]) if r.type == COMMAND_ACCEPTED]
    forked = games.fork(played[0], commands[len(commands) // 2] - 1)
    play_with_bot(games, forked, RandomBot(b"fork"))
    played.append(forked.game_id)
    seen = set()
    for gid in played:
        response = client.get(f"/games/{gid}/events")
        assert response.status_code == 200
        sent = json.loads(response.text)
        stored = games.records(gid)
        assert len(sent) == len(stored)
        for record, original in zip(sent, stored, strict=True):
            assert_sent_as_hashed(record, original)
            seen.add(record["type"])
    assert {GAME_CREATED, COMMAND_ACCEPTED, GAME_ENDED} <= seen


def sample(hint: Any, depth: int = 0) -> Any:
    """A value of the type ``hint``, with what JSON makes hard: floats, non-ASCII text, nesting."""
    origin = typing.get_origin(hint)
    arguments = typing.get_args(hint)
    if hint is bool:
        return True
    if hint is int:
        return 3
    if hint is float:
        return 0.1
    if hint is str:
        return 'Ἀλέξανδρος "x"\n'
    if hint is type(None):
        return None
    if hint is Any or hint is object:
        return {"any": [1, 2.5, "é"]}
    if origin in (typing.Union, types.UnionType):
        return sample(next(a for a in arguments if a is not type(None)), depth)
    if origin is typing.Literal:
        return arguments[0]
    if origin in (list, typing.Sequence, set, frozenset) or hint in (list, set):
        return [sample(arguments[0], depth + 1)] * 2 if arguments else [1, 2]
    if origin is tuple:
        if len(arguments) == 2 and arguments[1] is Ellipsis:
            return [sample(arguments[0], depth + 1)] * 2
        return [sample(a, depth + 1) for a in arguments]
    if origin in (dict, typing.Mapping) or hint is dict:
        key, value = arguments if arguments else (str, int)
        return {sample(key, depth + 1): sample(value, depth + 1)}
    if dataclasses.is_dataclass(hint):
        return {f.name: sample(h, depth + 1) for f, h in zip(dataclasses.fields(hint), _hints(hint), strict=True)}
    raise AssertionError(f"no sample for {hint!r}")


def _hints(cls: Any) -> list[Any]:
    hints = typing.get_type_hints(cls)
    return [hints[f.name] for f in dataclasses.fields(cls)]


def synthetic_event(event_type: type[Event]) -> Event:
    values = {f.name: sample(h) for f, h in zip(dataclasses.fields(event_type), _hints(event_type), strict=True)}
    return event_type(**values)


@pytest.mark.parametrize("game_id", GAMES.ids())
def test_every_event_type_of_every_game_is_sent_as_it_was_hashed(game_id: str) -> None:
    """Every event type, reached by play or not, through the serialiser every route uses."""
    definition = GAMES.get(game_id)
    records = []
    for position, event_type in enumerate(definition.event_types.values(), start=1):
        type_, data, viewers, public = event_record_parts(synthetic_event(event_type))
        records.append(
            make_record(
                position=position,
                type_=type_,
                data=data,
                prev=GENESIS,
                chance=Chance(b"round-trip"),
                viewers=viewers,
                public=public,
            )
        )
    app = FastAPI()

    @app.get("/records")
    def send() -> list[dict[str, Any]]:
        return [for_viewer(r, None, reveal_all=True) for r in records]

    sent = json.loads(TestClient(app).get("/records").text)
    assert [r["type"] for r in sent] == list(definition.event_types)
    for record, original in zip(sent, records, strict=True):
        assert_sent_as_hashed(record, original)


def test_every_tournament_record_type_is_sent_as_it_was_hashed(
    client: TestClient, tournaments: TournamentService, clock: FakeClock
) -> None:
    settings = {"rounds": 2, "table_size": 2, "time_control": {"base_seconds": 1, "on_timeout": "random_move"}}
    settings["points_per_place"] = [1.5, 0.1]
    created = tournaments.create("peloponnes", settings, b"round-trip", salted=False)
    tid, organiser = created.tournament_id, created.organiser_token
    names = ("Ann", "Bob", "Cy", "Di", "Eve")
    tokens = [tournaments.register(tid, organiser, n, commitment_of(n)).token for n in names]
    tournaments.open_check_in(tid, organiser)
    for token in tokens:
        tournaments.check_in(tid, token)
    tournaments.close_registration(tid, organiser)
    for name, token in zip(names[:4], tokens[:4], strict=True):
        tournaments.reveal(tid, token, secret_of(name).hex())
    first, second = tournaments.seat_next_round(tid, organiser)["tables"]  # Eve withheld
    clock.advance(5_000)
    assert tournaments.enforce_clock(tid, first["game_id"]) >= 1  # a seat out of time: TimedOut
    play_table(tournaments, tid, Table(1, 1, first["game_id"], first["players"]), tokens, RandomBot(b"rt"))
    tournaments.adjudicate(tid, organiser, {"kind": "void", "game_id": second["game_id"], "reason": "left"})
    ruling = {"kind": "correct", "game_id": first["game_id"], "reason": "miscount", "placings": [1, 2]}
    tournaments.adjudicate(tid, organiser, {**ruling, "scores": [2.5, 1e-7]})
    replaced = tournaments.adjudicate(
        tid, organiser, {"kind": "replace", "player": 1, "name": "Björn", "reason": "ill"}
    )
    tokens[1] = replaced["player_token"]
    tournaments.withdraw(tid, organiser, 3, "went home")
    tokens.append(tournaments.enter_late(tid, organiser, "Fay", "bye")[0].token)
    seated = tournaments.seat_next_round(tid, organiser)
    for entry in seated["tables"]:
        play_table(
            tournaments, tid, Table(2, entry["table"], entry["game_id"], entry["players"]), tokens, RandomBot(b"2")
        )
    tournaments.end(tid, organiser)
    response = client.get(f"/tournaments/{tid}/bundle")
    assert response.status_code == 200
    sent = json.loads(response.text)
    stored = tournaments.records(tid)
    assert {r["type"] for r in sent["tournament"]} == TOURNAMENT_TYPES
    for record, original in zip(sent["tournament"], stored, strict=True):
        assert_sent_as_hashed(record, original)
    for game_id, records in sent["games"].items():
        for record, original in zip(records, tournaments.games.records(game_id), strict=True):
            assert_sent_as_hashed(record, original)
