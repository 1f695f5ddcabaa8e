"""Check-in before round 1: the organiser asks for it (or the ``check_in`` setting opens it with the
tournament), each player checks in with their own token, and whoever has not when the roster
closes is withdrawn in public, as the verifier replays."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.http.app import create_app
from domain.catalog import GAMES
from domain.tournament.verification import verify_bundle
from infra.games.service import GameService
from infra.tournaments.service import TournamentService
from tests.support.http import auth, error_code
from tests.tournament.bundles import reseal_log
from tests.tournament.conftest import FakeClock


@pytest.fixture
def served(file_games: GameService, clock: FakeClock) -> Iterator[TestClient]:
    """The embedded default as ``serve`` runs it (a file store: the bot seats play in a thread of
    their own), for the tournaments with bot players."""
    tournaments = TournamentService(file_games, now=clock)
    with TestClient(create_app(file_games, tournaments=tournaments)) as client:
        yield client
    tournaments.close()


def tournament(client: TestClient, names: tuple[str, ...], **settings: Any) -> tuple[str, str, list[str]]:
    answer = client.post("/tournaments", json={"game": "peloponnes", "settings": {"table_size": 2, **settings}})
    assert answer.status_code == 201
    tid, organiser = answer.json()["tournament_id"], answer.json()["organiser_token"]
    tokens = []
    for name in names:
        registered = client.post(f"/tournaments/{tid}/players", json={"name": name}, headers=auth(organiser))
        assert registered.status_code == 201
        tokens.append(registered.json()["token"])
    return tid, organiser, tokens


def version(client: TestClient, tid: str) -> int:
    return int(client.get(f"/tournaments/{tid}").json()["version"])


def play_to_end(client: TestClient, tid: str, tokens: dict[int, str], seed: int) -> None:
    """Every running table of the latest round played to its end through its players' tokens (a
    seeded choice among each one's legal moves); a bot player's seat is the server's to play."""
    pick = random.Random(seed)
    for _ in range(20_000):  # a bound on a hang, never reached by a game that ends
        moved = False
        running = False
        for token in tokens.values():
            table = client.get(f"/tournaments/{tid}/me", headers=auth(token)).json()["table"]
            if table is None or table["status"] != "running":
                continue
            running = True
            moves = client.get(f"/tournaments/{tid}/games/{table['game_id']}/legal-moves", headers=auth(token)).json()
            if not moves["moves"]:
                continue
            body = {**pick.choice(moves["moves"]), "expected_version": moves["version"]}
            sent = client.post(f"/tournaments/{tid}/games/{table['game_id']}/commands", json=body, headers=auth(token))
            assert sent.status_code in (200, 409), sent.json()  # 409: a bot moved first
            moved = True
        if not running:
            return
        if not moved:
            bot_wait(client, tid)
    raise AssertionError("the round's games did not end")


def bot_wait(client: TestClient, tid: str) -> None:
    """Give the server's bot seats a moment (they play in a background thread)."""
    time.sleep(0.01)


