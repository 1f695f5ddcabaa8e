"""Playing from the web client beyond a list of moves: joining a game's open seats by name in the
lobby (two browsers, each seeing only its own seat), the waiting page until the game starts, and the
dedicated forms (a Catan trade offer, the Empire Builder cube split, Alexandros governors), whose
commands the server accepts and whose refusals are shown. Fields are found by their labels, as a
screen reader announces them."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from pydantic import TypeAdapter

from api.contract.models import command_union
from domain.kernel.bots import RandomBot
from infra.games.service import CreatedGame
from tests.web.conftest import BYPASS_CSP, Site, no_undo_window

pytestmark = pytest.mark.slow

MOVES_BOUND = 400  # a bound for a search that did not find its moment, not a measurement


@pytest.fixture
def context_factory(browser: Any) -> Iterator[Callable[[], Any]]:
    """Fresh browser contexts (each its own local storage: one person each)."""
    contexts: list[Any] = []
    errors: list[str] = []

    def new_page() -> Any:
        context = browser.new_context(**BYPASS_CSP, viewport={"width": 1280, "height": 800})
        no_undo_window(context)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.set_default_timeout(60_000)
        return page

    yield new_page
    for context in contexts:
        context.close()
    assert not errors, f"a page raised: {errors}"


def stored_tokens(page: Any, game_id: str) -> dict[str, str]:
    raw = page.evaluate(f"localStorage.getItem('alexandria.tokens.{game_id}')")
    tokens: dict[str, str] = json.loads(raw or "{}")
    return tokens


def seat_view(site: Site, created: CreatedGame, seat: int) -> dict[str, Any]:
    """The seat's view at the game's current version (waiting for the read models to get there)."""
    with site.service.reading(created.game_id) as aggregate:
        version = aggregate.match.version
    headers = {"Authorization": f"Bearer {created.tokens[seat]}"}
    answer = site.api.get(f"/games/{created.game_id}", params={"min_version": version}, headers=headers)
    assert answer.status_code == 200, answer.text
    view: dict[str, Any] = answer.json()
    return view


def played_until(site: Site, created: CreatedGame, seed: str, wanted: Callable[[dict[str, Any]], int | None]) -> int:
    """Bot moves until ``wanted`` (given the view of seat 0 … n-1) names a seat; returns that seat."""
    bot = RandomBot(seed.encode())
    for _ in range(MOVES_BOUND):
        for seat in range(len(created.tokens)):
            found = wanted(seat_view(site, created, seat))
            if found is not None:
                return found
        with site.service.reading(created.game_id) as aggregate:
            match = aggregate.match
            assert not match.is_over, "the game ended before the wanted moment"
            mover, command = bot.next_move(match.game, match.state)
            version = aggregate.match.version
        site.service.execute(
            created.game_id,
            created.tokens[mover],
            {"type": command.type, **command.to_dict()},
            expected_version=version,
        )
    raise AssertionError("the wanted moment did not come")


def open_as(page: Any, site: Site, created: CreatedGame, seat: int) -> None:
    page.goto("about:blank")  # another seat's token differs in the hash only, which loads no page
    page.goto(f"{site.url}/viewer?game={created.game_id}#token={created.tokens[seat]}")
    page.wait_for_selector(f'#board[data-perspective="seat:{seat}"]')
    page.wait_for_selector(f'#moves[data-seat="{seat}"]')


def commands_of(site: Site, created: CreatedGame) -> list[dict[str, Any]]:
    records = site.api.get(f"/games/{created.game_id}/events").json()
    return [r for r in records if r["type"] == "CommandAccepted"]


def every_field_is_labelled(page: Any, selector: str) -> None:
    unlabelled = page.eval_on_selector_all(
        f"{selector} input, {selector} select, {selector} textarea",
        "nodes => nodes.filter(n => !n.labels.length && !n.getAttribute('aria-label')).map(n => n.outerHTML)",
    )
    assert unlabelled == []


def sent_commands(page: Any) -> list[dict[str, Any]]:
    """The bodies of the commands the page posts, as they go over the wire (filled in as it sends)."""
    sent: list[dict[str, Any]] = []

    def seen(request: Any) -> None:
        if request.method == "POST" and request.url.split("?")[0].endswith("/commands"):
            sent.append(request.post_data_json)

    page.on("request", seen)
    return sent


def valid_per_schema(game: str, body: dict[str, Any]) -> None:
    """The command is one of the game's command schemas, the models the OpenAPI document is made of."""
    TypeAdapter(command_union(game)).validate_json(json.dumps(body))


