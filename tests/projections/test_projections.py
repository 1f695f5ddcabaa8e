"""Projections on the kernel's fixture game (sealed guesses, private events), embedded store."""

from __future__ import annotations

import json

import pytest

from domain.catalog import GAMES
from domain.kernel.chance import Chance
from domain.kernel.match import Match
from infra.games.service import CreatedGame, GameService
from infra.readside.projector import Projector
from infra.readside.reader import ReadSide
from infra.readside.readmodels import MemoryStore, ReadModelStore
from projections import checkpoint, frames
from projections.base import ProjectedRecord
from projections.board import BoardProjection, board_view
from projections.checkpoint import MatchCheckpoints, OutOfOrder
from projections.registry import PROJECTION_NAMES, all_projections
from tests.infra.test_service import play as play_game


def play(service: GameService, seed: str, commands: int | None = None) -> CreatedGame:
    """A sealed-guess game played by a random bot, to the end or for ``commands`` commands."""
    created = service.create_game("sealed_guess", 2, None, seed.encode())
    play_game(service, created, f"bot-{seed}".encode(), commands)
    return created


def projected(service: GameService) -> tuple[ReadSide, MemoryStore]:
    """A read side whose read models have applied everything the event store has."""
    store = MemoryStore()
    projector = Projector(service, store)
    projector.catch_up()
    return ReadSide(service, store, projector), store


def snapshot(store: ReadModelStore) -> dict[str, dict[str, dict[str, str]]]:
    """Every document and position of every read model."""
    return {name: {"": {"position": str(store.position(name))}, **store.export(name)} for name in PROJECTION_NAMES}


def test_small_batches_and_restarts_give_the_same_read_models_as_one_pass(service: GameService) -> None:
    games = [play(service, f"g{i}").game_id for i in range(3)] + [play(service, "half", commands=3).game_id]
    one_pass = MemoryStore()
    Projector(service, one_pass, batch_size=1000).catch_up()

    resumed = MemoryStore()
    steps = 0
    while True:
        # A new runner every few batches: a restart resumes from the stored positions.
        runner = Projector(service, resumed, batch_size=3)
        progressed = any(runner.step() for _ in range(2))
        runner.release_leases()  # a clean stop; a killed worker's lease would run out instead
        if not progressed:
            break
        steps += 1
    assert steps > 5
    assert snapshot(resumed) == snapshot(one_pass)
    assert {p: resumed.position(p) for p in PROJECTION_NAMES} == dict.fromkeys(
        PROJECTION_NAMES, service.recorder.max_notification_id()
    )
    lobby = {json.loads(e)["game_id"]: json.loads(e) for e in one_pass.get_all("lobby", "games").values()}
    assert set(lobby) == set(games)
    assert lobby[games[-1]]["status"] == "running" and lobby[games[0]]["status"] == "ended"


def test_views_are_the_games_own_per_viewer_views_and_keep_secrets(service: GameService) -> None:
    game_id = play(service, "secret", commands=1).game_id  # one seat has committed a sealed guess
    reads, _ = projected(service)
    assert reads.head("boards", game_id) == service.load(game_id).match.version
    aggregate = service.load(game_id)
    committed = next(iter(aggregate.match.state.guesses))
    guess = aggregate.match.state.guesses[committed]
    for viewer in [None, 0, 1]:
        view = reads.board(game_id, viewer)
        assert view == json.loads(json.dumps(board_view(game_id, aggregate.match, viewer)))
        assert view["state"]["my_guess"] == (guess if viewer == committed else None)


