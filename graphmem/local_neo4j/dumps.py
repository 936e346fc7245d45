"""Whole-store backups of the local server with Neo4j's own ``neo4j-admin database dump`` and
``load``: every namespace, key, job and migration of one database in one file, restored as it
was. Neo4j Community dumps only a stopped database, so the server stops for the dump (the
caller holds it stopped: ``LocalNeo4j.stopped``)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from graphmem.core.errors import LocalNeo4jError
from graphmem.local_neo4j.server import LocalNeo4j, first_reason


def _admin(local: LocalNeo4j, *args: str) -> list[str]:
    java, lib = local.prepare()
    return [str(java), "-cp", f"{lib}/*", "org.neo4j.cli.AdminTool", "database", *args]


def dump(local: LocalNeo4j, database: str, to: Path) -> None:
    """Write ``database``'s dump to ``to``, owner-only (0600) like the home: it holds every
    memory. Written beside it first and renamed, so an interrupted dump leaves no half file
    under the name."""
    if not (local.home / "data" / "databases" / database).is_dir():
        raise LocalNeo4jError(f"{local.home} holds no database {database} yet: nothing to "
                              "back up (graphmem serve makes it)")
    partial = to.with_name(f".{to.name}.partial")
    partial.unlink(missing_ok=True)
    command = _admin(local, "dump", "--to-stdout", "--", database)
    with os.fdopen(os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "wb") as sink:
        result = subprocess.run(command, env=local.admin_env(), stdout=sink,
                                stderr=subprocess.PIPE, text=False, check=False)
    if result.returncode != 0:
        partial.unlink(missing_ok=True)
        raise LocalNeo4jError(f"neo4j-admin could not dump {database}: "
                              f"{first_reason(result.stderr.decode(errors='replace'))}")
    partial.replace(to)


def load(local: LocalNeo4j, database: str, source: Path) -> None:
    """Replace ``database`` with the dump in ``source`` (a fresh home gets it on its first
    start). The store's files are made owner-only, as the server makes its own."""
    command = _admin(local, "load", "--from-stdin", "--overwrite-destination=true", "--",
                     database)
    with source.open("rb") as dumped:
        result = subprocess.run(command, env=local.admin_env(), stdin=dumped,
                                capture_output=True, check=False, umask=0o077)
    if result.returncode != 0:
        output = (result.stdout + result.stderr).decode(errors="replace")
        raise LocalNeo4jError(f"neo4j-admin could not load {source}: {first_reason(output)}")
