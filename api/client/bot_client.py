"""A bot playing one seat through the public HTTP API, as a person's client would: what a player uses
to enter a bot in a game (or, later, a tournament).

It knows only what the seat's token shows: it reads the seat's log (``/games/{id}/events``, each
record once: only those after the last it read), follows from it a state the bots can decide on
(``domain.kernel.bots.SeatLog``: the hidden parts are stand-ins, drawn again by every decision), and
sends its move with the version it decided on. With
a seat key (``--key-file``) every move is signed (docs/signed-commands.md): a file that does not
exist yet gets a new key, registered for the seat (``POST /games/{id}/key``) before its first move.

    python -m api.client.bot_client http://127.0.0.1:8000 GAME_ID TOKEN --bot search --budget-ms 500 [--key-file K]
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
import httpx

from api.client.seat_key import SeatKey
from domain.catalog import GAMES
from domain.kernel.bots import BOT_NAMES, Bot, SeatLog, make_bot
from domain.kernel.game import GameDefinition
from domain.kernel.log import GAME_CREATED
from domain.kernel.search import DEFAULT_PLAYOUTS


class Refused(RuntimeError):
    """The server refused a request: its status, stable code and message."""

    def __init__(self, response: httpx.Response) -> None:
        try:
            error = response.json()["error"]
            code, message = str(error["code"]), str(error["message"])
        except (ValueError, KeyError, TypeError):
            code, message = "HTTP_ERROR", response.text[:500]
        request = response.request
        super().__init__(f"{request.method} {request.url.path}: {response.status_code} {code}: {message}")
        self.status = response.status_code
        self.code = code


def checked(response: httpx.Response) -> httpx.Response:
    if response.is_error:
        raise Refused(response)
    return response


class BotClient:
    def __init__(self, http: httpx.Client, game_id: str, token: str, bot: Bot, key: SeatKey | None = None) -> None:
        self.http = http
        self.game_id = game_id
        self.bot = bot
        self.key = key  # the seat's key: every move is signed with it
        self.headers = {"Authorization": f"Bearer {token}"}
        self.game: GameDefinition[Any] | None = None
        self.ended = False
        self.records: list[dict[str, Any]] = []  # the seat's log, as read so far
        self.follower: SeatLog | None = None

    def _get(self, path: str, **params: Any) -> Any:
        response = self.http.get(f"/games/{self.game_id}{path}", headers=self.headers, params=params)
        return checked(response).json()

    def step(self) -> bool:
        """Move if the seat is awaited; whether it moved. Sets ``ended`` once the game is over."""
        listed = self._get("/legal-moves")
        if not listed["moves"]:
            view = self._get("", min_version=listed["version"])
            self.ended = view["status"] == "ended"
            return False
        seat, version = listed["seat"], listed["version"]
        follower = self._follow(seat, version)
        if follower.position != version:
            return False  # the game moved on between the two reads: look again
        records = self.records
        command = self.bot.choose(follower.game, follower.state, seat)
        move = {"type": command.type, **command.to_dict()}
        body = (
            {**move, "expected_version": version}
            if self.key is None
            else self.key.signed_body(self._signed_game_id(records, self.game_id), seat, version, None, move)
        )
        sent = self.http.post(f"/games/{self.game_id}/commands", json=body, headers=self.headers)
        if sent.status_code == 409:  # somebody moved first: decide again on the new state
            return False
        checked(sent)
        return True

    def _follow(self, seat: int, version: int) -> SeatLog:
        """The seat's state through its log's records up to ``version`` (read once each)."""
        if self.follower is None:
            self.records = self._get("/events")
            created = next(r for r in self.records if r["type"] == GAME_CREATED)
            self.game = GAMES.get(created["data"]["game"])
            self.follower = SeatLog(self.game, seat).follow(self.records)
        elif self.follower.position < version:
            new = self._get("/events", after=self.follower.position)
            self.records.extend(new)
            self.follower.follow(new)
        return self.follower

    def _signed_game_id(self, records: list[dict[str, Any]], fallback: str) -> str:
        """The game id the seat's signatures are over, as its key's record names it."""
        keyed = (r["data"] for r in records if r["type"] in ("SeatTaken", "SeatKeyed") and "public_key" in r["data"])
        return next(
            (d["game_id"] for d in keyed if self.key is not None and d["public_key"] == self.key.public_key), fallback
        )

    def register_key(self) -> int:
        """Key the seat with this client's key (once, before the seat's first command); the version after."""
        assert self.key is not None
        answer = self.http.post(
            f"/games/{self.game_id}/key", json={"public_key": self.key.public_key}, headers=self.headers
        )
        return int(checked(answer).json()["version"])

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
@click.option(
    "--key-file",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="sign every move with the seat key in this file; a file that does not exist gets a new key, "
    "registered for the seat before its first move",
)
def main(
    url: str,
    game_id: str,
    token: str,
    bot_name: str,
    budget_ms: int | None,
    playouts: int,
    poll_ms: int,
    key_file: Path | None,
) -> None:
    """Play the seat of TOKEN in GAME_ID on the server at URL with a bot, to the end."""
    seconds = budget_ms / 1000 if budget_ms is not None else None
    bot = make_bot(bot_name, secrets.token_bytes(16), playouts, seconds, time.perf_counter)
    pause = threading.Event()
    key, new = None, False
    if key_file is not None:
        new = not key_file.exists()
        key = SeatKey.generate() if new else SeatKey.load(key_file)
        if new:
            key_file.write_text(key.private_text + "\n")
            key_file.chmod(0o600)
    with httpx.Client(base_url=url, timeout=30) as http:
        client = BotClient(http, game_id, token, bot, key)
        if new:
            client.register_key()
        moves = client.play(lambda: pause.wait(poll_ms / 1000))
    click.echo(f"the game has ended; the {bot_name} bot sent {moves} commands")


if __name__ == "__main__":
    main()
