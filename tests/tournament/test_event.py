"""Running a real event over HTTP: players register themselves with the published code and find
their own tables; everything verified from the bundle."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from domain.catalog import GAMES
from domain.kernel.bots import RandomBot
from domain.kernel.chance import seed_commitment
from domain.kernel.errors import RuleViolation
from domain.tournament.log import RECORD_FIELDS, Table
from domain.tournament.verification import verify_bundle
from infra.tournaments.run import play_table
from infra.tournaments.service import TournamentService
from tests.support.http import auth, error_code
from tests.support.stream import sse_messages
from tests.tournament.bundles import reseal_log


def play_round(tournaments: TournamentService, tid: str, seated: dict[str, Any], tokens: list[str]) -> None:
    """Every table of a seated round played to its end by the random bot, through each player's token."""
    for entry in seated["tables"]:
        table = Table(seated["round"], entry["table"], entry["game_id"], entry["players"])
        play_table(tournaments, tid, table, tokens, RandomBot(f"{tid}:{table.round}:{table.table}".encode()))
    tournaments.follow_results()


def created(client: TestClient, **settings: Any) -> tuple[str, str, str]:
    answer = client.post("/tournaments", json={"game": "peloponnes", "settings": {"table_size": 2, **settings}})
    assert answer.status_code == 201
    body = answer.json()
    return body["tournament_id"], body["organiser_token"], body["registration_code"]


# -- self-registration ----------------------------------------------------------------------------


def test_players_register_themselves_with_the_published_code(client: TestClient) -> None:
    tid, organiser, code = created(client, rounds=1)
    joined = client.post(f"/tournaments/{tid}/join", json={"name": "Ada", "code": code})
    assert joined.status_code == 201
    ada = joined.json()
    assert ada["player"] == 0 and ada["name"] == "Ada" and ada["token"]
    by_hand = client.post(f"/tournaments/{tid}/players", json={"name": "Bo"}, headers=auth(organiser))
    assert by_hand.status_code == 201
    # Ada's token is hers: it plays her seat, and nothing the organiser reads shows it.
    view = client.get(f"/tournaments/{tid}").json()
    assert [p["registered_by"] for p in view["players"]] == ["self", "organiser"]
    assert ada["token"] not in client.get(f"/tournaments/{tid}/bundle").text
    assert ada["token"] not in str(view)
    assert client.get(f"/tournaments/{tid}/me", headers=auth(ada["token"])).json()["player"] == 0
    assert client.get(f"/tournaments/{tid}/registration-code", headers=auth(organiser)).json() == {
        "registration_code": code
    }
    assert client.get(f"/tournaments/{tid}/registration-code", headers=auth(ada["token"])).status_code == 403
    # The record says who registered whom, and the verifier accepts it.
    records = client.get(f"/tournaments/{tid}/bundle").json()["tournament"]
    assert [r["data"]["by"] for r in records if r["type"] == "PlayerRegistered"] == ["self", "organiser"]


def test_a_wrong_code_or_a_closed_registration_records_nothing(client: TestClient) -> None:
    tid, organiser, code = created(client, rounds=1)
    _, _, other_code = created(client, rounds=1)
    assert other_code != code
    for wrong in ("nope", other_code, code.upper()):
        refused = client.post(f"/tournaments/{tid}/join", json={"name": "Ada", "code": wrong})
        assert refused.status_code == 403 and error_code(refused) == "WRONG_REGISTRATION_CODE"
    assert client.post(f"/tournaments/{tid}/join", json={"name": "Ada"}).status_code == 400  # no code
    assert client.get(f"/tournaments/{tid}").json()["version"] == 1
    client.post(f"/tournaments/{tid}/join", json={"name": "Ada", "code": code})
    taken = client.post(f"/tournaments/{tid}/join", json={"name": "Ada", "code": code})
    assert taken.status_code == 409 and error_code(taken) == "NAME_TAKEN"
    client.post(f"/tournaments/{tid}/close-registration", headers=auth(organiser))
    closed = client.post(f"/tournaments/{tid}/join", json={"name": "Bo", "code": code})
    assert closed.status_code == 422 and error_code(closed) == "REGISTRATION_CLOSED"
    assert len(client.get(f"/tournaments/{tid}").json()["players"]) == 1


