"""Versions of a fact in the console (issue 37, item 13): each with the status the API gives
and the end it really had, ended ones marked ended, each fact once per turn, and the tables'
columns within reach at phone width. Bob lived in Paris from 2020, in Rome since 2024: Rome
supersedes the open-ended Paris fact, which leaves a revision of it, true 2020 → 2024."""

from __future__ import annotations

import re

from playwright.async_api import Browser, Locator, Page, expect

from tests.console.conftest import open_page, shot, sign_in, visit
from tests.console.memory import write_versions

ENDED = re.compile(r"\bended\b")
SUPERSEDED_END = re.compile(r"^2020-01-01 00:00 UTC → superseded \d{4}-\d\d-\d\d \d\d:\d\d UTC$")


async def versions(memory: dict[str, str]) -> dict[str, str]:
    await write_versions(memory["url"], memory["key"], memory["ns"])
    return memory


async def check_versions(rows: Locator, page: Page) -> None:
    """Paris twice (superseded, and its revision ended in 2024), Rome holding now."""
    paris = rows.filter(has_text="Paris")
    await expect(paris).to_have_count(2)
    old = paris.filter(has=page.locator(".badge-superseded"))
    await expect(old.locator("td.valid")).to_have_text(SUPERSEDED_END)  # never "→ now"
    await expect(old.locator(".badge-active")).to_have_count(0)
    await expect(old).to_have_class(ENDED)
    revision = paris.filter(has=page.locator(".badge-active"))
    await expect(revision.locator("td.valid")).to_have_text(
        "2020-01-01 00:00 UTC → 2024-01-01 00:00 UTC")
    await expect(revision.locator(".badge-ended")).to_have_count(1)
    await expect(revision).to_have_class(ENDED)
    rome = rows.filter(has_text="Rome")
    await expect(rome.locator("td.valid")).to_have_text("2024-01-01 00:00 UTC → now")
    await expect(rome.locator(".badge-active")).to_have_count(1)
    await expect(rome.locator(".badge-ended")).to_have_count(0)
    await expect(rome).not_to_have_class(ENDED)


async def test_the_graph_lists_each_version_with_its_status_and_end(
        page: Page, memory: dict[str, str]) -> None:
    await versions(memory)
    await sign_in(page, memory["url"], memory["key"])
    await visit(page, memory, "graph", name="Bob", history="1")
    listed = page.get_by_role("region", name="Facts in the graph")
    await check_versions(listed.locator("tbody tr"), page)
    await expect(page.locator("#graph[data-nodes]")).to_have_attribute("data-ended", "2")
    await page.screenshot(path=shot("console-graph-history"), full_page=True)


async def test_an_entitys_history_shows_when_each_version_ended(
        page: Page, memory: dict[str, str]) -> None:
    await versions(memory)
    await sign_in(page, memory["url"], memory["key"])
    await visit(page, memory, "entity", name="Bob", history="1")
    facts = page.get_by_role("region", name="Facts about Bob")
    await check_versions(facts.locator("tbody tr"), page)
    # Without history: what holds now, Rome, and no version of Paris.
    await visit(page, memory, "entity", name="Bob")
    await expect(facts.locator("tbody tr", has_text="Rome")).to_have_count(1)
    await expect(facts.locator("tbody tr", has_text="Paris")).to_have_count(0)
    await expect(facts.locator("tr.ended")).to_have_count(0)


async def test_a_turn_lists_each_fact_once_with_its_status(
        page: Page, memory: dict[str, str]) -> None:
    await versions(memory)
    await sign_in(page, memory["url"], memory["key"])
    await visit(page, memory, "session", id="chat-2")
    turn = page.locator(".episode", has_text="Bob lived in Paris")
    await expect(turn.get_by_role("link", name="Bob lives in Paris")).to_have_count(1)
    await expect(turn.get_by_role("link", name="Bob lives in Rome")).to_have_count(1)
    paris = turn.locator(".facts li", has_text="Paris")
    await expect(paris.locator(".badge-active")).to_have_count(1)  # the revision believed now
    await expect(paris.locator(".badge-ended")).to_have_count(1)
    await expect(paris).to_contain_text("2020-01-01 00:00 UTC → 2024-01-01 00:00 UTC")
    await expect(turn.locator(".badge-superseded")).to_have_count(0)  # its older version
    rome = turn.locator(".facts li", has_text="Rome")
    await expect(rome.locator(".badge-active")).to_have_count(1)
    await expect(rome.locator(".badge-ended")).to_have_count(0)
    await page.screenshot(path=shot("console-turn-facts"), full_page=True)


async def every_cell_within(rows: Locator, width: int) -> None:
    await expect(rows.first).to_be_visible()
    for row in await rows.all():
        for cell in await row.locator("td").all():
            box = await cell.bounding_box()
            assert box is not None
            assert box["x"] >= 0 and box["x"] + box["width"] <= width, (
                f"a cell of “{await row.inner_text()}” is outside the {width}px screen: {box}")


async def test_fact_tables_fit_a_phone(browser: Browser, memory: dict[str, str]) -> None:
    await versions(memory)
    page, watch = await open_page(browser, width=390, height=844)
    try:
        await sign_in(page, memory["url"], memory["key"])
        await visit(page, memory, "entity", name="Bob", history="1")
        facts = page.get_by_role("region", name="Facts about Bob")
        await every_cell_within(facts.locator("tbody tr"), 390)
        rome = facts.locator("tbody tr", has_text="Rome")
        await rome.get_by_role("button", name="Retract: Bob lives in Rome").click()
        await expect(page.get_by_role("dialog")).to_be_visible()  # the action is within reach
        await page.keyboard.press("Escape")
        await page.screenshot(path=shot("console-phone-history"), full_page=True)
        await visit(page, memory, "graph", name="Bob", history="1")
        await every_cell_within(
            page.get_by_role("region", name="Facts in the graph").locator("tbody tr"), 390)
        await page.screenshot(path=shot("console-phone-graph"), full_page=True)
        width = await page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"the graph page scrolls sideways ({width}px)"
    finally:
        await page.context.close()
    assert not watch.outside and not watch.errors, (watch.outside, watch.errors)
