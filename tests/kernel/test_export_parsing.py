"""Reading an export (issue 23, records): lines end at "\\n" only, since the canonical JSON writes
U+2028, U+2029 and U+0085 unescaped inside strings; a record with a duplicate key, NaN or a
number beyond a float is refused. A real game's export round-trips random Unicode names and
command ids through ``alexandria verify``."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api.cli.main import main
from api.http.app import create_app
from domain.catalog import GAMES
from domain.kernel.log import canonical
from domain.kernel.verification import JsonRefused, Problem, parse_export, read_json, verify_export
from infra.bootstrap import build_service
from infra.readside.reader import build_read_side
from infra.settings import Settings
from tests.support.http import auth

SEPARATORS = ("\u2028", "\u2029", "\x85", "\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e")


def test_an_export_splits_at_newlines_only() -> None:
    records = [{"name": f"Ann{sep}Lee", "n": i} for i, sep in enumerate(SEPARATORS)]
    text = "\n".join(canonical(r) for r in records) + "\n"
    assert "\u2028" in text  # written unescaped: str.splitlines would cut the record there
    assert parse_export(text) == records
    assert parse_export(text.encode()) == records
    assert parse_export(text.replace("\n", "\r\n")) == records  # a file saved with CRLF still reads


def test_a_record_with_a_duplicate_key_is_refused() -> None:
    """The last key wins in Python, the first in other readers: a forged ``hash`` placed first
    would verify here and show other content elsewhere."""
    line = '{"position": 1, "hash": "forged", "hash": "0000"}'
    with pytest.raises(Problem) as refused:
        parse_export(line + "\n")
    assert refused.value.position == 1 and "'hash' appears twice" in refused.value.message
    report = verify_export(("{}\n" + line).encode(), GAMES.get)
    assert not report.verified and report.first_bad_position == 2 and "appears twice" in report.problems[0]


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity", "1e400", "-1e999"])
def test_non_finite_numbers_are_refused(literal: str) -> None:
    with pytest.raises(JsonRefused):
        read_json('{"scores": [%s, 0]}' % literal)  # noqa: UP031 - the literal is the point
    report = verify_export(f'{{"a": {literal}}}\n', GAMES.get)
    assert report.exit_status == 1 and report.first_bad_position == 1


def test_deep_nesting_is_a_problem_not_a_crash() -> None:
    report = verify_export("[" * 100_000 + "]" * 100_000, GAMES.get)
    assert report.exit_status == 1 and "nested too deeply" in report.problems[0]


# -- a real game's export, through the HTTP API and `alexandria verify` -------------------------------


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    config = Settings(database_url=f"sqlite:///{tmp_path_factory.mktemp('exports')}/events.sqlite")
    service = build_service(config)
    with TestClient(create_app(service, build_read_side(service, config))) as client:
        yield client
    service.close()


plain = st.text(st.characters(exclude_categories=["Cs"]), max_size=12)
unicode_text = st.one_of(
    plain,
    st.builds(lambda a, sep, b: a + sep + b, plain, st.sampled_from(SEPARATORS), plain),
)


def verified_export(tmp_path: Path, client: TestClient, game_id: str) -> tuple[int, dict[str, Any]]:
    export = client.get(f"/games/{game_id}/export")
    assert export.status_code == 200
    path = tmp_path / f"{game_id}.jsonl"
    path.write_bytes(export.content)
    result = CliRunner().invoke(main, ["verify", "--json", str(path)])
    assert isinstance(result.exception, SystemExit | None), result.exception
    (report,) = json.loads(result.stdout)["files"]
    return result.exit_code, report


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(names=st.lists(unicode_text, min_size=2, max_size=2), ids=st.lists(unicode_text, min_size=6, max_size=6))
def test_unicode_names_and_command_ids_round_trip_through_export_and_verify(
    client: TestClient, tmp_path: Path, names: list[str], ids: list[str]
) -> None:
    created = client.post("/games", json={"game": "sealed_guess", "players": 2, "open_seats": True})
    assert created.status_code == 201, created.text
    game_id = created.json()["game_id"]
    tokens = []
    for seat, name in enumerate(names):
        joined = client.post(f"/games/{game_id}/join", json={"name": name, "seat": seat})
        if joined.status_code != 201:  # a name the lobby refuses: nothing recorded, another joins
            assert joined.status_code < 500, joined.text
            joined = client.post(f"/games/{game_id}/join", json={"name": f"seat {seat}", "seat": seat})
        assert joined.status_code == 201, joined.text
        tokens.append(joined.json()["token"])
    for number, command_id in enumerate(ids):
        seat = number % 2
        if number == 3:  # part-way: a running game's export is incomplete, not a problem
            status, report = verified_export(tmp_path, client, game_id)
            assert status == 3 and report["problems"] == [] and report["complete"] is False, report
        sent = client.post(
            f"/games/{game_id}/commands",
            json={"type": "commit_guess", "guess": 1 + number % 6, "command_id": f"{command_id}#{number}"},
            headers=auth(tokens[seat]),
        )
        assert sent.status_code == 200, sent.text
    status, report = verified_export(tmp_path, client, game_id)
    assert status == 0 and report["verified"] is True, report