def test_who_has_not_checked_in_is_withdrawn_when_registration_closes(client: TestClient) -> None:
    tid, organiser, tokens = tournament(client, ("Ada", "Bo", "Cy"), rounds=1)
    opened = client.post(f"/tournaments/{tid}/check-in/open", headers=auth(organiser))
    assert opened.status_code == 201
    assert client.get(f"/tournaments/{tid}").json()["check_in"] == {"asked": True, "open": True, "checked_in": []}
    me = client.get(f"/tournaments/{tid}/me", headers=auth(tokens[2])).json()
    assert me["check_in"] == {"asked": True, "open": True, "checked_in": False}
    for token in tokens[:2]:
        checked = client.post(f"/tournaments/{tid}/check-in", headers=auth(token))
        assert checked.status_code == 201
    assert client.get(f"/tournaments/{tid}/me", headers=auth(tokens[0])).json()["check_in"]["checked_in"] is True
    closed = client.post(f"/tournaments/{tid}/close-registration", headers=auth(organiser))
    assert closed.status_code == 200
    view = client.get(f"/tournaments/{tid}").json()
    assert [p["withdrawn"] for p in view["players"]] == [False, False, True]
    assert [p["checked_in"] for p in view["players"]] == [True, True, False]
    assert view["check_in"] == {"asked": True, "open": False, "checked_in": [0, 1]}
    assert client.get(f"/tournaments/{tid}/me", headers=auth(tokens[2])).json()["withdrawn"] is True
    records = client.get(f"/tournaments/{tid}/bundle").json()["tournament"]
    types = [r["type"] for r in records]
    assert types[-3:] == ["CheckedIn", "PlayerWithdrawn", "RegistrationClosed"]
    assert records[-2]["data"] | {"at": 0} == {"player": 2, "reason": "did not check in", "from_round": 1, "at": 0}
    # Round 1 seats the two who checked in; the whole event verifies from its bundle.
    seated = client.post(f"/tournaments/{tid}/rounds", headers=auth(organiser)).json()
    assert sorted(seated["tables"][0]["players"]) == [0, 1] and seated["byes"] == []
    play_to_end(client, tid, dict(enumerate(tokens[:2])), seed=1)
    assert client.post(f"/tournaments/{tid}/end", headers=auth(organiser)).status_code == 200
    report = verify_bundle(client.get(f"/tournaments/{tid}/bundle").json(), GAMES.get)
    assert report.ok, report.problems


def test_round_one_seated_with_registration_open_leaves_out_who_has_not_checked_in(client: TestClient) -> None:
    tid, organiser, tokens = tournament(client, ("Ada", "Bo", "Cy"), rounds=1)
    client.post(f"/tournaments/{tid}/check-in/open", headers=auth(organiser))
    for token in (tokens[0], tokens[2]):
        client.post(f"/tournaments/{tid}/check-in", headers=auth(token))
    seated = client.post(f"/tournaments/{tid}/rounds", headers=auth(organiser))
    assert seated.status_code == 201
    assert sorted(seated.json()["tables"][0]["players"]) == [0, 2]
    types = [r["type"] for r in client.get(f"/tournaments/{tid}/bundle").json()["tournament"]]
    assert types[-2:] == ["PlayerWithdrawn", "RoundSeated"]
    assert client.get(f"/tournaments/{tid}/me", headers=auth(tokens[1])).json()["withdrawn"] is True


def test_check_in_refusals_record_nothing(client: TestClient) -> None:
    tid, organiser, tokens = tournament(client, ("Ada", "Bo", "Cy"), rounds=1)

    def refused(path: str, token: str, status: int, code: str) -> None:
        before = version(client, tid)
        answer = client.post(f"/tournaments/{tid}/{path}", headers=auth(token))
        assert answer.status_code == status and error_code(answer) == code, answer.json()
        assert answer.json()["error"]["message"]
        assert version(client, tid) == before

    refused("check-in", tokens[0], 409, "CHECK_IN_NOT_OPEN")
    refused("check-in/open", tokens[0], 403, "FORBIDDEN")
    assert client.post(f"/tournaments/{tid}/check-in/open").status_code == 401
    client.post(f"/tournaments/{tid}/check-in/open", headers=auth(organiser))
    refused("check-in/open", organiser, 409, "CHECK_IN_OPEN")
    refused("check-in", organiser, 401, "BAD_TOKEN")
    client.post(f"/tournaments/{tid}/check-in", headers=auth(tokens[0]))
    refused("check-in", tokens[0], 409, "ALREADY_CHECKED_IN")
    withdrawn = client.post(
        f"/tournaments/{tid}/withdrawals", json={"player": 1, "reason": "ill"}, headers=auth(organiser)
    )
    assert withdrawn.status_code == 201
    refused("check-in", tokens[1], 409, "WITHDRAWN_PLAYER")
    # "did not check in" is the rule's reason: never the organiser's for a player who has checked in.
    before = version(client, tid)
    false = client.post(
        f"/tournaments/{tid}/withdrawals", json={"player": 0, "reason": "did not check in"}, headers=auth(organiser)
    )
    assert false.status_code == 400 and error_code(false) == "BAD_ROSTER_CHANGE"
    assert version(client, tid) == before
    client.post(f"/tournaments/{tid}/close-registration", headers=auth(organiser))
    refused("check-in", tokens[2], 409, "CHECK_IN_CLOSED")
    refused("check-in/open", organiser, 422, "REGISTRATION_CLOSED")


