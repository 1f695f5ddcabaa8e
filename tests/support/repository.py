"""The repository's own text files, for tests that read the whole product (docs, code, data)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SKIPPED_DIRS = {".git", ".venv", "venv", "node_modules", "__pycache__", ".pytest_cache", ".ruff_cache", "build", "dist"}
TEXT_SUFFIXES = {".py", ".md", ".js", ".json", ".html", ".css", ".toml", ".txt", ".sql", ".cfg", ".ini", ".yaml"}


def text_files() -> Iterator[Path]:
    """Every text file of the repository, without virtual environments, caches and build output."""
    for path in sorted(ROOT.rglob("*")):
        parts = path.relative_to(ROOT).parts
        if any(part in SKIPPED_DIRS or part.endswith(".egg-info") for part in parts):
            continue
        if path.is_file() and path.suffix in TEXT_SUFFIXES:
            yield path
