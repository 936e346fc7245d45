"""The console's and GraphiQL's pages over HTTP (no browser): `/` leads to the console, pages
carry a strict Content-Security-Policy, every asset is a local file, and the Browser style is
served cross-origin like the guide."""

from __future__ import annotations

import logging
import re
from pathlib import Path

import httpx
import pytest

from graphmem.console import assets
from graphmem.console.assets import VENDOR, vendor_file
from graphmem.console.routes import CONSOLE_CSP
from graphmem.core.config import Settings
from graphmem.db.database import Database


async def test_the_root_leads_to_the_console(client: httpx.AsyncClient) -> None:
    answer = await client.get("/")
    assert answer.status_code == 302 and answer.headers["location"] == "/console"


async def test_console_page_has_a_strict_policy(client: httpx.AsyncClient) -> None:
    answer = await client.get("/console")
    assert answer.status_code == 200
    policy = answer.headers["content-security-policy"]
    assert policy == CONSOLE_CSP
    assert "script-src 'self';" in policy and "unsafe" not in policy
    assert "default-src 'none'" in policy and "frame-ancestors 'none'" in policy
    assert answer.headers["x-content-type-options"] == "nosniff"
    assert "set-cookie" not in answer.headers


async def test_pages_load_only_local_files(client: httpx.AsyncClient) -> None:
    """Every script and stylesheet the pages name is on this server and answers 200: nothing
    comes from a CDN (GraphiQL used to load React and GraphiQL from one)."""
    for page in ("/console", "/graphql"):
        html = (await client.get(page, headers={"Accept": "text/html"})).text
        assets = re.findall(r'(?:src|href)="([^"]+)"', html)
        assert assets, page
        for asset in assets:
            if asset.startswith(("data:", "#")):
                continue
            assert asset.startswith("/"), f"{page} loads {asset} from elsewhere"
            assert (await client.get(asset)).status_code == 200, asset


async def test_graphiql_page_keeps_scripts_local(client: httpx.AsyncClient) -> None:
    answer = await client.get("/graphql", headers={"Accept": "text/html"})
    assert "script-src 'self';" in answer.headers["content-security-policy"]
    assert "unpkg" not in answer.text and "cdn" not in answer.text.lower()


def test_every_vendored_library_is_installed() -> None:
    """bin/_bootstrap.sh ran npm ci: each pinned file is there."""
    assert all(vendor_file(name) is not None for name in VENDOR)


def test_an_installed_package_serves_the_files_it_carries(monkeypatch: pytest.MonkeyPatch,
                                                          tmp_path: Path) -> None:
    """A wheel carries them in graphmem/console/vendor/ (hatch_build.py), where no
    node_modules/ is: they are found there by their short names."""
    monkeypatch.setattr(assets, "PACKAGED", tmp_path / "vendor")
    monkeypatch.setattr(assets, "NODE_MODULES", tmp_path / "node_modules")
    assert assets.missing() == list(VENDOR)
    (tmp_path / "vendor").mkdir()
    for name in VENDOR:
        (tmp_path / "vendor" / name).write_text("/* packaged */")
    assert assets.missing() == []
    assert vendor_file("graphiql.min.js") == tmp_path / "vendor" / "graphiql.min.js"
    assert vendor_file("package.json") is None


async def test_a_start_without_the_libraries_says_so_once(
        settings: Settings, db: Database, monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    """A pip user's server had no libraries and said nothing: the graph view and GraphiQL
    were blank. Now its start logs one warning naming the files and what to do; requests
    answer 404 with the same advice and log nothing more."""
    from graphmem.app import create_app

    monkeypatch.setattr(assets, "PACKAGED", tmp_path / "vendor")
    monkeypatch.setattr(assets, "NODE_MODULES", tmp_path / "node_modules")
    caplog.set_level(logging.WARNING)
    app = create_app(Settings(**{**settings.model_dump(), "workers": 0, "embedder": "none"}))
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://graphmem.test") as c:
            for _ in range(3):
                answer = await c.get("/console/vendor/graphiql.min.js")
                assert answer.status_code == 404 and "npm ci" in answer.text
    said = [r.getMessage() for r in caplog.records if "will not load" in r.getMessage()]
    assert len(said) == 1, said
    assert all(name in said[0] for name in VENDOR) and "npm ci" in said[0]


async def test_only_named_files_are_served(client: httpx.AsyncClient) -> None:
    for path in ("/console/vendor/package.json", "/console/vendor/..%2Fpackage.json",
                 "/console/static/index.html", "/console/static/..%2F__init__.py"):
        assert (await client.get(path)).status_code == 404, path


async def test_cors_stays_closed_on_the_api_and_console(client: httpx.AsyncClient) -> None:
    """Only the Browser guide and its style answer other origins."""
    for path in ("/graphql", "/console"):
        answer = await client.options(path, headers={
            "Origin": "http://evil.example", "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "authorization"})
        assert "access-control-allow-origin" not in answer.headers, path
