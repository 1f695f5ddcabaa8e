"""The code stays ruff clean and type-checks (mypy) in every layer."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ["domain", "projections", "infra", "api"]


def run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *command], cwd=ROOT, capture_output=True, text=True, check=False)


def test_ruff_finds_nothing() -> None:
    result = run("ruff", "check", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_finds_nothing() -> None:
    result = run("mypy", *PACKAGES, "--ignore-missing-imports", "--cache-dir", "/tmp/alexandria-mypy-cache")
    assert result.returncode == 0, result.stdout + result.stderr