def refused(page: Any) -> str:
    page.wait_for_selector("#refusal:not([hidden])")
    text: str = page.inner_text("#refusal")
    assert text.startswith("Refused (")
    return text


# -- joining by name --------------------------------------------------------------------------------


def listed_as_waiting(site: Site, game_id: str) -> None:
    """Wait until the lobby's read model (kept in the background) lists the game as waiting."""
    pause = threading.Event()
    deadline = time.monotonic() + 60  # a bound for a stuck projection, not a measurement
    while time.monotonic() < deadline:
        listed = site.api.get("/games", params={"status": "waiting", "limit": 500}).json()
        games = listed if isinstance(listed, list) else listed["games"]
        if any(g["game_id"] == game_id for g in games):
            return
        pause.wait(0.05)
    raise AssertionError(f"the lobby never listed {game_id} as waiting")


def lobby_of_waiting_games(page: Any, site: Site, game_id: str) -> None:
    listed_as_waiting(site, game_id)
    page.goto(f"{site.url}/lobby")
    page.wait_for_selector("body[data-ready]")
    page.select_option("#filter-status", "waiting")
    page.click("#filters button")
    page.wait_for_selector("#games:not([aria-busy])")


def join_in_lobby(page: Any, site: Site, game_id: str, name: str) -> None:
    lobby_of_waiting_games(page, site, game_id)
    row = page.locator(f'#games tr[data-game-id="{game_id}"]')
    field = row.get_by_label("Your name")
    field.fill(name)
    field.press("Enter")  # the keyboard is enough
    page.wait_for_url("**/viewer?game=*")


def test_two_people_join_by_name_in_the_lobby_and_each_sees_only_its_own_seat(
    context_factory: Callable[[], Any], site: Site
) -> None:
    ann = context_factory()
    ann.goto(f"{site.url}/lobby")
    ann.wait_for_selector("body[data-ready]")
    ann.select_option("#new-game", "alexandros")
    # the players' choices follow the game chosen (Alexandros: 2 to 4)
    ann.wait_for_function("[...document.querySelectorAll('#new-players option')].map(o => o.value).join() === '2,3,4'")
    ann.select_option("#new-players", "2")
    ann.get_by_label("Leave the seats open for players to join by name").check()
    ann.click("#create button[type=submit]")
    ann.wait_for_selector("[data-open-seats]")
    assert ann.get_attribute("[data-open-seats]", "data-open-seats") == "0,1"
    assert ann.locator("[data-seat-link]").count() == 0  # nobody was given a token
    game_id = ann.get_attribute("[data-spectator-link]", "href").split("game=")[1]
    every_field_is_labelled(ann, "#games")

    join_in_lobby(ann, site, game_id, "Ann")
    ann.wait_for_selector("#waiting h2")
    assert ann.inner_text("#waiting h2") == "Waiting for 1 player"
    assert "Ann" in ann.inner_text("#waiting")
    assert ann.is_hidden("#layout") and ann.is_visible("#waiting")
    assert "token" not in ann.url and ann.url.endswith("#p=seat:0")
    assert list(stored_tokens(ann, game_id)) == ["0"]

    # a spectator waits too, told how many seats are open
    watcher = context_factory()
    watcher.goto(f"{site.url}/viewer?game={game_id}")
    watcher.wait_for_selector("#waiting h2")
    assert watcher.inner_text("#waiting h2") == "Waiting for 1 player"

    bo = context_factory()
    join_in_lobby(bo, site, game_id, "Bo")
    bo.wait_for_selector('#board[data-perspective="seat:1"]')
    # Ann's page was waiting: it starts by itself when the last seat is taken
    ann.wait_for_selector('#board[data-perspective="seat:0"]')
    watcher.wait_for_selector('#board[data-perspective="spectator"]')
    assert ann.is_hidden("#waiting") and watcher.is_hidden("#waiting")
    assert watcher.evaluate("window.alexandria.shown.state.hand") is None  # a spectator sees no hand
    assert list(stored_tokens(bo, game_id)) == ["1"]
    assert "token" not in bo.url

    for page, seat in ((ann, 0), (bo, 1)):
        (token,) = stored_tokens(page, game_id).values()
        page.wait_for_function("window.alexandria.shown && window.alexandria.shown.state")
        shown = page.evaluate("window.alexandria.shown")
        assert shown["viewer"] == seat and shown["names"] == {"0": "Ann", "1": "Bo"}
        expected = site.api.get(
            f"/games/{game_id}", params={"min_version": shown["version"]}, headers={"Authorization": f"Bearer {token}"}
        ).json()
        assert shown["state"]["hand"] == expected["state"]["hand"]  # its own hand, as the API shows that seat
        # the perspective offers only this person's own seat
        options = page.eval_on_selector_all("#perspective option", "os => os.map(o => o.value)")
        assert options == ["spectator", f"seat:{seat}"]
    # the game is running: the lobby shows no open seat for it any more
    assert site.api.get(f"/games/{game_id}").json()["open_seats"] == []