def test_the_verifier_refuses_a_roster_closed_over_a_missing_check_in(client: TestClient) -> None:
    tid, organiser, tokens = tournament(client, ("Ada", "Bo", "Cy"), rounds=1)
    client.post(f"/tournaments/{tid}/check-in/open", headers=auth(organiser))
    for token in tokens[:2]:
        client.post(f"/tournaments/{tid}/check-in", headers=auth(token))
    client.post(f"/tournaments/{tid}/close-registration", headers=auth(organiser))
    client.post(f"/tournaments/{tid}/rounds", headers=auth(organiser))
    play_to_end(client, tid, dict(enumerate(tokens[:2])), seed=2)
    client.post(f"/tournaments/{tid}/end", headers=auth(organiser))
    bundle = client.get(f"/tournaments/{tid}/bundle").json()
    assert verify_bundle(bundle, GAMES.get).ok
    # A forger drops the withdrawal of the player who did not check in and seals the chain again.
    records = bundle["tournament"]
    index = next(i for i, r in enumerate(records) if r["type"] == "PlayerWithdrawn")
    del records[index]
    for i in range(index, len(records)):
        records[i] = {**records[i], "position": i + 1}
    reseal_log(bundle, index)
    report = verify_bundle(bundle, GAMES.get)
    assert not report.ok
    assert any("have not checked in" in p for p in report.problems), report.problems


def test_the_check_in_setting_opens_check_in_with_the_tournament(client: TestClient) -> None:
    """``check_in: true`` at creation: check-in is open from the start (no CheckInOpened), shown
    in the settings, and whoever has not checked in when registration closes is withdrawn."""
    tid, organiser, tokens = tournament(client, ("Ada", "Bo", "Cy"), rounds=1, check_in=True)
    view = client.get(f"/tournaments/{tid}").json()
    assert view["settings"]["check_in"] is True
    assert view["check_in"] == {"asked": True, "open": True, "checked_in": []}
    assert client.get(f"/tournaments/{tid}/me", headers=auth(tokens[1])).json()["check_in"]["open"] is True
    before = version(client, tid)
    again = client.post(f"/tournaments/{tid}/check-in/open", headers=auth(organiser))
    assert again.status_code == 409 and error_code(again) == "CHECK_IN_OPEN"
    assert version(client, tid) == before
    for token in (tokens[0], tokens[2]):
        assert client.post(f"/tournaments/{tid}/check-in", headers=auth(token)).status_code == 201
    assert client.post(f"/tournaments/{tid}/close-registration", headers=auth(organiser)).status_code == 200
    view = client.get(f"/tournaments/{tid}").json()
    assert [p["withdrawn"] for p in view["players"]] == [False, True, False]
    assert view["check_in"] == {"asked": True, "open": False, "checked_in": [0, 2]}
    types = [r["type"] for r in client.get(f"/tournaments/{tid}/bundle").json()["tournament"]]
    assert "CheckInOpened" not in types and types[-2:] == ["PlayerWithdrawn", "RegistrationClosed"]
    seated = client.post(f"/tournaments/{tid}/rounds", headers=auth(organiser)).json()
    assert sorted(seated["tables"][0]["players"]) == [0, 2]
    play_to_end(client, tid, {0: tokens[0], 2: tokens[2]}, seed=3)
    assert client.post(f"/tournaments/{tid}/end", headers=auth(organiser)).status_code == 200
    report = verify_bundle(client.get(f"/tournaments/{tid}/bundle").json(), GAMES.get)
    assert report.ok, report.problems


def test_without_the_setting_check_in_waits_for_the_organiser_and_the_setting_is_not_recorded(
    client: TestClient,
) -> None:
    tid, _, tokens = tournament(client, ("Ada", "Bo"), rounds=1)
    view = client.get(f"/tournaments/{tid}").json()
    assert "check_in" not in view["settings"]  # recorded only when set, as before the setting
    assert view["check_in"]["asked"] is False
    refused = client.post(f"/tournaments/{tid}/check-in", headers=auth(tokens[0]))
    assert refused.status_code == 409 and error_code(refused) == "CHECK_IN_NOT_OPEN"
    bad = client.post("/tournaments", json={"game": "peloponnes", "settings": {"check_in": "yes"}})
    assert bad.status_code == 422 and error_code(bad) == "BAD_TOURNAMENT"
    assert "check_in must be true or false" in bad.json()["error"]["message"]


