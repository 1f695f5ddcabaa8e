"""The threads an app runs beside its requests while it serves: the embedded projector (the read
side's), the clock keeper of clocked tournament games, the bot seats, and the threads commands are
played in (``api.http.commands.CommandThreads``). ``lifespan`` starts and stops them; on a store in
a file or a database a save starts the bot seats too (an app served without its lifespan still
plays its bots, as it still projects its reads). The bot seats find their games in the
notification log alone: a game created with bots and a tournament's table where bot players sit
alike."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from api.http.commands import CommandThreads
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
        self.commands = CommandThreads()
        self.keeper = ClockKeeper(tournaments, reads.store)
        self.background_clocks = keep_clocks and service.env.get("SQLITE_DBNAME") != ":memory:"
        if self.background_clocks:
            service.on_closing(self.keeper.stop)  # before the store it reads is closed
        self.bot_seats = BotSeats(service, store=reads.store)  # one process at a time plays them, by lease
        # From here on the log is theirs to follow, however late their thread starts (the games
        # before: the lobby's, by ``resume_bot_seats``).
        self.bot_seats.start_following()
        if service.env.get("SQLITE_DBNAME") != ":memory:":  # as the read side: no second reader of one connection
            service.on_saved(self.start_bot_seats)

    def start_bot_seats(self) -> None:
        """The bot seats' thread, started by the lifespan or by a save."""
        self.bot_seats.start(lambda: resume_bot_seats(self.reads, self.bot_seats))

    @asynccontextmanager
    async def lifespan(self, _: Any) -> AsyncIterator[None]:
        self.reads.start()  # the embedded projector (reads and writes start it too, lifespan or not)
        if self.background_clocks:
            self.keeper.start()
        self.start_bot_seats()
        yield
        self.commands.close()  # the commands being played are played to their end
        self.bot_seats.stop()
        self.keeper.stop()
        self.reads.close()