def test_joining_a_game_that_is_full_shows_why(page: Any, site: Site) -> None:
    created = site.service.create_game("alexandros", 2, None, b"full-join", open_seats=True)
    lobby_of_waiting_games(page, site, created.game_id)
    row = page.locator(f'#games tr[data-game-id="{created.game_id}"]')
    row.get_by_label("Your name").fill("Cy")
    for name in ("Ann", "Bo"):  # others take both seats meanwhile
        site.service.join(created.game_id, name)
    row.get_by_role("button", name="Join").click()
    page.wait_for_selector("#error:not([hidden])")
    assert "You did not join" in page.inner_text("#error")
    assert stored_tokens(page, created.game_id) == {}


# -- dedicated forms --------------------------------------------------------------------------------


def test_the_empire_builder_allocation_form_splits_the_15_cubes(page: Any, site: Site) -> None:
    created = site.create("empire_builder", "form-allocation")
    sent = sent_commands(page)
    open_as(page, site, created, 0)
    form = page.locator('form[data-form="allocate_resources"]')
    every_field_is_labelled(page, "#move-forms")
    assert form.is_visible()  # open: splitting the cubes is all this seat may do now
    assert "15 of 15 cubes left" in form.inner_text()
    assert page.locator("#move-list button.move").count() > 0  # the list of moves stays

    form.get_by_label("Armies").fill("10")  # 5 cubes left unplaced: the rules refuse it
    assert "5 of 15 cubes left" in form.inner_text()
    # another seat commits meanwhile: the page follows, and what was typed stays
    shown = page.get_attribute("body", "data-version")
    split = {"type": "allocate_resources", "turn_order": 0, "armies": 15, "temples": 0, "cities": 0}
    site.service.execute(created.game_id, created.tokens[1], split)
    page.wait_for_function(f"document.body.dataset.version !== '{shown}'")
    page.wait_for_function("document.querySelector('#moves').dataset.version === document.body.dataset.version")
    assert form.get_by_label("Armies").input_value() == "10"
    assert "5 of 15 cubes left" in form.inner_text()
    before = len(commands_of(site, created))
    form.get_by_role("button", name="Commit the allocation").click()
    assert "15" in refused(page)
    assert len(commands_of(site, created)) == before
    valid_per_schema("empire_builder", sent[-1])  # refused by the rules, not by the schema

    form.get_by_label("Turn order").fill("2")
    form.get_by_label("Temples box").fill("2")
    form.get_by_label("Cities box").fill("1")
    assert "All 15 cubes placed" in form.inner_text()
    form.get_by_role("button", name="Commit the allocation").click()
    page.wait_for_function("!document.body.dataset.awaited.split(',').includes('0')")
    accepted = commands_of(site, created)[-1]
    assert accepted["data"]["seat"] == 0 and accepted["data"]["command"]["type"] == "allocate_resources"
    assert {k: sent[-1][k] for k in ("turn_order", "armies", "temples", "cities")} == {
        "turn_order": 2,
        "armies": 10,
        "temples": 2,
        "cities": 1,
    }
    valid_per_schema("empire_builder", sent[-1])
    assert seat_view(site, created, 0)["state"]["my_sealed_commit"] is not None
    assert page.is_hidden("#refusal")


