"""Seat keys in the browser: two browsers join a game whose seats must be keyed (each makes its
key with WebCrypto and keeps it in IndexedDB), play it to the end by clicking, every move signed;
the export verifies offline; an exportable key moves to a third browser and plays on there."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from domain.catalog import GAMES
from domain.kernel.verification import verify_export
from tests.web.conftest import BYPASS_CSP, Site, no_undo_window
from tests.web.test_browser import at_version, play_one_move_by_clicking, viewer_url


@pytest.fixture
def contexts(browser: Any) -> Iterator[list[Any]]:
    """Browser contexts of their own (each its own IndexedDB and storage), closed at the end."""
    made: list[Any] = []
    errors: list[str] = []

    def new() -> Any:
        context = browser.new_context(viewport={"width": 1280, "height": 800}, **BYPASS_CSP)
        no_undo_window(context)
        made.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.set_default_timeout(60_000)
        return page

    yield new  # type: ignore[misc]
    for context in made:
        context.close()
    assert not errors, f"the page raised: {errors}"


def join_in_the_lobby(page: Any, site: Site, game_id: str, name: str, exportable: bool) -> None:
    page.goto(f"{site.url}/lobby")
    form = f'form[data-join="{game_id}"]'
    page.wait_for_selector(form)
    page.fill(f"{form} input[name=name]", name)
    if exportable:
        page.check(f"{form} input[name=exportable]")
    page.click(f"{form} button[type=submit]")
    page.wait_for_url("**/viewer?game=*")


def test_two_browsers_join_with_keys_play_to_the_end_by_clicking_and_the_export_verifies(
    contexts: Any, site: Site
) -> None:
    created = site.service.create_game("peloponnes", 2, None, b"keyed-clicks", open_seats=True, keys_required=True)
    game_id = created.game_id
    ann, bo = contexts(), contexts()
    join_in_the_lobby(ann, site, game_id, "Ann", exportable=True)
    join_in_the_lobby(bo, site, game_id, "Bo", exportable=False)
    pages = {0: ann, 1: bo}
    records = site.api.get(f"/games/{game_id}/events").json()
    keys = {r["data"]["seat"]: r["data"]["public_key"] for r in records if r["type"] == "SeatTaken"}
    assert set(keys) == {0, 1} and all(len(k) == 43 for k in keys.values())
    for seat, page in pages.items():
        page.wait_for_selector('#seat-key[data-keyed="true"][data-held="true"]')
        assert keys[seat][:10] in page.inner_text("#seat-key-state")
    assert bo.is_hidden("#key-export")  # a non-extractable key offers no export

    rng = random.Random(7)
    moves = 0
    moved = False
    while True:
        board = site.board(created)
        if board["status"] == "ended":
            break
        seat = int(sorted(board["awaited"])[0])
        page = pages[seat]
        at_version(page, board["version"])
        play_one_move_by_clicking(page, rng)
        moves += 1
        assert moves < 1000, "the game does not end"
        if moves == 3 and not moved:
            # Ann moves to another device: export there, import here, play on from here.
            ann.click("#key-export")
            ann.wait_for_selector("#key-export-text:not([hidden])")
            exported = ann.input_value("#key-export-text")
            other = contexts()
            other.goto(viewer_url(site, created))
            other.wait_for_selector("#seat-key:not([hidden])")
            other.click("#seat-key summary")
            other.fill("#key-import-text", exported)
            other.click("#key-import-form button[type=submit]")
            other.wait_for_selector('#board[data-perspective="seat:0"]')
            other.wait_for_selector('#seat-key[data-keyed="true"][data-held="true"]')
            pages[0] = other
            moved = True

    export = site.api.get(f"/games/{game_id}/export").text
    report = verify_export(export, GAMES.get)
    assert report.verified, report.problems
    assert report.keyed_seats == [0, 1] and report.acts == []
    commands = [r for r in site.api.get(f"/games/{game_id}/events").json() if r["type"] == "CommandAccepted"]
    assert len(commands) == moves and all("signature" in r["data"] for r in commands)


def test_a_seat_taken_through_its_link_keys_itself_in_the_browser_before_its_first_move(
    contexts: Any, site: Site
) -> None:
    created = site.service.create_game("alexandros", 2, None, b"keyed-link", keys_required=True)
    board = site.board(created)
    seat = int(sorted(board["awaited"])[0])
    page = contexts()
    page.goto(viewer_url(site, created, fragment=f"token={created.tokens[seat]}"))  # the seat's link
    page.wait_for_selector('#seat-key[data-keyed="false"]')
    assert "no key yet" in page.inner_text("#seat-key-state")
    page.click("#key-register-form button[type=submit]")
    page.wait_for_selector('#seat-key[data-keyed="true"][data-held="true"]')
    records = site.api.get(f"/games/{created.game_id}/events").json()
    (keyed,) = [r for r in records if r["type"] == "SeatKeyed"]
    assert keyed["data"]["seat"] == seat and keyed["data"]["public_key"][:10] in page.inner_text("#seat-key-state")
    assert page.is_hidden("#key-register-form")  # once only
    at_version(page, keyed["position"])
    play_one_move_by_clicking(page, random.Random(3))
    at_version(page, site.board(created)["version"])
    commands = [r for r in site.api.get(f"/games/{created.game_id}/events").json() if r["type"] == "CommandAccepted"]
    assert len(commands) == 1 and commands[0]["data"]["seat"] == seat and "signature" in commands[0]["data"]


def test_a_tournament_players_table_offers_no_key_of_its_own_in_the_viewer(contexts: Any, site: Site) -> None:
    """A tournament seat takes its player's key at registration: the viewer, opened from the
    tournament page's Play link with the player's own token, offers no "Key this seat" (the server
    refuses that token at the key route)."""
    created = site.tournaments.create("alexandros", {"rounds": 1, "table_size": 2}, b"keyless-table", salted=False)
    tid, organiser = created.tournament_id, created.organiser_token
    tokens = [site.tournaments.register(tid, organiser, name).token for name in ("Ada", "Bo")]
    game_id = site.tournaments.seat_next_round(tid, organiser)["tables"][0]["game_id"]
    refused = site.api.post(
        f"/games/{game_id}/key", json={"public_key": "A" * 43}, headers={"Authorization": f"Bearer {tokens[0]}"}
    )
    assert refused.status_code == 401
    page = contexts()
    page.goto(f"{site.url}/tournament?id={tid}#player={tokens[0]}")
    page.wait_for_selector(f'#me[data-game-id="{game_id}"] #me-play')
    seat = int(page.get_attribute("#me", "data-seat") or "")
    page.click("#me-play")
    page.wait_for_selector(f'#board[data-perspective="seat:{seat}"]')
    page.wait_for_selector('#seat-key[data-keyed="false"]')
    assert page.is_hidden("#key-register-form")
    assert page.get_attribute("#seat-key", "data-tournament") == "true"
    assert "tournament seat" in page.inner_text("#seat-key-state")
    # The other player opens the game alone, from a bare seat link in a fresh browser: the view
    # itself says the game is a tournament's table, so no "Key this seat" is offered there either.
    assert site.api.get(f"/games/{game_id}").json()["tournament"] == tid
    other = contexts()
    other.goto(f"{site.url}/viewer?game={game_id}#token={tokens[1]}")
    other.wait_for_selector(f'#board[data-perspective="seat:{1 - seat}"]')
    other.wait_for_selector('#seat-key[data-keyed="false"][data-tournament="true"]')
    assert other.is_hidden("#key-register-form")
