"""Operating a store over time, with the CLI as an operator runs it, on Neo4j servers of
this module's own (free ports, homes in this checkout): a store written by an older release
(tests/fixtures/release_38cad69, dumped by that release) upgrades under the current code and
answers as it did then; `graphmem backup` dumps a running store, `graphmem restore` loads the
dump into a fresh home, and that home answers exactly as the original did, keys included.

One server start is shared: the upgraded store is also the one backed up."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from graphmem.core.config import Settings
from tests.fixtures.release_38cad69 import make_store
from tests.fixtures.release_38cad69.make_store import QUESTIONS, ask, graphql, write
from tests.support import ROOT
from tests.support.server import free_port, serving

pytestmark = pytest.mark.own_processes  # bin/test runs it beside the rest

FIXTURE = Path(make_store.__file__).resolve().parent
OLD = json.loads((FIXTURE / "answers.json").read_text("utf-8"))


@dataclass(frozen=True)
class Home:
    """A graphmem home with a Neo4j of its own, and the CLI run on it."""

    path: Path
    env: dict[str, str]

    @classmethod
    def fresh(cls, under: Path, name: str, jars: Path) -> Home:
        path = under / name
        # The suite's Neo4j jars, linked: Maven would copy the same 137 MB again.
        shutil.copytree(jars, path / "neo4j" / "lib", copy_function=_link)
        return cls(path, {"GRAPHMEM_HOME": str(path),
                          "GRAPHMEM_LOCAL_BOLT_PORT": str(free_port()),
                          "GRAPHMEM_LOCAL_HTTP_PORT": str(free_port()),
                          # A cold store on a busy machine: no write cut short
                          "GRAPHMEM_NEO4J_TIMEOUT_S": "60"})

    def cli(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "graphmem", *args], text=True,
                              capture_output=True, env={**os.environ, **self.env},
                              timeout=300, check=False)

    def stop(self) -> None:
        self.cli("neo4j", "stop")


def _link(source: str, target: str) -> None:
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)


@pytest.fixture(scope="module")
def homes(settings: Settings) -> Iterator[Path]:
    under = ROOT / ".graphmem" / f"test-operations-{uuid.uuid4().hex[:8]}"
    under.mkdir(parents=True)
    try:
        yield under
    finally:
        shutil.rmtree(under, ignore_errors=True)


@pytest.fixture(scope="module")
def upgraded(settings: Settings, homes: Path) -> Iterator[tuple[Home, str]]:
    """The old release's dump restored into a fresh home and served by the current code
    (its migrations run at start)."""
    home = Home.fresh(homes, "upgraded", settings.local_neo4j_home / "lib")
    restored = home.cli("restore", str(FIXTURE / "store.dump"))
    assert restored.returncode == 0, restored.stderr
    try:
        assert home.cli("neo4j", "start").returncode == 0
        with serving(**home.env) as url:
            yield home, f"{url}/graphql"
    finally:
        home.stop()


def found(answer: dict[str, Any]) -> set[tuple[str, str]]:
    """What a search found, whatever its order and scores."""
    return {(hit["kind"], json.dumps({k: v for k, v in hit.items() if k != "kind" and v},
                                     sort_keys=True))
            for hit in answer["search"]["hits"]}


def test_a_store_written_by_an_older_release_answers_as_it_did(
        upgraded: tuple[Home, str]) -> None:
    """Episodes, facts, their history, provenance and the summary are as that release gave
    them (ids, texts, times); its key still reads; search finds what it found; recall gives
    the current fact, never the corrected one."""
    _, url = upgraded
    now = ask(url, OLD["reader_key"], OLD["current_fact"], OLD["namespace"])
    then = OLD["answers"]
    for name in ("episodes", "facts", "history", "provenance", "summary"):
        assert now[name] == then[name], name
    assert found(now["search"]) >= found(then["search"])
    recalled = [piece["text"] for piece in now["recall"]["recall"]["pieces"]]
    assert any("Lisbon" in text for text in recalled), recalled
    assert not any("Valencia" in text for text in recalled), recalled


def test_a_backup_restored_into_a_fresh_home_answers_as_the_store_did(
        settings: Settings, homes: Path, upgraded: tuple[Home, str]) -> None:
    """`graphmem backup` stops the running store's Neo4j, dumps it (owner-only) and starts it
    again; `graphmem restore` loads the dump into a fresh home, whose answers (facts,
    history, provenance, search, recall; this release's memory and the old one's) are the
    original's, and whose keys are the original's. A store that holds memory is replaced
    only with --force; an existing dump file only with --force."""
    source, url = upgraded
    made = source.cli("keys", "create", "before-backup", "--namespace", "now/*")
    assert made.returncode == 0, made.stderr
    key = made.stdout.strip()
    current = write(url, key, "now/sam")
    before = {"now": ask(url, key, current, "now/sam"),
              "old": ask(url, OLD["reader_key"], OLD["current_fact"], OLD["namespace"])}
    dump = homes / "store.dump"

    backed = source.cli("backup", str(dump))
    assert backed.returncode == 0, backed.stderr
    assert "Neo4j is up again" in backed.stdout and " s" in backed.stdout, backed.stdout
    assert dump.stat().st_mode & 0o777 == 0o600
    again = source.cli("backup", str(dump))
    assert again.returncode == 1 and "--force" in again.stderr, again.stderr
    nowhere = source.cli("backup", str(homes / "missing" / "store.dump"))
    assert nowhere.returncode == 2 and "no folder" in nowhere.stderr, nowhere.stderr

    fresh = Home.fresh(homes, "restored", settings.local_neo4j_home / "lib")
    try:
        restored = fresh.cli("restore", str(dump))
        assert restored.returncode == 0, restored.stderr
        assert "restored neo4j" in restored.stdout and " s" in restored.stdout, restored.stdout
        assert fresh.cli("neo4j", "start").returncode == 0
        with serving(**fresh.env) as fresh_url:
            after = {"now": ask(f"{fresh_url}/graphql", key, current, "now/sam"),
                     "old": ask(f"{fresh_url}/graphql", OLD["reader_key"],
                                OLD["current_fact"], OLD["namespace"])}
            assert after == before
            refused = fresh.cli("restore", str(dump))
            assert refused.returncode == 1 and "--force" in refused.stderr, refused.stderr
            assert _facts(f"{fresh_url}/graphql", key) == _facts(url, key)  # left as it was
        # The original answers the same after its own stop and start.
        assert _facts(url, key) == before["now"]["history"]
    finally:
        fresh.stop()


def _facts(url: str, key: str) -> dict[str, Any]:
    return graphql(url, key, QUESTIONS["history"], ns="now/sam")


@pytest.mark.parametrize("command", ["backup", "restore"])
def test_an_external_neo4j_is_not_ours_to_stop(command: str, tmp_path: Path) -> None:
    """The commands refuse a server graphmem does not run, before touching anything, and
    point to what to run there instead."""
    dump = tmp_path / "store.dump"
    if command == "restore":
        dump.write_bytes(b"not read")
    env = {**os.environ, "GRAPHMEM_NEO4J_URI": "bolt://127.0.0.1:1",
           "GRAPHMEM_NEO4J_PASSWORD": "unused"}
    done = subprocess.run([sys.executable, "-m", "graphmem", command, str(dump)], env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode != 0
    assert "GRAPHMEM_NEO4J_URI is set: graphmem does not manage that server" in done.stderr
    assert "neo4j-admin" in done.stderr + done.stdout  # what to run instead
    assert dump.exists() == (command == "restore") and not list(tmp_path.glob("*.tmp*"))
