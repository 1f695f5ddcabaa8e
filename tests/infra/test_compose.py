"""infra/compose.yaml cannot be run here (no container engine), so check what it promises."""

from __future__ import annotations

from pathlib import Path

import yaml

from infra.analytics.store import AnalyticsSettings
from infra.settings import Settings

COMPOSE = Path(__file__).resolve().parents[2] / "infra" / "compose.yaml"


def test_compose_starts_postgres_redis_two_api_workers_and_a_projection_worker_with_health_checks() -> None:
    services = yaml.safe_load(COMPOSE.read_text())["services"]
    apis = [name for name, s in services.items() if s.get("command", [None])[0] == "serve"]
    projectors = [name for name, s in services.items() if s.get("command") == ["project"]]
    assert len(apis) >= 2 and len(projectors) >= 1
    assert {"postgres", "redis"} <= set(services)
    for name in [*apis, *projectors, "postgres", "redis"]:
        assert "test" in services[name]["healthcheck"], name
    known = {f"ALEXANDRIA_{field.upper()}" for field in Settings.model_fields} | {
        f"ALEXANDRIA_ANALYTICS_{field.upper()}" for field in AnalyticsSettings.model_fields
    }
    for name in [*apis, *projectors]:
        environment = services[name]["environment"]
        assert set(environment) <= known, name
        assert environment["ALEXANDRIA_DATABASE_URL"].startswith("postgresql://")
        assert environment["ALEXANDRIA_REDIS_URL"].startswith("redis://")
        assert services[name]["depends_on"]["init"]["condition"] == "service_completed_successfully"
    assert len({tuple(services[name]["ports"]) for name in apis}) == len(apis), "one host port per worker"


def test_compose_runs_one_analytics_worker_whose_file_the_api_workers_read() -> None:
    services = yaml.safe_load(COMPOSE.read_text())["services"]
    (worker,) = [name for name, s in services.items() if s.get("command") == ["analytics", "project"]]
    apis = [name for name, s in services.items() if s.get("command", [None])[0] == "serve"]
    assert "test" in services[worker]["healthcheck"]
    assert services[worker]["depends_on"]["init"]["condition"] == "service_completed_successfully"
    assert "deploy" not in services[worker], "one writer per DuckDB file: the worker is not scaled"
    for name in [worker, *apis]:
        path = Path(services[name]["environment"]["ALEXANDRIA_ANALYTICS_PATH"])
        assert f"analytics:{path.parent}" in services[name]["volumes"], name
