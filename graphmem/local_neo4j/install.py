"""Finding Java and resolving the Neo4j jars with Maven into the local home, once."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from importlib import resources
from pathlib import Path

from graphmem.core.errors import LocalNeo4jError
from graphmem.core.maven import INSTALL_HINT, MavenFailed, copy_dependencies

MIN_JAVA = 17


def pom_text() -> str:
    return resources.files("graphmem.local_neo4j").joinpath("pom.xml").read_text("utf-8")


def neo4j_version() -> str:
    """The pinned server version, read from the pom so there is one place to change it."""
    match = re.search(r"<artifactId>neo4j</artifactId><version>([^<]+)</version>", pom_text())
    assert match, "pom.xml must pin org.neo4j:neo4j"
    return match.group(1)


def find_java() -> Path:
    """JAVA_HOME if set, else `java` on PATH; it must be Java 17 or newer."""
    java_home = os.environ.get("JAVA_HOME")
    candidate = Path(java_home) / "bin" / "java" if java_home else None
    if candidate is None or not candidate.exists():
        found = shutil.which("java")
        if found is None:
            raise LocalNeo4jError(f"Java {MIN_JAVA}+ not found; {INSTALL_HINT}")
        candidate = Path(found)
    version = _java_major(candidate)
    if version < MIN_JAVA:
        raise LocalNeo4jError(f"{candidate} is Java {version}; Neo4j 5.26 needs {MIN_JAVA}+")
    return candidate


def _java_major(java: Path) -> int:
    out = subprocess.run([str(java), "-version"], capture_output=True, text=True, check=False)
    match = re.search(r'version "(\d+)(?:\.(\d+))?', out.stderr + out.stdout)
    if not match:
        raise LocalNeo4jError(f"cannot read the version of {java}")
    major = int(match.group(1))
    return int(match.group(2) or 0) if major == 1 else major


def resolve_jars(home: Path) -> Path:
    """Copy the server jars into ``home/lib`` with Maven unless the same pom did so already."""
    try:
        return copy_dependencies(pom_text(), home / "lib")
    except MavenFailed as exc:
        raise LocalNeo4jError(f"Maven could not resolve Neo4j: {exc}") from exc