def test_self_registered_players_commit_and_reveal_and_the_bundle_verifies(
    client: TestClient, tournaments: TournamentService
) -> None:
    tid, organiser, code = created(client, rounds=1)
    secrets = ["ab" * 32, "cd" * 32]
    tokens = []
    for name, secret in zip(("Ada", "Bo"), secrets, strict=True):
        body = {"name": name, "code": code, "commitment": seed_commitment(bytes.fromhex(secret))}
        tokens.append(client.post(f"/tournaments/{tid}/join", json=body).json()["token"])
    assert client.post(f"/tournaments/{tid}/close-registration", headers=auth(organiser)).status_code == 200
    for token, secret in zip(tokens, secrets, strict=True):
        assert (
            client.post(f"/tournaments/{tid}/reveal", json={"secret": secret}, headers=auth(token)).status_code == 200
        )
    seated = client.post(f"/tournaments/{tid}/rounds", headers=auth(organiser))
    assert seated.status_code == 201
    play_round(tournaments, tid, seated.json(), tokens)
    assert client.post(f"/tournaments/{tid}/end", headers=auth(organiser)).status_code == 200
    report = verify_bundle(client.get(f"/tournaments/{tid}/bundle").json(), GAMES.get)
    assert report.ok, report.problems


# -- the player's page ----------------------------------------------------------------------------


def test_the_players_page_says_their_table_seat_turn_and_bye(
    client: TestClient, tournaments: TournamentService
) -> None:
    tid, organiser, code = created(client, rounds=2)
    tokens = [client.post(f"/tournaments/{tid}/join", json={"name": n, "code": code}).json()["token"] for n in "ABC"]
    before = client.get(f"/tournaments/{tid}/me", headers=auth(tokens[0])).json()
    assert before["round"] is None and before["table"] is None and before["bye"] is False
    seated = client.post(f"/tournaments/{tid}/rounds", headers=auth(organiser)).json()
    (bye,) = seated["byes"]
    table = seated["tables"][0]
    pages = {p: client.get(f"/tournaments/{tid}/me", headers=auth(tokens[p])).json() for p in range(3)}
    # The bye: no table this round, and told so (not just "tables": []).
    assert pages[bye]["bye"] is True and pages[bye]["table"] is None and pages[bye]["your_turn"] is False
    seated_players = table["players"]
    for seat, player in enumerate(seated_players):
        page = pages[player]
        assert page["bye"] is False and page["round"] == 1
        assert page["table"]["game_id"] == table["game_id"] and page["table"]["seat"] == seat
        assert page["table"]["status"] == "running"
        assert [p["name"] for p in page["table"]["players"]] == ["ABC"[p] for p in seated_players]
    with tournaments.games.reading(table["game_id"]) as game:
        awaited = set(game.match.game.awaited(game.match.state))
    assert {pages[p]["your_turn"] for p in seated_players} == {True, False}  # one of two seats is awaited
    assert {s for s, p in enumerate(seated_players) if pages[p]["your_turn"]} == awaited
    play_round(tournaments, tid, seated, tokens)
    done = client.get(f"/tournaments/{tid}/me", headers=auth(tokens[seated_players[0]])).json()
    assert done["table"]["status"] == "ended" and done["your_turn"] is False
    assert client.get(f"/tournaments/{tid}/me").status_code == 401


# -- told, not polled -----------------------------------------------------------------------------


class TournamentStream:
    """A tournament's stream read in a thread, as an EventSource would, until it ends."""

    def __init__(self, client: TestClient, path: str, headers: dict[str, str] | None = None) -> None:
        self.messages: list[tuple[str, Any]] = []
        self.comments: list[str] = []
        self.status: int | None = None
        self.arrived = threading.Condition()

        def lines(response: Any) -> Iterator[str]:
            for line in response.iter_lines():
                if line.startswith(":"):
                    self.comments.append(line)
                yield line

        def read() -> None:
            with client.stream("GET", path, headers=headers or {}) as response:
                self.status = response.status_code
                for message in sse_messages(lines(response)):
                    with self.arrived:
                        self.messages.append(message)
                        self.arrived.notify_all()

        self.thread = threading.Thread(target=read, daemon=True)
        self.thread.start()

    def types(self) -> list[str]:
        return [data["type"] if event == "record" else event for event, data in self.messages]

    def wait_for(self, kind: str, seconds: float = 30) -> None:
        """Until a record of ``kind`` has come (generous: it bounds a hang, not a speed)."""
        with self.arrived:
            assert self.arrived.wait_for(lambda: kind in self.types(), timeout=seconds), self.types()

    def ended(self, seconds: float = 30) -> list[str]:
        self.thread.join(timeout=seconds)
        assert not self.thread.is_alive(), "the stream should have ended"
        return self.types()


