"""Resolving artifacts from Maven Central into a folder of graphmem's home, once per pom.

Neo4j's jars and the local embedding model both come this way: one registry, checksummed by
Maven, cached in ``~/.m2``, and nothing fetched again while the pom is unchanged.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from pathlib import Path

INSTALL_HINT = "install it with: apt-get install -y openjdk-17-jre-headless maven"


# Maven's JVM lives a few seconds: C1 alone and the serial collector halve its CPU (8.4 to
# 3.9 CPU-s, 4.7 to 3.0 s, resolving Neo4j from the local repository). The user's MAVEN_OPTS,
# if set, is left as it is.
SHORT_LIVED_JVM = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"


class MavenFailed(Exception):
    """Maven is missing or could not resolve the pom (the caller says what it was for)."""


def copy_dependencies(pom: str, folder: Path) -> Path:
    """The pom's runtime dependencies copied into ``folder`` (its parent holds the pom),
    unless the same pom did so already."""
    stamp = folder / ".pom.sha256"
    digest = hashlib.sha256(pom.encode()).hexdigest()
    if stamp.exists() and stamp.read_text() == digest:
        return folder
    mvn = shutil.which("mvn")
    if mvn is None:
        raise MavenFailed(f"Maven (mvn) not found; {INSTALL_HINT}")
    folder.parent.mkdir(parents=True, exist_ok=True)
    pom_file = folder.parent / f"{folder.name}.pom.xml"
    pom_file.write_text(pom, "utf-8")
    if folder.exists():
        shutil.rmtree(folder)
    result = subprocess.run(
        [mvn, "-q", "-B", "-f", str(pom_file), "dependency:copy-dependencies",
         f"-DoutputDirectory={folder}", "-DincludeScope=runtime"],
        capture_output=True, text=True, check=False,
        env={"MAVEN_OPTS": SHORT_LIVED_JVM, **os.environ},
    )
    if result.returncode != 0:
        tail = (result.stdout + result.stderr).strip().splitlines()[-5:]
        raise MavenFailed(" | ".join(tail))
    stamp.write_text(digest)
    return folder
