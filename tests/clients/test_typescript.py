"""clients/typescript (the npm package graphmem-client) against a real `graphmem serve`: its
Node test suite (`npm test`: every call, the errors and retries, the tools, the example), its
generated layer (drift from the SDL, the queries and the Python tools), and its packed tarball,
installed into an empty directory, where the ```js blocks of its README and of README.md run as
written."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from graphmem.db.database import Database
from graphmem.security.auth import create_key
from tests.support import ROOT
from tests.support.server import serving

TS = ROOT / "clients" / "typescript"
GENERATED = TS / "src" / "generated"
_INSTALL = "bin/_bootstrap.sh installs it (npm ci in clients/typescript)"
# The small caps the batching test runs into, and a rate the retry test exhausts.
LIMITED = {"GRAPHMEM_MAX_BATCH": "50", "GRAPHMEM_MAX_BODY_BYTES": "65536",
           "GRAPHMEM_RATE_LIMIT_PER_MINUTE": "30"}


@pytest.fixture(scope="module")
def services(db: Database) -> Iterator[tuple[str, str]]:
    with serving() as url, serving(**LIMITED) as limited:
        yield f"{url}/graphql", f"{limited}/graphql"


@pytest.fixture
async def prefix(db: Database) -> AsyncIterator[str]:
    """The namespace under which the Node tests make theirs; all deleted afterwards."""
    name = f"test/ts-{uuid.uuid4().hex[:12]}"
    yield name
    async with db.driver.session(database=db.name) as session:
        result = await session.run(
            "MATCH (n) WHERE n.ns = $ns OR n.ns STARTS WITH $under "
            "CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 1000 ROWS",
            {"ns": name, "under": f"{name}/"})
        await result.consume()


def _npm(*args: str, cwd: Path = TS, env: dict[str, str] | None = None,
         timeout: float = 300) -> str:
    if not (TS / "node_modules").is_dir():
        pytest.fail(f"clients/typescript/node_modules is missing: {_INSTALL}")
    run = subprocess.run(["npm", *args], cwd=cwd, env={**os.environ, **(env or {})},
                         capture_output=True, text=True, timeout=timeout)
    assert run.returncode == 0, (f"npm {' '.join(args)}:\n{_failures(run.stdout)}\n"
                                 f"{run.stderr[-5000:]}")
    return run.stdout


def _failures(tap: str) -> str:
    """The failed tests of a TAP report, each with its diagnosis (else the report's end)."""
    failed = re.findall(r"^ *not ok .*?^ *\.\.\.$", tap, re.S | re.M)
    return "\n".join(failed) if failed else tap[-20000:]


async def test_the_node_suite_passes_against_the_service(
        services: tuple[str, str], admin_token: str, db: Database, prefix: str) -> None:
    url, limited = services
    other = await create_key(db, "ts-client-other", grants=["elsewhere/*"], admin=False)
    rated = await create_key(db, "ts-client-rated", grants=[], admin=True)
    out = _npm("test", env={
        "GRAPHMEM_URL": url, "GRAPHMEM_KEY": admin_token, "GRAPHMEM_TEST_NAMESPACE": prefix,
        "GRAPHMEM_TEST_LIMITED_URL": limited, "GRAPHMEM_TEST_LIMITED_KEY": rated,
        "GRAPHMEM_TEST_OTHER_KEY": other})
    written = sum(len(re.findall(r"^test\(", path.read_text("utf-8"), re.M))
                  for path in (TS / "test").glob("*.test.ts"))
    passed = re.search(r"^# pass (\d+)$", out, re.M)
    assert passed and int(passed.group(1)) == written, out[-3000:]  # none skipped


def test_the_generated_layer_matches_the_schema_queries_and_python_tools(tmp_path: Path) -> None:
    config = json.loads((TS / "codegen.json").read_text("utf-8"))
    (target, settings), = config["generates"].items()
    fresh = tmp_path / "graphql.ts"
    config["schema"] = str(ROOT / "schema" / "graphmem.graphql")
    config["documents"] = str(ROOT / "clients" / "python" / "queries" / "*.graphql")
    config["generates"] = {str(fresh): settings}
    (tmp_path / "codegen.json").write_text(json.dumps(config), "utf-8")
    run = subprocess.run([str(TS / "node_modules" / ".bin" / "graphql-codegen"), "--config",
                          str(tmp_path / "codegen.json"), "--silent"], cwd=TS,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    assert fresh.read_text("utf-8") == (TS / target).read_text("utf-8"), (
        "clients/typescript/src/generated/graphql.ts is stale: run `npm run generate` in "
        "clients/typescript and commit the result")
    spec = importlib.util.spec_from_file_location("export_tools",
                                                  TS / "codegen" / "export_tools.py")
    assert spec and spec.loader
    exporter = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(exporter)
    assert exporter.render() == (GENERATED / "tools.ts").read_text("utf-8"), (
        "clients/typescript/src/generated/tools.ts is stale: the Python tools changed; run "
        "`npm run generate` in clients/typescript and commit the result")


_JS = re.compile(r"^```js\n(?P<code>.*?)^```", re.S | re.M)
_PRINTS = re.compile(r"prints: (.+)$", re.M)
# The ```js blocks run as written: the package's quick start, and the agent section's.
READMES = (TS / "README.md", ROOT / "README.md")


async def test_the_packed_package_runs_the_readmes_js_from_an_empty_directory(
        services: tuple[str, str], admin_token: str, prefix: str, tmp_path: Path) -> None:
    url, _ = services
    packed = json.loads(_npm("pack", "--json", "--pack-destination", str(tmp_path)))
    files = sorted(entry["path"] for entry in packed[0]["files"])
    assert "dist/index.js" in files and "dist/index.d.ts" in files and "README.md" in files
    assert not [f for f in files if f.startswith(("src/", "test/", "build/", "node_modules/"))]
    empty = tmp_path / "app"
    empty.mkdir()
    _npm("install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error",
         str(tmp_path / packed[0]["filename"]), cwd=empty)
    blocks = [(readme, block["code"]) for readme in READMES
              for block in _JS.finditer(readme.read_text("utf-8"))]
    assert len(blocks) == len(READMES), "each README has one ```js block, the quick start"
    for number, (readme, code) in enumerate(blocks):
        (empty / "quickstart.mjs").write_text(code, "utf-8")
        run = subprocess.run(["node", "quickstart.mjs"], cwd=empty, capture_output=True,
                             text=True, timeout=60,
                             env={**os.environ, "GRAPHMEM_URL": url, "GRAPHMEM_KEY": admin_token,
                                  "GRAPHMEM_NAMESPACE": f"{prefix}/quick-start-{number}"})
        assert run.returncode == 0, f"{readme}:\n{run.stdout}{run.stderr}"
        expected = _PRINTS.findall(code)
        assert expected, f"{readme}: the block says nothing of what it prints (// prints: ...)"
        for printed in expected:
            assert printed.strip() in run.stdout, f"{readme}:\n{run.stdout}{run.stderr}"
    shutil.rmtree(empty)
