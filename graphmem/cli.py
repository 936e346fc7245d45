"""The ``graphmem`` command: serve, run the local Neo4j, apply the schema, manage API keys."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sys
import time
from collections.abc import Awaitable, Callable, Iterator
from functools import partial
from pathlib import Path
from typing import TypeVar

import typer

import graphmem
from graphmem.core.config import Settings, create_private_file, get_settings
from graphmem.core.errors import GraphmemError, InvalidInput
from graphmem.db import migrations
from graphmem.db.database import Database, connect
from graphmem.local_neo4j import LocalNeo4j
from graphmem.observability.tracing import Tracing
from graphmem.retrieval import background

T = TypeVar("T")

app = typer.Typer(
    help="graphmem: memory for AI agents over Neo4j and GraphQL.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
neo4j_app = typer.Typer(help="The local Neo4j server graphmem runs itself.", no_args_is_help=True)
schema_app = typer.Typer(help="Schema migrations and the exported GraphQL SDL.",
                         no_args_is_help=True)
app.add_typer(neo4j_app, name="neo4j")
app.add_typer(schema_app, name="schema")
keys_app = typer.Typer(help="API keys: create, list, revoke.", no_args_is_help=True)
app.add_typer(keys_app, name="keys")
encryption_app = typer.Typer(help="Encryption at rest of episode content.",
                             no_args_is_help=True)
app.add_typer(encryption_app, name="encryption")


def _print_version(asked: bool) -> None:
    if asked:
        typer.echo(f"graphmem {graphmem.__version__}")
        raise typer.Exit()


@app.callback()
def _options(version: bool = typer.Option(
        False, "--version", "-V", callback=_print_version, is_eager=True,
        help="Print graphmem's version (CHANGELOG.md says what changed) and exit.")) -> None:
    """graphmem: memory for AI agents over Neo4j and GraphQL."""


def _local(hint: str = "") -> LocalNeo4j:
    settings = get_settings()
    if not settings.uses_local_neo4j:
        raise GraphmemError(f"GRAPHMEM_NEO4J_URI is set: graphmem does not manage that server"
                            f"{hint}")
    return LocalNeo4j.from_settings(settings)


def ensure_neo4j(settings: Settings) -> None:
    """Start the local server if graphmem runs it (idempotent); external servers are left alone."""
    if settings.uses_local_neo4j:
        local = LocalNeo4j.from_settings(settings)
        if local.start():
            typer.echo(f"neo4j: started {local.bolt_uri}", err=True)


def with_database(work: Callable[[Database], Awaitable[T]], tracer: Tracing | None = None) -> T:
    """``work`` on a database equipped as the settings say (its keys, its archive store),
    its spans going to ``tracer`` (None: nowhere)."""
    async def run() -> T:
        from graphmem.equipment import equipped

        settings = get_settings()
        db = equipped(await connect(settings), settings)
        db = db.traced(tracer) if tracer is not None else db
        try:
            return await work(db)
        finally:
            await db.close()
            await asyncio.to_thread(background.stop, db)  # whatever work ran in it is done

    return asyncio.run(run())


@neo4j_app.command("start")
def neo4j_start() -> None:
    """Install (first time) and start the local Neo4j; a no-op when it already runs."""
    local = _local()
    started = local.start()
    typer.echo(f"neo4j {'started' if started else 'already running'}: {local.bolt_uri} "
               f"(home {local.home})")
    typer.echo(f"browser: {local.browser_url} (user neo4j, password in {local.home}/password)")


@neo4j_app.command("stop")
def neo4j_stop() -> None:
    """Stop the local Neo4j that graphmem started."""
    typer.echo("neo4j stopped" if _local().stop() else "neo4j was not running")


@neo4j_app.command("status")
def neo4j_status() -> None:
    """Exit 0 and print the version when the local Neo4j runs, exit 3 otherwise."""
    local = _local()
    state = local.status()
    if not state.running:
        typer.echo(f"neo4j not running (home {local.home})")
        raise typer.Exit(3)
    typer.echo(f"neo4j running: pid {state.pid}, version {state.version or 'starting'} "
               f"(home {local.home})")


@neo4j_app.command("logs")
def neo4j_logs(lines: int = typer.Option(50, "--lines", "-n")) -> None:
    """Print the last lines of the local Neo4j log."""
    typer.echo(_local().logs(lines))


@schema_app.command("apply")
def schema_apply() -> None:
    """Apply pending migrations from cypher/db/migrations."""
    ensure_neo4j(get_settings())
    done = with_database(migrations.apply)
    typer.echo(f"applied {', '.join(done)}" if done else "schema up to date")


@schema_app.command("status")
def schema_status() -> None:
    """List migrations and whether each is applied."""
    ensure_neo4j(get_settings())
    for state in with_database(migrations.status):
        mark = "applied" if state.applied else "pending"
        if state.applied and not state.checksum_matches:
            mark = "CHANGED AFTER APPLY"
        typer.echo(f"{state.id}  {mark}")


@schema_app.command("export")
def schema_export() -> None:
    """Print the GraphQL SDL (what schema/graphmem.graphql must contain)."""
    from graphmem.api.schema import sdl

    typer.echo(sdl(), nl=False)


@keys_app.command("create")
def keys_create(
    name: str = typer.Argument(..., help="A label, e.g. the application using the key."),
    namespace: list[str] = typer.Option([], "--namespace", "-n",
                                        help="Grant a namespace or prefix (acme/*); repeat."),
    admin: bool = typer.Option(False, "--admin", help="Grant every namespace."),
) -> None:
    """Create a key and print its token once (only a hash is stored)."""
    from graphmem.security.auth import create_key

    ensure_neo4j(get_settings())
    token = with_database(lambda db: create_key(db, name, namespace, admin))
    typer.echo(token)


@keys_app.command("list")
def keys_list() -> None:
    """List keys (never their tokens)."""
    from graphmem.security.auth import list_keys

    ensure_neo4j(get_settings())
    for key in with_database(list_keys):
        state = f"revoked {key.revoked_at:%Y-%m-%d}" if key.revoked_at else "active"
        grants = "admin" if key.admin else ",".join(key.grants)
        typer.echo(f"{key.key_id}  {key.name}  {grants}  {state}")


@keys_app.command("revoke")
def keys_revoke(key_id: str = typer.Argument(..., help="The id shown by `keys list`.")) -> None:
    """Revoke a key; requests with it are refused from now on."""
    from graphmem.security.auth import revoke_key

    ensure_neo4j(get_settings())
    with_database(lambda db: revoke_key(db, key_id))
    typer.echo(f"revoked {key_id}")


@app.command("reembed")
def reembed() -> None:
    """Rebuild the vector indexes for the configured embedder and embed everything again."""
    from graphmem.retrieval import embeddings

    settings = get_settings()
    embedder = embeddings.make_embedder(settings)
    if embedder is None:
        raise GraphmemError("GRAPHMEM_EMBEDDER is none: nothing to embed with")

    async def work(db: Database) -> int:
        await embeddings.reembed(db, embedder)
        total = await embeddings.pending_count(db)
        with typer.progressbar(length=total, label=f"embedding with {embedder.name}") as bar:
            done = 0
            while step := await embeddings.embed_pending(db, embedder,
                                                         settings.embedding_batch_size):
                bar.update(step)
                done += step
        return done

    ensure_neo4j(settings)
    typer.echo(f"embedded {with_database(work)} nodes")


@app.command("export")
def export_namespace(
    namespace: str = typer.Argument(..., help="The namespace to export."),
    output: Path | None = typer.Option(None, "--output", "-o", help="A file (default stdout)."),
    decrypt: bool = typer.Option(False, "--decrypt", help=(
        "Export encrypted episode content as plaintext (else it stays sealed, importable "
        "only into the same namespace under the same keys).")),
) -> None:
    """Write a namespace's whole memory as JSON Lines (docs/export-format.md)."""
    from graphmem.core.namespaces import parse_namespace
    from graphmem.portability.exporting import count_nodes, export
    from graphmem.portability.format import line

    settings = get_settings()
    ns = parse_namespace(namespace)

    async def work(db: Database) -> int:
        lines = 0
        nodes = await count_nodes(db, ns)
        with contextlib.ExitStack() as stack:
            sink = stack.enter_context(output.open("w", encoding="utf-8")) if output \
                else sys.stdout
            # Nodes first, then relationships (counting those would cost a second pass).
            bar = stack.enter_context(typer.progressbar(length=nodes, label="exporting",
                                                        file=sys.stderr))
            async for record in export(db, ns, decrypt):
                sink.write(line(record))
                lines += 1
                if "node" in record:
                    bar.update(1)
        return lines

    ensure_neo4j(settings)
    typer.echo(f"exported {with_database(work)} lines of {ns}", err=True)


