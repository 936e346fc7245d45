"""The console's "Forget…" on an entity, in a real headless Chromium against `graphmem serve`:
choose what happens to the turns that mention it, read the dry run (nothing changes until the
name is typed), then the receipt; the turns stay, each mention redacted."""

from __future__ import annotations

import httpx
from playwright.async_api import Page, expect

from tests.console.conftest import shot, sign_in, visit
from tests.console.memory import post

TURNS = """query($ns: String!) { episodes(namespace: $ns, first: 20) { nodes { externalId content
  } } }"""


async def _turns(memory: dict[str, str], key: str) -> dict[str, str]:
    async with httpx.AsyncClient(base_url=memory["url"], timeout=30) as http:
        data = await post(http, key, TURNS, ns=memory["ns"])
    return {e["externalId"]: e["content"] for e in data["episodes"]["nodes"]}


async def test_forget_an_entity_after_its_dry_run(page: Page, memory: dict[str, str],
                                                  admin_token: str) -> None:
    before = await _turns(memory, admin_token)
    await sign_in(page, memory["url"], memory["key"])
    await visit(page, memory, "entity", name="Alice")
    await page.get_by_role("button", name="Forget…").click()
    choice = page.get_by_role("dialog", name="Forget Alice")
    await choice.get_by_label("Turns that mention it").select_option("REDACT")
    await choice.get_by_role("button", name="Show what would go").click()

    plan = page.get_by_role("dialog", name="What forgetting Alice takes")
    turns = plan.get_by_role("region", name="Turns (2)")
    await expect(turns).to_contain_text("mentions redacted: I'm Alice, I live in Lisbon")
    await expect(turns).to_contain_text("Noted, Alice.")
    await expect(plan.get_by_role("region", name="Facts deleted (5)")).to_contain_text(
        "Alice lives in Lisbon")
    await expect(plan.get_by_role("region", name="Summaries withdrawn (1)")).to_contain_text(
        "Alice lives in Lisbon, works at Acme")
    await page.screenshot(path=shot("console-forget-plan"), full_page=True)
    await plan.get_by_role("button", name="Cancel").click()
    assert await _turns(memory, admin_token) == before  # the dry run wrote nothing

    await page.get_by_role("button", name="Forget…").click()
    await page.get_by_role("dialog", name="Forget Alice").get_by_role(
        "button", name="Show what would go").click()
    plan = page.get_by_role("dialog", name="What forgetting Alice takes")
    await plan.get_by_label("Type Alice to confirm").fill("alice")  # not quite: refused
    await plan.get_by_role("button", name="Forget").click()
    await expect(plan.get_by_role("alert")).to_contain_text("Type Alice exactly")
    await plan.get_by_label("Type Alice to confirm").fill("Alice")
    await plan.get_by_role("button", name="Forget").click()
    receipt = page.locator(".receipt")
    await expect(receipt).to_contain_text("Verified: nothing of it remains.")
    await expect(receipt).to_contain_text("mentions_redacted")
    after = await _turns(memory, admin_token)
    assert after["m1"] == "I'm [redacted], I live in Lisbon and I work at Acme."
    assert after["m3"] == "Noted, [redacted]."
    assert after["m2"] == before["m2"]
