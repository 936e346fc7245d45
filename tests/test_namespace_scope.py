"""Structural isolation: every statement the service runs is scoped by namespace.

Rules checked over the text of every statement under cypher/:
- it takes `$ns` (except the few that are deliberately not about one namespace, listed
  with why);
- every node pattern that looks a memory node up by properties carries `ns: $ns` in the
  same map: ids are global, so a lookup by id alone could reach another namespace.
Nodes reached by traversal from a scoped node need no map: relationships never cross
namespaces (every write creates them between nodes of one namespace).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from graphmem.cypher import cypher_root

MEMORY_LABELS = ("Episode", "Fact", "Entity", "Alias", "Value", "Summary", "Session",
                 "Conflict", "PredicatePolicy", "EntityMerge", "EmbedPending", "Job",
                 "PipelineSwitches", "RetentionPolicy")
UNSCOPED = {  # statement -> why it is not about one namespace
    "browser/01_namespaces": "lists the namespaces, for a person exploring in Browser",
    "embeddings/pending": "the service-wide embedding queue; writes back by node id",
    "embeddings/pending_count": "the size of that queue",
    "embeddings/store": "writes vectors to queued nodes by id",
    "embeddings/mark_all": "re-embedding the whole database",
    "embeddings/space": "the database's embedding space",
    "embeddings/record_space": "the database's embedding space",
    "erasure/receipt": "the tombstone outlives the namespace (it holds only a digest)",
    "jobs/claim": "the service-wide job queue; a job carries its namespace to the worker",
    "jobs/reclaim": "puts back jobs of dead workers, whichever namespace",
    "jobs/depth": "the queue-depth gauge",
    "retention/namespaces": "the sweeper's round: which namespaces have policies",
    "encryption/store": "key rotation writes back by id, each row checked against its "
                        "own namespace",
    "jobs/enqueue_regeneration": "the worker's sweep for stale summaries; each job is "
                                 "created in the summary's own namespace",
}
PATTERN = re.compile(r"\(\s*\w*\s*:\s*(" + "|".join(MEMORY_LABELS) + r")\b[^)]*?\{([^}]*)\}")
STATEMENTS = sorted(p for p in cypher_root().rglob("*.cypher")
                    if p.parent.name not in ("migrations", "migration_steps", "system")
                    and "indexes" not in p.name)


def _name(path: Path) -> str:
    return str(path).split("cypher/", 1)[1].removesuffix(".cypher")


@pytest.mark.parametrize("path", STATEMENTS, ids=_name)
def test_statement_is_scoped(path: Path) -> None:
    name = _name(path)
    text = "\n".join(line for line in path.read_text("utf-8").splitlines()
                     if not line.lstrip().startswith("//"))
    if name in UNSCOPED:
        return
    assert "$ns" in text, f"{name} never uses $ns"
    for label, props in PATTERN.findall(text):
        assert re.search(r"\bns\s*:\s*\$ns\b", props), \
            f"{name}: ({label} {{{props}}}) looks a node up without ns: $ns"