@app.command("import")
def import_file(
    source: str = typer.Argument(..., help=(
        "An export file; with --from graphiti, the bolt URI of Graphiti's Neo4j.")),
    into: str | None = typer.Option(None, "--into", help=(
        "The namespace to import into (default: the one it was exported from).")),
    kind: str = typer.Option("graphmem", "--from", help=(
        "graphmem (an export file), mem0 (Mem0's get_all or export JSON) or graphiti (a "
        "group of a Graphiti graph, read from its Neo4j; password in GRAPHITI_NEO4J_PASSWORD).")),
    user: str | None = typer.Option(None, "--user", help="mem0: only this user_id's memories."),
    group: str | None = typer.Option(None, "--group", help="graphiti: the group_id to import."),
    neo4j_user: str = typer.Option("neo4j", "--neo4j-user", help="graphiti: its Neo4j user."),
    database: str | None = typer.Option(None, "--database", help=(
        "graphiti: its Neo4j database (default: the server's default).")),
) -> None:
    """Import an export file (or another memory system's); safe to run again, and resumes
    after an interruption."""
    from graphmem.core.namespaces import parse_namespace
    from graphmem.db import migrations
    from graphmem.portability import graphiti, mem0
    from graphmem.portability.importing import import_lines

    settings = get_settings()
    if kind not in ("graphmem", "mem0", "graphiti"):
        raise typer.BadParameter("--from is graphmem, mem0 or graphiti")
    converted: list[str] | None = None  # another system's memories, as an export's lines
    if kind != "graphmem" and into is None:
        raise typer.BadParameter(f"--into names the namespace {kind}'s memories go to")
    if kind == "graphiti" and into is not None:
        if group is None:
            raise typer.BadParameter("--group names the Graphiti group_id to import")
        password = os.environ.get("GRAPHITI_NEO4J_PASSWORD", "")
        found = asyncio.run(graphiti.read(source, (neo4j_user, password), group, database))
        converted = [json.dumps(r) for r in graphiti.records(found, parse_namespace(into))]
    else:
        path = Path(source)
        if not path.is_file():
            raise typer.BadParameter(f"no file {source}")
        if kind == "mem0" and into is not None:
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
            except ValueError as exc:  # not UTF-8, or not JSON
                raise InvalidInput(f"{source} is not a JSON file ({type(exc).__name__})") \
                    from None
            converted = [json.dumps(r) for r in mem0.records(data, parse_namespace(into), user)]

    async def work(db: Database) -> str:
        await migrations.apply(db)
        with contextlib.ExitStack() as stack:
            lines = converted if converted is not None else partial(_read_lines, Path(source))
            total = len(converted) if converted is not None else _count_lines(Path(source))
            bar = stack.enter_context(typer.progressbar(length=total, label="importing",
                                                        file=sys.stderr))
            result = await import_lines(db, lines, into, progress=bar.update,
                                        max_chars=settings.max_episode_chars)
        resumed = f", resumed after line {result.resumed_after}" if result.resumed_after else ""
        forgotten = f"; {result.forgotten} fact(s) the namespace has forgotten were left " \
            "forgotten" if result.forgotten else ""
        return (f"imported {result.nodes} nodes and {result.relationships} relationships into "
                f"{result.namespace}{resumed}{forgotten}")

    ensure_neo4j(settings)
    typer.echo(with_database(work), err=True)


