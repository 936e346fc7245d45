"""Browser tests: `graphmem serve` over the suite's Neo4j, driven by Debian's headless
Chromium through Playwright (``executable_path``: Playwright downloads no browser). Every page
runs offline: any request that leaves this machine is refused and fails the test. Screenshots
go to ``.graphmem/screenshots/`` (git-ignored)."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
from playwright.async_api import Browser, Page, Route, async_playwright

from graphmem.db.database import Database
from graphmem.security.auth import create_key
from tests.console.memory import write_memory
from tests.support.graph import delete_namespace
from tests.support.server import serving

CHROMIUM = Path("/usr/bin/chromium")
SCREENSHOTS = Path(__file__).resolve().parents[2] / ".graphmem" / "screenshots"
LOCAL = ("http://127.0.0.1:", "http://localhost:", "ws://127.0.0.1:", "ws://localhost:", "data:")


@pytest.fixture(scope="session")
def service() -> Iterator[str]:
    with serving() as url:
        yield url


@pytest.fixture(scope="session")
async def browser(service: str) -> AsyncIterator[Browser]:
    """Closed before the service stops (its open connections would hold the shutdown)."""
    assert CHROMIUM.exists(), "Debian's chromium is missing: bin/test installs it"
    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=str(CHROMIUM))
        yield launched
        await launched.close()


class Offline:
    """Requests that tried to leave the machine, and errors the pages raised or logged."""

    def __init__(self) -> None:
        self.outside: list[str] = []
        self.errors: list[str] = []

    async def route(self, route: Route) -> None:
        if route.request.url.startswith(LOCAL):
            await route.continue_()
        else:
            self.outside.append(route.request.url)
            await route.abort()


async def open_page(browser: Browser, width: int = 1280, height: int = 900,
                    strict: bool = True) -> tuple[Page, Offline]:
    context = await browser.new_context(viewport={"width": width, "height": height})
    watch = Offline()
    await context.route("**/*", watch.route)
    page = await context.new_page()
    page.on("pageerror", lambda error: watch.errors.append(f"page error: {error}"))
    if strict:  # a console error is a bug in our pages (a CSP refusal shows up here too)
        page.on("console", lambda m: watch.errors.append(m.text) if m.type == "error" else None)
    return page, watch


@pytest.fixture
async def page(browser: Browser) -> AsyncIterator[Page]:
    opened, watch = await open_page(browser)
    yield opened
    await opened.context.close()
    assert not watch.outside, f"requests left the machine: {watch.outside}"
    assert not watch.errors, watch.errors


@pytest.fixture
def tag() -> str:
    return uuid.uuid4().hex[:8]


@pytest.fixture
async def memory(service: str, db: Database, admin_token: str,
                 tag: str) -> AsyncIterator[dict[str, str]]:
    """Two namespaces under one prefix the narrow key is granted, and a third it is not."""
    mine, also, other = f"c{tag}/alice", f"c{tag}/bob", f"x{tag}/eve"
    ids = await write_memory(service, admin_token, mine)
    for ns in (also, other):
        await write_memory(service, admin_token, ns)
    key = await create_key(db, f"console-{tag}", grants=[f"c{tag}/*"], admin=False)
    yield {"ns": mine, "also": also, "other": other, "key": key, "url": service, **ids}
    for ns in (mine, also, other):
        await delete_namespace(db, ns)


def shot(name: str) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS / f"{name}.png"


async def sign_in(page: Page, url: str, key: str) -> None:
    """As a person does: the key field has the focus, type the key, press Enter."""
    await page.goto(f"{url}/console")
    await page.keyboard.type(key)
    await page.keyboard.press("Enter")
    await page.wait_for_selector("nav[aria-label=Sections]")


async def visit(page: Page, memory: dict[str, str], route: str, **params: str) -> None:
    """A console page by its address, as a bookmark would open it."""
    query = "&".join(f"{k}={quote(v, safe='')}" for k, v in
                     {"ns": memory["ns"], **params}.items())
    target = f"#/{route}?{query}"
    await page.evaluate("(hash) => { location.hash = hash; }", target)
    # The console marks the page it has finished drawing with its address.
    await page.wait_for_function("(hash) => document.getElementById('main').dataset.shown "
                                 "=== hash", arg=target)