def test_the_stream_tells_each_record_as_it_is_recorded_and_ends_on_shutdown(
    client: TestClient, tournaments: TournamentService
) -> None:
    tid, organiser, code = created(client, rounds=1)
    stream = TournamentStream(client, f"/tournaments/{tid}/stream")
    stream.wait_for("TournamentCreated")
    for name in "AB":
        assert client.post(f"/tournaments/{tid}/join", json={"name": name, "code": code}).status_code == 201
    stream.wait_for("PlayerRegistered")
    seated = client.post(f"/tournaments/{tid}/rounds", headers=auth(organiser)).json()
    stream.wait_for("RoundSeated")
    # A result reaches the stream without anybody asking the tournament for anything: the game is
    # played at its seats directly, so only the stream follows the game's end into the tournament.
    (entry,) = seated["tables"]
    seat_tokens = tournaments.load(tid).seat_tokens[entry["game_id"]]
    bot = RandomBot(b"stream")
    while True:
        with tournaments.games.reading(entry["game_id"]) as game:
            if game.match.is_over:
                break
            seat, command = bot.next_move(game.match.game, game.match.state)
            version = game.match.version
        tournaments.games.execute(
            entry["game_id"], seat_tokens[seat], {"type": command.type, **command.to_dict()}, version
        )
    stream.wait_for("ResultRecorded")
    client.app.state.shutdown.request()  # type: ignore[attr-defined]
    assert stream.ended() == [
        "TournamentCreated",
        "PlayerRegistered",
        "PlayerRegistered",
        "RoundSeated",
        "ResultRecorded",
    ]
    assert stream.status == 200
    assert [data["position"] for _, data in stream.messages] == [1, 2, 3, 4, 5]
    assert any("resume with Last-Event-ID: 5" in c for c in stream.comments)


def test_the_stream_resumes_after_the_last_event_id_and_ends_after_the_end(
    client: TestClient, tournaments: TournamentService
) -> None:
    tid, organiser, code = created(client, rounds=1)
    tokens = [client.post(f"/tournaments/{tid}/join", json={"name": n, "code": code}).json()["token"] for n in "AB"]
    play_round(tournaments, tid, client.post(f"/tournaments/{tid}/rounds", headers=auth(organiser)).json(), tokens)
    client.post(f"/tournaments/{tid}/end", headers=auth(organiser))
    whole = TournamentStream(client, f"/tournaments/{tid}/stream").ended()
    assert whole == [
        "TournamentCreated",
        "PlayerRegistered",
        "PlayerRegistered",
        "RoundSeated",
        "ResultRecorded",
        "TournamentEnded",
        "end",
    ]
    resumed = TournamentStream(client, f"/tournaments/{tid}/stream", {"Last-Event-ID": "4"}).ended()
    assert resumed == ["ResultRecorded", "TournamentEnded", "end"]
    assert TournamentStream(client, f"/tournaments/{tid}/stream?after=6").ended() == ["end"]
    beyond = client.get(f"/tournaments/{tid}/stream?after=7")
    assert beyond.status_code == 409 and error_code(beyond) == "VERSION_NOT_REACHED"
    assert client.get("/tournaments/00000000-0000-0000-0000-000000000000/stream").status_code == 404


# -- a body that is not understood ----------------------------------------------------------------


def test_seating_a_round_refuses_a_body_it_does_not_understand(client: TestClient) -> None:
    tid, organiser, code = created(client, rounds=2)
    for name in "AB":
        client.post(f"/tournaments/{tid}/join", json={"name": name, "code": code})
    version = client.get(f"/tournaments/{tid}").json()["version"]
    refused = client.post(f"/tournaments/{tid}/rounds", json={"round": 1}, headers=auth(organiser))
    assert refused.status_code == 400 and error_code(refused) == "BAD_INPUT", refused.json()
    # A reason without tables is understood but is no seating.
    refused = client.post(f"/tournaments/{tid}/rounds", json={"reason": "no tables"}, headers=auth(organiser))
    assert refused.status_code == 422 and error_code(refused) == "BAD_SEATING", refused.json()
    # A seating is understood now (a manual seating), and refused without its reason.
    refused = client.post(f"/tournaments/{tid}/rounds", json={"tables": [[1, 0]]}, headers=auth(organiser))
    assert refused.status_code == 422 and error_code(refused) == "BAD_SEATING", refused.json()
    for raw in ("[[1, 0]]", "seat them", '"x"'):
        refused = client.post(
            f"/tournaments/{tid}/rounds",
            content=raw,
            headers={**auth(organiser), "Content-Type": "application/json"},
        )
        assert refused.status_code == 400, (raw, refused.json())
    assert client.get(f"/tournaments/{tid}").json()["version"] == version  # nothing was recorded
    assert client.post(f"/tournaments/{tid}/rounds", json={}, headers=auth(organiser)).status_code == 201
    unfinished = client.post(f"/tournaments/{tid}/rounds", headers=auth(organiser))  # no body: the rules decide
    assert error_code(unfinished) == "ROUND_NOT_FINISHED"


