"""A bot playing one seat through the public HTTP API, as a person's client would: what a player uses
to enter a bot in a game (or, later, a tournament).

It knows only what the seat's token shows: it reads the seat's log (``/games/{id}/events``), rebuilds
from it a state the bots can decide on (``domain.kernel.bots.seat_state``: the hidden parts are
stand-ins, drawn again by every decision), and sends its move with the version it decided on.

    python -m api.bot_client http://127.0.0.1:8000 GAME_ID TOKEN --bot search --budget-ms 500
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable
from typing import Any

import click
import httpx

from domain.catalog import GAMES
from domain.kernel.bots import BOT_NAMES, Bot, make_bot, seat_state
from domain.kernel.game import GameDefinition
from domain.kernel.log import GAME_CREATED
from domain.kernel.search import DEFAULT_PLAYOUTS


class BotClient:
    def __init__(self, http: httpx.Client, game_id: str, token: str, bot: Bot) -> None:
        self.http = http
        self.game_id = game_id
        self.bot = bot
        self.headers = {"Authorization": f"Bearer {token}"}
        self.game: GameDefinition[Any] | None = None
        self.ended = False

    def _get(self, path: str, **params: Any) -> Any:
        response = self.http.get(f"/games/{self.game_id}{path}", headers=self.headers, params=params)
        response.raise_for_status()
        return response.json()

    def step(self) -> bool:
        """Move if the seat is awaited; whether it moved. Sets ``ended`` once the game is over."""
        listed = self._get("/legal-moves")
        if not listed["moves"]:
            view = self._get("", min_version=listed["version"])
            self.ended = view["status"] == "ended"
            return False
        seat, version = listed["seat"], listed["version"]
        records = self._get("/events")
        if self.game is None:
            self.game = GAMES.get(next(r for r in records if r["type"] == GAME_CREATED)["data"]["game"])
        if records[-1]["position"] != version:
            return False  # the game moved on between the two reads: look again
        command = self.bot.choose(self.game, seat_state(self.game, records, seat), seat)
        sent = self.http.post(
            f"/games/{self.game_id}/commands",
            json={"type": command.type, **command.to_dict(), "expected_version": version},
            headers=self.headers,
        )
        if sent.status_code == 409:  # somebody moved first: decide again on the new state
            return False
        sent.raise_for_status()
        return True

    def play(self, wait: Callable[[], object], max_looks: int = 1_000_000) -> int:
        """Play until the game ends, calling ``wait`` whenever the seat is not awaited; the moves sent."""
        moves = 0
        for _ in range(max_looks):
            if self.step():
                moves += 1
                continue
            if self.ended:
                return moves
            wait()
        raise RuntimeError(f"game {self.game_id} did not end")


@click.command()
@click.argument("url")
@click.argument("game_id")
@click.argument("token")
@click.option("--bot", "bot_name", type=click.Choice(BOT_NAMES), default="search", show_default=True)
@click.option("--budget-ms", type=click.IntRange(min=1), default=None, help="the search bot's time per decision")
@click.option("--playouts", type=click.IntRange(min=1), default=DEFAULT_PLAYOUTS, show_default=True)
@click.option("--poll-ms", type=click.IntRange(min=10), default=250, show_default=True)
def main(url: str, game_id: str, token: str, bot_name: str, budget_ms: int | None, playouts: int, poll_ms: int) -> None:
    """Play the seat of TOKEN in GAME_ID on the server at URL with a bot, to the end."""
    seconds = budget_ms / 1000 if budget_ms is not None else None
    bot = make_bot(bot_name, secrets.token_bytes(16), playouts, seconds, time.perf_counter)
    pause = threading.Event()
    with httpx.Client(base_url=url, timeout=30) as http:
        moves = BotClient(http, game_id, token, bot).play(lambda: pause.wait(poll_ms / 1000))
    click.echo(f"the game has ended; the {bot_name} bot sent {moves} commands")


if __name__ == "__main__":
    main()
