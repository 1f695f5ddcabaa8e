"""Every answer says nosniff, may not be framed and sends no referrer; every HTML answer carries a
Content-Security-Policy with ``script-src 'self'`` that still lets the pages load what they load.
And the web client keeps building the DOM without HTML sinks, which that policy relies on."""

from __future__ import annotations

import base64
import hashlib
import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from api.http.app import create_app
from infra.games.service import GameService
from infra.settings import Settings

STATIC = Path(__file__).resolve().parents[2] / "api" / "static"
PAGES = ["/lobby", "/viewer", "/tournament", "/docs", "/static/lobby.html"]


def policy_of(header: str) -> dict[str, list[str]]:
    directives = [part.strip().split() for part in header.split(";") if part.strip()]
    return {name: sources for name, *sources in directives}


def assert_protected(response: object) -> None:
    headers = response.headers  # type: ignore[attr-defined]
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["x-frame-options"] == "DENY"
    assert headers["referrer-policy"] == "no-referrer"
    assert "frame-ancestors" in policy_of(headers["content-security-policy"])
    assert policy_of(headers["content-security-policy"])["frame-ancestors"] == ["'none'"]


@pytest.mark.parametrize("path", PAGES)
def test_every_page_sends_a_content_security_policy_that_allows_scripts_from_the_server_only(
    client: TestClient, path: str
) -> None:
    response = client.get(path)
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/html")
    assert_protected(response)
    policy = policy_of(response.headers["content-security-policy"])
    assert policy["default-src"] == ["'none'"]
    assert policy["script-src"][0] == "'self'"
    assert all(source.startswith("'sha256-") for source in policy["script-src"][1:])
    assert "'unsafe-inline'" not in response.headers["content-security-policy"]
    assert "'unsafe-eval'" not in response.headers["content-security-policy"]
    assert policy["style-src"][0] == "'self'" and policy["connect-src"] == ["'self'"]
    assert policy["img-src"] == ["'self'", "data:"]  # the empty data: favicon
    assert policy["base-uri"] == ["'none'"]


def test_the_pages_load_only_what_the_policy_allows(client: TestClient) -> None:
    for name in ("lobby.html", "viewer.html", "tournament.html"):
        html = (STATIC / name).read_text(encoding="utf-8")
        assert "<script>" not in html and "<style" not in html and " style=" not in html
        for url in re.findall(r'<(?:script|link|img|iframe|object|embed)\b[^>]*\b(?:src|href)="([^"]+)"', html):
            assert url.startswith("/static/") or url == "data:,", (name, url)


def test_the_docs_inline_script_is_allowed_by_its_hash_alone(client: TestClient) -> None:
    response = client.get("/docs")
    inline = re.findall(r"<script>(.*?)</script>", response.text, re.S)
    assert inline, "Swagger UI's page starts with an inline script"
    allowed = policy_of(response.headers["content-security-policy"])["script-src"]
    for script in inline:
        digest = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
        assert f"'sha256-{digest}'" in allowed


@pytest.mark.parametrize("path", ["/games", "/healthz", "/games/catalog", "/static/app.css", "/nope"])
def test_every_other_answer_is_protected_too(client: TestClient, path: str) -> None:
    response = client.get(path)
    assert_protected(response)
    assert policy_of(response.headers["content-security-policy"])["default-src"] == ["'none'"]


def test_a_refusal_of_the_limits_is_protected_too(service: GameService) -> None:
    client = TestClient(create_app(service, settings=Settings(max_body_bytes=10)))
    refused = client.post("/games", json={"game": "sealed_guess", "players": 2})
    assert refused.status_code == 413
    assert_protected(refused)


HTML_SINKS = re.compile(
    r"\.innerHTML|\.outerHTML|insertAdjacentHTML|document\.write|\beval\(|new Function|"
    r"setAttribute\(\s*['\"](style|on\w+)|createContextualFragment|DOMParser|srcdoc"
)


def test_the_web_client_builds_the_dom_without_html_sinks() -> None:
    found = [
        f"{path.relative_to(STATIC)}:{number}: {line.strip()}"
        for path in sorted(STATIC.rglob("*.js"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if HTML_SINKS.search(line)
    ]
    assert not found, "\n".join(found)
