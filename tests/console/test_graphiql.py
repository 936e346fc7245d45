"""GraphiQL, served from local files, in a real headless Chromium with the network cut: it
opens on a key field, loads the schema with the key (docs on the first screen), offers the
example operations, runs one, and keeps no key in localStorage."""

from __future__ import annotations

from playwright.async_api import Page, expect

from tests.console.conftest import shot


async def test_graphiql_opens_ready_offline(page: Page, service: str, admin_token: str) -> None:
    await page.goto(f"{service}/graphql")
    await expect(page.locator("#key-status")).to_contain_text("Type an API key")
    key = page.get_by_role("textbox", name="API key")
    await expect(key).to_be_focused()
    await key.fill(admin_token)
    await key.press("Enter")
    docs = page.locator(".graphiql-doc-explorer")
    await expect(docs).to_contain_text("Root Types")
    await expect(docs).to_contain_text("Mutation")
    tabs = page.locator(".graphiql-tab")
    await expect(tabs).to_have_count(4)
    for name in ("Record", "Assert", "Recall", "Why"):
        await expect(tabs.filter(has_text=name)).to_have_count(1)
    await page.screenshot(path=shot("graphiql"))
    await tabs.filter(has_text="Recall").click()
    await expect(page.locator(".graphiql-query-editor")).to_contain_text("query Recall")
    # GraphiQL reads the tab's operation name after a 500 ms debounce; a person is slower.
    await page.wait_for_timeout(800)
    await page.locator(".graphiql-execute-button").click()
    await expect(page.locator(".result-window")).to_contain_text('"tokensUsed"')
    stored = await page.evaluate("JSON.stringify(Object.entries(localStorage))")
    assert "gm_" not in stored and admin_token not in stored
    assert await page.evaluate("document.cookie") == ""
