"""The schema docs are generated from the code, name every column of every table with a meaning,
and match the tables DuckDB actually has."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from api.cli.main import main
from infra.analytics.store import AnalyticsDatabase
from projections.analytics import TABLES
from projections.analytics.docs import meaning, schema_markdown

DOC = Path(__file__).resolve().parents[2] / "docs" / "analytics-schema.md"


def test_the_schema_doc_is_current() -> None:
    assert DOC.read_text(encoding="utf-8") == schema_markdown() + "\n", (
        "docs/analytics-schema.md is out of date: run `alexandria analytics schema --out docs/analytics-schema.md`"
    )


def test_every_column_has_a_meaning_and_the_doc_names_it() -> None:
    text = schema_markdown()
    for table, columns in TABLES.items():
        assert f"## `{table}`" in text
        for name, kind in columns:
            explained, _unit = meaning(table, name)
            assert explained
            assert f"| `{name}` | {kind} |" in text


def test_the_documented_types_are_the_tables_types(tmp_path: Path) -> None:
    database = AnalyticsDatabase(str(tmp_path / "analytics.duckdb"))
    with database.connect() as connection:
        found = connection.execute(
            "SELECT table_name, column_name, data_type FROM information_schema.columns "
            "WHERE NOT starts_with(table_name, '_') ORDER BY table_name, ordinal_position"
        ).fetchall()
    database.close()
    spelled = {"TIMESTAMPTZ": "TIMESTAMP WITH TIME ZONE", "JSON": "JSON"}  # DuckDB's own name of a type
    documented = sorted(
        (table, name, spelled.get(kind, kind)) for table, columns in TABLES.items() for name, kind in columns
    )
    assert sorted(found) == documented


def test_the_cli_prints_or_writes_it(tmp_path: Path) -> None:
    printed = CliRunner().invoke(main, ["analytics", "schema"])
    assert printed.exit_code == 0 and printed.output == schema_markdown() + "\n"
    written = CliRunner().invoke(main, ["analytics", "schema", "--out", str(tmp_path / "schema.md")])
    assert written.exit_code == 0 and (tmp_path / "schema.md").read_text() == schema_markdown() + "\n"