def test_every_past_version_comes_from_the_nearest_frame(service: GameService, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(frames, "FRAME_INTERVAL", 4)  # several frames in a short game
    game_id = play(service, "frames").game_id
    reads, store = projected(service)
    last = service.load(game_id).match.version
    assert last > 12
    for version in range(1, last + 1):
        expected = json.loads(json.dumps(board_view(game_id, service.load(game_id, version).match, 0)))
        assert reads.at_version(game_id, version, 0) == expected
    scoreboard = reads.scoreboard(game_id)
    assert scoreboard["final"] and scoreboard["version"] == last and scoreboard["winners"]
    assert len(store.get_all("boards", "frames")) == 1 + last // 4


def test_records_out_of_order_are_refused_not_skipped(service: GameService) -> None:
    game_id = play(service, "order", commands=1).game_id
    records = service.records(game_id)
    checkpoints = MatchCheckpoints(_Documents())
    checkpoints.advance(ProjectedRecord(game_id, records[0], 1, "t"))
    with pytest.raises(OutOfOrder):
        checkpoints.advance(ProjectedRecord(game_id, records[2], 3, "t"))
    with pytest.raises(OutOfOrder):
        MatchCheckpoints(_Documents()).advance(ProjectedRecord(game_id, records[1], 2, "t"))


class _Documents(dict):  # type: ignore[type-arg]
    def get(self, collection: str, key: str) -> object:  # type: ignore[override]
        return super().get((collection, key))

    def put(self, collection: str, key: str, value: object) -> None:
        self[(collection, key)] = value


def test_a_batch_takes_the_match_the_batch_before_left_instead_of_decoding_it(
    service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    for number in range(3):
        play(service, f"kept-{number}")
    decoded: list[str] = []
    original = checkpoint.decode_match
    monkeypatch.setattr(checkpoint, "decode_match", lambda data: decoded.append(data["game"]) or original(data))
    one_pass = MemoryStore()
    Projector(service, one_pass, batch_size=1000).catch_up()
    kept, not_kept = MemoryStore(), MemoryStore()
    Projector(service, kept, batch_size=2).catch_up()
    assert decoded == []  # every batch after a game's first found its match kept
    Projector(service, not_kept, all_projections(checkpoint.RecentMatches(max_matches=0)), batch_size=2).catch_up()
    assert len(decoded) >= 5  # without: one decode per game a batch carries on
    assert snapshot(kept) == snapshot(one_pass) == snapshot(not_kept)


def test_a_kept_match_serves_only_the_checkpoint_it_would_encode(service: GameService) -> None:
    """A match not at the stored checkpoint's version and hash (a batch another worker wrote, a
    reset) is never used: the checkpoint is decoded, and the read models come out as from one pass."""
    created = service.create_game("sealed_guess", 2, None, b"reset")
    play_game(service, created, b"bot-first", 2)
    store = MemoryStore()
    projector = Projector(service, store, batch_size=2)
    projector.catch_up()
    board = next(p for p in projector.projections if isinstance(p, BoardProjection))
    assert len(board.recent) == 1
    match = service.load(created.game_id).match
    elsewhere = {"version": match.version - 1, "last_hash": match.last_hash}
    assert board.recent.take(created.game_id, elsewhere) is None
    assert len(board.recent) == 0  # taken out, not put back: never served again
    play_game(service, created, b"bot-then", 2)
    projector.catch_up()
    projector.rebuild("boards")
    one_pass = MemoryStore()
    Projector(service, one_pass, batch_size=1000).catch_up()
    assert snapshot(store) == snapshot(one_pass)


def test_the_kept_matches_stay_within_their_count_and_bytes() -> None:
    recent = checkpoint.RecentMatches(max_matches=3, max_bytes=1_000)
    matches = {f"g{n}": Match(GAMES.get("sealed_guess"), 2, {}, Chance(b"x")) for n in range(6)}
    for number, (game_id, match) in enumerate(matches.items()):
        recent.put(game_id, match, 100 * (number + 1))
        assert len(recent) <= 3 and recent.bytes <= 1_000
        if number == 3:  # four matches of 100-400 bytes: the first out, by count
            assert (len(recent), recent.bytes) == (3, 900)
    assert (len(recent), recent.bytes) == (1, 600)  # 500 + 600 > 1,000: the least recent out, by bytes
    kept = {"version": matches["g5"].version, "last_hash": matches["g5"].last_hash}
    assert recent.take("g5", kept) is matches["g5"] and recent.bytes == 0
