"""The web client in a real browser, as a person uses it: what is drawn matches the view, stepping
by keyboard and deep link, perspectives (no hidden card for a spectator, its own for a seat),
following a live game, and playing by clicking."""

from __future__ import annotations

import random
from typing import Any

import pytest

from domain.kernel.bots import RandomBot
from infra.games.service import CreatedGame
from infra.games.simulation import play_with_bot
from tests.web.conftest import BYPASS_CSP, GAMES, Site

pytestmark = pytest.mark.slow


def viewer_url(site: Site, created: CreatedGame, version: int | None = None, fragment: str = "") -> str:
    query = f"?game={created.game_id}" + (f"&v={version}" if version is not None else "")
    return f"{site.url}/viewer{query}" + (f"#{fragment}" if fragment else "")


def at_version(page: Any, version: int) -> None:
    page.wait_for_selector(f'body[data-version="{version}"]')


def count(page: Any, selector: str) -> int:
    n: int = page.locator(selector).count()
    return n


def drawn_counts(page: Any, game: str) -> dict[str, Any]:
    """What the page drew, read from the SVG elements themselves."""
    if game == "alexandros":
        return {
            "walls": count(page, "#board [data-piece=wall]"),
            "red walls": count(page, "#board [data-piece=wall][data-color=red]"),
            "governors": count(page, "#board [data-piece=governor]"),
            "alexander": page.get_attribute("#board [data-piece=alexander]", "data-point"),
        }
    if game == "catan_alexander":
        return {
            "roads": count(page, "#board [data-piece=road]"),
            "settlements": count(page, "#board [data-piece=settlement]"),
            "cities": count(page, "#board [data-piece=city]"),
            "hexes": count(page, "#board [data-piece=hex]"),
            "robber": page.get_attribute("#board [data-piece=robber]", "data-hex"),
        }
    if game == "empire_builder":
        armies = page.eval_on_selector_all(
            "#board [data-piece=army]", "nodes => nodes.reduce((n, a) => n + Number(a.dataset.count), 0)"
        )
        return {
            "armies": armies,
            "temples": count(page, "#board [data-piece=temple]"),
            "cities": count(page, "#board [data-piece=city]"),
            "arrows": count(page, "#board [data-piece=arrow]"),
        }
    return {
        "offered": count(page, "#board [data-piece=offered-tile]"),
        "bids": count(page, "#board [data-piece=bid]"),
        "lands": count(page, "#board [data-piece=land]"),
        "buildings": count(page, "#board [data-piece=building]"),
    }


def expected_counts(site: Site, game: str, board: dict[str, Any]) -> dict[str, Any]:
    """The same counts from the view the API gives."""
    st = board["state"]
    if game == "alexandros":
        return {
            "walls": len(st["walls"]),
            "red walls": sum(w["color"] == "red" for w in st["walls"]),
            "governors": len(st["governors"]),
            "alexander": ",".join(map(str, st["alexander"])),
        }
    if game == "catan_alexander":
        return {
            "roads": len(st["roads"]),
            "settlements": sum(b["kind"] == "settlement" for b in st["buildings"]),
            "cities": sum(b["kind"] == "city" for b in st["buildings"]),
            "hexes": len(st["hexes"]),
            "robber": ",".join(map(str, st["robber"])),
        }
    if game == "empire_builder":
        arrows = site.api.get("/games/catalog/empire_builder").json()["static"]["arrows"]
        return {
            "armies": sum(sum(seat["armies_at"].values()) for seat in st["seats"]),
            "temples": sum(len(owners) for owners in st["temples"].values()),
            "cities": sum(owner is not None for owner in st["cities"].values()),
            "arrows": len(arrows),
        }
    offered = st["auction"] + st["conquest"]
    return {
        "offered": len(offered),
        "bids": sum(t["bidder"] is not None for t in offered),
        "lands": sum(len(seat["lands"]) for seat in st["seats"]),
        "buildings": sum(len(seat["buildings"]) for seat in st["seats"]),
    }


def drawn_scores(page: Any) -> list[int]:
    cells = page.eval_on_selector_all("#scores tbody tr td:nth-of-type(1)", "cells => cells.map(c => c.textContent)")
    return [int(float(c)) for c in cells]


