"""The memory console in a real headless Chromium, against `graphmem serve` over the real
Neo4j, as a person uses it: sign in with a narrow key, read, trace, correct, resolve, erase."""

from __future__ import annotations

import re

from playwright.async_api import Browser, Page, expect

from graphmem.db.database import Database
from graphmem.security.auth import create_key
from tests.console.conftest import open_page, shot, sign_in, visit
from tests.console.memory import SCRIPT


async def test_a_narrow_key_sees_only_its_namespaces(page: Page,
                                                     memory: dict[str, str]) -> None:
    await sign_in(page, memory["url"], memory["key"])
    # Two namespaces (maybe two people's): the console picks neither, the person does.
    await expect(page.get_by_role("heading", name="Choose a namespace")).to_be_visible()
    options = await page.locator("#ns-picker option").all_inner_texts()
    assert options == ["Choose…", memory["ns"], memory["also"]]  # never x…/eve
    await page.locator("#ns-picker").select_option(memory["ns"])
    await expect(page.get_by_role("heading", name=f"Overview of {memory['ns']}")).to_be_visible()
    options = await page.locator("#ns-picker option").all_inner_texts()
    assert options == [memory["ns"], memory["also"]]
    await expect(page.locator(".stat", has_text="Open conflicts")).to_contain_text("1")
    await expect(page.get_by_role("link", name="Audit log")).to_have_count(0)  # not admin
    await page.screenshot(path=shot("console-overview"), full_page=True)
    # Another namespace by address: graphmem refuses, the console says so.
    await visit(page, {**memory, "ns": memory["other"]}, "overview")
    await expect(page.get_by_role("alert")).to_contain_text("not granted")


async def test_an_admin_key_lands_in_no_namespace(page: Page, memory: dict[str, str],
                                                  admin_token: str) -> None:
    await sign_in(page, memory["url"], admin_token)
    await expect(page.get_by_role("heading", name="Choose a namespace")).to_be_visible()
    await expect(page.get_by_role("heading", name=re.compile("^Overview of"))).to_have_count(0)
    assert await page.locator("#ns-picker").input_value() == ""  # none chosen for them
    assert "ns=" not in page.url or page.url.endswith("ns=")
    await page.screenshot(path=shot("console-choose-namespace"), full_page=True)
    await page.get_by_label("Another namespace").fill(memory["ns"])
    await page.get_by_role("button", name="Open").click()
    await expect(page.get_by_role("heading", name=f"Overview of {memory['ns']}")).to_be_visible()
    assert await page.locator("#ns-picker").input_value() == memory["ns"]
    # Signed out and in again in the same tab: still no namespace chosen for them.
    # Half the key typed before the address change routes again, half after: no character is
    # lost (the form used to be drawn anew, and the key, cut short, was refused: a flaky 401).
    await page.get_by_role("button", name="Sign out").click()
    await expect(page.get_by_label("API key")).to_be_focused()
    half = len(admin_token) // 2
    await page.keyboard.type(admin_token[:half])
    # The address change arrives (again: its timing is the browser's) while the person types.
    await page.evaluate("() => window.dispatchEvent(new HashChangeEvent('hashchange'))")
    await page.keyboard.type(admin_token[half:])
    await page.keyboard.press("Enter")
    await expect(page.get_by_role("heading", name="Choose a namespace")).to_be_visible()


async def test_a_key_for_one_namespace_lands_in_it(page: Page, memory: dict[str, str],
                                                   db: Database, tag: str) -> None:
    key = await create_key(db, f"console-one-{tag}", grants=[memory["ns"]], admin=False)
    await sign_in(page, memory["url"], key)
    await expect(page.get_by_role("heading", name=f"Overview of {memory['ns']}")).to_be_visible()
    assert await page.locator("#ns-picker option").all_inner_texts() == [memory["ns"]]


async def test_a_wrong_key_is_told_so(browser: Browser, service: str) -> None:
    # Not strict: Chromium logs the 401 itself as a console error.
    page, watch = await open_page(browser, strict=False)
    try:
        await page.goto(f"{service}/console")
        await page.keyboard.type("gm_0000_not-a-key")
        await page.keyboard.press("Enter")
        await expect(page.get_by_role("alert")).to_contain_text("API key was not accepted")
        await expect(page.get_by_label("API key")).to_be_focused()  # type it again at once
        await page.screenshot(path=shot("console-wrong-key"))
        assert await page.evaluate("sessionStorage.length") == 0  # a refused key is not kept
    finally:
        await page.context.close()
    assert not watch.outside and not watch.errors, (watch.outside, watch.errors)