_EXTERNAL = ("; back it up with its own neo4j-admin database dump and load (README: "
             "Backups and restores)")


@app.command("sync")
def sync_namespace(
    namespace: str = typer.Argument(..., help="The namespace to sync (the same on every side)."),
    url: str | None = typer.Option(None, "--url", help=(
        "The shared service's base URL (default GRAPHMEM_SYNC_URL).")),
    device: str | None = typer.Option(None, "--device", help=(
        "This device's name (default GRAPHMEM_SYNC_DEVICE).")),
    content: str | None = typer.Option(None, "--content", help=(
        "facts, facts_and_summaries or nothing (default GRAPHMEM_SYNC_CONTENT).")),
    full: bool = typer.Option(False, "--full", help=(
        "Push everything, not only what moved since the last push the shared side took "
        "(after the shared side was restored from an older backup).")),
) -> None:
    """Push this device's facts (and summaries) to the shared service, then pull what the
    other devices pushed. Turns never leave the device. The key (GRAPHMEM_SYNC_KEY) needs
    only the namespace. Safe to run again; an interrupted sync resumes."""
    from graphmem.core.namespaces import parse_namespace
    from graphmem.portability import syncing
    from graphmem.portability.federation import Content

    settings = get_settings()
    ns = parse_namespace(namespace)
    base = (url or settings.sync_url or "").rstrip("/")
    name = device or settings.sync_device
    key = settings.sync_key.get_secret_value() if settings.sync_key else ""
    if not base or not name or not key:
        raise typer.BadParameter("sync needs the shared service's URL (--url or "
                                 "GRAPHMEM_SYNC_URL), this device's name (--device or "
                                 "GRAPHMEM_SYNC_DEVICE) and a key (GRAPHMEM_SYNC_KEY)")
    try:
        what = Content(content or settings.sync_content)
    except ValueError:
        raise typer.BadParameter("--content is facts, facts_and_summaries or nothing") from None

    async def work(db: Database) -> syncing.Report:
        await migrations.apply(db)
        async with syncing.HttpRemote(f"{base}/graphql", key) as remote:
            # A batch job, not a request: the administrative bound, as migrations have. On a
            # device Neo4j just started on a loaded machine, planning the sync's statements
            # for the first time took longer than a request's 15 s (seen in CI).
            return await syncing.sync(db.admin(), ns, remote, name, what,
                                      syncing.peer_of(base), settings.sync_page, full)

    ensure_neo4j(settings)
    done = with_database(work)
    if done.erased_there is not None:  # turns erased here since: the shared side's receipt
        receipt = done.erased_there
        counts = ", ".join(f"{c['kind']} {c['count']}" for c in receipt["counts"] if c["count"])
        typer.echo(f"erased on the shared side: {counts or 'nothing'} (receipt {receipt['id']}, "
                   f"verified {str(receipt['verified']).lower()})", err=True)
    typer.echo(f"pushed {done.pushed_records} records ({done.changed_there} changed there, "
               f"sequence {done.sequence}); pulled {done.pulled_nodes} nodes and "
               f"{done.pulled_relationships} relationships in {done.pages} page(s)", err=True)
    if done.erased_here:  # what another device's erasure took here
        typer.echo("erased here, as the shared side did: " + ", ".join(
            f"{kind} {n}" for kind, n in sorted(done.erased_here.items())), err=True)


