"""Loads the named Cypher statements kept under ``cypher/``.

Every statement the service runs lives in a file there, named by its path:
``statement("episodes/create")`` is ``cypher/episodes/create.cypher``. Values are always
``$parameters``; the files are the only query text, hence ``LiteralString``.

``cypher/`` mirrors the package tree: a statement lives in the folder of the package whose
modules run it, so its name starts with that package's path (``retrieval/search/find`` is
run by ``graphmem/retrieval/search/`` only); a folder under it that is no subpackage groups
a topic (``facts/conflicts/open`` is ``facts``'). A module wanting another package's
statement calls a function of that package. ``tests/test_statement_ownership.py`` holds
every module to it.

The write path's statements start with ``CYPHER replan=skip``. Neo4j replans a cached
statement when the store's statistics have moved far enough, and while a store grows that
happened in the middle of writes: a 500-episode or 500-fact batch stalled 100–400 ms per
statement. Their plans cannot improve with the statistics (every lookup is a hinted index
seek or a MERGE on a unique key), so they keep the plan they have. Only statements on the
per-turn list of ``tests/db/test_query_plans.py`` may say so: it checks they seek.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import LiteralString


@cache
def cypher_root() -> Path:
    """The repository's ``cypher/`` in a checkout, or the copy packed into a wheel."""
    package = Path(__file__).resolve().parent.parent  # graphmem/, from graphmem/db/
    for candidate in (package.parent / "cypher", package / "_cypher"):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError("cypher/ directory not found next to the graphmem package")


@cache
def statement(name: str) -> LiteralString:
    text = (cypher_root() / f"{name}.cypher").read_text("utf-8")
    return _strip_comments(text).strip().rstrip(";")


def split_statements(text: str) -> list[LiteralString]:
    """Split a multi-statement file (migrations) on ``;`` at line ends."""
    parts = (part.strip().rstrip(";").strip() for part in _strip_comments(text).split(";\n"))
    return [part for part in parts if part]


def _strip_comments(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("//"))
