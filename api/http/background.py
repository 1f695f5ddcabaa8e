"""The threads an app runs beside its requests while it serves: the embedded projector (the read
side's), the clock keeper of clocked tournament games, and the bot seats. ``lifespan`` starts and
stops them; a game created with bots, or a tournament's tables where bot players sit, start the bot
seats too (an app served without its lifespan still plays its bots, as it still projects its reads)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from infra.games.bot_seats import BotSeats
from infra.games.service import GameService
from infra.readside.reader import ReadSide
from infra.tournaments.clock_keeper import ClockKeeper
from infra.tournaments.service import TournamentService


def resume_bot_seats(reads: ReadSide, bot_seats: BotSeats) -> None:
    """The running games a bot plays a seat of, as the lobby knows them once it has caught up."""
    if reads.projector is not None:  # this process keeps the read models: bring the lobby up to date
        reads.projector.catch_up()
    cursor: str | None = None
    while True:
        page, cursor = reads.games(status="running", cursor=cursor)
        for entry in page:
            bot_seats.watch_named(entry["game_id"], entry.get("names") or {})
        if cursor is None:
            return


class ServerThreads:
    """``keep_clocks``: while it serves, a background thread applies the clock rule of the running
    clocked tournament games (one process of those sharing the read-model store at a time, by
    lease); an in-memory event store has none (its requests and ``POST /tournaments/{id}/clocks``
    apply the rule)."""

    def __init__(
        self, service: GameService, reads: ReadSide, tournaments: TournamentService, keep_clocks: bool
    ) -> None:
        self.reads = reads
        self.keeper = ClockKeeper(tournaments, reads.store)
        self.background_clocks = keep_clocks and service.env.get("SQLITE_DBNAME") != ":memory:"
        if self.background_clocks:
            service.on_closing(self.keeper.stop)  # before the store it reads is closed
        self.bot_seats = BotSeats(service, store=reads.store)  # one process at a time plays them, by lease
        tournaments.on_bot_tables(self.watch_bot_tables)

    def start_bot_seats(self) -> None:
        """The bot seats' thread, started by the lifespan or by the first game with bots."""
        self.bot_seats.start(lambda: resume_bot_seats(self.reads, self.bot_seats))

    def watch_bot_tables(self, game_ids: list[str]) -> None:
        """Games where bots sit (a game created with bots, a tournament's tables): played by the bot seats."""
        self.start_bot_seats()
        for game_id in game_ids:
            self.bot_seats.watch(game_id)

    @asynccontextmanager
    async def lifespan(self, _: Any) -> AsyncIterator[None]:
        self.reads.start()  # the embedded projector (reads and writes start it too, lifespan or not)
        if self.background_clocks:
            self.keeper.start()
        self.start_bot_seats()
        yield
        self.bot_seats.stop()
        self.keeper.stop()
        self.reads.close()