@pytest.mark.parametrize("game", list(GAMES))
def test_an_ended_game_is_drawn_as_its_view_at_the_end_and_at_a_deep_linked_version(
    page: Any, site: Site, ended: dict[str, CreatedGame], game: str
) -> None:
    created = ended[game]
    final = site.board(created)
    page.goto(viewer_url(site, created))
    at_version(page, final["version"])
    assert drawn_counts(page, game) == expected_counts(site, game, final)
    assert drawn_scores(page) == [int(s) for s in final["scoreboard"]["scores"]]
    assert page.locator("#turn").inner_text().startswith("Game over")

    # a deep link to a version in the middle, where the board is busy
    middle = final["version"] * 2 // 3
    page.goto(viewer_url(site, created, middle))
    at_version(page, middle)
    assert drawn_counts(page, game) == expected_counts(site, game, site.board(created, version=middle))
    assert page.get_attribute("#log li.current", "data-position") == str(middle)


@pytest.mark.parametrize("game", list(GAMES))
def test_the_keyboard_and_the_log_step_through_versions_and_the_url_follows(
    page: Any, site: Site, ended: dict[str, CreatedGame], game: str
) -> None:
    created = ended[game]
    last = site.board(created)["version"]
    page.goto(viewer_url(site, created, 10))
    at_version(page, 10)
    page.select_option("#step", "record")  # the arrows step one record (by move: test_play_client.py)
    page.focus("body")
    page.keyboard.press("ArrowRight")
    at_version(page, 11)
    page.wait_for_url("**v=11*")  # the address is written once stepping pauses
    assert page.get_attribute("#log li.current", "data-position") == "11"
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    at_version(page, 9)
    page.keyboard.press("End")
    at_version(page, last)
    page.keyboard.press("Home")
    at_version(page, 1)
    # a click on a log line jumps to that record
    page.click('#log li[data-position="5"] button')
    at_version(page, 5)
    assert drawn_counts(page, game) == expected_counts(site, game, site.board(created, version=5))
    # the log reads as sentences, one per record
    assert count(page, "#log li") == last
    assert "game" in page.locator('#log li[data-position="1"]').inner_text().lower()


HIDDEN = {
    "alexandros": "[data-piece=hand-card]",
    "catan_alexander": "[data-piece=hand-card]",
    "empire_builder": "[data-piece=sealed-allocation]",
}


def own_hidden_count(game: str, state: dict[str, Any], seat: int) -> int:
    if game == "alexandros":
        return sum(state["hand"].values())
    if game == "catan_alexander":
        return sum(state["players"][seat]["hand"].values())
    return 1 if state["my_sealed_commit"] else 0


@pytest.mark.parametrize("game", list(HIDDEN))
def test_a_spectator_sees_no_hidden_card_and_a_seat_sees_its_own(page: Any, site: Site, game: str) -> None:
    created = site.create(game, f"hidden-{game}")
    if game == "empire_builder":
        # seat 0 seals its allocation: hidden from everybody else until the reveal
        allocation = {"type": "allocate_resources", "turn_order": 3, "armies": 4, "temples": 4, "cities": 4}
        site.service.execute(created.game_id, created.tokens[0], allocation)
    board = site.board(created, created.tokens[0])
    assert board["viewer"] == 0
    expected = own_hidden_count(game, board["state"], 0)
    assert expected > 0, "the setup must give seat 0 something hidden"

    page.goto(viewer_url(site, created, fragment=f"token={created.tokens[0]}"))
    at_version(page, board["version"])
    page.wait_for_selector(f"{HIDDEN[game]}")
    assert count(page, HIDDEN[game]) == expected
    assert count(page, f'{HIDDEN[game]}:not([data-seat="0"])') == 0
    # the token left the address bar; only the perspective stays, in the fragment
    assert created.tokens[0] not in page.url
    assert page.url.endswith("#p=seat:0")
    assert created.tokens[0] in page.evaluate("JSON.stringify(localStorage)")

    page.select_option("#perspective", "spectator")
    page.wait_for_selector('#board[data-perspective="spectator"]')
    assert count(page, HIDDEN[game]) == 0
    assert count(page, "#moves:not([hidden])") == 0


def test_after_the_end_everything_is_a_perspective_at_every_version(
    page: Any, site: Site, ended: dict[str, CreatedGame]
) -> None:
    created = ended["alexandros"]
    # seeds are salted, so which moment of the game holds cards is found, not assumed
    version, every_card = next(
        (version, cards)
        for version in range(1, site.board(created)["version"])
        if (cards := cards_in_hands(site, created, version))
    )
    page.goto(viewer_url(site, created, version))
    at_version(page, version)
    assert count(page, "[data-piece=hand-card]") == 0  # the game then was still secret
    page.select_option("#perspective", "everything")
    page.wait_for_selector('#board[data-perspective="everything"]')
    assert count(page, "[data-piece=hand-card]") == every_card


