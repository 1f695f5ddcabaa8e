"""A full Peloponnes game through HTTP by separate seat tokens; its record verifies and replays."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from fastapi.testclient import TestClient

from api.cli.main import main
from tests.support.http import create_game, play_to_end


def test_a_full_peloponnes_game_over_http_verifies_exports_and_replays(client: TestClient, tmp_path: Path) -> None:
    created = create_game(client, "peloponnes", 3, seed="http-e2e")
    game = created["game_id"]
    sent = play_to_end(client, created)
    assert sent > 20
    final = client.get(f"/games/{game}").json()
    assert final["status"] == "ended" and final["scoreboard"]["winners"]

    report = client.get(f"/games/{game}/verify").json()
    assert report["chain_ok"] and report["seed_ok"], report["problems"]

    export = client.get(f"/games/{game}/export")
    assert export.headers["content-type"].startswith("application/x-ndjson")
    record_file = tmp_path / "game.jsonl"
    record_file.write_text(export.text)
    runner = CliRunner()
    verified = runner.invoke(main, ["verify", str(record_file), "--json"])
    assert verified.exit_code == 0, verified.output
    assert '"seed_ok": true' in verified.output

    replayed = runner.invoke(main, ["replay", str(record_file), "--json"])
    assert replayed.exit_code == 0, replayed.output
    rebuilt = json.loads(replayed.output)
    assert rebuilt["state"] == final["state"]
    assert rebuilt["version"] == final["version"]

    # The offline verifier refuses a record with one altered byte, naming the position.
    lines = export.text.splitlines()
    altered = json.loads(lines[5])
    altered["data"]["altered"] = True
    lines[5] = json.dumps(altered)
    record_file.write_text("\n".join(lines) + "\n")
    tampered = runner.invoke(main, ["verify", str(record_file), "--json"])
    assert tampered.exit_code == 1
    assert '"first_bad_position": 6' in tampered.output
