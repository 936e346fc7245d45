"""A local Neo4j Community server that graphmem installs, starts and stops by itself.

The jars come from Maven Central (see ``pom.xml``); the server runs
``org.neo4j.server.CommunityEntryPoint`` under ``<home>`` with the JVM flags the official
``neo4j`` script adds, listening on loopback only. We only ever signal a process whose pid we
recorded and whose command line names our home, so we never kill a server we did not start.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import re
import secrets
import signal
import socket
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from graphmem.core.config import Settings, create_private_file
from graphmem.core.errors import LocalNeo4jError
from graphmem.local_neo4j.install import find_java, resolve_jars

ENTRY_POINT = "org.neo4j.server.CommunityEntryPoint"

# What the official launcher passes (neo4j.conf's server.jvm.additional defaults, 5.26).
_JVM_FLAGS = [
    "-XX:+UseG1GC",
    "-XX:-OmitStackTraceInFastThrow",
    "-XX:+UnlockExperimentalVMOptions",
    "-XX:+TrustFinalNonStaticFields",
    "-XX:+DisableExplicitGC",
    "-Djdk.nio.maxCachedBufferSize=1024",
    "-Dio.netty.tryReflectionSetAccessible=true",
    "-Djdk.tls.ephemeralDHKeySize=2048",
    "-Djdk.tls.rejectClientInitiatedRenegotiation=true",
    "-XX:FlightRecorderOptions=stackdepth=256",
    "-XX:+UnlockDiagnosticVMOptions",
    "-XX:+DebugNonSafepoints",
    "--add-opens=java.base/java.nio=ALL-UNNAMED",
    "--add-opens=java.base/java.io=ALL-UNNAMED",
    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
    "-Dlog4j2.disable.jmx=true",
    "-Dfile.encoding=UTF-8",
]


@dataclass(frozen=True)
class Status:
    running: bool
    pid: int | None
    version: str | None


@dataclass(frozen=True)
class LocalNeo4j:
    home: Path
    bolt_port: int = 7687
    http_port: int = 7474
    heap: str = "512m"
    pagecache: str = "256m"
    min_replan_s: float = 10.0  # see Settings.local_min_replan_s
    transaction_timeout_s: float = 600.0  # for sessions that set none (Neo4j Browser)
    jvm_options: tuple[str, ...] = ()  # see Settings.local_jvm_options

    @classmethod
    def from_settings(cls, settings: Settings) -> LocalNeo4j:
        return cls(
            home=settings.local_neo4j_home,
            bolt_port=settings.local_bolt_port,
            http_port=settings.local_http_port,
            heap=settings.local_heap,
            pagecache=settings.local_pagecache,
            min_replan_s=settings.local_min_replan_s,
            transaction_timeout_s=settings.neo4j_admin_timeout_s,
            jvm_options=settings.local_jvm_options,
        )

    @property
    def bolt_uri(self) -> str:
        return f"bolt://127.0.0.1:{self.bolt_port}"

    @property
    def browser_url(self) -> str:
        return f"http://127.0.0.1:{self.http_port}/browser/"

    @property
    def log_file(self) -> Path:
        return self.home / "logs" / "neo4j.log"

    @property
    def _pid_file(self) -> Path:
        return self.home / "run" / "graphmem-neo4j.pid"

    @property
    def _password_file(self) -> Path:
        return self.home / "password"

    def password(self) -> str:
        """The local server's password: made on first use, kept owner-readable only."""
        if not self._password_file.exists():
            # Hex: a password starting with "-" was read by neo4j-admin as an option.
            create_private_file(self._password_file, secrets.token_hex(24))
        return self._password_file.read_text().strip()

    # -- lifecycle -------------------------------------------------------------------------

    def start(self, timeout_s: float = 180.0) -> bool:
        """Start the server unless ours is already running. Returns True if it started now."""
        with self._lock():
            return self._start(timeout_s)

    def stop(self, timeout_s: float = 60.0) -> bool:
        """SIGTERM our server and wait for it to exit. Returns False if none was running."""
        with self._lock():
            return self._stop(timeout_s)

    @contextlib.contextmanager
    def stopped(self, timeout_s: float = 180.0) -> Iterator[bool]:
        """The server stopped while the block runs (neo4j-admin may then read or replace its
        store), started again afterwards if it was running; other starts and stops wait.
        Yields whether it was running."""
        with self._lock():
            was_running = self._stop(60.0)
            try:
                yield was_running
            finally:
                if was_running:
                    self._start(timeout_s)

    def prepare(self) -> tuple[Path, Path]:
        """The home ready for neo4j-admin (jars, conf, the initial password), as a first start
        makes it. Returns java and the jar folder."""
        java = find_java()
        lib = resolve_jars(self.home)
        self._write_conf()
        self._set_initial_password(java, lib)
        return java, lib

    def admin_env(self) -> dict[str, str]:
        """The environment neo4j-admin (org.neo4j.cli.AdminTool) reads this home from."""
        return {**os.environ, "NEO4J_HOME": str(self.home), "NEO4J_CONF": str(self.home / "conf")}

    def _start(self, timeout_s: float) -> bool:
        if self._our_pid() is not None:
            self._wait_ready(timeout_s)
            return False
        self._check_ports_free()
        java, lib = self.prepare()
        self._launch(java, lib)
        self._wait_ready(timeout_s)
        return True

    def _stop(self, timeout_s: float) -> bool:
        pid = self._our_pid()
        if pid is None:
            return False
        os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + timeout_s
        while _alive(pid) and time.monotonic() < deadline:
            time.sleep(0.2)
        if _alive(pid):
            os.kill(pid, signal.SIGKILL)
        self._pid_file.unlink(missing_ok=True)
        return True

    def status(self) -> Status:
        pid = self._our_pid()
        if pid is None:
            return Status(running=False, pid=None, version=None)
        return Status(running=True, pid=pid, version=self._discovery().get("neo4j_version"))

    def logs(self, lines: int = 50) -> str:
        if not self.log_file.exists():
            return ""
        return "\n".join(self.log_file.read_text("utf-8", "replace").splitlines()[-lines:])

    # -- internals -------------------------------------------------------------------------

    @contextlib.contextmanager
    def _lock(self) -> Iterator[None]:
        """Serialise start/stop between processes, so two starts make one server."""
        self.home.mkdir(parents=True, exist_ok=True)
        with open(self.home / ".lock", "w") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    def _recorded_pid(self) -> int | None:
        try:
            return int(self._pid_file.read_text().strip())
        except (FileNotFoundError, ValueError):
            return None

    def _our_pid(self) -> int | None:
        pid = self._recorded_pid()
        if pid is None or _home_of(pid) != self.home:
            return None
        return pid

    def check_not_anothers(self) -> None:
        """Before connecting to this home's server: when it is not running but its port is
        graphmem's Neo4j of another home (the CLI run from another directory), say so, rather
        than send this home's password to that server."""
        if self._our_pid() is None and _port_open(self.bolt_port):
            self._check_ports_free()

    def _check_ports_free(self) -> None:
        for port, key in ((self.bolt_port, "BOLT"), (self.http_port, "HTTP")):
            if not _port_open(port):
                continue
            for other in graphmem_servers():
                if other != self.home and port in _ports_of(other):
                    raise LocalNeo4jError(
                        f"port {port} is taken by graphmem's Neo4j of another home, {other}: "
                        f"run graphmem from that project, or set GRAPHMEM_HOME={other.parent} "
                        f"(this one is {self.home.parent})")
            raise LocalNeo4jError(
                f"port {port} on 127.0.0.1 is already taken by another process; stop it or "
                f"set GRAPHMEM_LOCAL_{key}_PORT"
            )

    def _write_conf(self) -> None:
        # Owner-only, like the password file: the store and its logs hold memory content
        # (homes made before this was so are closed on their next start).
        for sub in ("conf", "data", "logs", "run", "plugins", "import"):
            (self.home / sub).mkdir(parents=True, exist_ok=True)
        for path in (self.home, *self.home.rglob("*")):
            if not path.is_symlink() and path.stat().st_mode & 0o077:
                path.chmod(path.stat().st_mode & 0o700)
        home = self.home
        conf = f"""# Written by graphmem on every start; edit graphmem settings instead.
server.default_listen_address=127.0.0.1
server.bolt.listen_address=127.0.0.1:{self.bolt_port}
server.http.listen_address=127.0.0.1:{self.http_port}
server.https.enabled=false
server.memory.heap.initial_size={self.heap}
server.memory.heap.max_size={self.heap}
server.memory.pagecache.size={self.pagecache}
dbms.usage_report.enabled=false
dbms.cypher.min_replan_interval={round(self.min_replan_s * 1000)}ms
# Erased text leaves the store's live records at once; transaction logs keep it until they
# rotate out: keep a day of them (the default keeps two days), see README "Erasure".
db.tx_log.rotation.retention_policy=1 days
# No transaction holds the database for longer: graphmem's own set a shorter bound each
# (GRAPHMEM_NEO4J_TIMEOUT_S); this one ends what a Browser or shell session left running.
db.transaction.timeout={round(self.transaction_timeout_s * 1000)}ms
client.allow_telemetry=false
browser.remote_content_hostname_whitelist=localhost,127.0.0.1
server.directories.data={home / "data"}
server.directories.logs={home / "logs"}
server.directories.run={home / "run"}
server.directories.plugins={home / "plugins"}
server.directories.import={home / "import"}
"""
        (home / "conf" / "neo4j.conf").write_text(conf, "utf-8")
        (home / "conf" / "neo4j.conf").chmod(0o600)

    def _set_initial_password(self, java: Path, lib: Path) -> None:
        """Before the first start only: Neo4j ignores this once the system database exists."""
        if (self.home / "data" / "databases" / "system").exists():
            return
        result = subprocess.run(
            [str(java), "-cp", f"{lib}/*", "org.neo4j.cli.AdminTool",
             "dbms", "set-initial-password", "--", self.password()],  # "--": never an option
            env=self.admin_env(), capture_output=True, text=True, check=False,
            umask=0o077,  # it creates data/dbms: owner-only like the rest of the home
        )
        if result.returncode != 0:
            raise LocalNeo4jError("could not set the initial Neo4j password: "
                                  f"{first_reason(result.stdout + result.stderr)}")

    def command(self, java: Path, lib: Path) -> list[str]:
        """The server's command line: the launcher's JVM flags, then the configured ones
        (where both set a flag, the later value wins)."""
        return [str(java), f"-Xms{self.heap}", f"-Xmx{self.heap}", *_JVM_FLAGS,
                *self.jvm_options, "-cp", f"{lib}/*", ENTRY_POINT,
                f"--home-dir={self.home}", f"--config-dir={self.home / 'conf'}"]

    def _launch(self, java: Path, lib: Path) -> None:
        pid = spawn_detached(self.command(java, lib), self.home / "logs" / "console.log")
        self._pid_file.write_text(str(pid))
        self._pid_file.chmod(0o600)

    def _wait_ready(self, timeout_s: float) -> None:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            # Liveness by recorded pid: the JVM launcher may re-exec itself, so its command
            # line can briefly differ from the one _our_pid() looks for.
            pid = self._recorded_pid()
            if pid is None or not _alive(pid):
                logs = self.logs(400) + "\n" + _tail(self.home / "logs" / "console.log", 400)
                raise LocalNeo4jError(f"Neo4j exited during start: {why_it_failed(logs)} "
                                      f"(the whole log: graphmem neo4j logs, and "
                                      f"{self.home / 'logs' / 'console.log'})")
            if _port_open(self.bolt_port) and self._discovery().get("neo4j_version"):
                return
            time.sleep(0.3)
        raise LocalNeo4jError(f"Neo4j did not answer on {self.bolt_uri} within {timeout_s:.0f}s")

    def _discovery(self) -> dict[str, str]:
        try:
            url = f"http://127.0.0.1:{self.http_port}/"
            with urllib.request.urlopen(url, timeout=2) as response:
                return dict(json.load(response))
        except (OSError, ValueError):
            return {}


