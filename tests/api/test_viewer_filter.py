"""Every outbound payload passes the per-viewer filter: when only what a viewer must not see
changes, that viewer's responses from every route are byte-identical.

The one exception is the commitments (``seed_commitment`` and the hash chain's ``hash``, ``prev``,
``digest`` and the ``fingerprint``): the seed holds the server's fresh salt, so they differ
between any two games, and they reveal nothing until the seed is published at the end.
"""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from tests.support.http import auth, create_game

COMMITMENT = re.compile(r'"(hash|prev|digest|fingerprint|seed_commitment)":\s*"[0-9a-f]{64}"')


def responses_of(client: TestClient, game: str, token: str | None) -> list[tuple[str, int, bytes]]:
    headers = auth(token) if token else {}
    gets = [
        f"/games/{game}?min_version=3",  # the read models follow in the background: as of the command
        f"/games/{game}/events",
        f"/games/{game}/events?after=2",
        f"/games/{game}/versions/1",
        f"/games/{game}/versions/2",
        f"/games/{game}/versions/3",
        f"/games/{game}/legal-moves",
        f"/games/{game}/verify",
        f"/games/{game}/export",
    ]
    out = [(path, *fetch(client.get(path, headers=headers))) for path in gets]
    posts = [
        (f"/games/{game}/commands", {"type": "commit_guess", "guess": 9}),
        (f"/games/{game}/commands", {"type": "commit_guess", "guess": "x"}),
        (f"/games/{game}/fork", {"version": 2}),
    ]
    out += [(path, *fetch(client.post(path, json=body, headers=headers))) for path, body in posts]
    return [(path.replace(game, "GAME"), status, body.replace(game.encode(), b"GAME")) for path, status, body in out]


def fetch(response) -> tuple[int, bytes]:  # type: ignore[no-untyped-def]
    return response.status_code, COMMITMENT.sub(r'"\1":"COMMITMENT"', response.text).encode()


def test_another_seats_hidden_choice_changes_no_byte_a_viewer_receives(client: TestClient) -> None:
    games = []
    for hidden_guess in (3, 5):
        created = create_game(client, "sealed_guess", 3, seed="same-seed")
        response = client.post(
            f"/games/{created['game_id']}/commands",
            json={"type": "commit_guess", "guess": hidden_guess},
            headers=auth(created["seats"][0]["token"]),
        )
        assert response.status_code == 200
        games.append(created)
    for seat in (1, 2, None):
        first, second = (
            responses_of(client, g["game_id"], g["seats"][seat]["token"] if seat is not None else None) for g in games
        )
        assert first == second, f"viewer {seat} can tell the two games apart"
    # ... while seat 0 itself sees its own choice, so its responses do differ.
    own = [responses_of(client, g["game_id"], g["seats"][0]["token"]) for g in games]
    assert own[0] != own[1]