# -- roster changes between rounds ----------------------------------------------------------------


def test_a_withdrawal_and_a_late_entry_are_seated_as_recorded_and_verify(
    client: TestClient, tournaments: TournamentService
) -> None:
    tid, organiser, code = created(client, rounds=3, bye_points=0.5)
    tokens = [client.post(f"/tournaments/{tid}/join", json={"name": n, "code": code}).json()["token"] for n in "ABCD"]
    early = client.post(f"/tournaments/{tid}/late-entries", json={"name": "Lou"}, headers=auth(organiser))
    assert early.status_code == 409 and error_code(early) == "NO_ROUND_SEATED"
    play_round(tournaments, tid, client.post(f"/tournaments/{tid}/rounds", headers=auth(organiser)).json(), tokens)

    withdrawn = client.post(
        f"/tournaments/{tid}/withdrawals", json={"player": 3, "reason": "had to leave"}, headers=auth(organiser)
    )
    assert withdrawn.status_code == 201 and withdrawn.json()["from_round"] == 2
    again = client.post(f"/tournaments/{tid}/withdrawals", json={"player": 3, "reason": "x"}, headers=auth(organiser))
    assert again.status_code == 409 and error_code(again) == "ALREADY_WITHDRAWN"
    nobody = client.post(f"/tournaments/{tid}/withdrawals", json={"player": 9, "reason": "x"}, headers=auth(organiser))
    assert nobody.status_code == 400 and error_code(nobody) == "BAD_ROSTER_CHANGE"
    assert client.post(f"/tournaments/{tid}/withdrawals", json={"player": 0, "reason": "x"}).status_code == 401
    odd = client.post(
        f"/tournaments/{tid}/late-entries", json={"name": "Lou", "missed_rounds": "half"}, headers=auth(organiser)
    )
    assert odd.status_code == 400
    late = client.post(
        f"/tournaments/{tid}/late-entries", json={"name": "Lou", "missed_rounds": "bye"}, headers=auth(organiser)
    )
    assert late.status_code == 201
    lou = late.json()
    assert lou["player"] == 4 and lou["from_round"] == 2 and lou["missed_rounds"] == "bye"
    tokens.append(lou["token"])
    # Lou's missed round counts as a bye in the standings, before Lou has played.
    rows = {r["player"]: r for r in client.get(f"/tournaments/{tid}/standings").json()["standings"]}
    assert rows[4]["points"] == 0.5 and rows[4]["games"] == 0

    seated = client.post(f"/tournaments/{tid}/rounds", headers=auth(organiser)).json()
    in_round = [p for t in seated["tables"] for p in t["players"]] + seated["byes"]
    assert sorted(in_round) == [0, 1, 2, 4]  # the withdrawn player is seated nowhere, the late entry is
    assert client.get(f"/tournaments/{tid}/me", headers=auth(lou["token"])).json()["table"]["round"] == 2
    withdrawn_page = client.get(f"/tournaments/{tid}/me", headers=auth(tokens[3])).json()
    assert withdrawn_page["withdrawn"] is True and withdrawn_page["table"] is None
    play_round(tournaments, tid, seated, tokens)
    play_round(tournaments, tid, client.post(f"/tournaments/{tid}/rounds", headers=auth(organiser)).json(), tokens)
    done = client.post(f"/tournaments/{tid}/late-entries", json={"name": "Max"}, headers=auth(organiser))
    assert done.status_code == 422 and error_code(done) == "NO_ROUNDS_LEFT"
    assert client.post(f"/tournaments/{tid}/end", headers=auth(organiser)).status_code == 200
    bundle = client.get(f"/tournaments/{tid}/bundle").json()
    report = verify_bundle(bundle, GAMES.get)
    assert report.ok, report.problems
    kinds = [r["type"] for r in bundle["tournament"]]
    assert "PlayerWithdrawn" in kinds and "LateEntry" in kinds

    # Without the withdrawal the rules seat round 2 otherwise: the verifier names that round.
    log = bundle["tournament"]
    index = kinds.index("PlayerWithdrawn")
    del log[index]
    for position, record in enumerate(log, start=1):
        record["position"] = position
    reseal_log(bundle, index)
    report = verify_bundle(bundle, GAMES.get)
    round_2 = next(r["position"] for r in log if r["type"] == "RoundSeated" and r["data"]["round"] == 2)
    assert not report.ok and any(f.position == round_2 and "round 2" in f.message for f in report.findings), (
        report.problems
    )