def cards_in_hands(site: Site, created: CreatedGame, version: int) -> int:
    everything = site.api.get(f"/games/{created.game_id}/versions/{version}/everything").json()
    return sum(sum(view["hand"].values()) for view in everything["seat_views"])


@pytest.mark.parametrize("game", list(GAMES))
def test_a_spectator_follows_a_live_game_and_resumes_after_a_dropped_connection(
    page: Any, site: Site, game: str
) -> None:
    created = site.create(game, f"live-{game}")
    bot = RandomBot(f"live-{game}".encode())
    page.goto(viewer_url(site, created))
    at_version(page, site.board(created)["version"])
    page.wait_for_selector('#live[data-state="live"]')

    play_with_bot(site.service, created, bot, commands=3)
    board = site.board(created)
    at_version(page, board["version"])
    assert drawn_counts(page, game) == expected_counts(site, game, board)

    page.evaluate("window.alexandria.stream.drop()")
    play_with_bot(site.service, created, bot, commands=3)
    board = site.board(created)
    at_version(page, board["version"])
    assert drawn_counts(page, game) == expected_counts(site, game, board)
    assert count(page, "#log li") == board["version"]


def play_one_move_by_clicking(page: Any, rng: random.Random) -> None:
    """As a person would: one of the seat's legal moves at random, by clicking its place on the board
    (then its line, where several moves share the place), or its line in the moves panel."""
    version = page.get_attribute("body", "data-version")
    seat = page.get_attribute("#board", "data-perspective").removeprefix("seat:")
    # the panel of this version and of this seat: a switch of perspective may still be on its way
    page.wait_for_selector(f'#moves[data-version="{version}"][data-seat="{seat}"]')
    index = rng.randrange(page.evaluate("window.alexandria.moves.moves.length"))
    button = f'#move-list button[data-index="{index}"]'
    places = page.evaluate(f"window.alexandria.targetsOfMove({index})")
    if places:
        page.dispatch_event(f'#board [data-target="{places[0]}"]', "click")
        # one move there is sent at once; several are listed for a choice
        page.wait_for_function(
            f"document.body.dataset.version !== '{version}' || document.getElementById('moves').dataset.target"
        )
        if page.get_attribute("body", "data-version") == version:
            page.click(button)
    else:
        if not page.locator(button).count():  # beyond the first lines: find it by its words
            label = page.evaluate(
                f"window.alexandria.module.describeMove(window.alexandria.moves.moves[{index}], window.alexandria.data)"
            )
            page.fill("#move-filter", label)
        page.click(button)
    page.wait_for_function(f"document.body.dataset.version !== '{version}'")


def take_the_awaited_seat(page: Any) -> None:
    awaited = page.get_attribute("body", "data-awaited").split(",")[0]
    if page.get_attribute("#board", "data-perspective") != f"seat:{awaited}":
        page.select_option("#perspective", f"seat:{awaited}")
        page.wait_for_selector(f'#board[data-perspective="seat:{awaited}"]')


def test_a_whole_two_player_alexandros_game_is_played_by_clicking(page: Any, site: Site) -> None:
    created = site.create("alexandros", "clicked")
    page.goto(viewer_url(site, created, fragment="tokens=" + ",".join(created.tokens)))
    at_version(page, site.board(created)["version"])
    rng = random.Random(11)
    moves = 0
    while page.get_attribute("body", "data-status") != "ended":
        take_the_awaited_seat(page)
        play_one_move_by_clicking(page, rng)
        moves += 1
        assert moves < 1000, "the game does not end"
    final = site.board(created)
    assert final["status"] == "ended"
    page.wait_for_selector('#perspective option[value="everything"]', state="attached")
    assert page.locator("#turn").inner_text().startswith("Game over")
    assert count(page, "#log li.command") == moves
    report = site.api.get(f"/games/{created.game_id}/verify").json()
    assert report["chain_ok"] and report["seed_ok"]


