"""A Neo4j Browser guide for exploring a memory graph, built from ``cypher/console/browser/``.

Each ``NN_name.cypher`` file there is one slide: its first comment line is the title, the
other comment lines the explanation, the rest a runnable query. Served at ``/browser/guide``
so a person types ``:play http://localhost:8000/browser/guide`` in Neo4j Browser. The same
files are run by the tests, so the guide cannot rot.
"""

from __future__ import annotations

import html
from dataclasses import dataclass

from graphmem.db.statements import cypher_root, statement

# The Browser style the guide applies (``:style <url>``). GraSS styles by label and by
# relationship type only, never by property: a fact's edge is typed by its predicate, so its
# status cannot colour it there; the links that *mean* dispute and supersession can
# (CANDIDATE from an open Conflict, SUPERSEDES, REVISES, RETRACTED_IN), and they are coloured.
# A reference to a turn another device holds (federated memory) reads "held on <device>".
STYLE = """node {
  diameter: 50px; color: #A5ABB6; border-color: #9AA1AC; border-width: 2px;
  text-color-internal: #FFFFFF; font-size: 10px; caption: "<id>";
}
relationship {
  color: #A5ABB6; shaft-width: 2px; font-size: 9px; padding: 3px;
  text-color-external: #000000; text-color-internal: #FFFFFF; caption: "<type>";
}
node.Entity { color: #4C8EDA; border-color: #2870C2; diameter: 65px; caption: "{name}"; }
node.Value { color: #FFE081; border-color: #9F8A45; text-color-internal: #2A2C34;
  diameter: 45px; caption: "{value}"; }
node.Fact { color: #C990C0; border-color: #B261A5; caption: "{text}"; }
node.Episode { color: #8DCC93; border-color: #5DB665; text-color-internal: #2A2C34;
  caption: "{content}"; }
node.DeviceTurn { color: #D9F2DC; border-color: #5DB665; text-color-internal: #2A2C34;
  caption: "held on {device}"; }
node.Session { color: #57C7E3; border-color: #23B3D7; caption: "{session_id}"; }
node.Summary { color: #F79767; border-color: #F36924; caption: "{text}"; }
node.Conflict { color: #DA113B; border-color: #A30D2C; caption: "{predicate}"; }
node.EntityMerge { color: #D9C8AE; border-color: #C0A378; text-color-internal: #2A2C34;
  caption: "{from_name}"; }
relationship.CANDIDATE { color: #DA113B; shaft-width: 4px; }
relationship.SUPERSEDES { color: #F36924; shaft-width: 4px; }
relationship.REVISES { color: #F79767; shaft-width: 3px; }
relationship.RETRACTED_IN { color: #6F6F6F; shaft-width: 3px; }
relationship.EVIDENCED_BY { color: #5DB665; }
relationship.EVIDENCED_BY_TURN { color: #5DB665; shaft-width: 1px; }
relationship.CITES { color: #F79767; }
"""


@dataclass(frozen=True)
class Slide:
    name: str
    title: str
    text: str
    query: str


FOLDER = "console/browser"  # under cypher/


def slides() -> list[Slide]:
    found = []
    for path in sorted((cypher_root() / FOLDER).glob("*.cypher")):
        comments = [line.lstrip()[2:].strip() for line in path.read_text("utf-8").splitlines()
                    if line.lstrip().startswith("//")]
        name = f"{FOLDER}/{path.stem}"
        found.append(Slide(name, comments[0], " ".join(comments[1:]), statement(name)))
    return found


def render(base_url: str = "http://localhost:8000", example_ns: str = "demo/alice") -> str:
    """The guide as the HTML slide deck Neo4j Browser plays; ``base_url`` is where graphmem
    answers (the style is fetched from there)."""
    style = f"style {base_url.rstrip('/')}/browser/style.grass"
    intro = (
        "<h3>Exploring graphmem memory</h3><p class='lead'>Episodes are the lossless log, "
        "facts are typed edges between entities backed by (:Fact) statement nodes, summaries "
        "compress sessions. Everything carries <code>ns</code>, the namespace.</p>"
        f"<p><a exec-topic='{html.escape(style)}'>Apply graphmem's style</a>: entities show "
        "their names, values their value, (:Fact) statements their sentence; an open "
        "conflict and its disputed candidates are red, supersession orange (or run "
        f"<code>:{html.escape(style)}</code>; <code>:style reset</code> undoes it).</p>"
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