def test_the_verifier_replays_the_check_in_setting(client: TestClient) -> None:
    """The setting is part of the recorded config: a forger who drops it (and seals the chain
    again) leaves check-ins the rules refuse, as check-in was never opened."""
    tid, organiser, tokens = tournament(client, ("Ada", "Bo"), rounds=1, check_in=True)
    for token in tokens:
        client.post(f"/tournaments/{tid}/check-in", headers=auth(token))
    client.post(f"/tournaments/{tid}/close-registration", headers=auth(organiser))
    client.post(f"/tournaments/{tid}/rounds", headers=auth(organiser))
    play_to_end(client, tid, dict(enumerate(tokens)), seed=4)
    client.post(f"/tournaments/{tid}/end", headers=auth(organiser))
    bundle = client.get(f"/tournaments/{tid}/bundle").json()
    assert verify_bundle(bundle, GAMES.get).ok
    del bundle["tournament"][0]["data"]["config"]["check_in"]
    reseal_log(bundle, 0)
    report = verify_bundle(bundle, GAMES.get)
    assert not report.ok
    assert any("CheckedIn" in p for p in report.problems), report.problems


# -- bot players ------------------------------------------------------------------------------------


def test_bot_players_play_a_tournament_to_its_end_over_http(served: TestClient) -> None:
    client = served
    tid, organiser, tokens = tournament(client, ("Ada", "Bo"), rounds=2)
    bots: list[int] = []
    for name, bot in (("Greedy Gus", "greedy"), ("Rand Al", "random")):
        answer = client.post(f"/tournaments/{tid}/players", json={"name": name, "bot": bot}, headers=auth(organiser))
        assert answer.status_code == 201
        assert answer.json() == {"player": len(tokens) + len(bots), "name": name, "token": None, "bot": bot}
        bots.append(answer.json()["player"])
    # Check-in asked: a bot player needs none (the server is there to play it).
    client.post(f"/tournaments/{tid}/check-in/open", headers=auth(organiser))
    for token in tokens:
        client.post(f"/tournaments/{tid}/check-in", headers=auth(token))
    # Round 1 by hand: the two bots at one table (every seat the server's), the people at the other.
    manual = {"tables": [bots, [0, 1]], "reason": "the bots meet first"}
    first = client.post(f"/tournaments/{tid}/rounds", json=manual, headers=auth(organiser))
    assert first.status_code == 201, first.json()
    play_to_end(client, tid, dict(enumerate(tokens)), seed=3)
    wait_for_round(client, tid, 1)
    second = client.post(f"/tournaments/{tid}/rounds", headers=auth(organiser))
    assert second.status_code == 201, second.json()
    # The repeat-free round 2 seats each person against a bot.
    assert all(sorted(t["players"]) != sorted(bots) for t in second.json()["tables"])
    against_bot = second.json()["tables"][0]
    game = client.get(f"/games/{against_bot['game_id']}").json()
    names = client.get(f"/tournaments/{tid}").json()["players"]
    assert game["names"] == {str(s): names[p]["name"] for s, p in enumerate(against_bot["players"])}
    play_to_end(client, tid, dict(enumerate(tokens)), seed=4)
    wait_for_round(client, tid, 2)
    assert client.post(f"/tournaments/{tid}/end", headers=auth(organiser)).status_code == 200
    view = client.get(f"/tournaments/{tid}").json()
    assert [p["bot"] for p in view["players"]] == [None, None, "greedy", "random"]
    standings = client.get(f"/tournaments/{tid}/standings").json()["standings"]
    assert sorted(row["player"] for row in standings) == [0, 1, 2, 3]
    assert all(row["games"] == 2 for row in standings)  # the bots count as players
    bundle = client.get(f"/tournaments/{tid}/bundle").json()
    report = verify_bundle(bundle, GAMES.get)
    assert report.ok, report.problems
    registered = [r["data"] for r in bundle["tournament"] if r["type"] == "PlayerRegistered"]
    assert [d.get("bot") for d in registered] == [None, None, "greedy", "random"]
    # Each bot's seat is the server's bot seat of its bot, named by it in the game's record.
    bots_game = bundle["games"][first.json()["tables"][0]["game_id"]]
    taken = [r["data"]["name"] for r in bots_game if r["type"] == "SeatTaken"]
    assert taken == ["bot:greedy:0", "bot:random:1"]
    # A forger who makes a person's seat a bot's (or a bot's a person's) is caught.
    forged = client.get(f"/tournaments/{tid}/bundle").json()
    for record in forged["tournament"]:
        if record["type"] == "PlayerRegistered" and record["data"]["player"] == 3:
            del record["data"]["bot"]
    reseal_log(forged, next(i for i, r in enumerate(forged["tournament"]) if r["data"].get("player") == 3))
    assert not verify_bundle(forged, GAMES.get).ok


