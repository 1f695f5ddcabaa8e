"""A tournament's exports: pairings and standings as CSV, the printable page, the FIDE TRF; and the
tournament list (filters, pages)."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.http.tournament_exports import pairings_csv, safe_cell, standings_csv, trf
from domain.catalog import GAMES
from domain.kernel.bots import RandomBot
from domain.tournament import rules
from domain.tournament.log import (
    ADJUDICATED,
    LATE_ENTRY,
    PLAYER_REGISTERED,
    PLAYER_WITHDRAWN,
    RESULT_RECORDED,
    ROUND_SEATED,
    TOURNAMENT_CREATED,
    Table,
    TournamentLog,
)
from domain.tournament.verification import verify_bundle
from infra.games.service import GameService
from infra.readside.readmodels import MemoryStore
from infra.tournaments.listing import TournamentList
from infra.tournaments.run import SteppingClock, play_table, run_tournament
from infra.tournaments.service import TournamentService
from tests.support.http import auth

DAY_MS = 86_400_000
START_MS = 1_800_000_000_000  # 2027-01-15 08:00 UTC


def defused(name: str) -> str:
    return "'" + name if name[0] in "=+-@" else name


def rows_of(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def result(game_id: str, round_: int, table: int, placings: list[int], at: int) -> dict[str, Any]:
    winners = [s for s, p in enumerate(placings) if p == 1]
    scores = [10 - p for p in placings]
    return {
        "game_id": game_id,
        "round": round_,
        "table": table,
        "scores": scores,
        "placings": placings,
        "winners": winners,
        "fingerprint": "f",
        "at": at,
    }


def club_night() -> TournamentLog:
    """Five players, two rounds of 2-player tables, by hand:
    round 1: Ann-Bob 1-0, Cy-Dee draw, Eve bye; round 2: Eve-Ann 1-0, Bob-Cy playing, Dee bye."""
    log = TournamentLog()
    config = {"rounds": 2, "table_size": 2}
    log.append(
        TOURNAMENT_CREATED, rules.created(GAMES.get("peloponnes"), "t-club", config, b"m", START_MS, "Club night")
    )
    for name in ("Ann", "Bob", "Cy", "Dee", "Eve"):
        log.append(PLAYER_REGISTERED, rules.register(log.state, name, START_MS))
    tables = [{"table": 1, "game_id": "g1", "players": [0, 1]}, {"table": 2, "game_id": "g2", "players": [2, 3]}]
    log.append(ROUND_SEATED, {"round": 1, "tables": tables, "byes": [4], "at": START_MS})
    log.append(RESULT_RECORDED, result("g1", 1, 1, [1, 2], START_MS + 1))
    log.append(RESULT_RECORDED, result("g2", 1, 2, [1, 1], START_MS + 2))
    tables = [{"table": 1, "game_id": "g3", "players": [4, 0]}, {"table": 2, "game_id": "g4", "players": [1, 2]}]
    log.append(ROUND_SEATED, {"round": 2, "tables": tables, "byes": [3], "at": START_MS + DAY_MS})
    log.append(RESULT_RECORDED, result("g3", 2, 1, [1, 2], START_MS + DAY_MS + 1))
    return log


def test_the_trf_of_a_hand_checked_event() -> None:
    state = club_night().state
    text = trf(state, rules.standings_view(state)["standings"])
    lines = text.splitlines()
    assert lines[:6] == [
        "012 Club night",
        "042 2027/01/15",
        "062 5",
        "092 Individual: Swiss-System (Peloponnes)",
        # the rounds' dates (YY/MM/DD) in columns 92-99, 102-109
        "132" + " " * 88 + "27/01/15  27/01/16",
        "XXR 2",
    ]
    players = lines[6:]
    # Points: Eve 0.5 + 1 = 1.5; Ann 1 + 0 and Dee 0.5 + 0.5 = 1 (Ann ahead on her opponents' points,
    # 0 + 1.5 against 0.5); Cy 0.5; Bob 0.
    assert players == [
        f"001    1      {'Ann':<67}1.0    2     2 w 1     5 b 0",
        f"001    2      {'Bob':<67}0.0    5     1 b 0     3 w",
        f"001    3      {'Cy':<67}0.5    4     4 w =     2 b",
        f"001    4      {'Dee':<67}1.0    3     3 b =  0000 - U",
        f"001    5      {'Eve':<67}1.5    1  0000 - U     1 w 1",
    ]
    ann = players[0]
    # The columns of TRF16's player line, one by one (1-based, inclusive).
    assert ann[0:3] == "001" and ann[4:8] == "   1" and ann[14:17] == "Ann"
    assert ann[80:84] == " 1.0" and ann[85:89] == "   2"
    assert ann[91:95] == "   2" and ann[96] == "w" and ann[98] == "1"  # round 1: against Bob, white, won
    assert ann[101:105] == "   5" and ann[106] == "b" and ann[108] == "0"  # round 2: against Eve, black, lost


def test_the_trf_writes_forfeits_voids_and_refuses_larger_tables() -> None:
    log = club_night()
    log.append(
        ADJUDICATED,
        rules.adjudicated(log.state, {"kind": "forfeit", "game_id": "g4", "player": 1, "reason": "left"}, 1, None),
    )
    state = log.state
    lines = trf(state, rules.standings_view(state)["standings"]).splitlines()
    bob, cy = lines[7], lines[8]
    assert bob.endswith("3 w -") and cy.endswith("2 b +")

    wide = TournamentLog()
    wide.append(TOURNAMENT_CREATED, rules.created(GAMES.get("peloponnes"), "t4", {"table_size": 4}, b"m", 0))
    with pytest.raises(Exception) as refused:
        trf(wide.state, [])
    assert getattr(refused.value, "code", None) == "TRF_NEEDS_TWO_PLAYER_TABLES"


def test_csv_cells_that_a_spreadsheet_would_run_are_defused() -> None:
    for dangerous in ('=HYPERLINK("http://x")', "+1+1", "-2+3", "@SUM(A1)", "\tx", "\rx"):
        assert safe_cell(dangerous) == "'" + dangerous
    assert safe_cell("Ann") == "Ann" and safe_cell(-1.5) == -1.5  # numbers are ours

    log = TournamentLog()
    log.append(TOURNAMENT_CREATED, rules.created(GAMES.get("peloponnes"), "t", {"table_size": 2}, b"m", 0))
    for name in ("=cmd|' /C calc'!A0", "@Bob", "+Cy", "-Dee"):
        log.append(PLAYER_REGISTERED, rules.register(log.state, name, 0))
    log.append(ROUND_SEATED, rules.round_seated(log.state, rules.plan_round(log.state, b"m"), ["g1", "g2"], 1))
    for text in (pairings_csv(log.state, 1), standings_csv(log.state, rules.standings_view(log.state)["standings"])):
        names = [row[4] if len(row) == 7 else row[2] for row in rows_of(text)[1:]]
        assert names and all(n.startswith("'") for n in names), names


def test_the_exports_over_http(client: TestClient) -> None:
    created = client.post(
        "/tournaments", json={"game": "peloponnes", "name": "Spring <open>", "settings": {"table_size": 2}}
    ).json()
    tid, organiser = created["tournament_id"], created["organiser_token"]
    tokens = [
        client.post(f"/tournaments/{tid}/players", json={"name": n}, headers=auth(organiser)).json()["token"]
        for n in ("Ann", "<b>Bob</b>", "=1+2", "Dee", "Eve")
    ]
    assert client.post(f"/tournaments/{tid}/rounds", headers=auth(organiser)).status_code == 201
    view = client.get(f"/tournaments/{tid}").json()
    assert view["name"] == "Spring <open>"

    pairings = client.get(f"/tournaments/{tid}/rounds/1/pairings.csv")
    assert pairings.status_code == 200 and pairings.headers["content-type"].startswith("text/csv")
    assert "attachment" in pairings.headers["content-disposition"]
    rows = rows_of(pairings.text)
    assert rows[0] == ["round", "table", "seat", "player", "name", "game_id", "bye"]
    names = view["players"]
    expected = [
        ["1", str(t["table"]), str(s + 1), str(p), defused(names[p]["name"]), t["game_id"], ""]
        for t in view["rounds"][0]["tables"]
        for s, p in enumerate(t["players"])
    ]
    expected += [["1", "", "", str(p), defused(names[p]["name"]), "", "bye"] for p in view["rounds"][0]["byes"]]
    assert rows[1:] == expected

    standings = rows_of(client.get(f"/tournaments/{tid}/standings.csv").text)
    assert standings[0] == [
        "place",
        "player",
        "name",
        "points",
        "games",
        "byes",
        "head_to_head",
        "opponents_points",
        "score_sum",
        "rating",
        "withdrawn",
    ]
    assert sorted(int(r[1]) for r in standings[1:]) == [0, 1, 2, 3, 4]

    page = client.get(f"/tournaments/{tid}/print")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    policy = page.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy and "sha256-" not in policy
    assert "<script" not in page.text and "<style" not in page.text and "/static/print.css" in page.text
    assert "&lt;b&gt;Bob&lt;/b&gt;" in page.text and "<b>Bob" not in page.text
    assert "Round 1: pairings" in page.text and "Spring &lt;open&gt;" in page.text
    assert client.get("/static/print.css").status_code == 200

    trf_text = client.get(f"/tournaments/{tid}/trf")
    assert trf_text.status_code == 200 and trf_text.text.startswith("012 Spring <open>\n")
    assert len([line for line in trf_text.text.splitlines() if line.startswith("001")]) == 5

    # Public data only: no token anywhere.
    for path in ("rounds/1/pairings.csv", "standings.csv", "print", "trf"):
        body = client.get(f"/tournaments/{tid}/{path}").text
        assert organiser not in body and not any(token in body for token in tokens)


def test_export_refusals(client: TestClient) -> None:
    created = client.post("/tournaments", json={"game": "peloponnes"}).json()  # tables of 4
    tid = created["tournament_id"]
    not_seated = client.get(f"/tournaments/{tid}/rounds/1/pairings.csv")
    assert not_seated.status_code == 404 and not_seated.json()["error"]["code"] == "UNKNOWN_ROUND"
    assert "0 round(s) seated" in not_seated.json()["error"]["message"]
    for bad in ("0", "-1", "x"):
        response = client.get(f"/tournaments/{tid}/rounds/{bad}/pairings.csv")
        assert response.status_code == 400 and response.json()["error"]["code"] == "BAD_INPUT", bad
    wide = client.get(f"/tournaments/{tid}/trf")
    assert wide.status_code == 409 and wide.json()["error"]["code"] == "TRF_NEEDS_TWO_PLAYER_TABLES"
    for path in ("standings.csv", "print", "trf", "rounds/1/pairings.csv"):
        missing = client.get(f"/tournaments/00000000-0000-0000-0000-000000000000/{path}")
        assert missing.status_code == 404 and missing.json()["error"]["code"] == "UNKNOWN_TOURNAMENT_ID"
    bad_name = client.post("/tournaments", json={"game": "peloponnes", "name": "a\u202eb"})
    assert bad_name.status_code == 400 and bad_name.json()["error"]["code"] == "BAD_NAME"


def test_an_ended_named_tournament_verifies_and_exports(games: GameService) -> None:
    tournaments = TournamentService(games, now=SteppingClock())
    try:
        played = run_tournament(tournaments, "peloponnes", 4, {"rounds": 2, "table_size": 2}, b"exports")
        state = tournaments.state(played.tournament_id)
        assert verify_bundle(tournaments.bundle(played.tournament_id), GAMES.get).ok
        lines = trf(state, rules.standings_view(state)["standings"]).splitlines()
        assert any(line.startswith("052 ") for line in lines)  # the end's date
        results = [line[98] for line in lines if line.startswith("001")] + [
            line[108] for line in lines if line.startswith("001")
        ]
        assert set(results) <= {"1", "=", "0"} and len(results) == 8
        # Each game's two results agree: a win beside a loss, or two draws.
        assert results.count("1") == results.count("0")
    finally:
        tournaments.close()


def test_a_named_tournament_verifies(games: GameService) -> None:
    tournaments = TournamentService(games, now=SteppingClock())
    try:
        created = tournaments.create("peloponnes", {"table_size": 2, "rounds": 1}, name="  Named  ")
        tid, organiser = created.tournament_id, created.organiser_token
        assert tournaments.state(tid).name == "Named"  # stripped, as a player's name is
        tokens = [tournaments.register(tid, organiser, n).token for n in ("Ann", "Bob")]
        seated = tournaments.seat_next_round(tid, organiser)["tables"][0]
        table = Table(1, seated["table"], seated["game_id"], seated["players"])
        play_table(tournaments, tid, table, tokens, RandomBot(b"named"), None)
        tournaments.end(tid, organiser)
        assert verify_bundle(tournaments.bundle(tid), GAMES.get).ok
    finally:
        tournaments.close()


# -- the tournament list ----------------------------------------------------------------------------------


def test_the_tournament_list_filters_and_pages(client: TestClient) -> None:
    made = []
    for name, game in (("Spring open", "peloponnes"), ("Summer cup", "alexandros"), ("spring rapid", "peloponnes")):
        made.append(client.post("/tournaments", json={"game": game, "name": name}).json())
    unnamed = client.post("/tournaments", json={"game": "peloponnes", "settings": {"table_size": 2}}).json()
    for n in ("Ann", "Bob"):
        client.post(
            f"/tournaments/{unnamed['tournament_id']}/players",
            json={"name": n},
            headers=auth(unnamed["organiser_token"]),
        )
    client.post(f"/tournaments/{unnamed['tournament_id']}/rounds", headers=auth(unnamed["organiser_token"]))

    everything = client.get("/tournaments").json()
    ids = [t["tournament_id"] for t in everything["tournaments"]]
    assert set(ids) == {*(m["tournament_id"] for m in made), unnamed["tournament_id"]}
    assert everything["next_cursor"] is None
    running = client.get("/tournaments", params={"status": "running"}).json()["tournaments"]
    assert [t["tournament_id"] for t in running] == [unnamed["tournament_id"]]
    assert running[0]["players"] == 2 and running[0]["rounds_seated"] == 1 and running[0]["name"] is None
    spring = client.get("/tournaments", params={"name": "SPRING"}).json()["tournaments"]
    assert {t["name"] for t in spring} == {"Spring open", "spring rapid"}
    alexandros = client.get("/tournaments", params={"game": "alexandros"}).json()["tournaments"]
    assert [t["name"] for t in alexandros] == ["Summer cup"]
    both = client.get("/tournaments", params={"game": "peloponnes", "status": "registering", "name": "open"}).json()
    assert [t["name"] for t in both["tournaments"]] == ["Spring open"]

    # Pages of one: every tournament once, in the order of the whole list, whatever is created meanwhile.
    seen, cursor = [], None
    while True:
        params: dict[str, Any] = {"limit": 1, **({"cursor": cursor} if cursor else {})}
        response = client.get("/tournaments", params=params)
        page = response.json()
        seen += [t["tournament_id"] for t in page["tournaments"]]
        cursor = page["next_cursor"]
        if cursor is None:
            break
        assert response.headers["X-Next-Cursor"] == cursor and 'rel="next"' in response.headers["Link"]
        if len(seen) == 1:
            client.post("/tournaments", json={"game": "peloponnes", "name": "late"})  # newer: on page 1, not later
    assert seen == ids


@pytest.mark.parametrize(
    "params",
    [
        {"status": "waiting"},
        {"game": "chess"},
        {"limit": 0},
        {"limit": 100_000},
        {"cursor": "yesterday"},
        {"name": ""},
        {"name": "x" * 101},
    ],
)
def test_bad_list_filters_are_refused(client: TestClient, params: dict[str, Any]) -> None:
    response = client.get("/tournaments", params=params)
    assert response.status_code == 400 and response.json()["error"]["code"] == "BAD_INPUT"
    assert response.json()["error"]["message"]


def test_the_list_is_one_read_model_for_every_reader(games: GameService, tournaments: TournamentService) -> None:
    """Two readers over one store (two API processes): each record is applied once, and both see
    what either caught up."""
    store = MemoryStore()
    first, second = TournamentList(tournaments, store), TournamentList(tournaments, store)
    one = tournaments.create("peloponnes", {"table_size": 2}, name="one")
    assert [t["name"] for t in first.page()[0]] == ["one"]
    tournaments.register(one.tournament_id, one.organiser_token, "Ann")
    tournaments.create("alexandros", None, name="two")
    assert [(t["name"], t["players"]) for t in second.page()[0]] == [("two", 0), ("one", 1)]
    assert [(t["name"], t["players"]) for t in first.page()[0]] == [("two", 0), ("one", 1)]
    # Rebuilt from the event store: the same list.
    before = store.export("tournament-list")
    store.reset("tournament-list")
    assert first.page()[0] == second.page()[0] and store.export("tournament-list") == before


def test_the_trf_writes_roster_changes() -> None:
    """A late entry's missed round credited as a half-point bye is ``H`` (as zero: ``Z``); a
    withdrawn player's rounds are ``Z``."""
    log = TournamentLog()
    config = {"rounds": 3, "table_size": 2}  # a bye is worth 0.5 by default: half of a win's 1
    log.append(TOURNAMENT_CREATED, rules.created(GAMES.get("peloponnes"), "t-roster", config, b"m", START_MS))
    for name in ("Ann", "Bob"):
        log.append(PLAYER_REGISTERED, rules.register(log.state, name, START_MS))
    tables = [{"table": 1, "game_id": "g1", "players": [0, 1]}]
    log.append(ROUND_SEATED, {"round": 1, "tables": tables, "byes": [], "at": START_MS})
    log.append(RESULT_RECORDED, result("g1", 1, 1, [2, 1], START_MS + 1))
    log.append(LATE_ENTRY, rules.late_entry(log.state, "Lou", "bye", START_MS + 2))
    log.append(LATE_ENTRY, rules.late_entry(log.state, "Max", "zero", START_MS + 2))
    log.append(PLAYER_WITHDRAWN, rules.player_withdrawn(log.state, 0, "ill", START_MS + 3))
    tables = [{"table": 1, "game_id": "g2", "players": [2, 1]}]
    log.append(ROUND_SEATED, {"round": 2, "tables": tables, "byes": [3], "at": START_MS + DAY_MS})
    state = log.state
    rounds = {
        line[14:47].strip(): line[91:]
        for line in trf(state, rules.standings_view(state)["standings"]).splitlines()
        if line.startswith("001")
    }
    assert rounds == {
        "Ann": "   2 w 0  0000 - Z",
        "Bob": "   1 b 1     3 b",
        "Lou": "0000 - H     2 w",
        "Max": "0000 - Z  0000 - U",
    }
