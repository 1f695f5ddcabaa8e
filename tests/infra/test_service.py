"""The game service on the embedded SQLite store: concurrency, idempotency, tampering, time travel."""

from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest

from domain.catalog import GAMES
from domain.kernel.bots import RandomBot
from domain.kernel.log import Record, for_viewer
from domain.kernel.verification import verify_records
from infra.bootstrap import build_service
from infra.games.aggregate import GameAggregate
from infra.games.service import CreatedGame, GameService, StaleVersion
from infra.games.simulation import play_with_bot
from infra.settings import Settings


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "events.sqlite"


@pytest.fixture
def service(db: Path) -> GameService:
    service = build_service(Settings(database_url=f"sqlite:///{db}"))
    yield service
    service.close()


def play(service: GameService, created: CreatedGame, bot_seed: bytes = b"bot", commands: int | None = None) -> None:
    play_with_bot(service, created, RandomBot(bot_seed), commands)


def test_two_commands_at_the_same_version_one_wins_and_the_log_has_no_gap(service: GameService) -> None:
    created = service.create_game("sealed_guess", 2, {"rounds": 2}, b"c")
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def send(seat: int) -> None:
        barrier.wait()
        try:
            service.execute(
                created.game_id, created.tokens[seat], {"type": "commit_guess", "guess": 2}, expected_version=1
            )
            outcomes.append("ok")
        except StaleVersion:
            outcomes.append("stale")

    threads = [threading.Thread(target=send, args=(seat,)) for seat in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["ok", "stale"]
    positions = [r.position for r in service.records(created.game_id)]
    assert positions == list(range(1, len(positions) + 1))


def test_two_services_on_one_store_give_one_winner(db: Path, service: GameService) -> None:
    """Two processes' worth of services (separate caches) racing on the same version."""
    other = build_service(Settings(database_url=f"sqlite:///{db}"))
    created = service.create_game("sealed_guess", 2, {}, b"c")
    service.load(created.game_id)
    other.load(created.game_id)  # both caches now hold version 1
    service.execute(created.game_id, created.tokens[0], {"type": "commit_guess", "guess": 1}, expected_version=1)
    with pytest.raises(StaleVersion):
        other.execute(created.game_id, created.tokens[1], {"type": "commit_guess", "guess": 1}, expected_version=1)
    # Without an expected version the second service catches up and records after the first.
    other.execute(created.game_id, created.tokens[1], {"type": "commit_guess", "guess": 1})
    positions = [r.position for r in service.records(created.game_id)]
    assert positions == list(range(1, len(positions) + 1))
    other.close()


def test_a_retried_command_id_records_nothing_new(service: GameService) -> None:
    created = service.create_game("sealed_guess", 2, {}, b"c")
    payload = {"type": "commit_guess", "guess": 4}
    _, first = service.execute(created.game_id, created.tokens[0], payload, command_id="x1")
    _, again = service.execute(created.game_id, created.tokens[0], payload, command_id="x1")
    assert again.duplicate and [r.hash for r in again.records] == [r.hash for r in first.records]
    assert len(service.records(created.game_id)) == first.version


def test_tampering_with_a_stored_event_is_found_at_its_position(db: Path, service: GameService) -> None:
    created = service.create_game("sealed_guess", 2, {}, b"t")
    play(service, created)
    records = service.records(created.game_id)
    target = next(r for r in records if r.type == "DieRolled")
    holding = service.load(created.game_id).stored_version_holding(target.position)
    connection = sqlite3.connect(db)
    rows = connection.execute(
        "SELECT originator_version, state FROM stored_events WHERE originator_version = ?", (holding,)
    ).fetchall()
    ((version, state),) = rows
    stored = json.loads(state)
    (record,) = [r for r in stored["records"] if r["position"] == target.position]  # a command's records
    record["data"]["value"] = record["data"]["value"] % 6 + 1
    connection.execute(
        "UPDATE stored_events SET state = ? WHERE originator_version = ?", (json.dumps(stored).encode(), version)
    )
    connection.commit()
    connection.close()
    fresh = build_service(Settings(database_url=f"sqlite:///{db}"))
    report = verify_records([for_viewer(r, None, True) for r in fresh.records(created.game_id)], GAMES.get)
    assert not report.chain_ok
    assert report.first_bad_position == target.position
    fresh.close()


def test_any_version_of_a_long_game_loads_like_a_full_replay(service: GameService) -> None:
    created = service.create_game("sealed_guess", 2, {"rounds": 160}, b"long")
    play(service, created)
    final = service.load(created.game_id)
    assert final.match.version > 600
    assert service.snapshots is not None
    assert len(list(service.snapshots.get(final.id))) >= 3, "snapshots are taken every 100 stored events"
    from domain.kernel.chance import Chance
    from domain.kernel.match import Match

    records = service.records(created.game_id)
    # every version, a command's own records between its first and last among them
    for version in [1, 2, 99, 100, 101, 250, 399, 400, 401, final.match.version]:
        replayed = Match(final.match.game, 2, final.match.options, Chance(b"x"))
        for record in records[:version]:
            replayed.apply_record(record)
        loaded = service.load(created.game_id, version)
        assert loaded.match.state == replayed.state
        assert loaded.match.last_hash == records[version - 1].hash


def test_a_reloaded_service_continues_the_game(db: Path, service: GameService) -> None:
    created = service.create_game("sealed_guess", 2, {"rounds": 120}, b"r")
    play(service, created, commands=150)
    before = service.load(created.game_id)
    fresh = build_service(Settings(database_url=f"sqlite:///{db}"))
    after = fresh.load(created.game_id)
    assert after.match.state == before.match.state
    assert after.match.chance.counters == before.match.chance.counters
    play(fresh, created)
    report = verify_records([for_viewer(r, None, True) for r in fresh.records(created.game_id)], GAMES.get)
    assert report.chain_ok and report.seed_ok, report.problems
    fresh.close()


def test_the_snapshot_interval_is_a_setting(tmp_path: Path) -> None:
    service = build_service(Settings(database_url=f"sqlite:///{tmp_path}/s.sqlite", snapshot_interval=10))
    created = service.create_game("sealed_guess", 2, {"rounds": 10}, b"i")
    play(service, created)
    final = service.load(created.game_id)
    assert service.snapshots is not None
    versions = [s.originator_version for s in service.snapshots.get(final.id)]
    # One snapshot per save that crosses a multiple of 10, at the version that save ended on.
    assert [v // 10 for v in versions] == list(range(1, final.version // 10 + 1))
    service.close()


def test_snapshots_are_taken_from_the_live_aggregate_not_rebuilt_from_the_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = build_service(Settings(database_url=f"sqlite:///{tmp_path}/s.sqlite", snapshot_interval=10))
    created = service.create_game("sealed_guess", 2, {"rounds": 30}, b"live")
    service.load(created.game_id)  # in the cache from here on
    rebuilt: list[object] = []
    original_get = service.repository.get
    monkeypatch.setattr(
        service.repository, "get", lambda *a, **k: rebuilt.append(k.get("version")) or original_get(*a, **k)
    )
    play(service, created)
    assert service.snapshots is not None and len(list(service.snapshots.get(UUID(created.game_id)))) >= 5
    assert all(version is None for version in rebuilt), "no load of a past version to take a snapshot"
    fresh = build_service(Settings(database_url=f"sqlite:///{tmp_path}/s.sqlite", snapshot_interval=10))
    assert fresh.load(created.game_id).match.state == service.load(created.game_id).match.state
    fresh.close()
    service.close()


def test_a_game_stored_a_record_an_event_reads_travels_and_plays_on(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game stored before a command's records were kept together (one ``Recorded`` event a
    record, snapshots without ``ends``) reads, loads at any version and plays on, each new
    command one stored event."""

    def a_record_an_event(aggregate: GameAggregate, records: list[Record]) -> None:
        with aggregate._applied_by_the_match():
            for record in records:
                aggregate.trigger_event(GameAggregate.Recorded, record=record.to_dict())

    settings = Settings(database_url=f"sqlite:///{db}", snapshot_interval=10)
    earlier = build_service(settings)
    with monkeypatch.context() as patched:
        patched.setattr(GameAggregate, "played", a_record_an_event)
        created = earlier.create_game("sealed_guess", 2, {"rounds": 20}, b"stored before")
        play(earlier, created, commands=15)
    earlier.close()
    connection = sqlite3.connect(db)
    snapshots = connection.execute("SELECT originator_version, state FROM stored_snapshots").fetchall()
    assert snapshots
    for version, state in snapshots:  # as snapshots were before they kept ``ends``
        stored = json.loads(state)
        del stored["state"]["ends"]
        connection.execute(
            "UPDATE stored_snapshots SET state = ? WHERE originator_version = ?", (json.dumps(stored).encode(), version)
        )
    connection.commit()
    connection.close()

    service = build_service(settings)
    before = service.records(created.game_id)
    assert [r.position for r in before] == list(range(1, len(before) + 1))
    assert service.records(created.game_id, after=5, through=9) == before[5:9]
    play(service, created)
    records = service.records(created.game_id)
    assert records[: len(before)] == before and records[-1].type == "GameEnded"
    aggregate = service.load(created.game_id)
    assert aggregate.version < aggregate.match.version  # the commands since are one stored event each
    for version in (1, 7, len(before), len(before) + 1, len(before) + 2, len(records)):
        assert service.load(created.game_id, version).match.last_hash == records[version - 1].hash
    assert (
        service.records(created.game_id, after=len(before) - 2, through=len(before) + 3)
        == records[len(before) - 2 : len(before) + 3]
    )
    report = verify_records([for_viewer(r, None, True) for r in records], GAMES.get)
    assert report.chain_ok and report.seed_ok, report.problems
    service.close()


def test_stored_events_decode_as_the_librarys_decoder_decodes_them(db: Path) -> None:
    """The service's decoder (orjson) gives every stored event, snapshot and odd value exactly what
    the library's JSON decoder gives, registered types revived wherever they are."""
    from datetime import UTC, datetime

    from eventsourcing.persistence import JSONTranscoder

    from infra.games.aggregate import StoredJSONTranscoder

    service = build_service(Settings(database_url=f"sqlite:///{db}", snapshot_interval=5))
    created = service.create_game("peloponnes", 3, None, b"decode")
    play(service, created, commands=40)
    standard = JSONTranscoder()
    service.register_transcodings(standard)
    fast = service.mapper.transcoder
    assert isinstance(fast, StoredJSONTranscoder)
    stored = [n.state for n in service.recorder.select_notifications(start=1, limit=1000)]
    assert service.snapshots is not None
    snapshots = [s.state for s in service.snapshots.recorder.select_events(UUID(created.game_id))]
    assert len(stored) > 10 and snapshots  # events, and snapshots (a match inside a registered type)
    moment = datetime(2026, 12, 5, 11, 30, tzinfo=UTC)
    odd = [
        standard.encode({"big": 2**70, "negative": -(2**65), "at": moment}),  # past 64 bits: not orjson's
        standard.encode({"at": moment, "nested": [{"at": moment, "n": 1}], "list": [moment]}),  # below the top
        standard.encode({"name": "\u00e9\u4e2d", "n": 1.5, "none": None, "typed": {"_type_": "x"}}),
        b'{"lone":"\\ud800","n":NaN}',  # not JSON orjson takes: the standard decoder's reading
        standard.encode({"hash": "1234567890123456789012", "at": moment}),  # digits in a string
    ]

    def same(ours: Any, theirs: Any) -> bool:
        if type(ours) is not type(theirs):
            return False
        if type(ours) is dict:
            return list(ours) == list(theirs) and all(same(ours[k], theirs[k]) for k in ours)
        if type(ours) is list:
            return len(ours) == len(theirs) and all(map(same, ours, theirs))
        if type(ours) in (str, int, bool, float, type(None)):
            return ours == theirs or (ours != ours and theirs != theirs)  # NaN is NaN
        return standard.encode(ours) == standard.encode(theirs)  # a match (a snapshot's) by its fields

    for data in [*stored, *snapshots, *odd]:
        assert same(fast.decode(data), standard.decode(data)), data[:200]
    assert fast.decode(odd[0])["big"] == 2**70 and fast.decode(odd[1])["nested"][0]["at"] == moment
    service.close()


def test_played_events_are_stored_as_the_librarys_mapper_stores_them(db: Path) -> None:
    """The service's mapper writes a played event with orjson: its stored text decodes, by the
    library's own decoder, to what the library's mapper would have stored (the timestamp a datetime
    again), and loads as the same event; a record orjson refuses (an integer past 64 bits) and every
    other event go the library's way."""
    from dataclasses import replace
    from datetime import datetime

    from eventsourcing.persistence import JSONTranscoder, Mapper

    from infra.games.aggregate import GameAggregate, GameMapper

    service = build_service(Settings(database_url=f"sqlite:///{db}"))
    assert isinstance(service.mapper, GameMapper)
    library = Mapper[UUID](transcoder=service.mapper.transcoder)
    standard = JSONTranscoder()
    service.register_transcodings(standard)
    for game, seed in (("peloponnes", b"mapper"), ("catan_alexander", b"mapper")):
        created = service.create_game(game, 3, None, seed)
        play(service, created, commands=30)
        events = list(service.events.get(UUID(created.game_id)))
        assert sum(type(e) is GameAggregate.Played for e in events) > 20
        for event in events:
            assert type(event.timestamp) is datetime
            ours, theirs = service.mapper.to_stored_event(event), library.to_stored_event(event)
            assert replace(ours, state=b"") == replace(theirs, state=b"")  # id, version, topic
            assert standard.decode(ours.state) == standard.decode(theirs.state)
            assert vars(service.mapper.to_domain_event(ours)) == vars(event)
            if type(event) is not GameAggregate.Played:
                assert ours.state == theirs.state
    played = next(e for e in events if type(e) is GameAggregate.Played)
    huge = GameAggregate.Played(
        originator_id=played.originator_id,
        originator_version=played.originator_version,
        timestamp=played.timestamp,
        records=[{**played.records[0], "data": {"n": 2**70}}],
    )
    assert service.mapper.to_stored_event(huge).state == library.to_stored_event(huge).state
    assert service.mapper.to_domain_event(service.mapper.to_stored_event(huge)).records[0]["data"]["n"] == 2**70
    service.close()


def test_a_games_records_through_any_position_are_its_log_cut_there(service: GameService) -> None:
    created = service.create_game("catan_alexander", 3, None, b"through")
    play(service, created, commands=30)
    whole = service.records(created.game_id)
    assert len(whole) > 60
    service._evict(UUID(created.game_id))  # out of the cache: read without loading the game
    for through in range(1, len(whole) + 2):
        cut = [r.position for r in service.records(created.game_id, through=through)]
        assert cut == [r.position for r in whole if r.position <= through]