def wait_for_round(client: TestClient, tid: str, number: int) -> None:
    """Until every game of round ``number`` has its result (the bots' tables play in the background)."""
    for _ in range(20_000):  # a bound on a hang
        rounds = client.get(f"/tournaments/{tid}").json()["rounds"]
        if all(t["result"] is not None for t in rounds[number - 1]["tables"]):
            return
        bot_wait(client, tid)
    raise AssertionError(f"round {number} did not finish")


def test_bot_player_refusals_record_nothing(client: TestClient) -> None:
    tid, organiser, _ = tournament(client, ("Ada",), rounds=1)
    clocked, clocked_organiser, _ = tournament(
        client, (), rounds=1, time_control={"base_seconds": 60, "increment_seconds": 1}
    )
    cases = [
        (tid, {"name": "X", "bot": "perfect"}, organiser, 400, "BAD_INPUT"),
        (tid, {"name": "X", "bot": "greedy", "commitment": "0" * 64}, organiser, 400, "BAD_REGISTRATION"),
        (clocked, {"name": "X", "bot": "greedy"}, clocked_organiser, 400, "BAD_REGISTRATION"),
    ]
    for where, body, token, status, code in cases:
        before = version(client, where)
        answer = client.post(f"/tournaments/{where}/players", json=body, headers=auth(token))
        assert answer.status_code == status and error_code(answer) == code, answer.json()
        assert version(client, where) == before
    code = client.get(f"/tournaments/{tid}/registration-code", headers=auth(organiser)).json()["registration_code"]
    gus = client.post(f"/tournaments/{tid}/players", json={"name": "Gus", "bot": "greedy"}, headers=auth(organiser))
    before = version(client, tid)
    replace = {"kind": "replace", "player": gus.json()["player"], "name": "Eve", "reason": "a person instead"}
    replaced = client.post(f"/tournaments/{tid}/adjudications", json=replace, headers=auth(organiser))
    assert replaced.status_code == 422 and error_code(replaced) == "BAD_ADJUDICATION"
    assert version(client, tid) == before
    joined = client.post(f"/tournaments/{tid}/join", json={"name": "Y", "code": code, "bot": "greedy"})
    assert joined.status_code == 400 and error_code(joined) == "BAD_INPUT"  # a bot is the organiser's entry only


def test_a_server_started_later_plays_the_bot_tables_seated_before(file_games: GameService, clock: FakeClock) -> None:
    tournaments = TournamentService(file_games, now=clock)
    created = tournaments.create("peloponnes", {"table_size": 2, "rounds": 1})
    tid, organiser = created.tournament_id, created.organiser_token
    for name in ("Gus", "Rand"):
        tournaments.register_bot(tid, organiser, name, "random")
    # Seated with no server about (nobody plays the bots yet): a restart finds the table in the lobby.
    tournaments.seat_next_round(tid, organiser, manual={"tables": [[0, 1]], "reason": "bots only"})
    with TestClient(create_app(file_games, tournaments=tournaments)) as client:
        wait_for_round(client, tid, 1)
        assert client.post(f"/tournaments/{tid}/end", headers=auth(organiser)).status_code == 200
        assert verify_bundle(client.get(f"/tournaments/{tid}/bundle").json(), GAMES.get).ok
    tournaments.close()