async def test_entity_graph_and_provenance(page: Page, memory: dict[str, str]) -> None:
    await sign_in(page, memory["url"], memory["key"])
    await visit(page, memory, "entity", name="Alice")
    facts = page.get_by_role("region", name="Facts about Alice")
    await expect(facts).to_contain_text("Alice lives_in Lisbon")
    await expect(facts).to_contain_text("1990")  # a literal, shown as its value
    await expect(facts.locator("tr.fact-disputed")).to_have_count(2)
    await page.screenshot(path=shot("console-entity"), full_page=True)

    await page.get_by_role("link", name="Graph of its neighbourhood").click()
    graph = page.locator("#graph[data-nodes]")
    await expect(graph).to_have_attribute("data-disputed", "2")  # both works_at, in red
    assert int(await graph.get_attribute("data-nodes") or 0) >= 6
    listed = page.get_by_role("region", name="Facts in the graph")
    await expect(listed).to_contain_text("birth_year")
    await page.screenshot(path=shot("console-graph"), full_page=True)
    await page.locator("#depth").select_option("1")
    await page.locator("#predicates").fill("works_at")
    await page.get_by_role("button", name="Show").click()
    await expect(listed.locator("tbody tr")).to_have_count(2)

    await visit(page, memory, "entity", name="Alice")
    await page.get_by_role("link", name="Why: Alice lives in Lisbon").click()
    await expect(page.get_by_role("heading", name="Alice lives in Lisbon")).to_be_visible()
    evidence = page.locator("section", has_text="Evidence: the turns that say so")
    await expect(evidence).to_contain_text("I'm Alice, I live in Lisbon and I work at Acme.")
    await expect(evidence.get_by_role("link", name="chat-1")).to_be_visible()
    await expect(page.locator("section", has_text="Summaries citing it")).to_contain_text(
        "Alice lives in Lisbon, works at Acme")
    await page.screenshot(path=shot("console-provenance"), full_page=True)


async def test_correct_a_fact_and_see_its_history(page: Page, memory: dict[str, str]) -> None:
    await sign_in(page, memory["url"], memory["key"])
    await visit(page, memory, "entity", name="Alice")
    correct = page.get_by_role("button", name="Correct: Alice lives in Lisbon")
    await correct.click()
    dialog = page.get_by_role("dialog", name="Correct a fact")
    await expect(dialog.get_by_label("New lives in")).to_be_focused()
    await page.keyboard.press("Escape")  # cancelled: nothing changes
    await expect(dialog).to_have_count(0)
    await correct.press("Enter")  # the keyboard opens it again
    await dialog.get_by_label("New lives in").fill("Porto")
    await dialog.get_by_label("Reason").fill("she moved in April")
    await dialog.get_by_role("button", name="Correct").click()
    facts = page.get_by_role("region", name="Facts about Alice")
    await expect(facts).to_contain_text("Alice lives_in Porto")
    await expect(facts).not_to_contain_text("Lisbon")
    await page.get_by_label("Show history (every version)").check()
    history = facts.locator("tr.fact-superseded", has_text="Lisbon")
    await expect(history).to_have_count(1)
    await expect(history.locator("td.valid")).to_contain_text("→ superseded 20")  # when it ended
    await expect(history.locator("td.valid")).not_to_contain_text("now")
    await expect(history.locator(".badge-active")).to_have_count(0)
    await page.screenshot(path=shot("console-history"), full_page=True)
    await history.get_by_role("link", name="Why: Alice lives in Lisbon").click()
    chain = page.locator("section", has_text="Supersession chain")
    await expect(chain).to_contain_text("Replaced by")
    await expect(chain).to_contain_text("she moved in April")


async def test_resolve_a_conflict(page: Page, memory: dict[str, str]) -> None:
    await sign_in(page, memory["url"], memory["key"])
    await visit(page, memory, "conflicts")
    await page.screenshot(path=shot("console-conflicts"), full_page=True)
    await page.get_by_label("Initech", exact=False).check()
    await page.get_by_role("button", name="Resolve…").click()
    dialog = page.get_by_role("dialog", name="Resolve the conflict")
    await dialog.get_by_label("Reason").fill("she told us she left Acme")
    await dialog.get_by_role("button", name="Resolve").click()
    await expect(page.get_by_text("No open conflicts.")).to_be_visible()
    await expect(page.locator("section", has_text="Resolved")).to_contain_text("kept Initech")
    await visit(page, memory, "entity", name="Alice")
    await expect(page.get_by_role("region", name="Facts about Alice")).to_contain_text(
        "Alice works_at Initech")
    await expect(page.locator("tr.fact-disputed")).to_have_count(0)


