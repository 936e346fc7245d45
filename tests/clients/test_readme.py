"""The READMEs' code runs as written: every ```python block of README.md and
clients/python/README.md against a real `graphmem serve` (GRAPHMEM_URL, GRAPHMEM_KEY and
GRAPHMEM_NAMESPACE set, a fresh namespace each), every ```graphql block of README.md validated
against the SDL and then sent to the same server.

A block that calls OpenAI runs against a local endpoint speaking its wire protocol
(tests/support/chat_endpoint.py), scripted to call the `remember` tool. A block that cannot
run here says so in the README, in the line before it:
``<!-- not run: why -->``; NOT_RUN below lists each reason, so none is skipped silently. A
``# prints: text`` comment in a Python block is checked against what the block printed.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from typing import Any

import pytest
from graphmem_client import Memory
from graphql import build_schema, parse, validate

from tests.support import ROOT
from tests.support.chat_endpoint import Reply, chat_endpoint
from tests.support.http import HTTP

DOCS = (ROOT / "README.md", ROOT / "clients" / "python" / "README.md")
NOT_RUN = {
    # The suite has no DNS; its own receivers listen on loopback.
    "its URL must resolve to a public address; tests/events/test_webhooks.py runs webhooks",
}
_BLOCK = re.compile(r"(?:<!-- not run: (?P<why>[^>]*?) -->\n)?^```(?P<lang>\w+)\n(?P<code>.*?)^```",
                    re.S | re.M)
_PRINTS = re.compile(r"# prints: (.+)$", re.M)
MODEL_REMEMBERS = Reply(tool_calls=[{"id": "call_1", "type": "function", "function": {
    "name": "remember", "arguments": json.dumps(
        {"subject": "user", "predicate": "lives_in", "object": "Porto"})}}])


@dataclass(frozen=True)
class Block:
    doc: str
    line: int
    lang: str
    code: str
    why: str | None

    def __str__(self) -> str:
        return f"{self.doc}:{self.line}"


def _blocks(lang: str) -> list[Block]:
    found = []
    for doc in DOCS:
        text = doc.read_text()
        for match in _BLOCK.finditer(text):
            if match["lang"] == lang:
                line = text.count("\n", 0, match.start("code"))
                found.append(Block(str(doc.relative_to(ROOT)), line, lang, match["code"],
                                   match["why"]))
    return found


PYTHON = _blocks("python")
GRAPHQL = _blocks("graphql")


def test_every_block_not_run_says_why_and_is_listed() -> None:
    assert len(PYTHON) >= 4 and len(GRAPHQL) >= 10
    assert {b.why for b in (*PYTHON, *GRAPHQL) if b.why} == NOT_RUN


@pytest.mark.parametrize("block", [b for b in PYTHON if not b.why], ids=str)
def test_python_blocks_run(block: Block, server_url: str, admin_token: str, ns: str) -> None:
    env = {**os.environ, "GRAPHMEM_URL": server_url, "GRAPHMEM_KEY": admin_token,
           "GRAPHMEM_NAMESPACE": ns}
    with chat_endpoint(MODEL_REMEMBERS) as model:
        done = subprocess.run([sys.executable, "-c", block.code], cwd=ROOT, env={
            **env, "OPENAI_BASE_URL": model.url, "OPENAI_API_KEY": "sk-test"},
            capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, f"{block}:\n{done.stderr}"
    for expected in _PRINTS.findall(block.code):
        assert expected.strip() in done.stdout, f"{block} printed:\n{done.stdout}"
    if "from openai import" in block.code:  # the model saw the tools; its call was run
        (request,) = model.seen
        assert {t["function"]["name"] for t in request["tools"]} >= {"remember", "recall"}
        with Memory(server_url, admin_token, ns) as memory:
            assert [f.text for f in memory.about("user")] == ["user lives in Porto"]


def test_graphql_blocks_fit_the_schema() -> None:
    schema = build_schema((ROOT / "schema" / "graphmem.graphql").read_text())
    for block in GRAPHQL:
        assert validate(schema, parse(block.code)) == [], str(block)


def test_graphql_blocks_run(server_url: str, admin_token: str, ns: str) -> None:
    """In README order, in one fresh namespace (for "acme/user-42"), each operation of a block
    on its own; "fact_…" stands for the first fact an earlier block asserted. Subscriptions
    need a socket (tests/api/test_subscriptions.py runs them)."""
    # The merge example's other name for Dana, which no earlier block makes.
    _run(server_url, admin_token, 'mutation { assertFacts(namespace: "acme/user-42", facts: '
         '[{subject: "D. Reyes", predicate: "likes", object: "jazz"}]) { outcome } }', ns)
    fact_ids: list[str] = []
    ran = 0
    for block in GRAPHQL:
        if block.why or block.code.lstrip().startswith("subscription"):
            continue
        document = block.code.replace('"fact_…"', f'"{fact_ids[0]}"' if fact_ids else '"…"')
        for operation in parse(document).definitions:
            name = getattr(operation, "name", None)
            data = _run(server_url, admin_token, document, ns, name.value if name else None,
                        str(block))
            fact_ids += [i for i in _ids(data) if i.startswith("fact_") and i not in fact_ids]
            ran += 1
    assert ran >= 12 and fact_ids


def _run(url: str, key: str, document: str, ns: str, operation: str | None = None,
         where: str = "") -> dict[str, Any]:
    answer = HTTP.post(url, timeout=60, headers={"Authorization": f"Bearer {key}"}, json={
        "query": document.replace('"acme/user-42"', f'"{ns}"'), "operationName": operation})
    body = answer.json()
    assert answer.status_code == 200 and not body.get("errors"), f"{where} {operation}: {body}"
    return dict(body["data"])


def _ids(value: Any) -> list[str]:
    if isinstance(value, dict):
        return [*([value["id"]] if isinstance(value.get("id"), str) else []),
                *(i for v in value.values() for i in _ids(v))]
    if isinstance(value, list):
        return [i for v in value for i in _ids(v)]
    return []
