"""Each Cypher statement has one owner: the package whose folder it lives in.

``cypher/`` mirrors the package tree: ``cypher/facts/pinned.cypher`` is run only by modules of
``graphmem/facts/``, ``cypher/retrieval/search/find.cypher`` only by ``graphmem/retrieval/
search/``. A statement's owner is the longest leading part of its name that is a package; a
folder below it that is not a subpackage only groups a topic (``cypher/facts/conflicts/`` is
still ``facts``'). A module that needs another package's statement calls that package's
function instead, so what a statement returns is read in one place.

A syntax walk, as ``test_layers.py`` reads imports: every string in a module (docstrings
aside) that starts with a package's name and looks like ``part/part`` is a statement name,
or a folder of them (``db/migrations``), or, written as an f-string, the start of several
(``f"portability/graphiti_{kind}"``). The tests fail naming the module, line and statement.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import graphmem
from graphmem.db.statements import cypher_root

PACKAGE = Path(graphmem.__file__).resolve().parent
CYPHER = cypher_root()
NAME = re.compile(r"[a-z_]+(/[a-z0-9_]+)+")
PREFIX = re.compile(r"[a-z_]+(/[a-z0-9_]+)*/[a-z0-9_]*")

# (module, statement): why the module runs a statement of a package it does not belong to.
ALLOWED = {
    ("graphmem.db.migration_steps", "episodes/relink"): (
        "a migration's step rebuilds every session's chain as the episode store does; db sits "
        "below episodes and may not import it"),
    ("graphmem.summaries.store", "episodes/resolve"): (
        "a summary's covers named by externalId are resolved as episodes' are; summaries sits "
        "below episodes (redaction marks summaries stale) and may not import it"),
}


def _packages() -> set[str]:
    """Every package under graphmem, as a path: ``facts``, ``retrieval/search``."""
    return {p.parent.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("__init__.py")
            if p.parent != PACKAGE}


PACKAGES = _packages()
TOP = {p.split("/")[0] for p in PACKAGES}
FILES = sorted(p.relative_to(CYPHER).with_suffix("").as_posix() for p in CYPHER.rglob("*.cypher"))


def owner(name: str) -> str | None:
    """The package a statement (or a folder of them) belongs to: the longest leading part of
    its name that is a package."""
    parts = name.split("/")
    return next(("/".join(parts[:i]) for i in range(len(parts), 0, -1)
                 if "/".join(parts[:i]) in PACKAGES), None)


def package_of(module: str) -> str:
    """The package a module belongs to, as a path (``""``: the package root, cli and app)."""
    path = PACKAGE.joinpath(*module.split(".")[1:])
    parts = module.split(".")[1:] if path.is_dir() else module.split(".")[1:-1]
    return "/".join(parts)


def uses(source: str) -> list[tuple[int, str, str]]:
    """(line, kind, text) for each statement the source names: kind ``name`` (one
    statement), ``folder`` (every statement in it) or ``prefix`` (every one it starts)."""
    tree = ast.parse(source)
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef,
                                       ast.AsyncFunctionDef))
                  and node.body and isinstance(node.body[0], ast.Expr)}
    pieces = {id(value) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr)
              for value in node.values}  # an f-string's parts: read as the f-string
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr) and node.values \
                and isinstance(node.values[0], ast.Constant) \
                and isinstance(node.values[0].value, str):
            text = node.values[0].value
            if PREFIX.fullmatch(text) and text.split("/")[0] in TOP:
                found.append((node.lineno, "prefix", text))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and id(node) not in docstrings | pieces and NAME.fullmatch(node.value) \
                and node.value.split("/")[0] in TOP:
            kind = "folder" if (CYPHER / node.value).is_dir() else "name"
            found.append((node.lineno, kind, node.value))
    return found


def _modules() -> list[tuple[str, Path]]:
    return [(".".join(("graphmem", *p.relative_to(PACKAGE).with_suffix("").parts))
             .removesuffix(".__init__"), p) for p in sorted(PACKAGE.rglob("*.py"))]


USES = [(module, line, kind, text) for module, path in _modules()
        for line, kind, text in uses(path.read_text("utf-8"))]


def covered(kind: str, text: str) -> list[str]:
    """The statement files a use names."""
    if kind == "folder":
        return [f for f in FILES if f.startswith(text + "/")]
    if kind == "prefix":
        return [f for f in FILES if f.startswith(text)]
    return [text] if text in FILES else []


def strays(found: list[tuple[str, int, str, str]]) -> list[str]:
    """Uses of a statement of another package than the module's, not allowed with a reason."""
    return [f"{module}:{line} runs {text} (of {owner(text)})" for module, line, _, text in found
            if owner(text) != package_of(module) and (module, text) not in ALLOWED]


def test_every_statement_named_has_its_file() -> None:
    missing = [f"{module}:{line} names {text}, which is no {kind} under cypher/"
               for module, line, kind, text in USES if not covered(kind, text)]
    assert not missing, "\n".join(missing)


def test_a_module_runs_only_its_own_packages_statements() -> None:
    found = strays(USES)
    assert not found, ("call a function of the owning package instead (or allow it here "
                       "with the reason):\n" + "\n".join(found))


def test_every_statement_file_is_run() -> None:
    run = {f for _, _, kind, text in USES for f in covered(kind, text)}
    unused = sorted(set(FILES) - run)
    assert not unused, "no module runs: " + ", ".join(unused)


def test_every_statement_lives_under_a_package() -> None:
    homeless = [f for f in FILES if owner(f) is None]
    assert not homeless, "cypher/ mirrors graphmem/'s packages; no package for: " + \
        ", ".join(homeless)


def test_the_allowances_are_still_needed() -> None:
    used = {(module, text) for module, _, _, text in USES}
    stale = [f"{module}: {text}" for module, text in ALLOWED if (module, text) not in used]
    assert not stale, "allowed but no longer run there: " + ", ".join(stale)


def test_a_call_into_another_packages_statement_is_caught() -> None:
    planted = 'async def f(db):\n    return await db.read("facts/pinned", ns="n")\n'
    found = [("graphmem.retrieval.recall_facts", line, kind, text)
             for line, kind, text in uses(planted)]
    assert strays(found) == ["graphmem.retrieval.recall_facts:2 runs facts/pinned (of facts)"]
    assert strays([("graphmem.facts.store", 2, "name", "facts/pinned")]) == []
