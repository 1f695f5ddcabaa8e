"""The caches a server keeps hold their bounds however many games it has seen: in counts (games
kept loaded, decoded matches for reads) and in bytes (what the projector keeps of what it wrote,
SQLite's page caches, the game server's own DuckDB for the analytics tables). Not timed: only
what is kept is asserted."""

from __future__ import annotations

import sqlite3
import sys
from pathlib import Path

from domain.kernel.bots import RandomBot
from infra.analytics.store import (
    Analytics,
    AnalyticsDatabase,
    AnalyticsProjector,
    AnalyticsSettings,
    RecordSource,
)
from infra.bootstrap import build_service
from infra.games.simulation import play_with_bot
from infra.readside.projector import Projector, WrittenDocuments
from infra.readside.reader import build_read_side
from infra.readside.readmodels import Cursor
from infra.settings import Settings
from projections.board import BoardProjection


def recounted(written: WrittenDocuments) -> int:
    return sum(WrittenDocuments.cost(address, text) for address, text in written.texts.items())


def test_the_written_documents_stay_within_their_bytes_whatever_the_documents() -> None:
    written = WrittenDocuments(max_bytes=50_000)
    for batch in range(200):
        changes: dict[tuple[str, str], str | None] = {
            ("matches", f"game-{batch}-{n}"): "x" * (100 * n) for n in range(1, 6)
        }
        changes[("heads", f"game-{batch}")] = None  # a deletion costs its entry too
        written.committed(Cursor(0, batch), changes)
        assert written.bytes == recounted(written)
        assert written.bytes <= 50_000
    # The newest documents are the ones kept, and the bound is used, not left empty.
    assert ("matches", "game-199-5") in written.texts
    assert ("matches", "game-0-1") not in written.texts
    assert written.bytes > 40_000
    # A rewritten document is counted once, at its new size.
    written.committed(Cursor(0, 200), {("matches", "game-199-5"): "y"})
    assert written.bytes == recounted(written)
    assert sum(sys.getsizeof(t) for t in written.texts.values()) < written.bytes