@pytest.mark.parametrize("game", ["peloponnes", "empire_builder", "catan_alexander"])
def test_the_first_turns_are_played_by_clicking(page: Any, site: Site, game: str) -> None:
    created = site.create(game, f"clicked-{game}")
    page.goto(viewer_url(site, created, fragment="tokens=" + ",".join(created.tokens)))
    at_version(page, site.board(created)["version"])
    rng = random.Random(6)
    for _ in range(6):
        take_the_awaited_seat(page)
        play_one_move_by_clicking(page, rng)
    records = site.api.get(f"/games/{created.game_id}/events").json()
    assert sum(r["type"] == "CommandAccepted" for r in records) == 6
    assert count(page, "#log li.command") == 6


def test_a_board_click_plays_the_move_there_and_a_refusal_is_shown(page: Any, site: Site) -> None:
    created = site.create("catan_alexander", "board-click", {"board": "base"})  # it starts by founding
    page.goto(viewer_url(site, created, fragment="tokens=" + ",".join(created.tokens)))
    version = site.board(created)["version"]
    at_version(page, version)
    take_the_awaited_seat(page)
    seat = int(page.get_attribute("body", "data-awaited").split(",")[0])
    page.wait_for_selector(f'#moves[data-version="{version}"]')
    vertex = page.get_attribute("#board [data-target^='vertex:'].playable", "data-target")
    page.dispatch_event(f'#board [data-target="{vertex}"]', "click")
    page.wait_for_function(f"document.body.dataset.version !== '{version}'")
    buildings = site.board(created)["state"]["buildings"]
    assert {"vertex": vertex.removeprefix("vertex:"), "seat": seat, "kind": "settlement"} in buildings

    # a command the rules refuse: its message is shown and nothing is recorded
    before = site.board(created)["version"]
    page.click("#moves summary")
    page.fill("#custom-command", '{"type": "build_city", "vertex": "N(0,0)"}')
    page.click("#custom-form button")
    page.wait_for_selector("#refusal:not([hidden])")
    assert "Refused" in page.inner_text("#refusal")
    assert site.board(created)["version"] == before


def test_the_lobby_creates_a_game_and_hands_out_seat_links(
    page: Any, site: Site, ended: dict[str, CreatedGame]
) -> None:
    page.goto(f"{site.url}/lobby")
    page.wait_for_selector("#games tbody tr")
    page.select_option("#new-game", "empire_builder")
    page.wait_for_selector("#option-short_game")
    page.check("#option-short_game")
    page.click("#create button[type=submit]")
    page.wait_for_selector("[data-seat-link]")
    links = page.eval_on_selector_all("[data-seat-link]", "links => links.map(a => a.href)")
    assert len(links) == 2  # the lobby's default: the fewest players
    game_id = links[0].split("game=")[1].split("#")[0]
    created = site.api.get(f"/games/{game_id}").json()
    assert created["options"]["short_game"] is True
    assert all("#token=" in link for link in links)

    # an option shows only where it applies: Catan's layout belongs to the base board
    page.select_option("#new-game", "catan_alexander")
    page.wait_for_selector("#option-board")
    assert page.is_hidden("#option-layout") and page.is_visible("#option-starting_gold")
    page.select_option("#option-board", '"base"')
    assert page.is_visible("#option-layout") and page.is_hidden("#option-starting_gold")

    page.goto(links[1])
    page.wait_for_selector('#board[data-perspective="seat:1"]')
    assert "token=" not in page.url

    # filters: only ended Alexandros games are listed
    page.goto(f"{site.url}/lobby")
    page.wait_for_selector("#games tbody tr")
    page.select_option("#filter-game", "alexandros")
    page.select_option("#filter-status", "ended")
    page.click("#filters button")
    page.wait_for_function(
        "[...document.querySelectorAll('#games tbody tr')]"
        ".every(r => r.dataset.gameId && r.textContent.includes('ended'))"
    )
    listed = site.api.get("/games", params={"game": "alexandros", "status": "ended"}).json()
    rows = page.locator("#games tbody tr[data-game-id]").count()
    assert rows == min(20, len(listed if isinstance(listed, list) else listed["games"]))


def test_the_page_fits_a_phone(browser: Any, site: Site, ended: dict[str, CreatedGame]) -> None:
    context = browser.new_context(**BYPASS_CSP, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        created = ended["catan_alexander"]
        page.goto(viewer_url(site, created, 200))
        at_version(page, 200)
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
        box = page.locator("#board").bounding_box()
        assert box["width"] > 300 and box["height"] > 200
    finally:
        context.close()
