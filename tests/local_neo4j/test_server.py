"""The local Neo4j is a real 5.26 server that graphmem starts idempotently."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

from graphmem.core.config import get_settings
from graphmem.db.database import Database
from graphmem.local_neo4j import LocalNeo4j
from graphmem.local_neo4j.install import neo4j_version


async def test_server_is_neo4j_5_26_community(db: Database) -> None:
    rows, _, _ = await db.driver.execute_query("CALL dbms.components() YIELD versions, edition "
                                               "RETURN versions[0] AS version, edition")
    assert rows[0]["version"].startswith("5.26.")
    assert rows[0]["version"] == neo4j_version()
    assert rows[0]["edition"] == "community"


def test_start_is_idempotent(local_neo4j: LocalNeo4j) -> None:
    before = local_neo4j.status()
    assert before.running and before.version == neo4j_version()
    assert local_neo4j.start() is False  # already running: no second server
    assert local_neo4j.status().pid == before.pid


def test_listens_on_loopback_only(local_neo4j: LocalNeo4j) -> None:
    conf = (local_neo4j.home / "conf" / "neo4j.conf").read_text()
    assert "server.default_listen_address=127.0.0.1" in conf
    assert "dbms.usage_report.enabled=false" in conf


def test_password_is_private_and_not_in_logs(local_neo4j: LocalNeo4j) -> None:
    password_file = local_neo4j.home / "password"
    assert password_file.stat().st_mode & 0o077 == 0
    # The store and logs hold memory content: owner-only too (issue 16.11).
    for sub in ("data", "logs"):
        for path in (local_neo4j.home / sub, *(local_neo4j.home / sub).rglob("*")):
            assert path.stat().st_mode & 0o077 == 0, path
    password = local_neo4j.password()
    for log in (local_neo4j.home / "logs").glob("*.log"):
        assert password not in log.read_text("utf-8", "replace"), log.name


def test_stop_never_touches_a_process_it_did_not_start(tmp_path) -> None:  # type: ignore[no-untyped-def]
    stranger = LocalNeo4j(home=tmp_path, bolt_port=1, http_port=2)
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "graphmem-neo4j.pid").write_text("1")  # pid 1 is not our Neo4j
    assert stranger.stop() is False
    assert stranger.status().running is False


def test_taken_port_is_a_one_line_error(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import socket

    import pytest

    from graphmem.core.errors import LocalNeo4jError

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        server = LocalNeo4j(home=tmp_path, bolt_port=port, http_port=port)
        with pytest.raises(LocalNeo4jError, match=f"port {port} .* GRAPHMEM_LOCAL_BOLT_PORT"):
            server.start()


def test_a_password_that_looks_like_an_option_is_set(tmp_path, local_neo4j: LocalNeo4j) -> None:  # type: ignore[no-untyped-def]
    """1 in 64 generated passwords began with "-" and neo4j-admin took it for an option, so
    a fresh home failed its first start (passwords from older homes may still)."""
    from graphmem.local_neo4j.install import find_java, resolve_jars

    server = LocalNeo4j(home=tmp_path, bolt_port=1, http_port=2)
    (tmp_path / "password").write_text("-dash-first-password\n")
    server._write_conf()
    server._set_initial_password(find_java(), resolve_jars(local_neo4j.home))
    assert (tmp_path / "data" / "dbms" / "auth.ini").exists()
    fresh = LocalNeo4j(home=tmp_path / "fresh")
    assert all(c in "0123456789abcdef" for c in fresh.password())


def test_another_homes_server_is_named_not_sent_our_password(tmp_path,  # type: ignore[no-untyped-def]
                                                             local_neo4j: LocalNeo4j) -> None:
    """The CLI run from another directory took graphmem's own Neo4j for "another process"
    and sent it this home's password (issue 16.15): it now names the home that owns it."""
    import pytest

    from graphmem.core.config import Settings
    from graphmem.core.errors import LocalNeo4jError
    from graphmem.db.database import connection_target

    elsewhere = LocalNeo4j(home=tmp_path / "neo4j", bolt_port=local_neo4j.bolt_port,
                           http_port=local_neo4j.http_port)
    with pytest.raises(LocalNeo4jError, match=f"another home, {local_neo4j.home}"):
        elsewhere.start()
    settings = Settings(home=tmp_path, local_bolt_port=local_neo4j.bolt_port,
                        local_http_port=local_neo4j.http_port)
    with pytest.raises(LocalNeo4jError, match=f"GRAPHMEM_HOME={local_neo4j.home.parent}"):
        connection_target(settings)
    assert not (tmp_path / "neo4j" / "password").exists()  # no password was made or sent


