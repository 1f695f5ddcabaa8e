"""Commands are played off the event loop, in the app's own threads (``CommandThreads``): every
command entry (the edge, the documented route, a tournament table's route) hands them there, a
stopping server waits for the commands being played, and an app served again plays commands
again."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.http import commands
from api.http.app import create_app
from api.http.commands import CommandAnswer, CommandThreads
from api.http.limits import FieldBounds
from infra.games.service import GameService, Invalid
from infra.settings import Settings
from tests.support.http import auth

ORIGIN = "https://play.example"


def sealed_guess(client: TestClient) -> tuple[str, str, dict[str, Any]]:
    created = client.post("/games", json={"game": "sealed_guess", "players": 2}).json()
    game_id, token = created["game_id"], created["seats"][0]["token"]
    move = client.get(f"/games/{game_id}/legal-moves", headers=auth(token)).json()["moves"][0]
    return game_id, token, move


def tournament_table(client: TestClient) -> tuple[str, str, str, dict[str, Any]]:
    """A 2-player Peloponnes tournament's first table: the tournament's id, the game's, the token of
    the player whose turn it is and their first legal move."""
    created = client.post("/tournaments", json={"game": "peloponnes", "settings": {"rounds": 1, "table_size": 2}})
    tournament_id, organiser = created.json()["tournament_id"], created.json()["organiser_token"]
    tokens = [
        client.post(f"/tournaments/{tournament_id}/players", json={"name": name}, headers=auth(organiser)).json()[
            "token"
        ]
        for name in ("Ada", "Bo")
    ]
    game_id = client.post(f"/tournaments/{tournament_id}/rounds", headers=auth(organiser)).json()["tables"][0][
        "game_id"
    ]
    for token in tokens:
        moves = client.get(f"/tournaments/{tournament_id}/games/{game_id}/legal-moves", headers=auth(token)).json()
        if moves["moves"]:
            return tournament_id, game_id, token, moves["moves"][0]
    raise AssertionError("nobody may move at the table")


@pytest.mark.parametrize("entry", ["the edge", "the documented route", "a tournament table's route"])
def test_a_command_is_played_in_a_command_thread(
    service: GameService, monkeypatch: pytest.MonkeyPatch, entry: str
) -> None:
    threads: list[str] = []
    send_command = commands.send_command

    def recorded(*arguments: Any) -> CommandAnswer:
        threads.append(threading.current_thread().name)
        return send_command(*arguments)

    monkeypatch.setattr(commands, "send_command", recorded)
    with TestClient(create_app(service, cors_origins=[ORIGIN])) as client:
        if entry == "a tournament table's route":
            tournament_id, game_id, token, move = tournament_table(client)
            path, headers = f"/tournaments/{tournament_id}/games/{game_id}/commands", auth(token)
        else:
            game_id, token, move = sealed_guess(client)
            origin = {"Origin": ORIGIN} if entry == "the documented route" else {}
            path, headers = f"/games/{game_id}/commands", {**auth(token), **origin}
        answer = client.post(path, json=move, headers=headers)
    assert answer.status_code == 200, answer.text
    assert answer.json()["version"] > 0
    assert len(threads) == 1 and threads[0].startswith("command")
    with service.reading(game_id) as game:
        assert game.match.version == answer.json()["version"]


def test_closing_waits_for_the_commands_being_played() -> None:
    command_threads = CommandThreads(threads=2)
    started, release = threading.Event(), threading.Event()
    finished: list[str] = []

    def slow_command(*_: Any) -> tuple[int, Any]:
        started.set()
        release.wait(10)
        finished.append("played")
        raise Invalid("refused once played")

    async def send() -> None:
        with pytest.raises(Invalid, match="refused once played"):
            await command_threads.send({}, FieldBounds(100, 100, 100), slow_command)

    sender = threading.Thread(target=asyncio.run, args=(send(),))
    sender.start()
    assert started.wait(10)
    closed = threading.Event()
    closer = threading.Thread(target=lambda: (command_threads.close(), closed.set()))
    closer.start()
    time.sleep(0.2)
    assert not closed.is_set()  # still playing its command
    release.set()
    closer.join(10)
    sender.join(10)
    assert closed.is_set() and finished == ["played"]


def test_an_app_served_again_plays_commands_again(service: GameService) -> None:
    app = create_app(service, settings=Settings())
    for _ in range(2):
        with TestClient(app) as client:
            game_id, token, move = sealed_guess(client)
            answer = client.post(f"/games/{game_id}/commands", json=move, headers=auth(token))
            assert answer.status_code == 200, answer.text


def test_no_more_commands_are_played_at_once_than_there_are_threads() -> None:
    command_threads = CommandThreads(threads=2)
    changed = threading.Condition()
    playing, most, played = 0, 0, 0

    def command(*_: Any) -> tuple[int, Any]:
        nonlocal playing, most, played
        with changed:
            playing += 1
            played += 1
            most = max(most, playing)
            changed.notify_all()
            if played <= 2:  # the first two wait for each other (a busy machine may start a thread late)
                changed.wait_for(lambda: most >= 2, timeout=10)
        time.sleep(0.05)
        with changed:
            playing -= 1
        raise Invalid("played")

    async def send_five() -> list[BaseException | CommandAnswer]:
        sends = [command_threads.send({}, FieldBounds(100, 100, 100), command) for _ in range(5)]
        return await asyncio.gather(*sends, return_exceptions=True)

    outcomes = asyncio.run(send_five())
    command_threads.close()
    assert all(isinstance(o, Invalid) for o in outcomes) and most == 2


def test_a_thread_whose_requests_loop_is_gone_plays_on() -> None:
    command_threads = CommandThreads(threads=1)
    first = threading.Event()

    def command(*_: Any) -> tuple[int, Any]:
        if not first.is_set():  # the first request's loop is closed while its command is played
            first.set()
            time.sleep(0.2)
        raise Invalid("played")

    async def send() -> None:
        with pytest.raises(Invalid, match="played"):
            await asyncio.wait_for(command_threads.send({}, FieldBounds(100, 100, 100), command), 10)

    gone = asyncio.new_event_loop()
    left = gone.create_task(send())
    gone.run_until_complete(asyncio.sleep(0.05))
    left.cancel()  # the client left: the request is cancelled, its loop closed, its command still played
    gone.run_until_complete(asyncio.gather(left, return_exceptions=True))
    gone.close()
    asyncio.run(send())  # the one thread, past the closed loop, answers the next request
    command_threads.close()
