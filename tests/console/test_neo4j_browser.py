"""The Neo4j Browser guide in the real Neo4j Browser (the one the local Neo4j serves), as a
person plays it: connect, `:play <graphmem>/browser/guide` (Browser fetches it cross-origin,
preflight included), read the first slide, apply graphmem's style from the guide."""

from __future__ import annotations

from playwright.async_api import Browser, expect

from graphmem.local_neo4j.server import LocalNeo4j
from tests.console.conftest import open_page, shot


async def test_guide_plays_in_neo4j_browser(browser: Browser, service: str,
                                            local_neo4j: LocalNeo4j) -> None:
    # Browser's remote-content allow-list names localhost (and 127.0.0.1).
    graphmem = service.replace("127.0.0.1", "localhost")
    page, watch = await open_page(browser, strict=False)  # Browser logs its own noise
    try:
        await page.goto(f"http://localhost:{local_neo4j.http_port}/browser/"
                        f"?dbms=bolt://localhost:{local_neo4j.bolt_port}")
        await page.locator("[data-testid=username]").fill("neo4j")
        await page.locator("[data-testid=password]").fill(local_neo4j.password())
        await page.locator("[data-testid=connect]").click()
        await expect(page.get_by_text("You are connected as")).to_be_visible(timeout=20_000)
        await page.locator(".monaco-editor textarea").first.click()
        await page.keyboard.type(f":play {graphmem}/browser/guide")
        await page.keyboard.press("Enter")
        slide = page.locator("h3", has_text="Exploring graphmem memory")
        await expect(slide).to_be_visible(timeout=20_000)
        await page.screenshot(path=shot("neo4j-browser-guide"))
        await page.get_by_text("Apply graphmem's style").click()
        await expect(page.get_by_text('caption: "{name}"')).to_be_visible()
    finally:
        await page.context.close()
    # Browser itself tries fonts and error reporting online: refused, and it copes.
    assert not [e for e in watch.errors if "page error" in e], watch.errors
