"""The console's and GraphiQL's pages over HTTP (no browser): `/` leads to the console, pages
carry a strict Content-Security-Policy, every asset is a local file, and the Browser style is
served cross-origin like the guide."""

from __future__ import annotations

import re

import httpx

from graphmem.console.assets import VENDOR, vendor_file
from graphmem.console.routes import CONSOLE_CSP


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
