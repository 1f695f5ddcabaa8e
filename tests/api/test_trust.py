"""Issue 10: each hole an outside review found, tried as a cheating player or a forging organiser
would, through the public surfaces (HTTP API, exported records, ``alexandria verify``)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from fastapi.testclient import TestClient

from api.cli.main import main
from domain.catalog import GAMES
from domain.kernel.bots import RandomBot
from domain.kernel.chance import Chance
from domain.kernel.log import Record
from domain.kernel.match import Match
from infra.games.service import CreatedGame, GameService
from infra.games.simulation import play_with_bot
from tests.support.forgery import as_export, reseal
from tests.support.http import auth, create_game, play_to_end

CONTRIBUTION = "ab" * 32


def export_of(client: TestClient, game_id: str) -> list[dict[str, Any]]:
    response = client.get(f"/games/{game_id}/export")
    assert response.status_code == 200
    return [json.loads(line) for line in response.text.splitlines()]


def ended_game(client: TestClient, players: int = 2, seed: str = "s") -> tuple[dict, list[dict[str, Any]]]:
    created = create_game(client, "sealed_guess", players, seed)
    play_to_end(client, created)
    return created, export_of(client, created["game_id"])


def verify_file(tmp_path: Path, records: list[dict[str, Any]] | str | bytes, *options: str) -> tuple[Result, dict]:
    file = tmp_path / "record.jsonl"
    if isinstance(records, bytes):
        file.write_bytes(records)
    else:
        file.write_text(records if isinstance(records, str) else as_export(records))
    result = CliRunner().invoke(main, ["verify", str(file), "--json", *options])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    (report,) = json.loads(result.stdout)["files"]
    return result, report


def first_of(records: list[dict[str, Any]], type_: str, after: int = 0) -> dict[str, Any]:
    return next(r for r in records if r["type"] == type_ and r["position"] > after)


# -- a forged fork claim switched verification off ----------------------------------------------------


def test_a_forged_fork_claim_does_not_switch_re_execution_off(client: TestClient, tmp_path: Path) -> None:
    _, records = ended_game(client)
    # The forger alters seat 0's first guess (and its outcome) and claims the start was copied.
    command = first_of(records, "CommandAccepted")
    committed = records[command["position"]]
    command["data"]["command"]["guess"] = committed["data"]["guess"] = committed["data"]["guess"] % 6 + 1
    records[0]["data"]["forked_from"] = {"version": 6}
    result, report = verify_file(tmp_path, reseal(records))
    assert result.exit_code == 1 and not report["verified"]
    assert report["first_bad_position"] == 1 and "forked_from" in report["problems"][0]
    # A complete claim (the original's GameCreated and revealed seed) is re-executed, not believed.
    original = ended_game(client, seed="o")[1]
    records[0]["data"]["forked_from"] = {
        "game_id": "x",
        "version": 6,
        "fingerprint": original[5]["hash"],
        "created": original[0]["data"],
        "seed": original[-1]["data"]["seed"],
    }
    result, report = verify_file(tmp_path, reseal(records))
    assert result.exit_code == 1 and not report["verified"]
    assert report["first_bad_position"] is not None and report["first_bad_position"] <= 6


def test_a_real_fork_verifies_offline_and_names_its_original(client: TestClient, tmp_path: Path) -> None:
    created, original = ended_game(client)
    fork = client.post(f"/games/{created['game_id']}/fork", json={"version": 6}).json()
    running = export_of(client, fork["game_id"])
    result, report = verify_file(tmp_path, running)
    assert result.exit_code == 3 and report["complete"] is False and report["problems"] == [], report
    assert report["forked_from"] == {"game_id": created["game_id"], "version": 6, "fingerprint": original[5]["hash"]}
    assert "incomplete" in report["statement"]
    # A forged copy in the running fork's history is found now, with the original's revealed seed.
    forged = json.loads(json.dumps(running))
    die = first_of(forged, "DieRolled")
    die["data"]["value"] = die["data"]["value"] % 6 + 1
    result, report = verify_file(tmp_path, reseal(forged, original[-1]["data"]["seed"]))
    assert result.exit_code == 1 and report["first_bad_position"] == die["position"]
    play_to_end(client, fork)
    result, report = verify_file(tmp_path, export_of(client, fork["game_id"]))
    assert result.exit_code == 0 and report["verified"], report
    assert report["forked_from"]["fingerprint"] == original[5]["hash"]


def test_a_fork_starts_where_the_game_waited_for_a_command(client: TestClient) -> None:
    created, _ = ended_game(client)
    inside = client.post(f"/games/{created['game_id']}/fork", json={"version": 5})
    assert inside.status_code == 400 and inside.json()["error"]["code"] == "BAD_INPUT"
    assert "waited for a command" in inside.json()["error"]["message"]


# -- the verifier crashed on some forged records --------------------------------------------------------


@pytest.mark.parametrize(
    "content",
    [
        "",
        "[]\n",
        "5\n",
        '{"position": 1}\n',
        "{not json\n",
        "[" * 100_000 + "\n",
        b"\xff\xfe\n",
    ],
    ids=["empty", "a list", "a number", "a stub", "not json", "deep nesting", "not utf-8"],
)
def test_any_file_gives_a_report_and_a_non_zero_exit(tmp_path: Path, content: str | bytes) -> None:
    result, report = verify_file(tmp_path, content)
    assert result.exit_code == 1 and report["verified"] is False
    assert report["first_bad_position"] == 1 and report["problems"]


def test_a_forged_event_that_the_rules_cannot_apply_gives_a_report(client: TestClient, tmp_path: Path) -> None:
    _, records = ended_game(client)
    die = first_of(records, "DieRolled")
    die["data"]["weight"] = 7  # a field the event does not have: evolve would raise
    records[0]["data"]["forked_from"] = {"version": die["position"]}
    result, report = verify_file(tmp_path, reseal(records))
    assert result.exit_code == 1 and report["problems"] and report["first_bad_position"] == 1
    del records[0]["data"]["forked_from"]
    result, report = verify_file(tmp_path, reseal(records))
    assert result.exit_code == 1 and report["first_bad_position"] == die["position"]


# -- first_bad_position was null for every re-execution failure ----------------------------------------


def test_a_re_execution_failure_names_the_position_and_what_was_expected(client: TestClient, tmp_path: Path) -> None:
    _, records = ended_game(client)
    die = first_of(records, "DieRolled")
    true_value = die["data"]["value"]
    die["data"]["value"] = true_value % 6 + 1
    result, report = verify_file(tmp_path, reseal(records))
    assert result.exit_code == 1 and report["chain_ok"] and report["seed_ok"] is False
    assert report["first_bad_position"] == die["position"]
    assert f'"value":{true_value}' in report["expected"]
    assert "re-execution" in report["problems"][0]


# -- truncation passed silently; published values; unknown keys --------------------------------------


def test_a_truncated_record_is_incomplete_and_fails_the_published_fingerprint(
    client: TestClient, tmp_path: Path
) -> None:
    _, records = ended_game(client)
    published = records[-1]["hash"]
    commitment = records[0]["data"]["seed_commitment"]
    result, report = verify_file(tmp_path, records, "--fingerprint", published, "--commitment", commitment)
    assert result.exit_code == 0 and report["verified"] and report["complete"]
    truncated = records[:-3]
    result, report = verify_file(tmp_path, truncated)
    assert result.exit_code == 3 and not report["verified"] and not report["complete"]
    assert report["statement"].startswith("incomplete")
    result, report = verify_file(tmp_path, truncated, "--fingerprint", published)
    assert result.exit_code == 1 and report["first_bad_position"] == len(truncated)
    result, report = verify_file(tmp_path, records, "--commitment", "0" * 64)
    assert result.exit_code == 1 and report["first_bad_position"] == 1


def test_unknown_keys_in_a_record_are_a_problem(client: TestClient, tmp_path: Path) -> None:
    _, records = ended_game(client)
    records[4]["note"] = "harmless?"
    result, report = verify_file(tmp_path, records)
    assert result.exit_code == 1 and report["first_bad_position"] == 5 and "note" in report["problems"][0]


# -- a guessable explicit seed could be recovered from its commitment -----------------------------------


def test_a_guessable_seed_cannot_be_recovered_or_used_to_predict(client: TestClient) -> None:
    created = create_game(client, "catan_alexander", 4, "cup2026-1", {"board": "base", "layout": "random"})
    log = client.get(f"/games/{created['game_id']}/events").json()
    commitment = log[0]["data"]["seed_commitment"]
    guesses = [f"cup2026-{n}".encode() for n in range(1000)]
    assert all(hashlib.sha256(guess).hexdigest() != commitment for guess in guesses)
    # The board a seat sees cannot be predicted from the guessed seed either.
    board = next(r for r in log if r["type"] == "GameSetUp")["data"]["terrains"]
    predicted = [
        r
        for r in Match.create(GAMES.get("catan_alexander"), 4, {"board": "base", "layout": "random"}, b"cup2026-1")[1]
        if r.type == "GameSetUp"
    ]
    assert predicted[0].data["terrains"] != board


def test_the_creators_seed_is_readable_in_the_revealed_seed(client: TestClient) -> None:
    from domain.kernel.chance import creator_seed_of

    _, records = ended_game(client, seed="cup2026-1")
    assert creator_seed_of(records[-1]["data"]["seed"]) == b"cup2026-1"


# -- command ids were an oracle across seats -------------------------------------------------------------


def test_a_seat_learns_nothing_about_another_seats_command_ids(client: TestClient) -> None:
    created = create_game(client, "sealed_guess", 2, "ids")
    game, (zero, one) = created["game_id"], [s["token"] for s in created["seats"]]
    sent = {"type": "commit_guess", "guess": 3, "command_id": "c-0"}
    first = client.post(f"/games/{game}/commands", json=sent, headers=auth(zero)).json()
    answers = []
    for command_id in ("c-0", "never-used"):
        refused = client.post(
            f"/games/{game}/commands", json={**sent, "guess": 9, "command_id": command_id}, headers=auth(one)
        )
        answers.append((refused.status_code, refused.json()))
    assert answers[0] == answers[1] and answers[0][0] == 422
    taken = client.post(f"/games/{game}/commands", json={**sent, "guess": 4}, headers=auth(one))
    assert taken.status_code == 200 and not taken.json()["duplicate"]
    again = client.post(f"/games/{game}/commands", json=sent, headers=auth(zero)).json()
    assert again["duplicate"] and again["events"] == first["events"]


# -- a fork inherited the original's pre-ordered hidden stacks -------------------------------------------


def state_at(records: list[dict[str, Any]], version: int) -> Any:
    created = records[0]["data"]
    match = Match(GAMES.get(created["game"]), created["players"], created["options"], Chance(b"replay"))
    for raw in records[:version]:
        match.apply_record(Record.from_dict(raw))
    return match.state


@pytest.mark.slow
@pytest.mark.parametrize(
    ("game", "players", "stacks"),
    [
        ("alexandros", 3, lambda s: {"supply": s.supply}),
        ("catan_alexander", 3, lambda s: {"dev": s.dev_deck, "supply": s.supply, "tokens": s.tokens_on_board}),
    ],
)
def test_a_fork_draws_its_hidden_future_from_its_own_seed(
    client: TestClient, service: GameService, game: str, players: int, stacks: Any
) -> None:
    created = create_game(client, game, players, "hidden")
    as_created = CreatedGame(created["game_id"], created["version"], [s["token"] for s in created["seats"]])
    play_with_bot(service, as_created, RandomBot(b"o"))
    original = export_of(client, created["game_id"])
    version = next(r["position"] - 1 for r in original if r["type"] == "CommandAccepted" and r["position"] > 12)
    fork = client.post(f"/games/{created['game_id']}/fork", json={"version": version}).json()
    as_fork = CreatedGame(fork["game_id"], fork["version"], [s["token"] for s in fork["seats"]])
    play_with_bot(service, as_fork, RandomBot(b"f"))
    forked = export_of(client, fork["game_id"])
    known = stacks(state_at(original, version))  # what the original's revealed log shows
    fresh = stacks(state_at(forked, version + 1))
    assert forked[version]["viewers"] == []  # sealed from every seat until the fork ends
    for name, order in known.items():
        assert sorted(fresh[name], key=str) == sorted(order, key=str), name
        if len(order) > 5:
            assert fresh[name] != order, f"the fork's {name} is the original's"
    assert client.get(f"/games/{fork['game_id']}/verify").json()["verified"]


# -- contributed chance -------------------------------------------------------------------------------------


def test_seats_contribute_chance_once_and_the_verifier_checks_the_mix(client: TestClient, tmp_path: Path) -> None:
    created = create_game(client, "alexandros", 2, "mix")
    game, tokens = created["game_id"], [s["token"] for s in created["seats"]]
    seat = int(sorted(client.get(f"/games/{game}").json()["awaited"])[0])
    move = client.get(f"/games/{game}/legal-moves", headers=auth(tokens[seat])).json()["moves"][0]
    bad = client.post(f"/games/{game}/commands", json={**move, "contribution": "xyz"}, headers=auth(tokens[seat]))
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "BAD_INPUT"
    sent = client.post(
        f"/games/{game}/commands", json={**move, "contribution": CONTRIBUTION}, headers=auth(tokens[seat])
    )
    assert sent.status_code == 200, sent.text
    events = sent.json()["events"]
    assert events[0]["data"]["contribution"] == CONTRIBUTION
    assert events[1]["type"] == "SupplyShuffled" and events[1]["data"] == {
        "reason": "reseed",
        "count": events[1]["data"]["count"],
    }
    seat = int(sorted(client.get(f"/games/{game}").json()["awaited"])[0])
    if seat == int(events[0]["data"]["seat"]):
        move = client.get(f"/games/{game}/legal-moves", headers=auth(tokens[seat])).json()["moves"][0]
        twice = client.post(
            f"/games/{game}/commands", json={**move, "contribution": CONTRIBUTION}, headers=auth(tokens[seat])
        )
        assert twice.status_code == 409 and twice.json()["error"]["code"] == "ALREADY_CONTRIBUTED"
    play_to_end(client, created)
    records = export_of(client, game)
    result, report = verify_file(tmp_path, records)
    assert result.exit_code == 0 and report["contributions"] == [
        {"seat": events[0]["data"]["seat"], "position": events[0]["position"]}
    ]
    # Another contribution would have given other chance: a forger cannot swap it in.
    accepted = records[events[0]["position"] - 1]
    accepted["data"]["contribution"] = accepted["public"]["contribution"] = "cd" * 32
    result, report = verify_file(tmp_path, reseal(records))
    assert result.exit_code == 1 and report["first_bad_position"] == events[1]["position"]


def test_a_refused_command_does_not_spend_the_contribution(client: TestClient) -> None:
    created = create_game(client, "sealed_guess", 2, "refused")
    game, token = created["game_id"], created["seats"][0]["token"]
    refused = client.post(
        f"/games/{game}/commands",
        json={"type": "commit_guess", "guess": 9, "contribution": CONTRIBUTION},
        headers=auth(token),
    )
    assert refused.status_code == 422
    accepted = client.post(
        f"/games/{game}/commands",
        json={"type": "commit_guess", "guess": 2, "contribution": CONTRIBUTION},
        headers=auth(token),
    )
    assert accepted.status_code == 200 and accepted.json()["events"][0]["data"]["contribution"] == CONTRIBUTION


def test_an_unknown_field_in_a_running_games_event_is_a_problem(client: TestClient, tmp_path: Path) -> None:
    created = create_game(client, "sealed_guess", 2, "running")
    game, tokens = created["game_id"], [s["token"] for s in created["seats"]]
    for seat in (0, 1):
        client.post(f"/games/{game}/commands", json={"type": "commit_guess", "guess": 2}, headers=auth(tokens[seat]))
    records = export_of(client, game)
    die = first_of(records, "DieRolled")
    die["data"]["loaded"] = True
    result, report = verify_file(tmp_path, reseal(records, "00"))
    assert (
        result.exit_code == 1 and report["first_bad_position"] == die["position"] and "loaded" in report["problems"][0]
    )


def test_a_retried_command_carries_the_same_contribution(client: TestClient) -> None:
    created = create_game(client, "sealed_guess", 2, "retry")
    game, token = created["game_id"], created["seats"][0]["token"]
    sent = {"type": "commit_guess", "guess": 2, "command_id": "once", "contribution": CONTRIBUTION}
    first = client.post(f"/games/{game}/commands", json=sent, headers=auth(token)).json()
    again = client.post(f"/games/{game}/commands", json=sent, headers=auth(token)).json()
    assert again["duplicate"] and again["events"] == first["events"]
    other = client.post(f"/games/{game}/commands", json={**sent, "contribution": "cd" * 32}, headers=auth(token))
    assert other.status_code == 409 and other.json()["error"]["code"] == "CONFLICT"
