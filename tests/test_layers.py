"""Imports only go down: each part of the package may import only the parts below it.

    __main__                 the `graphmem` command: runs the CLI (imported only then)
    cli, app                 entry points: the service, the worker, the CLI
    equipment                a database equipped as the settings say (keys, archive, spans)
    console                  plain HTTP beside /graphql: the console and GraphiQL pages
                             (clients of the GraphQL API), the export stream, the Neo4j
                             Browser guide
    api                      GraphQL types and resolvers, a thin layer over the domain: a
                             module per topic over server/, which imports no topic
    pipelines                extraction and summarising jobs, run by workers
    portability              export and import of a namespace (it carries every record kind
                             below, and reads each as its own package does)
    governance               erasure, retention, the audit trail, statistics
    retrieval                search, recall, embeddings, the fact cache
    facts                    statements, provenance, conflicts and their resolution, entities
    archive                  tiered storage: old episodes' content in an archive store
    episodes                 the append-only log
    summaries                compressed context
    jobs                     the job queue and pipeline switches (storage-level)
    events                   the outbox of changes, and following it
    security                 API keys, rate limits, encryption at rest
    db                       Neo4j: connection, named statements, migrations
    local_neo4j              the Neo4j graphmem runs itself
    observability            metrics, traces, logs
    core                     settings, errors, namespaces, identifiers, paging, time and
                             time expressions

Read from the code's own import statements (a syntax walk, so imports inside functions count
too); a test fails naming the import that climbs.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import graphmem

LAYERS = ["__main__", "cli", "app", "equipment", "console", "api", "pipelines", "portability",
          "governance", "retrieval", "facts", "archive", "episodes", "summaries", "jobs", "events",
          "security", "db", "local_neo4j", "observability", "core"]
PACKAGE = Path(graphmem.__file__).resolve().parent


def _part(module: str) -> str | None:
    """The layer a dotted module belongs to (None: the package root itself)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else None


def _imports(path: Path) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "graphmem":
                found += [(node.lineno, f"graphmem.{a.name}") for a in node.names]
            elif node.module.startswith("graphmem."):
                found.append((node.lineno, node.module))
        elif isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names if a.name.startswith("graphmem.")]
    return found


def test_every_part_of_the_package_has_a_layer() -> None:
    parts = {p.stem for p in PACKAGE.iterdir()
             if (p.is_dir() and (p / "__init__.py").exists()) or
             (p.suffix == ".py" and p.stem != "__init__")}
    assert parts == set(LAYERS), "give the new part of the package its place in LAYERS"


def test_imports_only_go_down() -> None:
    climbing = []
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE)
        source = relative.parts[0].removesuffix(".py")
        if source == "__init__":
            continue
        for line, module in _imports(path):
            target = _part(module)
            if target is None or target == source:
                continue
            if LAYERS.index(target) <= LAYERS.index(source):
                climbing.append(f"graphmem/{relative}:{line} imports {module} ({source} is "
                                f"below {target})")
    assert not climbing, "\n".join(climbing)


def test_the_api_server_imports_no_topic() -> None:
    """``api/server/`` serves whatever schema it is given: it imports nothing of ``api``
    outside itself (the topic modules and ``api/schema.py`` sit above it)."""
    server = PACKAGE / "api" / "server"
    climbing = [f"graphmem/{path.relative_to(PACKAGE)}:{line} imports {module}"
                for path in sorted(server.rglob("*.py")) for line, module in _imports(path)
                if module.startswith("graphmem.api") and
                not module.startswith("graphmem.api.server")]
    assert not climbing, "\n".join(climbing)


def test_the_check_sees_a_climbing_import(tmp_path: Path) -> None:
    written = tmp_path / "example.py"
    written.write_text("from graphmem.api import schema\nfrom graphmem import db\n"
                       "def f():\n    import graphmem.app\n")
    assert [m for _, m in _imports(written)] == ["graphmem.api", "graphmem.db", "graphmem.app"]


def _layout() -> str:
    readme = (PACKAGE.parent / "README.md").read_text("utf-8")
    return readme.split("\n## Layout\n", 1)[1].split("\n## ", 1)[0]


def _entries(layout: str) -> dict[str, str]:
    """The tree's entries (``api/``, ``cli.py app.py``, ``cypher/``…) with their text, lines
    that continue one included."""
    tree = layout.split("```text\ngraphmem/\n", 1)[1].split("```", 1)[0]
    entries: dict[str, str] = {}
    name = ""
    for line in tree.splitlines():
        if (line.startswith("  ") and not line.startswith("   ")) or not line.startswith(" "):
            name, _, text = line.strip().partition("  ")
            entries[name] = text
        else:
            entries[name] += " " + line.strip()
    return entries


def test_the_readme_layout_names_every_part_and_module() -> None:
    """README's Layout: its diagram names every layer of LAYERS in order, and its tree every
    package of graphmem with each of its modules (and subpackages)."""
    layout = _layout()
    diagram = layout.split("```text\n", 1)[1].split("```", 1)[0]
    named = [w for w in re.split(r"[\s,─▶]+", diagram) if w]
    assert named == LAYERS, "the Layout diagram and LAYERS list the layers differently"
    entries = _entries(layout)
    missing = []
    for part in LAYERS:
        package = PACKAGE / part
        if not package.is_dir():
            if not any(f"{part}.py" in name.split() for name in entries):
                missing.append(f"{part}.py")
            continue
        if f"{part}/" not in entries:
            missing.append(f"{part}/")
            continue
        words = set(re.findall(r"[a-z0-9_]+/?", entries[f"{part}/"]))
        for path in sorted(package.rglob("*.py")):
            if path.stem != "__init__" and path.stem not in words:
                missing.append(f"{part}/{path.relative_to(package)}")
        for sub in sorted(p for p in package.iterdir() if (p / "__init__.py").exists()):
            if f"{sub.name}/" not in words:
                missing.append(f"{part}/{sub.name}/")
    assert not missing, "README's Layout does not name: " + ", ".join(missing)