@app.command("backup")
def backup(
    path: Path = typer.Argument(..., help="The dump file to write (owner-only, 0600)."),
    force: bool = typer.Option(False, "--force", help="Replace the file if it exists."),
) -> None:
    """Write the whole store (every namespace, key and setting) to one file with Neo4j's own
    neo4j-admin database dump. The local Neo4j stops for it and starts again; export is for
    one namespace's memory, this is for the server's."""
    from graphmem.local_neo4j import dumps

    settings = get_settings()
    local = _local(_EXTERNAL)
    if path.exists() and (not force or not path.is_file()):
        raise GraphmemError(f"{path} exists: --force replaces a file")
    if not path.parent.is_dir():  # before the server stops for nothing
        raise typer.BadParameter(f"no folder {path.parent}")
    began = time.monotonic()
    with local.stopped() as was_running:
        dumps.dump(local, settings.neo4j_database, path)
        dumped = time.monotonic() - began
    after = "; Neo4j is up again" if was_running else " (Neo4j was not running)"
    typer.echo(f"backed up {settings.neo4j_database} to {path} "
               f"({path.stat().st_size / 1e6:.1f} MB) in {time.monotonic() - began:.1f} s: "
               f"stopped and dumped in {dumped:.1f} s{after}")


@app.command("restore")
def restore(
    path: Path = typer.Argument(..., help="A dump file made by graphmem backup."),
    force: bool = typer.Option(False, "--force", help=(
        "Replace a store that holds memory or keys (they are lost: back it up first).")),
) -> None:
    """Replace the whole store with a dump made by `graphmem backup` (neo4j-admin database
    load). The local Neo4j stops for it and starts again if it was running; migrations apply
    at the next `graphmem serve`. Stop `graphmem serve` first."""
    from graphmem.local_neo4j import dumps

    settings = get_settings()
    local = _local(_EXTERNAL)
    if not path.is_file():
        raise typer.BadParameter(f"no file {path}")
    if not force and _holds_memory(settings, local):
        raise GraphmemError(f"the store in {local.home} holds memory or keys: --force replaces "
                            "it with the dump (graphmem backup keeps a copy first)")
    began = time.monotonic()
    with local.stopped() as was_running:
        dumps.load(local, settings.neo4j_database, path)
        loaded = time.monotonic() - began
    after = "; Neo4j is up again" if was_running else \
        "; graphmem serve starts it (and applies the migrations)"
    typer.echo(f"restored {settings.neo4j_database} from {path} in "
               f"{time.monotonic() - began:.1f} s: stopped and loaded in {loaded:.1f} s{after}")


