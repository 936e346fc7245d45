"""The local Neo4j is a real 5.26 server that graphmem starts idempotently."""

from __future__ import annotations

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