def test_the_catan_trade_form_offers_counts_to_a_chosen_player(page: Any, site: Site) -> None:
    created = site.create("catan_alexander", "form-trade")

    def trading(view: dict[str, Any]) -> int | None:
        st = view["state"]
        me = view["viewer"]
        if st["phase"] == "TRADE_BUILD" and st["active"] == me and any(st["players"][me]["hand"].values()):
            return int(me)
        return None

    seat = played_until(site, created, "form-trade", trading)
    hand = seat_view(site, created, seat)["state"]["players"][seat]["hand"]
    give = next(good for good, n in hand.items() if n)
    receive = next(good for good in ("brick", "grain", "lumber", "ore", "wool") if good != give)
    partner = (seat + 1) % 3
    sent = sent_commands(page)
    open_as(page, site, created, seat)
    form = page.locator('form[data-form="offer_trade"]')
    every_field_is_labelled(page, "#move-forms")
    # folded (the list of moves holds other choices too) until opened, by the keyboard here
    assert form.is_hidden()
    page.focus("#move-forms summary")
    page.keyboard.press("Enter")

    # the same good on both sides: refused, nothing recorded
    before = len(commands_of(site, created))
    form.locator("fieldset.goods").nth(0).get_by_label(give).fill("1")
    form.locator("fieldset.goods").nth(1).get_by_label(give).fill("1")
    form.get_by_role("button", name="Offer").click()
    refused(page)
    assert len(commands_of(site, created)) == before
    valid_per_schema("catan_alexander", sent[-1])

    form.locator("fieldset.goods").nth(1).get_by_label(give).fill("0")
    form.locator("fieldset.goods").nth(1).get_by_label(receive).fill("2")
    form.get_by_label(f"Seat {partner + 1}").check()
    shown = page.get_attribute("body", "data-version")
    form.get_by_role("button", name="Offer").click()
    page.wait_for_function(f"document.body.dataset.version !== '{shown}'")
    command = commands_of(site, created)[-1]["data"]["command"]
    assert command == {"type": "offer_trade", "give": {give: 1}, "receive": {receive: 2}, "to": [partner]}
    valid_per_schema("catan_alexander", sent[-1])
    (offer,) = seat_view(site, created, seat)["state"]["offers"]
    assert offer["give"] == {give: 1} and offer["receive"] == {receive: 2}

    # the partner's moves answer the offer, and say what it trades
    open_as(page, site, created, partner)
    answers = page.locator('#move-list button[data-type="respond_trade"]')
    answers.first.wait_for()
    terms = f"(Seat {seat + 1} gives 1 {give} for 2 {receive})"
    assert f"Decline offer {offer['offer_id']} {terms}" in answers.all_inner_texts()


def test_the_alexandros_form_places_governors_on_chosen_spaces(page: Any, site: Site) -> None:
    created = site.create("alexandros", "form-governors")

    def small_free_province(view: dict[str, Any]) -> int | None:
        st = view["state"]
        me = view["viewer"]
        if st["step"] != "actions" or st["current_seat"] != me:
            return None
        supply = st["governor_supply"][me]
        free = [p for p in st["provinces"] if p["owner"] is None and 1 <= len(p["symbol_spaces"]) <= supply]
        return int(me) if free else None

    seat = played_until(site, created, "form-governors", small_free_province)
    st = seat_view(site, created, seat)["state"]
    index, province = next(
        (i, p)
        for i, p in enumerate(st["provinces"])
        if p["owner"] is None and 1 <= len(p["symbol_spaces"]) <= st["governor_supply"][seat]
    )
    sent = sent_commands(page)
    open_as(page, site, created, seat)
    form = page.locator('form[data-form="occupy_province"]')
    every_field_is_labelled(page, "#move-forms")
    page.click("#move-forms summary")
    form.get_by_label("Province").select_option(str(index))

    # no governor at all: refused with the server's message
    before = len(commands_of(site, created))
    form.get_by_role("button", name="Occupy").click()
    refused(page)
    assert len(commands_of(site, created)) == before
    valid_per_schema("alexandros", sent[-1])

    # a governor on every symbol space: nothing to pay
    for space in province["symbol_spaces"]:
        form.locator(f'input[data-field="space"][value="{space[0]},{space[1]}"]').check()
    assert "You pay nothing" in form.inner_text()
    shown = page.get_attribute("body", "data-version")
    form.get_by_role("button", name="Occupy").click()
    page.wait_for_function(f"document.body.dataset.version !== '{shown}'")
    command = commands_of(site, created)[-1]["data"]["command"]
    assert command["type"] == "occupy_province"
    assert sorted(command["governors"]) == sorted(province["symbol_spaces"])
    valid_per_schema("alexandros", sent[-1])
    after = seat_view(site, created, seat)["state"]
    assert after["provinces"][index]["owner"] == seat