def _holds_memory(settings: Settings, local: LocalNeo4j) -> bool:
    """Whether the store has any episode, fact, entity, summary or key (a home never
    started has no store at all)."""
    if not (local.home / "data" / "databases" / settings.neo4j_database).is_dir():
        return False
    ensure_neo4j(settings)

    async def look(db: Database) -> bool:
        from graphmem.governance import stats

        return await stats.holds_memory(db)

    return with_database(look)


def _read_lines(path: Path) -> Iterator[str]:
    """A file's lines, from the start each time (an import reads them twice)."""
    # Bytes that are not UTF-8 become lone surrogates, which the import refuses at their line.
    with path.open(encoding="utf-8", errors="surrogateescape") as lines:
        yield from lines


def _count_lines(path: Path) -> int:
    with path.open(encoding="utf-8", errors="surrogateescape") as counting:
        return sum(1 for _ in counting)


@encryption_app.command("new-key")
def encryption_new_key(key_id: str = typer.Argument("k1", help="An id for the key.")) -> None:
    """Print a fresh key entry for GRAPHMEM_ENCRYPTION_KEYS (put it first to encrypt with it)."""
    from graphmem.security import encryption

    typer.echo(f"{key_id}:{encryption.new_key()}")


@encryption_app.command("rotate")
def encryption_rotate() -> None:
    """Re-encrypt every episode under the first key (also seals pre-encryption episodes)."""
    from graphmem.episodes.key_rotation import rotate

    settings = get_settings()
    ensure_neo4j(settings)

    async def work(db: Database) -> int:
        with typer.progressbar(length=0, label="re-encrypting episodes") as bar:
            return await rotate(db, bar.update)

    typer.echo(f"re-encrypted {with_database(work)} episode(s)")