def test_no_transaction_outlives_the_admin_bound(tmp_path,  # type: ignore[no-untyped-def]
                                                  local_neo4j: LocalNeo4j) -> None:
    """Sessions graphmem does not open (Neo4j Browser, a shell) set no bound of their own:
    the server's default ends them, and Neo4j accepts the value (a bad one stops its start)."""
    import os
    import subprocess

    from graphmem.core.config import Settings
    from graphmem.local_neo4j.install import find_java

    settings = Settings(home=tmp_path, neo4j_admin_timeout_s=90.5)
    server = LocalNeo4j.from_settings(settings)
    server._write_conf()
    conf = (server.home / "conf" / "neo4j.conf").read_text()
    assert "db.transaction.timeout=90500ms" in conf
    env = {**os.environ, "NEO4J_HOME": str(server.home), "NEO4J_CONF": str(server.home / "conf")}
    checked = subprocess.run(
        [str(find_java()), "-cp", f"{local_neo4j.home / 'lib'}/*",
         "org.neo4j.server.startup.Neo4jAdminCommand", "server", "validate-config"],
        env=env, capture_output=True, text=True, check=False)
    assert checked.returncode == 0, checked.stdout + checked.stderr


LOG_OF_A_FAILED_START = "\n".join([
    "2026-12-02 01:00:00.000+0000 INFO  Starting...",
    "2026-12-02 01:00:01.000+0000 ERROR Failed to start Neo4j on localhost:7474.",
    "java.lang.RuntimeException: Error starting Neo4j database server",
    *[f"\tat org.neo4j.server.Frame{i}.run(Frame{i}.java:{i})" for i in range(40)],
    "Caused by: org.neo4j.kernel.lifecycle.LifecycleException: Component failed to start",
    *[f"\tat org.neo4j.kernel.Frame{i}.init(Frame{i}.java:{i})" for i in range(40)],
    "Caused by: java.net.BindException: Address already in use",
    *[f"\tat sun.nio.ch.Net.bind{i}(Net.java:{i})" for i in range(30)],
    "\t... 12 more",
])


def test_a_failed_start_says_why_without_stack_frames() -> None:
    from graphmem.local_neo4j.server import why_it_failed

    said = why_it_failed(LOG_OF_A_FAILED_START)
    assert "Address already in use" in said and "Failed to start Neo4j" in said
    assert "\tat " not in said and "Frame" not in said and "more" not in said
    assert why_it_failed("") == "no log lines"


def test_a_started_server_is_no_child_of_the_command_and_leaves_no_zombie(
        tmp_path: Path) -> None:
    """The local Neo4j runs apart from the process that started it: killed while
    `graphmem serve` runs, it had stayed a zombie child of serve."""
    from graphmem.local_neo4j.server import spawn_detached

    log = tmp_path / "console.log"
    pid = spawn_detached(["sh", "-c", "echo started; exec sleep 60"], log)
    for _ in range(50):
        if log.read_text().strip() == "started":  # its output goes to the log
            break
        time.sleep(0.1)
    stat = Path(f"/proc/{pid}/stat").read_text()
    parent = int(stat.rsplit(")", 1)[1].split()[1])
    assert parent != os.getpid()
    os.kill(pid, signal.SIGKILL)
    for _ in range(50):  # init reaps it; nothing of it is left under us
        if not Path(f"/proc/{pid}").exists():
            break
        time.sleep(0.1)
    assert not Path(f"/proc/{pid}").exists()
    assert log.read_text().strip() == "started"
    assert oct(log.stat().st_mode & 0o777) == "0o600"


def test_jvm_options_follow_the_launchers_own(monkeypatch: pytest.MonkeyPatch,
                                              tmp_path: Path) -> None:
    monkeypatch.setenv("GRAPHMEM_HOME", str(tmp_path))
    monkeypatch.setenv("GRAPHMEM_LOCAL_JVM_OPTIONS",
                       "-XX:TieredStopAtLevel=1  '-Dgraphmem.note=two words'")
    command = LocalNeo4j.from_settings(get_settings()).command(Path("java"), tmp_path)
    main = command.index("org.neo4j.server.CommunityEntryPoint")
    assert command[main - 4:main - 2] == ["-XX:TieredStopAtLevel=1",
                                          "-Dgraphmem.note=two words"]
    assert command.index("-XX:+UseG1GC") < main - 4  # the launcher's flags first
