"""Finding Java and resolving the Neo4j jars with Maven into the local home, once."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
from importlib import resources
from pathlib import Path

from graphmem.core.errors import LocalNeo4jError

MIN_JAVA = 17
_INSTALL_HINT = "install it with: apt-get install -y openjdk-17-jre-headless maven"


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
            raise LocalNeo4jError(f"Java {MIN_JAVA}+ not found; {_INSTALL_HINT}")
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
    lib = home / "lib"
    pom = pom_text()
    stamp = lib / ".pom.sha256"
    digest = hashlib.sha256(pom.encode()).hexdigest()
    if stamp.exists() and stamp.read_text() == digest:
        return lib
    mvn = shutil.which("mvn")
    if mvn is None:
        raise LocalNeo4jError(f"Maven (mvn) not found; {_INSTALL_HINT}")
    home.mkdir(parents=True, exist_ok=True)
    (home / "pom.xml").write_text(pom, "utf-8")
    if lib.exists():
        shutil.rmtree(lib)
    result = subprocess.run(
        [mvn, "-q", "-B", "-f", str(home / "pom.xml"), "dependency:copy-dependencies",
         f"-DoutputDirectory={lib}", "-DincludeScope=runtime"],
        capture_output=True, text=True, check=False,
    )
    if result.returncode != 0:
        tail = (result.stdout + result.stderr).strip().splitlines()[-5:]
        raise LocalNeo4jError("Maven could not resolve Neo4j: " + " | ".join(tail))
    stamp.write_text(digest)
    return lib