def test_a_server_that_played_many_games_keeps_its_caches_within_the_settings(tmp_path: Path) -> None:
    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'events.sqlite'}",
        aggregate_cache_size=4,
        read_cache_size=3,
        projector_cache_bytes=60_000,
        projector_matches=5,
        projector_matches_bytes=40_000,
        sqlite_heap_bytes=8 * 1024 * 1024,
    )
    service = build_service(settings)
    reads = build_read_side(service, settings)
    projector = reads.projector
    assert isinstance(projector, Projector)
    ids = []
    for number in range(12):
        created = service.create_game("peloponnes", 1, None, f"bounds-{number}".encode())
        play_with_bot(service, created, RandomBot(f"bounds-{number}".encode()))
        ids.append(created.game_id)
    projector.catch_up()
    for game_id in ids:
        reads.board(game_id, None)
        reads.scoreboard(game_id)
    try:
        # Counts: the games kept loaded for commands, the decoded matches and views kept for reads.
        assert service.repository.cache is not None
        assert len(service.repository.cache.cache) <= 4  # type: ignore[attr-defined]
        assert len(reads._matches) <= 3
        assert len(reads._rendered) <= 12
        # Bytes: the projector's documents (shared among its projections), every one full enough
        # to have evicted something (twelve whole games of checkpoints are far above the bound).
        written = list(projector._written.values())
        assert sum(w.max_bytes for w in written) <= 60_000
        for documents in written:
            assert documents.bytes == recounted(documents)
            assert documents.bytes <= documents.max_bytes
        assert any(documents.bytes > documents.max_bytes // 2 for documents in written)
        # The matches the board read model keeps decoded between batches: count and bytes.
        board = next(p for p in projector.projections if isinstance(p, BoardProjection))
        assert (board.recent.max_matches, board.recent.max_bytes) == (5, 40_000)
        assert 0 < len(board.recent) <= 5 and board.recent.bytes <= 40_000
        # SQLite's page caches, every connection of the process together.
        probe = sqlite3.connect(":memory:")
        assert probe.execute("PRAGMA soft_heap_limit").fetchone()[0] == 8 * 1024 * 1024
        probe.close()
    finally:
        service.close()
        build_service(Settings(database_url="sqlite:///:memory:")).close()  # the default bound again


def test_the_game_servers_analytics_keeper_keeps_to_its_own_memory_bound(tmp_path: Path) -> None:
    service = build_service(Settings(database_url=f"sqlite:///{tmp_path / 'events.sqlite'}"))
    for number in range(12):
        created = service.create_game("peloponnes", 1, None, f"duckdb-{number}".encode())
        play_with_bot(service, created, RandomBot(f"duckdb-{number}".encode()))
    settings = AnalyticsSettings(path=str(tmp_path / "analytics.duckdb"), server_memory_limit="8MB")
    serving = Analytics.for_service(service, settings, serving=True)  # as the server's routes open it
    worker = Analytics.for_service(service, settings.model_copy(update={"path": str(tmp_path / "w.duckdb")}))
    bound = "SELECT current_setting('memory_limit'), (SELECT sum(memory_usage_bytes) FROM duckdb_memory())"
    try:
        serving.projector.catch_up()
        with serving.reading() as connection:
            limit, used = connection.execute(bound).fetchone()
            # The tables were written (every game), within the server's own bound.
            assert connection.execute("SELECT count(DISTINCT game_id) FROM games").fetchone() == (12,)
        assert limit == "7.6 MiB"  # 8MB
        assert 0 < used <= 8_000_000
        # Any other process (a worker, a notebook) keeps the general bound.
        with worker.database.connect() as connection:
            assert connection.execute(bound).fetchone()[0] == "244.1 MiB"  # 256MB
    finally:
        serving.close()
        worker.close()
        service.close()


def test_the_game_servers_analytics_writer_opens_its_file_again_once_due(tmp_path: Path) -> None:
    """What DuckDB keeps beyond its memory limit goes when its database is closed: the server's
    writer closes and opens the file again ``renew_seconds`` after it opened it, right after a
    snapshot, and never while a read holds one of its cursors."""
    service = build_service(Settings(database_url=f"sqlite:///{tmp_path / 'events.sqlite'}"))
    now = [0.0]
    database = AnalyticsDatabase(
        str(tmp_path / "analytics.duckdb"), snapshot_seconds=0, renew_seconds=60, now=lambda: now[0]
    )
    projector = AnalyticsProjector(RecordSource(service), database)

    def one_more_game(number: int) -> None:
        created = service.create_game("peloponnes", 1, None, f"renew-{number}".encode())
        play_with_bot(service, created, RandomBot(f"renew-{number}".encode()))
        projector.catch_up()

    def games() -> int:
        with database.read() as connection:
            return int(connection.execute("SELECT count(*) FROM games").fetchone()[0])

    try:
        one_more_game(0)
        assert database.publish() and database.renewals == 0  # opened at 0: not due
        now[0] = 61.0
        with database.read() as held:  # a read holds a cursor of the writer's
            one_more_game(1)
            assert database.publish() and database.renewals == 0
            assert held.execute("SELECT count(*) FROM games").fetchone() == (2,)
        one_more_game(2)
        assert database.publish() and database.renewals == 1
        # Opened again at 61: the tables are whole, and the next renewal is 60 s later.
        assert games() == 3
        one_more_game(3)
        now[0] = 100.0
        assert database.publish() and database.renewals == 1
        assert games() == 4
        # The server's keeper renews by its setting; any other process's database never does.
        assert AnalyticsSettings().server_renew_seconds == 60
        settings = AnalyticsSettings(path=str(tmp_path / "other.duckdb"))
        serving = Analytics.for_service(service, settings, serving=True)
        worker = Analytics.for_service(service, settings, worker=True)
        assert (serving.database.renew_seconds, worker.database.renew_seconds) == (60, None)
    finally:
        database.close()
        service.close()