def test_the_verifier_refuses_roster_changes_the_rules_refuse() -> None:
    from domain.tournament import rules
    from domain.tournament.log import LATE_ENTRY, PLAYER_WITHDRAWN, TOURNAMENT_CREATED, TournamentLog

    log = TournamentLog()
    log.append(TOURNAMENT_CREATED, rules.created(GAMES.get("peloponnes"), "t", {"table_size": 2}, b"m", 0))
    for name in "AB":
        log.append("PlayerRegistered", rules.register(log.state, name, 0))
    with pytest.raises(RuleViolation) as early:
        rules.late_entry(log.state, "Lou", None, 1)
    assert early.value.code == "NO_ROUND_SEATED"
    log.append(PLAYER_WITHDRAWN, rules.player_withdrawn(log.state, 1, "ill", 1))
    assert log.state.active_players() == [0]
    with pytest.raises(RuleViolation) as twice:
        rules.player_withdrawn(log.state, 1, "ill", 2)
    assert twice.value.code == "ALREADY_WITHDRAWN"
    with pytest.raises(ValueError):  # a replayed log holds only what the rules allow
        log.append(PLAYER_WITHDRAWN, {"player": 1, "reason": "ill", "from_round": 1, "at": 2})
    assert LATE_ENTRY in RECORD_FIELDS and PLAYER_WITHDRAWN in RECORD_FIELDS
    # Once registration is closed the reveals are made against the roster: it stands until round 1.
    log.append("RegistrationClosed", rules.registration_closed(log.state, 3))
    with pytest.raises(RuleViolation) as frozen:
        rules.player_withdrawn(log.state, 0, "ill", 4)
    assert frozen.value.code == "ROSTER_FROZEN"


def test_a_late_entrys_missed_rounds_count_as_its_rule_says() -> None:
    from domain.tournament import rules
    from domain.tournament.log import LATE_ENTRY, ROUND_SEATED, TOURNAMENT_CREATED, TournamentLog

    log = TournamentLog()
    config = {"table_size": 2, "rounds": 3, "bye_points": 0.5}
    log.append(TOURNAMENT_CREATED, rules.created(GAMES.get("peloponnes"), "t", config, b"m", 0))
    for name in "AB":
        log.append("PlayerRegistered", rules.register(log.state, name, 0))
    seating = rules.plan_round(log.state, b"m")
    log.append(ROUND_SEATED, rules.round_seated(log.state, seating, ["g1"], 1))
    log.append(LATE_ENTRY, rules.late_entry(log.state, "Bye", "bye", 2))
    log.append(LATE_ENTRY, rules.late_entry(log.state, "Zero", None, 2))  # zero is the default
    points = {row["name"]: row["points"] for row in rules.current_standings(log.state)}
    assert points["Bye"] == 0.5 and points["Zero"] == 0
    assert log.state.late_entries[3]["missed_rounds"] == "zero"
    assert sorted(log.state.active_players()) == [0, 1, 2, 3]


def test_the_verifier_refuses_a_registration_by_anyone_but_the_organiser_or_the_player(
    client: TestClient, tournaments: TournamentService
) -> None:
    tid, organiser, code = created(client, rounds=1)
    tokens = [client.post(f"/tournaments/{tid}/join", json={"name": n, "code": code}).json()["token"] for n in "AB"]
    play_round(tournaments, tid, client.post(f"/tournaments/{tid}/rounds", headers=auth(organiser)).json(), tokens)
    client.post(f"/tournaments/{tid}/end", headers=auth(organiser))
    bundle = client.get(f"/tournaments/{tid}/bundle").json()
    assert verify_bundle(bundle, GAMES.get).ok
    bundle["tournament"][1]["data"]["by"] = "a robot"
    reseal_log(bundle, 1)
    report = verify_bundle(bundle, GAMES.get)
    assert not report.ok
    assert any(f.position == 2 and "registered by" in f.message for f in report.findings), report.problems