@app.command("worker")
def worker(
    count: int = typer.Option(1, "--count", "-c", min=1, max=32, help="Workers to run."),
    once: bool = typer.Option(False, "--once", help="Run the due jobs, then exit."),
) -> None:
    """Run the background work alone, beside or instead of `serve`'s: pipeline jobs
    (extraction, summaries), webhook deliveries and, unless GRAPHMEM_EMBEDDING_WORKER=false,
    embeddings."""
    from graphmem.db import migrations
    from graphmem.events import webhooks
    from graphmem.observability import logs, tracing
    from graphmem.pipelines.worker import Worker, run_workers
    from graphmem.retrieval import embeddings

    settings = get_settings()
    tracer = tracing.configured(settings)
    ensure_neo4j(settings)
    logs.configure(settings.log_level, settings.log_json)
    configured = embeddings.make_embedder(settings) if settings.embedding_worker else None
    batch = settings.embedding_batch_size

    async def work(db: Database) -> None:
        await migrations.apply(db)
        embedder = await embeddings.ensure_space(db, configured) if configured else None
        if once:
            single = Worker(db, settings)
            await single.housekeeping()
            typer.echo(f"ran {await single.drain()} job(s)", err=True)
            if embedder is not None:
                done = await embeddings.embed_all_pending(db, embedder, batch)
                typer.echo(f"embedded {done} node(s) with {embedder.name}", err=True)
        else:
            await asyncio.gather(
                run_workers(db, settings, count), webhooks.run_dispatcher(db, settings),
                *([embeddings.run_worker(db, embedder, batch)] if embedder else []))

    try:
        with contextlib.suppress(KeyboardInterrupt):
            with_database(work, tracer)
    finally:
        tracer.shutdown()  # export the spans still queued


@app.command("mcp", context_settings={"allow_extra_args": True,
                                      "ignore_unknown_options": True})
def mcp(ctx: typer.Context) -> None:
    """graphmem's memory as MCP tools and resources for one end user (GRAPHMEM_URL,
    GRAPHMEM_KEY, GRAPHMEM_NAMESPACE), over stdio or --transport http: the client package's
    server (installed from ./clients/python with its mcp extra), a client of the public API
    like any agent."""
    try:
        from graphmem_client.mcp import main as serve_mcp
    except ImportError as exc:
        raise typer.BadParameter(
            f"the MCP server is in the client package: pip install './clients/python[mcp]' "
            f"({exc})") from exc
    serve_mcp(ctx.args)


@app.command("serve")
def serve(
    host: str | None = typer.Option(None, help="Bind address (default GRAPHMEM_HOST)."),
    port: int | None = typer.Option(None, help="Port (default GRAPHMEM_PORT)."),
) -> None:
    """Start the local Neo4j if needed, apply migrations, and serve GraphQL with uvicorn."""
    import uvicorn

    from graphmem.app import create_app
    from graphmem.observability import logs

    settings = get_settings()
    ensure_neo4j(settings)
    bind_host, bind_port = host or settings.host, port or settings.port
    if settings.uses_local_neo4j and settings.auth_required:
        typer.echo(f"API key: {_local_dev_key(settings)} (the console and GraphiQL ask for it; "
                   "clients send it as 'Authorization: Bearer …')", err=True)
    typer.echo(f"Console:  http://{bind_host}:{bind_port}/console", err=True)
    typer.echo(f"GraphQL:  http://{bind_host}:{bind_port}/graphql (GraphiQL in a browser)",
               err=True)
    if settings.uses_local_neo4j:
        local = LocalNeo4j.from_settings(settings)
        typer.echo(f"Browser:  {local.browser_url} (user neo4j, password in "
                   f"{local.home}/password)", err=True)
    guide_host = "localhost" if bind_host in ("127.0.0.1", "0.0.0.0") else bind_host
    typer.echo(f"Guide:    in Browser, run  :play http://{guide_host}:{bind_port}/browser/guide",
               err=True)
    logs.configure(settings.log_level, settings.log_json)
    # Our own access log (no query strings: a GET's query string can carry memory content).
    # A WebSocket message is capped as an HTTP body is, before it is read whole.
    uvicorn.run(create_app(settings), host=bind_host, port=bind_port, log_config=None,
                access_log=False, ws_max_size=settings.max_body_bytes)


def _local_dev_key(settings: Settings) -> str:
    """For the local setup only: an admin key made once, kept owner-readable. Returns its path."""
    from graphmem.security.auth import create_key

    path = settings.home.resolve() / "dev-admin-key"
    if not path.exists():
        token = with_database(lambda db: create_key(db, "local-dev", [], admin=True))
        create_private_file(path, token + "\n")
    return f"in {path}"


def main() -> None:
    try:
        app()
    except GraphmemError as exc:
        typer.echo(f"graphmem: {exc.message}", err=True)
        sys.exit(1)


if __name__ == "__main__":
    main()