async def test_erase_an_entity_and_read_the_receipt(page: Page, memory: dict[str, str]) -> None:
    await sign_in(page, memory["url"], memory["key"])
    await visit(page, memory, "erase")
    await page.get_by_label("Entity", exact=True).fill("Bob")
    await page.get_by_role("button", name="Erase entity…").click()
    dialog = page.get_by_role("dialog", name="Erase Bob")
    await dialog.get_by_label("Type Bob to confirm").fill("bob")  # not quite: refused
    await dialog.get_by_role("button", name="Erase").click()
    await expect(dialog.get_by_role("alert")).to_contain_text("Type Bob exactly")
    await dialog.get_by_label("Type Bob to confirm").fill("Bob")
    await dialog.get_by_role("button", name="Erase").click()
    receipt = page.locator(".receipt")
    await expect(receipt).to_contain_text("Verified: nothing of it remains.")
    await expect(receipt).to_contain_text("facts")
    await page.screenshot(path=shot("console-erase-receipt"), full_page=True)
    await visit(page, memory, "entity", name="Bob")
    await expect(page.get_by_text("No entity named “Bob”")).to_be_visible()


async def test_a_stored_script_is_shown_never_run(page: Page, memory: dict[str, str]) -> None:
    answer = await page.goto(f"{memory['url']}/console")
    assert answer is not None
    assert "script-src 'self'" in answer.headers["content-security-policy"]
    await sign_in(page, memory["url"], memory["key"])
    await visit(page, memory, "session", id="chat-1")
    await expect(page.locator(".episode .content").nth(3)).to_have_text(SCRIPT)
    await page.screenshot(path=shot("console-conversation"), full_page=True)
    await visit(page, memory, "entities", q="typed")
    await expect(page.locator("ol.hits")).to_contain_text("<script>window.__pwned = 1</script>")
    assert await page.evaluate("window.__pwned") is None
    assert await page.locator("main script, main img").count() == 0
    assert await page.evaluate("document.cookie") == ""  # the key is in no cookie


async def test_readable_at_phone_width(browser: Browser, memory: dict[str, str]) -> None:
    page, watch = await open_page(browser, width=390, height=844)
    try:
        await sign_in(page, memory["url"], memory["key"])
        for route, params in (("overview", {}), ("entity", {"name": "Alice"}),
                              ("session", {"id": "chat-1"})):
            await visit(page, memory, route, **params)
            width = await page.evaluate("document.documentElement.scrollWidth")
            assert width <= 390, f"{route} scrolls sideways ({width}px)"
        await page.screenshot(path=shot("console-phone-conversation"), full_page=True)
    finally:
        await page.context.close()
    assert not watch.outside and not watch.errors, (watch.outside, watch.errors)


async def test_retention_and_erasing_episodes_and_the_namespace(
        page: Page, memory: dict[str, str]) -> None:
    await sign_in(page, memory["url"], memory["key"])
    await visit(page, memory, "erase")
    await page.get_by_label("Sensitivity").select_option("HEALTH")
    await page.get_by_label("Keep for (days)").fill("30")
    await page.get_by_role("button", name="Set policy…").click()
    await page.get_by_role("dialog", name="Set a retention policy").get_by_role(
        "button", name="Set policy").click()
    policies = page.get_by_role("region", name="Retention policies")
    await expect(policies.locator("tbody tr")).to_contain_text("health")

    await visit(page, memory, "session", id="chat-1")
    await page.get_by_label("Select for erasure").nth(2).check()  # "Noted, Alice."
    await page.get_by_role("button", name="Erase selected episodes").click()
    dialog = page.get_by_role("dialog", name="Erase 1 episode")
    await dialog.get_by_label("Type ERASE to confirm").fill("ERASE")
    await dialog.get_by_role("button", name="Erase").click()
    await expect(page.locator(".receipt")).to_contain_text("Verified")
    await expect(page.locator(".episode")).to_have_count(3)
    await expect(page.locator("ol.episodes")).not_to_contain_text("Noted, Alice.")

    await visit(page, memory, "erase")
    await page.get_by_role("button", name="Erase namespace…").click()
    dialog = page.get_by_role("dialog", name=f"Erase the namespace {memory['ns']}")
    await dialog.get_by_label(f"Type {memory['ns']} to confirm").fill(memory["ns"])
    await dialog.get_by_role("button", name="Erase everything").click()
    await expect(page.locator(".receipt")).to_contain_text("Verified: nothing of it remains.")
    await visit(page, memory, "overview")
    await expect(page.locator(".stat", has_text="Episodes")).to_contain_text("0")


async def test_an_admin_key_reads_the_audit_log_and_jobs(
        page: Page, memory: dict[str, str], admin_token: str) -> None:
    await sign_in(page, memory["url"], admin_token)
    await visit(page, memory, "conversations")
    await expect(page.get_by_role("link", name="chat-1")).to_be_visible()
    await page.get_by_role("link", name="Audit log").click()
    log = page.get_by_role("region", name="Audit events, newest first")
    await expect(log).to_contain_text("recordEpisodes")
    await expect(log).to_contain_text("tests-admin")
    await page.screenshot(path=shot("console-audit"), full_page=True)
    await page.get_by_role("link", name="Jobs").click()
    await expect(page.get_by_role("heading", name="Jobs")).to_be_visible()
    await expect(page.get_by_text("Extraction is off")).to_be_visible()
