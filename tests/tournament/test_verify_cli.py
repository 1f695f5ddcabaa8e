"""``alexandria tournament verify``: total (any file gives a report and a non-zero exit, never a
traceback) and checked against what the organiser published (--fingerprint, --commitment)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from api.cli.main import main
from domain.tournament.verification import BUNDLE_FORMAT
from tests.tournament.bundles import bundle_of, reseal_log

A_RECORD = {"position": 1, "type": "TournamentCreated", "data": {}, "viewers": None, "hash": "0" * 64}
DEEP = "[" * 100_000 + "]" * 100_000


def bundle_text(tournament: str, head: str = "") -> str:
    return "{" + head + '"format": ' + json.dumps(BUNDLE_FORMAT) + ', "tournament": ' + tournament + ', "games": {}}'


MALFORMED: dict[str, str | bytes] = {
    "a number for a record": bundle_text("[1]"),
    "a list for a record": bundle_text("[[]]"),
    "a record without prev": bundle_text(json.dumps([A_RECORD])),
    "100,000-deep nesting": DEEP,
    "deep nesting inside": bundle_text(DEEP),
    "not JSON": "{not json",
    "an empty file": "",
    "not UTF-8": b"\xff\xfe{}",
    "a duplicate key": bundle_text("[]", head='"format": ' + json.dumps(BUNDLE_FORMAT) + ", "),
    "NaN": bundle_text("[NaN]"),
    "Infinity": bundle_text("[-Infinity]"),
    "a number beyond a float": bundle_text("[1e400]"),
    "a list": "[]",
    "no format": "{}",
}


@pytest.mark.parametrize("name", MALFORMED)
def test_a_malformed_bundle_gives_a_report_and_a_non_zero_exit(tmp_path: Path, name: str) -> None:
    path = tmp_path / "bundle.json"
    content = MALFORMED[name]
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    runner = CliRunner()
    shown = runner.invoke(main, ["tournament", "verify", str(path)])
    assert shown.exit_code == 1 and isinstance(shown.exception, SystemExit), shown.output
    assert "NOT verified" in shown.output and "✗" in shown.output
    as_json = runner.invoke(main, ["tournament", "verify", "--json", str(path)])
    assert as_json.exit_code == 1 and isinstance(as_json.exception, SystemExit)
    report = json.loads(as_json.output)
    assert report["ok"] is False and report["problems"]


def test_duplicate_keys_and_non_finite_numbers_are_refused_by_name(tmp_path: Path) -> None:
    path = tmp_path / "bundle.json"
    for content, words in (
        (MALFORMED["a duplicate key"], "'format' appears twice"),
        (MALFORMED["NaN"], "NaN is no JSON number"),
        (MALFORMED["a number beyond a float"], "1e400 is too large"),
        (MALFORMED["100,000-deep nesting"], "nested too deeply"),
    ):
        path.write_text(str(content))
        result = CliRunner().invoke(main, ["tournament", "verify", "--json", str(path)])
        assert any(words in p for p in json.loads(result.output)["problems"]), result.output


def test_verify_checks_the_published_fingerprint_and_commitment(tmp_path: Path) -> None:
    bundle = bundle_of("alexandros")
    fingerprint = bundle["fingerprint"]
    commitment = bundle["tournament"][0]["data"]["master_seed_commitment"]
    path = tmp_path / "bundle.json"
    path.write_text(json.dumps(bundle))
    runner = CliRunner()
    published = ["--fingerprint", fingerprint.upper(), "--commitment", commitment]
    good = runner.invoke(main, ["tournament", "verify", str(path), *published])
    assert good.exit_code == 0, good.output
    wrong = runner.invoke(main, ["tournament", "verify", "--json", str(path), "--commitment", "ab" * 32])
    assert wrong.exit_code == 1
    assert any("position 1: the master seed commitment" in p for p in json.loads(wrong.output)["problems"])
    # A resealed rewrite holds together; only the published fingerprint shows it is not the event.
    log = bundle["tournament"]
    log[-1]["data"]["at"] += 1
    reseal_log(bundle, len(log) - 1)
    path.write_text(json.dumps(bundle))
    assert runner.invoke(main, ["tournament", "verify", str(path)]).exit_code == 0
    caught = runner.invoke(main, ["tournament", "verify", "--json", str(path), *published])
    assert caught.exit_code == 1
    problems = json.loads(caught.output)["problems"]
    assert any(f"the tournament's log: position {len(log)}:" in p and "not the published" in p for p in problems)
