"""No module of graphmem holds mutable state of the process: what lives as long as the
process (keyrings, stores, hooks, caches of what a database told) is held by the runtime or
the ``Database`` each app, CLI command or test makes, and passed down, so two apps in one
process (or two tests) share none of it (STYLE 11).

The walk imports every module and looks at what its own top-level statements bind: a
``global`` statement anywhere fails, and so does a value that can change (a dict, list or
set, an object of a class that is not frozen, a ``functools`` cache), unless it is one of
the kinds below that are constant by nature, or named in ``ALLOWED`` with the reason it is
not state.
"""

from __future__ import annotations

import ast
import contextvars
import dataclasses
import datetime
import enum
import importlib
import ipaddress
import logging
import pathlib
import re
import types
import typing
from pathlib import Path

from prometheus_client.metrics import MetricWrapperBase

import graphmem

PACKAGE = Path(graphmem.__file__).resolve().parent

# (module, name): why it may stay a module-level value. Tables are read, never written.
ALLOWED = {
    ("graphmem.api.server.schema", "DATETIME"): "a constant: strawberry's DateTime, our parser",
    ("graphmem.console.assets", "VENDOR"): "a constant table: the browser libraries' files",
    ("graphmem.console.routes", "_COMMON"): "a constant table: every page's headers",
    ("graphmem.core.config", "DEFAULT_SEARCH_WEIGHTS"): "a default setting, never written",
    ("graphmem.core.time_expressions", "_NTH"): "a constant table: ordinal words",
    ("graphmem.core.time_expressions", "_UNIT_DAYS"): "a constant table: days per unit",
    ("graphmem.core.time_expressions", "_WORDS"): "a constant table: number words",
    ("graphmem.db.migration_steps", "STEPS"): "a constant table: each migration's step",
    ("graphmem.episodes.store", "CHANGE_NOTE"): "a constant: the metadata of a change note",
    ("graphmem.facts.policies", "DEFAULTS"): "a constant table: the default policies",
    ("graphmem.facts.resolution", "SOURCE_RANK"): "a constant table: sources by strength",
    ("graphmem.facts.verification", "_STOPWORDS"): "a constant set of words",
    ("graphmem.local_neo4j.server", "_JVM_FLAGS"): "a constant list of JVM flags",
    ("graphmem.portability.format", "LABELS"): "a constant table: the export's labels",
    ("graphmem.portability.format", "REFERENCES"): "a constant table: the export's links",
    ("graphmem.portability.graphiti", "_KINDS"): "a constant table: Graphiti's kinds",
    ("graphmem.portability.validation", "READERS"): "a constant table: a reader per label",
    ("graphmem.portability.validation", "RULES"): "a constant table: a rule per label",
    ("graphmem.retrieval.search.engine", "_FIELDS"): "a constant table: fields per kind",
    # The CLI's command tables, built when the module is imported and only read after.
    **{("graphmem.cli", name): "the CLI's commands" for name in (
        "app", "encryption_app", "keys_app", "neo4j_app", "schema_app")},
    # Caches of pure functions of their arguments or of files the package ships: what
    # they hold is the same in every app, and nothing a test does can make it stale.
    ("graphmem.core.identifiers", "normalise_predicate"): "a pure function's cache",
    ("graphmem.core.identifiers", "relationship_type"): "a pure function's cache",
    ("graphmem.db.statements", "statement"): "the package's own Cypher files, read once",
    ("graphmem.db.statements", "cypher_root"): "where the package's Cypher files are",
    ("graphmem.db.database", "_takes_ns_key"): "a fact of a statement's text",
    ("graphmem.api.server.fields", "_data_fields"): "a fact of the package's types",
    ("graphmem.portability.validation", "_hints"): "a fact of the package's types",
    ("graphmem.retrieval.embeddings", "_wordllama"): "a model read from the wheel's files",
    ("graphmem.retrieval.tokens", "_tokenizer"): "a tokenizer read from shipped files",
    ("graphmem.retrieval.transformer", "_load"): "a model read from the home, per jar and threads",
}
# Constant by nature: values that cannot change, and values that hold per task or per
# process by design (a ContextVar is per task; loggers and Prometheus metrics are the
# process's registries, which /metrics and logging report as one).
_CONSTANT = (
    type(None), bool, int, float, complex, str, bytes, frozenset, range, re.Pattern, enum.Enum,
    pathlib.PurePath, datetime.datetime, datetime.timedelta, ipaddress.IPv4Network,
    ipaddress.IPv6Network, types.FunctionType, types.BuiltinFunctionType, type,
    types.ModuleType, types.MappingProxyType, typing.TypeVar, typing.NewType, types.GenericAlias,
    types.UnionType, contextvars.ContextVar, logging.Logger, MetricWrapperBase)


def _constant(value: object) -> bool:
    if isinstance(value, _CONSTANT) or type(value).__module__ in ("typing", "typing_extensions"):
        return True
    if isinstance(value, tuple):
        return all(_constant(item) for item in value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return bool(type(value).__dataclass_params__.frozen)  # type: ignore[attr-defined]
    return False


def _modules() -> list[tuple[str, Path]]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        dotted = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if dotted != "graphmem.__main__":
            found.append((dotted.removesuffix(".__init__"), path))
    return found


def _bound(tree: ast.Module) -> set[str]:
    """The names the module's own top-level statements bind (imports aside)."""
    names = set()
    for node in tree.body:
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AnnAssign):
            targets = [node.target]
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names.add(node.name)
        names |= {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
    return names


def _state(module: str, path: Path) -> list[str]:
    tree = ast.parse(path.read_text("utf-8"))
    found = [f"{module}:{node.lineno} declares global {', '.join(node.names)}"
             for node in ast.walk(tree) if isinstance(node, ast.Global)]
    loaded = importlib.import_module(module)
    for name in sorted(_bound(tree) - {"__all__"}):
        value = getattr(loaded, name, None)
        if (module, name) in ALLOWED:
            continue
        if hasattr(value, "cache_info"):
            found.append(f"{module}.{name} caches for the whole process")
        elif not isinstance(value, types.FunctionType) and not _constant(value):
            found.append(f"{module}.{name} is a {type(value).__name__} the process shares")
    return found


def test_no_module_holds_process_state() -> None:
    found = [line for module, path in _modules() for line in _state(module, path)]
    assert not found, "move it onto the runtime or the Database (or allow a constant):\n" + \
        "\n".join(found)


def test_every_allowance_names_what_is_there() -> None:
    for module, name in ALLOWED:
        assert hasattr(importlib.import_module(module), name), (module, name)


def test_the_walk_sees_state(tmp_path: Path, monkeypatch: typing.Any) -> None:
    """A module with a cache, a registry and a global, and one with only constants."""
    (tmp_path / "stateful_example.py").write_text(
        "import functools\nSEEN = {}\nclass Box:\n    pass\nBOX = Box()\n_hook = None\n"
        "def set_hook(h):\n    global _hook\n    _hook = h\n"
        "@functools.cache\ndef loaded(path):\n    return path\n")
    (tmp_path / "constant_example.py").write_text(
        "import re\nLIMIT = 3\nNAMES = ('a', 'b')\nWORD = re.compile('w')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    found = _state("stateful_example", tmp_path / "stateful_example.py")
    assert [line.split(" ", 1)[1] for line in found] == [
        "declares global _hook", "is a Box the process shares",
        "is a dict the process shares", "caches for the whole process"]
    assert _state("constant_example", tmp_path / "constant_example.py") == []
