"""A Neo4j Browser guide for exploring a memory graph, built from ``cypher/browser/``.

Each ``NN_name.cypher`` file there is one slide: its first comment line is the title, the
other comment lines the explanation, the rest a runnable query. Served at ``/browser/guide``
so a person types ``:play http://localhost:8000/browser/guide`` in Neo4j Browser. The same
files are run by the tests, so the guide cannot rot.
"""

from __future__ import annotations

import html
from dataclasses import dataclass

from graphmem.db.statements import cypher_root, statement


@dataclass(frozen=True)
class Slide:
    name: str
    title: str
    text: str
    query: str


def slides() -> list[Slide]:
    found = []
    for path in sorted((cypher_root() / "browser").glob("*.cypher")):
        comments = [line.lstrip()[2:].strip() for line in path.read_text("utf-8").splitlines()
                    if line.lstrip().startswith("//")]
        name = f"browser/{path.stem}"
        found.append(Slide(name, comments[0], " ".join(comments[1:]), statement(name)))
    return found


def render(example_ns: str = "demo/alice") -> str:
    """The guide as the HTML slide deck Neo4j Browser plays."""
    intro = (
        "<h3>Exploring graphmem memory</h3><p class='lead'>Episodes are the lossless log, "
        "facts are typed edges between entities backed by (:Fact) statement nodes, summaries "
        "compress sessions. Everything carries <code>ns</code>, the namespace.</p>"
        "<p>Set the parameters the slides use (change the values to yours):</p>"
        + _runnable(f":param ns => '{example_ns}'")
        + _runnable(":param session => 's1'")
        + _runnable(":param entity => 'Alice'")
        + _runnable(":param fact => 'fact_…'"))
    decks = [intro] + [
        f"<h3>{html.escape(s.title)}</h3><p class='lead'>{html.escape(s.text)}</p>"
        + _runnable(s.query) for s in slides()]
    body = "".join(f"<slide class='row-fluid'><div class='col-sm-12'>{deck}</div></slide>"
                   for deck in decks)
    return f"<article class='guide'><carousel class='deck container-fluid'>{body}" \
           "</carousel></article>\n"


def _runnable(query: str) -> str:
    return f"<pre class='pre-scrollable code runnable'>{html.escape(query)}</pre>"
