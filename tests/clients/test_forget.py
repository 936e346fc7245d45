"""`Memory.forget(entity=..., mentions=..., dry_run=...)` and the `forget` tool against a real
`graphmem serve` (issue 37.8, "forget my dog"): the dry run lists the facts, turns and
summaries that would go and writes nothing; the real run then removes exactly those, and
neither search nor recall finds the name or its alias any more."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from graphmem_client import AsyncMemory, ErasurePlan, Memory, Receipt
from graphmem_client.tools import handle_tool_call, handle_tool_call_async

from tests.support.http import HTTP

BISCUIT = re.compile(r"(?<!\w)(?:biscuit|bisc)(?!\w)", re.IGNORECASE)
TURNS = [{"role": "user", "content": text, "occurred_at": f"2026-05-01T10:0{i}:00+00:00"}
         for i, text in enumerate(["I adopted a dog today, his name is Biscuit",
                                   "Biscuit's favourite toy is a squeaky duck",
                                   "Grandma's Biscuits are the best",
                                   "Took Bisc to the vet this morning",
                                   "The weather in Leeds is lovely"])]
EPISODES = """query($ns: String!) { episodes(namespace: $ns, first: 50) { nodes { id content }
  } }"""


@pytest.fixture
def memory(server_url: str, admin_token: str, ns: str) -> Iterator[Memory]:
    with Memory(server_url, admin_token, ns) as opened:
        yield opened


def _graphql(url: str, key: str, query: str, **variables: Any) -> dict[str, Any]:
    body = HTTP.post(url, json={"query": query, "variables": variables}, timeout=30,
                      headers={"Authorization": f"Bearer {key}"}).json()
    assert not body.get("errors"), body
    return dict(body["data"])


def _dog(memory: Memory, url: str, key: str, ns: str) -> list[str]:
    recorded = memory.record(TURNS, session_id="chat")
    memory.remember("user", "owns", "Biscuit", evidence=[recorded.episode_ids[0]])
    memory.remember("Biscuit", "likes", "squeaky duck", evidence=[recorded.episode_ids[1]])
    _graphql(url, key, """mutation($ns: String!) { addAlias(namespace: $ns, name: "Biscuit",
        alias: "Bisc") { id } }""", ns=ns)
    return recorded.episode_ids


def _turns(url: str, key: str, ns: str) -> dict[str, str]:
    return {e["id"]: e["content"]
            for e in _graphql(url, key, EPISODES, ns=ns)["episodes"]["nodes"]}


def test_a_dry_run_then_the_redaction(memory: Memory, server_url: str, admin_token: str,
                                      ns: str) -> None:
    ids = _dog(memory, server_url, admin_token, ns)
    before = _turns(server_url, admin_token, ns)
    plan = memory.forget(entity="Bisc", mentions="redact", dry_run=True)
    assert isinstance(plan, ErasurePlan) and plan.mentions == "redact"
    assert [t.id for t in plan.turns] == [ids[0], ids[1], ids[3]]
    assert {t.action for t in plan.turns} == {"redact"}
    assert sorted(f.text for f in plan.facts) == ["Biscuit likes squeaky duck",
                                                  "user owns Biscuit"]
    assert _turns(server_url, admin_token, ns) == before  # nothing written
    assert BISCUIT.search(memory.recall("What is my dog called?").text)

    receipt = memory.forget(entity="Bisc", mentions="redact")
    assert isinstance(receipt, Receipt) and receipt.verified
    assert receipt.counts["mentions_redacted"] == 3 and receipt.counts["facts"] == 2
    after = _turns(server_url, admin_token, ns)
    assert sorted(after) == sorted(before)  # every turn stays
    assert after[ids[1]] == "[redacted]'s favourite toy is a squeaky duck"
    assert after[ids[2]] == "Grandma's Biscuits are the best"  # another word
    assert {i for i in after if after[i] != before[i]} == {t.id for t in plan.turns}
    for word in ("Biscuit", "Bisc", "my dog"):
        found = " ".join(hit.text or "" for hit in memory.search(word, limit=50))
        assert not BISCUIT.search(found), word
        assert not BISCUIT.search(memory.recall(word, session_id="chat").text), word
    assert memory.about("Biscuit") == []


async def test_async_erase_mentions(server_url: str, admin_token: str, ns: str) -> None:
    with Memory(server_url, admin_token, ns) as memory:
        ids = _dog(memory, server_url, admin_token, ns)
    async with AsyncMemory(server_url, admin_token, ns) as amemory:
        plan = await amemory.forget(entity="Biscuit", mentions="erase", dry_run=True)
        assert [(t.id, t.action) for t in plan.turns] == [
            (ids[0], "erase"), (ids[1], "erase"), (ids[3], "erase")]
        receipt = await amemory.forget(entity="Biscuit", mentions="erase")
        assert receipt.verified and receipt.counts["episodes"] == 3
    assert sorted(_turns(server_url, admin_token, ns)) == sorted([ids[2], ids[4]])


def test_keep_and_bad_arguments(memory: Memory) -> None:
    with pytest.raises(ValueError, match="mentions must be one of"):
        memory.forget(entity="Biscuit", mentions="shred")  # type: ignore[call-overload]
    with pytest.raises(ValueError, match="dry_run=True goes with entity= alone"):
        memory.forget(episodes=["ep_1"], dry_run=True)  # type: ignore[call-overload]
    with pytest.raises(ValueError, match="mentions= goes with entity="):
        memory.forget(episodes=["ep_1"], mentions="erase")


def test_the_tool_tries_first_then_forgets(memory: Memory, server_url: str,
                                           admin_token: str, ns: str) -> None:
    ids = _dog(memory, server_url, admin_token, ns)
    before = _turns(server_url, admin_token, ns)
    planned = handle_tool_call(memory, "forget", {"entity": "Biscuit", "mentions": "redact",
                                                  "dry_run": True})
    assert planned.startswith("Dry run, nothing erased yet. Forgetting Biscuit "
                              "(mentions: redact; names matched as whole words: Bisc, "
                              "Biscuit) would remove:"), planned
    assert f"{ids[1]} (" in planned and "each mention redacted): Biscuit's favourite" in planned
    assert ids[2] not in planned and "user owns Biscuit" in planned
    assert _turns(server_url, admin_token, ns) == before
    refused = handle_tool_call(memory, "forget", {"episodes": [ids[0]], "dry_run": True})
    assert "mentions and dry_run go with entity" in refused
    erased = handle_tool_call(memory, "forget", {"entity": "Biscuit", "mentions": "redact"})
    assert erased.startswith("Erased ") and "3 mentions_redacted" in erased
    assert "verified: nothing of it is left" in erased


async def test_the_async_tool_dry_run(server_url: str, admin_token: str, ns: str) -> None:
    with Memory(server_url, admin_token, ns) as memory:
        _dog(memory, server_url, admin_token, ns)
    async with AsyncMemory(server_url, admin_token, ns) as amemory:
        planned = await handle_tool_call_async(amemory, "forget", {
            "entity": "Biscuit", "mentions": "erase", "dry_run": True})
    assert planned.startswith("Dry run") and planned.count(", erased): ") == 3
