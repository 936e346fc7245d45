"""README.md is the user contract; tests/promises.toml maps each of its promises to the tests
that would fail if it broke. This test keeps the map from rotting.

What counts as a promise (the rule, kept narrow so it can be checked): a sentence of README's
prose (paragraphs and list items; not code blocks, tables, headings or HTML comments) that
uses one of PROMISE_WORDS, outside the sections NOT_THE_CONTRACT names. Each such sentence
must contain the `quote` of a `[[promise]]` (its tests named, or its gap said) or of a
`[[not_a_promise]]` (with why). Every quote must still be in README.md under the heading its
entry names, and every test named must exist (found by parsing the file with `ast`: no
collection, nothing run). So a README edit that adds a promise without saying what guards
it, or a test renamed away, fails here.

The erasure matrix (`[[erasure]]`: each scope × each place content lives or transport serves
it) is held to the same: every cell is present, with tests that exist or a gap said.
"""

from __future__ import annotations

import ast
import re
import tomllib
from functools import cache
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
TABLE = ROOT / "tests" / "promises.toml"

PROMISE_WORDS = re.compile(
    r"\b(never|always|at most|nothing|refuse[sd]?|exactly once|guarantees?|erased?|erasure"
    r"|within|only ever)\b", re.IGNORECASE)
# Sections about the project's own tooling and measurements, not what graphmem does.
NOT_THE_CONTRACT = frozenset({"Mutation testing", "Benchmarks"})
ERASURE_SCOPES = ("episode", "session", "subject", "namespace")
ERASURE_PLACES = ("graph", "fulltext", "vector", "summaries", "recall", "neighbours",
                  "archive", "export", "websocket", "mcp")


def _flat(text: str) -> str:
    return " ".join(text.split())


@cache
def _prose() -> list[tuple[str, str]]:
    """(heading, paragraph) for each paragraph or list item of README's prose."""
    return [(heading, block) for heading, block, table in _blocks() if not table]


@cache
def _blocks() -> list[tuple[str, str, bool]]:
    """(heading, block, whether it is a table row) for the prose and each table row: a
    quote may name a row (the configuration's caps), though the rule reads prose only."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    text = re.sub(r"```.*?```", "\n", text, flags=re.DOTALL)
    text = re.sub(r"<!--.*?-->", "\n", text, flags=re.DOTALL)
    blocks: list[tuple[str, str, bool]] = []
    heading, lines = "", list[str]()

    def close() -> None:
        if lines:
            blocks.append((heading, _flat(" ".join(lines)), False))
            lines.clear()

    for line in text.splitlines():
        if line.startswith("#"):
            close()
            heading = line.lstrip("#").strip()
        elif line.startswith("|"):
            close()
            blocks.append((heading, _flat(line), True))
        elif not line.strip() or line.startswith("!["):
            close()
        else:
            if line.lstrip().startswith("- "):
                close()
                line = line.lstrip()[2:]  # the list item's text, not its marker
            lines.append(line.strip())
    close()
    return blocks


def _sentences() -> list[tuple[str, str]]:
    return [(heading, sentence) for heading, block in _prose()
            for sentence in re.split(r"(?<=[.!?])\s+(?=[A-Z`*(\"“])", block)]


@cache
def _table() -> dict[str, Any]:
    with TABLE.open("rb") as f:
        return tomllib.load(f)


def _entries() -> list[dict[str, Any]]:
    return [*_table()["promise"], *_table()["not_a_promise"]]


def test_every_promise_sentence_is_in_the_table() -> None:
    quotes = [_flat(e["quote"]) for e in _entries()]
    promises = [s for heading, s in _sentences()
                if PROMISE_WORDS.search(s) and heading not in NOT_THE_CONTRACT]
    assert len(promises) > 50, "the README's prose was not found"
    missing = [s for s in promises if not any(q in s for q in quotes)]
    assert not missing, "add to tests/promises.toml (promise or not_a_promise):\n" + \
        "\n".join(missing)


def test_every_quote_is_still_in_the_readme_under_its_heading() -> None:
    stale = []
    for entry in _entries():
        quote, section = _flat(entry["quote"]), entry["section"]
        if not any(quote in block and heading == section for heading, block, _ in _blocks()):
            stale.append(f"{section}: {quote}")
    assert not stale, "no longer in README.md (under that heading):\n" + "\n".join(stale)


def test_each_quote_names_one_sentence() -> None:
    ambiguous = [e["quote"] for e in _entries()
                 if sum(_flat(e["quote"]) in s for _, s in _sentences()) > 1]
    assert not ambiguous, ambiguous


def test_each_promise_names_its_tests_or_its_gap() -> None:
    for entry in _table()["promise"]:
        assert entry.get("tests") or entry.get("gap"), entry["quote"]
    for entry in _table()["not_a_promise"]:
        assert entry["why"].strip(), entry["quote"]


def test_every_erasure_cell_is_listed() -> None:
    cells = {(c["scope"], c["place"]) for c in _table()["erasure"]}
    wanted = {(s, p) for s in ERASURE_SCOPES for p in ERASURE_PLACES}
    assert cells == wanted, (wanted - cells, cells - wanted)
    for cell in _table()["erasure"]:
        assert cell.get("tests") or cell.get("gap"), cell


@cache
def _defined(path: str) -> frozenset[str]:
    """The test names a file defines: `test_x` and `Class::test_x`."""
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names.add(node.name)
        elif isinstance(node, ast.ClassDef):
            names |= {f"{node.name}::{m.name}" for m in node.body
                      if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))}
    return frozenset(names)


def test_every_named_test_exists() -> None:
    named = [t for e in [*_table()["promise"], *_table()["erasure"]] for t in e.get("tests", [])]
    assert named
    absent = []
    for node_id in named:
        path, _, name = node_id.partition("::")
        name = name.split("[")[0]
        if not (ROOT / path).is_file() or not name.startswith(("test_", "Test")) \
                or name not in _defined(path):
            absent.append(node_id)
    assert not absent, absent
