"""Dependencies point inwards only, and the domain stays pure."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LAYERS = {
    "domain": {"domain"},
    "projections": {"domain", "projections"},
    "infra": {"domain", "projections", "infra"},
    "api": {"domain", "projections", "infra", "api"},
}
OUR_PACKAGES = set(LAYERS)
# What a pure domain must not touch: frameworks, stores, the network, clocks and global random.
FORBIDDEN_IN_DOMAIN = {
    "fastapi",
    "starlette",
    "redis",
    "psycopg",
    "psycopg_pool",
    "sqlite3",
    "eventsourcing",
    "requests",
    "httpx",
    "socket",
    "random",
    "time",
    "datetime",
    "os",
    "subprocess",
    "threading",
    "asyncio",
    "secrets",
    "uuid",
    "pickle",
}


def imports_of(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.lineno, node.module))
    return found


def python_files(layer: str) -> list[Path]:
    return sorted((ROOT / layer).rglob("*.py"))


@pytest.mark.parametrize("layer", sorted(LAYERS))
def test_dependencies_point_inwards(layer: str) -> None:
    problems = [
        f"{path.relative_to(ROOT)}:{line} imports {module}"
        for path in python_files(layer)
        for line, module in imports_of(path)
        if module.split(".")[0] in OUR_PACKAGES and module.split(".")[0] not in LAYERS[layer]
    ]
    assert not problems, "\n".join(problems)


def test_domain_is_pure() -> None:
    problems = [
        f"{path.relative_to(ROOT)}:{line} imports {module}"
        for path in python_files("domain")
        for line, module in imports_of(path)
        if module.split(".")[0] in FORBIDDEN_IN_DOMAIN
    ]
    assert not problems, "\n".join(problems)


def test_the_layering_check_sees_a_violation(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("import random\nfrom infra.games.service import GameService\n")
    assert [m for _, m in imports_of(bad)] == ["random", "infra.games.service"]
