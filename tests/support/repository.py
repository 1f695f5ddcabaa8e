"""The repository's own text files, for tests that read the whole product (docs, code, data)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SKIPPED_DIRS = {"venv", "node_modules", "__pycache__", "build", "dist"}  # and every hidden one (.git, .venv)
TEXT_SUFFIXES = {".py", ".md", ".js", ".json", ".html", ".css", ".toml", ".txt", ".sql", ".cfg", ".ini", ".yaml"}


def text_files() -> Iterator[Path]:
    """Every text file of the repository, without version control, virtual environments, caches and build output."""
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = sorted(
            d for d in dirs if not d.startswith(".") and d not in SKIPPED_DIRS and not d.endswith(".egg-info")
        )
        for name in sorted(files):
            if Path(name).suffix in TEXT_SUFFIXES:
                yield Path(folder, name)