def spawn_detached(argv: list[str], log: Path) -> int:
    """Start ``argv`` in a session of its own, its output appended to ``log``, as no child of
    this process: a shell starts it in the background and exits, so it belongs to init. As
    our child, a Neo4j killed under `graphmem serve` stayed a zombie of it; now it survives
    the CLI that started it and leaves nothing behind when it dies. Its pid."""
    os.close(os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600))  # owner-only
    # The log by name: dash reads no descriptor above 9 in a redirection.
    shell = subprocess.run(
        ["/bin/sh", "-c", 'log=$1; shift; "$@" >>"$log" 2>&1 </dev/null & echo $!', "sh",
         str(log), *argv],
        capture_output=True, text=True, check=True,
        start_new_session=True,  # the session is the program's too
        umask=0o077,  # the files Neo4j writes (store, transaction logs) are owner-only
    )
    return int(shell.stdout.strip())


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie child still answers kill(0); treat it as gone.
    with contextlib.suppress(OSError):
        if " Z " in Path(f"/proc/{pid}/stat").read_text():
            return False
    return True


def _port_open(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.settimeout(0.5)
        return sock.connect_ex(("127.0.0.1", port)) == 0


# Lines that say why a JVM stopped, as Neo4j logs them; a stack frame never does.
_TELLING = re.compile(r"Exception|Error|error:|Caused by|already in use|No space left|"
                      r"Permission denied|Cannot|Failed|failed", re.IGNORECASE)
_FRAME = re.compile(r"^\s*(at |\.\.\. \d+ more|Suppressed:)")


def why_it_failed(log: str, most: int = 6) -> str:
    """The lines of a start's log that say why it failed, without stack frames: the cause
    ("Address already in use", "No space left on device") is often the deepest ``Caused by``,
    above forty lines of frames, which a tail of the log cut off."""
    lines = [line.strip() for line in log.splitlines() if line.strip() and not _FRAME.match(line)]
    telling = list(dict.fromkeys(line for line in lines if _TELLING.search(line)))
    chosen = telling[:1] + telling[1:][-(most - 1):] if telling else lines[-most:]
    return " | ".join(chosen) or "no log lines"


def first_reason(output: str) -> str:
    """The first line of a failed neo4j-admin's output that is not a stack frame."""
    return next((line for line in output.splitlines()
                 if line.strip() and not line.lstrip().startswith("at ")), "unknown")


def _tail(path: Path, lines: int) -> str:
    if not path.exists():
        return ""
    return "\n".join(path.read_text("utf-8", "replace").splitlines()[-lines:])


def graphmem_servers() -> list[Path]:
    """The homes of every graphmem-started Neo4j running on this machine."""
    homes = {_home_of(int(proc.name)) for proc in Path("/proc").glob("[0-9]*")}
    return sorted(home for home in homes if home is not None)


def _home_of(pid: int) -> Path | None:
    """The home of process ``pid`` if it is a graphmem-started Neo4j (by its command line)."""
    try:
        parts = Path(f"/proc/{pid}/cmdline").read_bytes().decode().split("\0")
    except (OSError, UnicodeDecodeError):
        return None
    if not any(ENTRY_POINT in part for part in parts):
        return None
    return next((Path(p.removeprefix("--home-dir=")) for p in parts
                 if p.startswith("--home-dir=")), None)


def _ports_of(home: Path) -> set[int]:
    """The ports a home's server was started with (graphmem writes its conf on each start)."""
    try:
        conf = (home / "conf" / "neo4j.conf").read_text("utf-8")
    except OSError:
        return set()
    return {int(port) for port in re.findall(r"listen_address=[\d.]+:(\d+)", conf)}
