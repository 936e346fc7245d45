"""A pip user's install, as issue 39 tried it by hand: both wheels (the service and
graphmem-client) built from this checkout and installed into a fresh venv outside it, with
nothing of the checkout on the path; `graphmem serve` started from an empty directory (its
own home, Neo4j resolved into it from the machine's Maven repository, other ports); the
client's quick start run against it; the console's graph view and GraphiQL loaded in
Debian's Chromium with no 404, no console error and nothing fetched from the internet; then
everything stopped. pip's cache makes the install fast after the first run."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from playwright.async_api import Page, async_playwright, expect

from tests.console.conftest import CHROMIUM, open_page
from tests.support import ROOT
from tests.support.http import HTTP
from tests.support.server import free_port

pytestmark = pytest.mark.own_processes  # bin/test runs it beside the rest

NS = "install/user-1"


@dataclass(frozen=True)
class Installed:
    venv: Path
    env: dict[str, str]  # a user's environment: no checkout on the path, no suite settings

    def run(self, *argv: str, cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess[str]:
        return subprocess.run(argv, cwd=cwd, env=self.env, text=True, capture_output=True,
                              timeout=timeout, check=False)


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    """Wheels built, then installed into a venv under /tmp (outside the checkout)."""
    base = tmp_path_factory.mktemp("pip-user")
    dist = base / "dist"
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w",
                            str(dist), str(ROOT), str(ROOT / "clients" / "python")],
                           capture_output=True, text=True, timeout=300, check=False)
    assert built.returncode == 0, built.stderr
    wheels = sorted(dist.glob("*.whl"))
    assert [w.name.split("-")[0] for w in wheels] == ["graphmem", "graphmem_client"], wheels
    venv = base / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("GRAPHMEM_", "PYTHON", "VIRTUAL_ENV"))}
    env["PATH"] = f"{venv / 'bin'}:" + ":".join(
        p for p in env["PATH"].split(":") if not p.startswith(str(ROOT)) and ".venv" not in p)
    user = Installed(venv, env)
    # --no-compile: the byte-code of some 900 MB of packages is written when imported, not
    # all up front (10 of 49 s here)
    pip = user.run(str(venv / "bin" / "pip"), "install", "-q", "--no-compile",
                   *map(str, wheels), cwd=base, timeout=600)
    assert pip.returncode == 0, pip.stderr
    return user


@pytest.fixture(scope="module")
def served(installed: Installed,
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """`graphmem serve` from an empty directory, on ports of its own; stopped afterwards with
    the Neo4j it started."""
    empty = tmp_path_factory.mktemp("empty-dir")
    port = free_port()
    env = {**installed.env, "GRAPHMEM_LOCAL_BOLT_PORT": str(free_port()),
           "GRAPHMEM_LOCAL_HTTP_PORT": str(free_port()),
           # the default transformer's model would be resolved too: the suite's fast embedder
           "GRAPHMEM_EMBEDDER": "wordllama",
           # a cold store on a busy machine: no first write cut short at 15 s
           "GRAPHMEM_NEO4J_TIMEOUT_S": "60",
           # the suite's JVM options for the Neo4j it starts (bin/test: less CPU to start)
           "GRAPHMEM_LOCAL_JVM_OPTIONS": os.environ.get("GRAPHMEM_LOCAL_JVM_OPTIONS", "")}
    user = Installed(installed.venv, env)
    log = (empty.parent / "serve.log").open("w")
    server = subprocess.Popen([str(installed.venv / "bin" / "graphmem"), "serve", "--port",
                               str(port)], cwd=empty, env=env, stdout=log, stderr=log)
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_ready(url, server, Path(log.name))
        where = re.search(r"API key: in (\S+)", Path(log.name).read_text())
        assert where, Path(log.name).read_text()
        yield url, Path(where.group(1)).read_text().strip()  # the key serve made
    finally:
        try:
            server.terminate()
            try:
                server.wait(timeout=60)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait(timeout=30)
        finally:
            user.run(str(installed.venv / "bin" / "graphmem"), "neo4j", "stop", cwd=empty)
            log.close()
            shutil.rmtree(empty, ignore_errors=True)


def _wait_ready(url: str, server: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 400  # a first start: Maven copies Neo4j into the home
    while time.monotonic() < deadline:
        assert server.poll() is None, log.read_text()
        try:
            if HTTP.get(f"{url}/readyz", timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.5)
    raise AssertionError(f"not ready: {log.read_text()[-3000:]}")


def test_the_installed_package_is_not_the_checkout(installed: Installed, tmp_path: Path) -> None:
    where = installed.run(str(installed.venv / "bin" / "python"), "-c",
                          "import graphmem, graphmem_client; print(graphmem.__file__); "
                          "print(graphmem_client.__file__)", cwd=tmp_path)
    assert where.returncode == 0, where.stderr
    assert all(line.startswith(str(installed.venv)) for line in where.stdout.split()), where
    version = installed.run(str(installed.venv / "bin" / "graphmem"), "--version", cwd=tmp_path)
    assert re.fullmatch(r"graphmem \d+\.\d+\.\d+\n", version.stdout), version


@pytest.fixture(scope="module")
def quick_start(installed: Installed, served: tuple[str, str],
                tmp_path_factory: pytest.TempPathFactory) -> subprocess.CompletedProcess[str]:
    """The client README's quick start, as a user copies it, run by the venv's python."""
    url, key = served
    readme = (ROOT / "clients" / "python" / "README.md").read_text("utf-8")
    code = readme.split("## Quick start", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    here = tmp_path_factory.mktemp("quick-start")
    (here / "quick_start.py").write_text(code)
    return subprocess.run([str(installed.venv / "bin" / "python"), "quick_start.py"],
                          cwd=here, text=True, capture_output=True, timeout=120, check=False,
                          env={**installed.env, "GRAPHMEM_URL": f"{url}/graphql",
                               "GRAPHMEM_KEY": key, "GRAPHMEM_NAMESPACE": NS})


def test_the_client_quick_start_runs(quick_start: subprocess.CompletedProcess[str]) -> None:
    assert quick_start.returncode == 0, quick_start.stderr
    today = time.strftime("%Y-%m-%d", time.gmtime())
    assert quick_start.stdout.splitlines() == [  # what its comments say it prints
        "What memory believes:", f"- user works at Acme Robotics (since {today})",
        "['I just started at Acme Robotics']"], quick_start.stdout


async def test_the_console_graph_and_graphiql_load(
        served: tuple[str, str], quick_start: subprocess.CompletedProcess[str]) -> None:
    """After the quick start wrote memory: the graph of `user`, then GraphiQL with its
    schema; every file they load answers (no 404), nothing leaves the machine."""
    url, key = served
    failed: list[str] = []
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=str(CHROMIUM))
        try:
            page, watch = await open_page(browser)
            page.on("response", lambda r: failed.append(f"{r.status} {r.url}")
                    if r.status >= 400 else None)
            await _graph(page, url, key)
            await _graphiql(page, url, key)
        finally:
            await browser.close()
    assert failed == [] and watch.outside == [] and watch.errors == [], (
        failed, watch.outside, watch.errors)


async def _graph(page: Page, url: str, key: str) -> None:
    await page.goto(f"{url}/console")
    await page.keyboard.type(key)
    await page.keyboard.press("Enter")
    await page.wait_for_selector("nav[aria-label=Sections]")
    await page.evaluate("(hash) => { location.hash = hash; }",
                        "#/graph?ns=install%2Fuser-1&name=user")
    graph = page.locator("#graph[data-nodes]")
    await expect(graph).to_have_attribute("data-nodes", re.compile(r"[2-9]|\d\d"))
    await expect(page.locator("#graph canvas").first).to_be_visible()  # cytoscape drew it


async def _graphiql(page: Page, url: str, key: str) -> None:
    await page.goto(f"{url}/graphql")
    field = page.get_by_role("textbox", name="API key")
    await field.fill(key)
    await field.press("Enter")
    await expect(page.locator(".graphiql-doc-explorer")).to_contain_text("Root Types")
    await expect(page.locator(".graphiql-query-editor")).to_be_visible()


@pytest.mark.parametrize(("example", "says"), [
    ("agent_memory.py", "why does the agent believe: Dana works at Acme Robotics <- Hi! I'm Dana."),
    ("agent_tools.py", "14 tools for OpenAI: "),
])
def test_the_examples_run_from_the_wheels(installed: Installed, served: tuple[str, str],
                                          tmp_path: Path, example: str, says: str) -> None:
    """The repository's examples, copied out of the checkout, run by the venv's python."""
    url, key = served
    shutil.copy(ROOT / "examples" / example, tmp_path / example)
    run = subprocess.run([str(installed.venv / "bin" / "python"), example], cwd=tmp_path,
                         text=True, capture_output=True, timeout=120, check=False,
                         env={**installed.env, "GRAPHMEM_URL": f"{url}/graphql",
                              "GRAPHMEM_KEY": key})
    assert run.returncode == 0, run.stderr
    assert says in run.stdout, run.stdout
