"""Federated memory end to end (issue 43): two devices, each `graphmem serve` with a home,
ports and Neo4j of its own, and a shared service on the suite's Neo4j; `graphmem sync` run
as a user runs it (and, where the command's own words are not what is checked, the same sync
called in this process, against the device's Neo4j: a process start each saved). Facts
learned on one device reach the other with references to the turns they came from; no
turn's words reach the shared store; a conflict made on both devices resolves the same
everywhere, by when each thing was said; a repeated sync changes nothing; an interrupted
sync resumes; a device's service syncs in its background; one statement learned on two
devices is one fact, and facts written on the shared service reach the devices."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager, ExitStack
from pathlib import Path
from typing import Any

import pytest

from graphmem.core.config import Settings
from graphmem.core.errors import ConcurrentChange
from graphmem.core.namespaces import parse_namespace
from graphmem.db.database import Database, connect
from graphmem.governance.erasure import WITHDRAWN
from graphmem.local_neo4j.server import LocalNeo4j
from graphmem.portability.exporting import export
from graphmem.portability.federation import PAGE, Content, claim, pulled_up_to, release
from graphmem.portability.syncing import HttpRemote, RemoteError, Report, peer_of, sync
from graphmem.security.auth import create_key, revoke_key
from tests.support.graph import delete_namespace
from tests.support.http import HTTP
from tests.support.server import RUNNING_LOGS, free_port, serving

pytestmark = pytest.mark.own_processes  # bin/test runs it beside the rest (two Neo4j of its own)

# Words only the turns hold: none of them may reach the shared store.
TURN_WORDS = ("zorblax", "quintessa", "flimwort", "glossaries", "marmalade")
HOBBIES = ("chess", "kayaking", "rowing", "knitting", "pottery", "fencing", "archery", "darts")
FACT = """query($ns: String!, $p: String!) { facts(namespace: $ns, where: {subject: "Sam",
  predicate: $p}) { nodes { id object status } } }"""
# What a device here needs: no vectors (nothing searches a device in these tests), no job
# workers, and a small Neo4j (the data is a few dozen nodes; three JVMs share two CPUs),
# whose first, cold statements may take longer than the default 15 s on a loaded machine.
DEVICE_ENV = {"GRAPHMEM_EMBEDDER": "none", "GRAPHMEM_WORKERS": "0",
              "GRAPHMEM_LOCAL_HEAP": "256m", "GRAPHMEM_LOCAL_PAGECACHE": "32m",
              "GRAPHMEM_NEO4J_TIMEOUT_S": "60"}
WHY = """query($ns: String!, $id: ID!) { provenance(namespace: $ns, factId: $id) {
  fact { object status } evidence { content } heldElsewhere { id device held contentHash }
  supersedes { object } supersededBy { object } } }"""


class Device:
    """A device: its own home, ports and Neo4j, its `graphmem serve`, its admin key."""

    def __init__(self, name: str, home: Path, url: str) -> None:
        self.name, self.home, self.url = name, home, url
        self.token = (home / "dev-admin-key").read_text().strip()
        self.env = {"GRAPHMEM_HOME": str(home), **_ports(home), **DEVICE_ENV}

    def settings(self) -> Settings:
        """The device's settings, for a connection from this process to its Neo4j."""
        return _settings(self.home)

    def gql(self, query: str, **variables: Any) -> dict[str, Any]:
        return _post(self.url, self.token, query, variables)

    def cli(self, *args: str, **env: str) -> str:
        done = subprocess.run([sys.executable, "-m", "graphmem", *args], capture_output=True,
                              text=True, env={**os.environ, **self.env, **env}, timeout=300)
        assert done.returncode == 0, done.stderr[-2000:]
        return done.stdout + done.stderr


def _ports(home: Path) -> dict[str, str]:
    return dict(json.loads((home / "ports.json").read_text()))


def _settings(home: Path) -> Settings:
    ports = _ports(home)
    return Settings(home=home, local_bolt_port=int(ports["GRAPHMEM_LOCAL_BOLT_PORT"]),
                    local_http_port=int(ports["GRAPHMEM_LOCAL_HTTP_PORT"]),
                    local_heap=DEVICE_ENV["GRAPHMEM_LOCAL_HEAP"],
                    local_pagecache=DEVICE_ENV["GRAPHMEM_LOCAL_PAGECACHE"],
                    neo4j_timeout_s=float(DEVICE_ENV["GRAPHMEM_NEO4J_TIMEOUT_S"]))


def _post(url: str, token: str, query: str, variables: dict[str, Any]) -> dict[str, Any]:
    body = HTTP.post(f"{url}/graphql", json={"query": query, "variables": variables},
                      headers={"Authorization": f"Bearer {token}"}, timeout=60).json()
    assert not body.get("errors"), body["errors"]
    return dict(body["data"])


def _device_service(home: Path) -> AbstractContextManager[str]:
    ports = {"GRAPHMEM_LOCAL_BOLT_PORT": str(free_port()),
             "GRAPHMEM_LOCAL_HTTP_PORT": str(free_port())}
    (home / "ports.json").write_text(json.dumps(ports))
    return serving(GRAPHMEM_HOME=str(home), **ports, **DEVICE_ENV)


def _stop_neo4j(home: Path) -> None:
    LocalNeo4j.from_settings(_settings(home)).stop()


@pytest.fixture(scope="module")
def services(local_neo4j: LocalNeo4j) -> Iterator[tuple[str, Device, Device]]:
    """The shared service and two devices, started together (each device's Neo4j starts
    from its own empty home, its jars hard-linked from the suite's: no Maven run)."""
    with ExitStack() as stack:
        homes = [Path(stack.enter_context(tempfile.TemporaryDirectory(
            prefix=f"gm-{n}-", dir=local_neo4j.home.parent))) for n in ("laptop", "phone")]
        for home in homes:
            shutil.copytree(local_neo4j.home / "lib", home / "neo4j" / "lib",
                            copy_function=os.link)
        # A revoked key is refused at once (an interrupted sync's test revokes one mid-way).
        starting = [serving(GRAPHMEM_AUTH_CACHE_S="0"),
                    *(_device_service(home) for home in homes)]
        for home in homes:  # a device's own Neo4j stops after its serve (serve leaves it up)
            stack.callback(_stop_neo4j, home)
        with ThreadPoolExecutor(len(starting)) as pool:  # three starts at once
            urls = list(pool.map(stack.enter_context, starting))
        yield urls[0], Device("laptop", homes[0], urls[1]), Device("phone", homes[1], urls[2])


@pytest.fixture
async def shared_ns(db: Database) -> AsyncIterator[str]:
    name = f"test/{uuid.uuid4().hex[:12]}"
    yield name
    await delete_namespace(db, name)


@pytest.fixture
async def sync_key(db: Database, shared_ns: str) -> str:
    """A sync key on the shared service, granted only the test's namespace."""
    return await create_key(db, "sync", [shared_ns], admin=False)


def _say(device: Device, ns: str, external_id: str, at: str, content: str) -> None:
    device.gql("""mutation($ns: String!, $e: [EpisodeInput!]!) {
      recordEpisodes(namespace: $ns, episodes: $e) { created } }""", ns=ns, e=[{
        "externalId": external_id, "sessionId": f"{device.name}-chat", "kind": "USER_MESSAGE",
        "actor": "Sam", "content": content, "occurredAt": at}])


def _learn(device: Device, ns: str, predicate: str, obj: str, evidence: str) -> str:
    done = device.gql("""mutation($ns: String!, $f: [FactInput!]!) {
      assertFacts(namespace: $ns, facts: $f) { fact { id } } }""", ns=ns, f=[{
        "subject": "Sam", "predicate": predicate, "object": obj, "source": "USER_STATEMENT",
        "evidence": [evidence]}])
    return str(done["assertFacts"][0]["fact"]["id"])


def _learn_all(device: Device, ns: str, said: list[tuple[str, str]], evidence: str) -> None:
    device.gql("""mutation($ns: String!, $f: [FactInput!]!) {
      assertFacts(namespace: $ns, facts: $f) { fact { id } } }""", ns=ns, f=[{
        "subject": "Sam", "predicate": predicate, "object": obj, "source": "USER_STATEMENT",
        "evidence": [evidence]} for predicate, obj in said])


def _sync(device: Device, ns: str, shared: str, key: str, *content: str) -> str:
    """`graphmem sync` as a user runs it: what it printed."""
    return device.cli("sync", ns, "--url", shared, "--device", device.name, *content,
                      GRAPHMEM_SYNC_KEY=key)


async def _synced(device: Device, ns: str, shared: str, key: str,
                  content: Content = Content.FACTS_AND_SUMMARIES, first: int = PAGE,
                  full: bool = False) -> Report:
    """The sync `graphmem sync` runs, from this process against the device's Neo4j (under
    the same cursor: the peer is the URL's digest either way)."""
    db = await connect(device.settings())
    try:
        async with HttpRemote(f"{shared}/graphql", key) as remote:
            return await sync(db, parse_namespace(ns), remote, device.name, content,
                              peer_of(shared), first, full)
    finally:
        await db.close()


async def _exported(device: Device, ns: str) -> list[str]:
    """The device's namespace as its export reads it, straight from the device's Neo4j."""
    db = await connect(device.settings())
    try:
        return await _records(db, ns)
    finally:
        await db.close()


async def _records(db: Database, ns: str) -> list[str]:
    """A namespace's memory as export records, in a stable order (the audit trail of the
    pushes aside: a push is audited, by design)."""
    records = [json.dumps(r, sort_keys=True) async for r in export(db, parse_namespace(ns))
               if ("node" in r and r["node"] != "AuditEvent")
               or ("rel" in r and "AuditEvent" not in (r["from"][0], r["to"][0]))]
    return sorted(records)


async def _strings_holding(db: Database, ns: str, words: tuple[str, ...]) -> list[str]:
    """Every string (or list of strings) property of every node of the namespace and of every
    relationship touching one, lowered, holding any of ``words``."""
    records, _, _ = await db.driver.execute_query(
        """MATCH (n {ns: $ns})
           WITH collect(n) AS nodes
           UNWIND nodes AS n
           OPTIONAL MATCH (n)-[r]-()
           WITH collect(DISTINCT properties(n)) + collect(DISTINCT properties(r)) AS all
           UNWIND all AS props
           UNWIND keys(props) AS name
           WITH props[name] AS value
           WITH CASE WHEN value IS :: STRING THEN [value]
                     WHEN value IS :: LIST<STRING NOT NULL> THEN value ELSE [] END AS texts
           UNWIND texts AS text
           WITH toLower(text) AS text WHERE any(w IN $words WHERE text CONTAINS w)
           RETURN collect(text) AS found""", {"ns": ns, "words": list(words)},
        database_=db.name)
    return list(records[0]["found"])


async def test_facts_travel_without_their_turns_and_a_conflict_resolves_alike(
        services: tuple[str, Device, Device], db: Database, admin_token: str,
        shared_ns: str, sync_key: str) -> None:
    shared, laptop, phone = services
    ns = shared_ns
    key = sync_key
    # The laptop hears Sam in May; the phone hears Sam move in June.
    _say(laptop, ns, "l1", "2026-05-01T09:00:00Z", "Zorblax quintessa! I live in Lisbon now")
    _say(laptop, ns, "l2", "2026-05-02T09:00:00Z", "Marmalade aside, I love kayaking")
    lisbon = _learn(laptop, ns, "lives_in", "Lisbon", "l1")
    kayaking = _learn(laptop, ns, "likes", "kayaking", "l2")
    _say(phone, ns, "p1", "2026-06-01T09:00:00Z", "Flimwort glossaries: I moved to Porto")
    porto = _learn(phone, ns, "lives_in", "Porto", "p1")
    chess = _learn(phone, ns, "likes", "chess", "p1")
    laptop.gql("""mutation($ns: String!, $f: String!) { writeSummary(namespace: $ns, summary: {
      text: "Sam enjoys a water sport", covers: ["l2"], cites: [$f],
      sessionId: "laptop-chat"}) { id } }""", ns=ns, f=kayaking)

    # The phone syncs first; the laptop's older statement arrives later and still loses.
    # The laptop lets only facts leave at first.
    await _synced(phone, ns, shared, key)
    await _synced(laptop, ns, shared, key, Content.FACTS)
    await _synced(phone, ns, shared, key)

    # Facts from the laptop are on the phone, their evidence held on the laptop.
    on_phone = phone.gql(WHY, ns=ns, id=kayaking)["provenance"]
    assert on_phone["fact"]["object"] == "kayaking"
    assert on_phone["evidence"] == []
    assert [(t["device"], t["held"]) for t in on_phone["heldElsewhere"]] == \
        [("laptop", "held on device laptop")]
    # ... and on the laptop the evidence is the turn itself.
    on_laptop = laptop.gql(WHY, ns=ns, id=kayaking)["provenance"]
    assert [e["content"] for e in on_laptop["evidence"]] == ["Marmalade aside, I love kayaking"]

    # One answer everywhere: Porto, said later, superseding Lisbon on every side.
    admin = admin_token
    for url, token in ((laptop.url, laptop.token), (phone.url, phone.token), (shared, admin)):
        current = _post(url, token, FACT, {"ns": ns, "p": "lives_in"})["facts"]["nodes"]
        assert [(f["id"], f["object"]) for f in current] == [(porto, "Porto")], url
        why = _post(url, token, WHY, {"ns": ns, "id": porto})["provenance"]
        assert [f["object"] for f in why["supersedes"]] == ["Lisbon"], url
        old = _post(url, token, WHY, {"ns": ns, "id": lisbon})["provenance"]
        assert old["fact"]["status"] == "SUPERSEDED", url
        assert [f["object"] for f in old["supersededBy"]] == ["Porto"], url

    # No turn's words on the shared side: not by its search, not anywhere in its graph.
    for word in TURN_WORDS:
        hits = _post(shared, admin, """query($ns: String!, $q: String!) {
          search(namespace: $ns, query: $q, limit: 20) { hits { kind score } } }""",
                     {"ns": ns, "q": word})["search"]["hits"]
        assert hits == [], word
    assert await _strings_holding(db, ns, TURN_WORDS) == []
    assert await _strings_holding(db, ns, ("kayaking",)) != []  # the scan does see facts

    # Summaries leave when the setting says so, with references to the turns they cover.
    summary = """query($ns: String!) { summary(namespace: $ns, sessionId: "laptop-chat") {
      text } }"""
    assert _post(shared, admin, summary, {"ns": ns})["summary"] is None
    assert (await _synced(laptop, ns, shared, key, Content.NOTHING)).pushed_records == 0
    await _synced(laptop, ns, shared, key)
    await _synced(phone, ns, shared, key)
    for url, token in ((shared, admin), (phone.url, phone.token)):
        assert _post(url, token, summary, {"ns": ns})["summary"] == \
            {"text": "Sam enjoys a water sport"}, url

    # A repeat changes nothing, on any side.
    before = [await _exported(laptop, ns), await _exported(phone, ns), await _records(db, ns)]
    again = [await _synced(laptop, ns, shared, key), await _synced(phone, ns, shared, key)]
    assert [(r.changed_there, r.pulled_nodes) for r in again] == [(0, 0), (0, 0)], again
    assert [await _exported(laptop, ns), await _exported(phone, ns),
            await _records(db, ns)] == before

    # Forgetting a fact on a side that never held its turn is honoured everywhere.
    laptop.gql("""mutation($ns: String!, $f: ID!) { forgetFact(namespace: $ns, factId: $f,
      reason: "not true") { id } }""", ns=ns, f=chess)
    await _synced(laptop, ns, shared, key)
    await _synced(phone, ns, shared, key)
    for url, token in ((laptop.url, laptop.token), (phone.url, phone.token), (shared, admin)):
        assert _post(url, token, WHY, {"ns": ns, "id": chess})["provenance"]["fact"][
            "status"] == "RETRACTED", url

    # Erasure follows: the laptop erases the kayaking turn; what only it supported (the fact
    # and the summary covering it) goes from every side, with a receipt from each.
    erased = laptop.gql("""mutation($ns: String!) { eraseEpisodes(namespace: $ns,
      ids: ["l2"]) { verified } }""", ns=ns)["eraseEpisodes"]
    assert erased["verified"]
    told = _sync(laptop, ns, shared, key)
    assert "erased on the shared side: " in told and "verified true" in told, told
    assert "erased here, as the shared side did: " in _sync(phone, ns, shared, key)
    history = """query($ns: String!) { facts(namespace: $ns, where: {subject: "Sam",
      predicate: "likes", object: "kayaking"}, includeHistory: true) { nodes { id } } }"""
    for url, token in ((laptop.url, laptop.token), (phone.url, phone.token), (shared, admin)):
        assert _post(url, token, history, {"ns": ns})["facts"]["nodes"] == [], url
        assert _post(url, token, summary, {"ns": ns})["summary"] is None, url
        current = _post(url, token, FACT, {"ns": ns, "p": "lives_in"})["facts"]["nodes"]
        assert [f["object"] for f in current] == ["Porto"], url  # the rest stays
    records, _, _ = await db.driver.execute_query(
        "MATCH (t:DeviceTurn {ns: $ns}) RETURN t.device AS device, t.said_at AS said",
        {"ns": ns}, database_=db.name)
    said = {(r["device"], str(r["said"])[:10]) for r in records}
    assert ("laptop", "2026-05-02") not in said  # l2's reference went
    assert {("laptop", "2026-05-01"), ("phone", "2026-06-01")} <= said  # l1 (Lisbon), p1 stay



def _key_id(token: str) -> str:
    return token.removeprefix("gm_").split("_")[0]


class _Watched:
    """The shared service over HTTP, noting each pull's cursor; ``cut`` (if given) runs once
    the first page has come, before it is written: a key revoked there makes the service
    itself refuse the next page, as a sync cut short between pages."""

    def __init__(self, remote: HttpRemote, cut: Callable[[], Awaitable[None]] | None = None,
                 ) -> None:
        self.remote, self.cut, self.pulls = remote, cut, list[str | None]()

    async def call(self, document: str, variables: dict[str, Any]) -> dict[str, Any]:
        if "memoryChanges" in document:
            self.pulls.append(variables["after"])
        answer = await self.remote.call(document, variables)
        if "memoryChanges" in answer and self.cut is not None:
            cut, self.cut = self.cut, None
            await cut()
        return answer


async def test_an_interrupted_sync_resumes_from_its_cursor_and_ends_as_an_uninterrupted_one(
        services: tuple[str, Device, Device], db: Database, shared_ns: str, sync_key: str) -> None:
    shared, laptop, phone = services
    ns, name, peer = shared_ns, parse_namespace(shared_ns), peer_of(shared)
    key = sync_key
    _say(laptop, ns, "t1", "2026-05-01T09:00:00Z", "What Sam likes, listed")
    _learn_all(laptop, ns, [("likes", hobby) for hobby in HOBBIES], "t1")
    await _synced(laptop, ns, shared, key)

    phone_db = await connect(phone.settings())
    try:
        # The phone pulls in pages of 3; its key is revoked once the first page has come.
        start = await pulled_up_to(phone_db, name, peer)
        async with HttpRemote(f"{shared}/graphql", key) as http:
            cut = _Watched(http, lambda: revoke_key(db, _key_id(key)))
            with pytest.raises(RemoteError) as refused:
                await sync(phone_db, name, cut, phone.name, Content.FACTS_AND_SUMMARIES, peer,
                           first=3)
        assert refused.value.code == "UNAUTHENTICATED"
        assert len(cut.pulls) == 2 and cut.pulls[0] == start  # the second page was refused
        kept = await pulled_up_to(phone_db, name, peer)
        assert kept != start  # the first page's cursor, written with the page
        partly = await _records(phone_db, ns)
        assert partly and _facts_in(partly) < len(HOBBIES)  # some of it, not all

        # Retried (a new key): the pull starts after the first page, and ends where one
        # that was never cut ends: the namespace pulled again from nothing, page by page.
        again = await create_key(db, "sync-again", [ns], admin=False)
        async with HttpRemote(f"{shared}/graphql", again) as http:
            watched = _Watched(http)
            resumed = await sync(phone_db, name, watched, phone.name,
                                 Content.FACTS_AND_SUMMARIES, peer, first=3)
        assert watched.pulls[0] == kept
        after_resume = await _records(phone_db, ns)
        assert set(partly) < set(after_resume)
        assert _facts_in(after_resume) == len(HOBBIES)
        await delete_namespace(phone_db, ns)
        async with HttpRemote(f"{shared}/graphql", again) as http:
            whole = await sync(phone_db, name, http, phone.name, Content.FACTS_AND_SUMMARIES,
                               peer, first=3)
        assert whole.pages == resumed.pages + 1  # the page the cut sync had written
        assert await _records(phone_db, ns) == after_resume
    finally:
        await delete_namespace(phone_db, ns)
        await phone_db.close()


def _facts_in(records: list[str]) -> int:
    return sum(json.loads(r).get("node") == "Fact" for r in records)


async def _until(check: Callable[[], bool], timeout_s: float = 60.0) -> None:
    """Wait (polling) until ``check`` holds; fail after ``timeout_s``."""
    deadline = time.monotonic() + timeout_s
    while not check():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.5)


async def _claim_between_rounds(db: Database, ns: str, peer: str, holder: str) -> None:
    """The namespace claimed as another sync would, once the background round running (if
    one is) has let it go."""
    deadline = time.monotonic() + 30
    while True:
        try:
            return await claim(db, parse_namespace(ns), peer, holder)
        except ConcurrentChange:
            assert time.monotonic() < deadline, "the background sync never let go"
            await asyncio.sleep(0.1)


async def test_a_device_service_syncs_in_its_background(
        services: tuple[str, Device, Device], db: Database, admin_token: str,
        shared_ns: str) -> None:
    shared, laptop, _ = services
    ns = shared_ns
    barred = f"test/{uuid.uuid4().hex[:12]}"  # the key is not granted it: refused each round
    key = await create_key(db, "background", [ns], admin=False)

    def current(obj: str) -> bool:
        found = _post(shared, admin_token, FACT, {"ns": ns, "p": "likes"})["facts"]["nodes"]
        return obj in [f["object"] for f in found]

    # A second service on the laptop's home and Neo4j (its serve finds that Neo4j running),
    # syncing two namespaces every second; nobody runs `graphmem sync`.
    with serving(**laptop.env, GRAPHMEM_SYNC_INTERVAL_S="1", GRAPHMEM_SYNC_URL=shared,
                 GRAPHMEM_SYNC_NAMESPACES=f"{barred}, {ns}", GRAPHMEM_SYNC_KEY=key,
                 GRAPHMEM_SYNC_DEVICE=laptop.name) as url:
        log = Path(RUNNING_LOGS[-1].name)
        device = Device(laptop.name, laptop.home, url)
        _say(device, ns, "b1", "2026-07-01T09:00:00Z", "Zorblax! I took up rowing")
        rowing = _learn(device, ns, "likes", "rowing", "b1")
        await _until(lambda: current("rowing"))
        why = _post(shared, admin_token, WHY, {"ns": ns, "id": rowing})["provenance"]
        assert [(t["device"], t["held"]) for t in why["heldElsewhere"]] == \
            [("laptop", "held on device laptop")]
        assert await _strings_holding(db, ns, TURN_WORDS) == []

        # The namespace its key does not reach fails every round, typed and without content,
        # and the other is synced all the same.
        refused = f"background sync of {barred} failed (RemoteError FORBIDDEN)"
        await _until(lambda: log.read_text().count(refused) >= 2)

        # While another sync holds the namespace (`graphmem sync` in another process, here
        # the claim it takes), the background one waits its turn.
        laptop_db = await connect(laptop.settings())
        try:
            await _claim_between_rounds(laptop_db, ns, peer_of(shared), "another")
            with pytest.raises(ConcurrentChange):
                await _synced(laptop, ns, shared, key)
            busy = log.read_text().count(f"background sync of {ns} failed (ConcurrentChange")
            _learn(device, ns, "likes", "sculling", "b1")
            await _until(lambda: log.read_text().count(
                f"background sync of {ns} failed (ConcurrentChange") >= busy + 2)
            assert not current("sculling")
            await release(laptop_db, parse_namespace(ns), peer_of(shared), "another")
            await _until(lambda: current("sculling"))
        finally:
            await laptop_db.close()
        text = log.read_text().lower()
        assert not [w for w in (*TURN_WORDS, "rowing", "sculling") if w in text]


async def test_facts_written_on_the_shared_service_and_one_statement_learned_twice(
        services: tuple[str, Device, Device], db: Database, admin_token: str,
        shared_ns: str, sync_key: str) -> None:
    shared, laptop, phone = services
    ns = shared_ns
    key = sync_key
    # An agent talks to the shared service directly: a fact no device pushed.
    tea = str(_post(shared, admin_token, """mutation($ns: String!, $f: [FactInput!]!) {
      assertFacts(namespace: $ns, facts: $f) { fact { id } } }""", {"ns": ns, "f": [{
        "subject": "Sam", "predicate": "likes", "object": "tea",
        "source": "USER_STATEMENT"}]})["assertFacts"][0]["fact"]["id"])
    # Both devices hear that Sam likes chess, a month apart.
    _say(laptop, ns, "l1", "2026-05-01T09:00:00Z", "Zorblax, chess is my thing")
    first = _learn(laptop, ns, "likes", "chess", "l1")
    _say(phone, ns, "p1", "2026-06-01T09:00:00Z", "Quintessa: I do love chess")
    second = _learn(phone, ns, "likes", "chess", "p1")
    await _synced(laptop, ns, shared, key)
    await _synced(phone, ns, shared, key)
    await _synced(laptop, ns, shared, key)

    sides = ((shared, admin_token), (laptop.url, laptop.token), (phone.url, phone.token))
    for url, token in sides:
        current = _post(url, token, FACT, {"ns": ns, "p": "likes"})["facts"]["nodes"]
        assert sorted((f["id"], f["object"]) for f in current) == \
            sorted([(first, "chess"), (tea, "tea")]), url
        copy = _post(url, token, WHY, {"ns": ns, "id": second})["provenance"]
        assert copy["fact"]["status"] == "SUPERSEDED", url
        assert [f["object"] for f in copy["supersededBy"]] == ["chess"], url
    # One fact, said on both devices: each holds its own turn, and the other's reference.
    evidence = {url: _post(url, token, WHY, {"ns": ns, "id": first})["provenance"]
                for url, token in sides}
    assert sorted(t["device"] for t in evidence[shared]["heldElsewhere"]) == \
        ["laptop", "phone"]
    assert [e["content"] for e in evidence[laptop.url]["evidence"]] == \
        ["Zorblax, chess is my thing"]
    assert [t["device"] for t in evidence[laptop.url]["heldElsewhere"]] == ["phone"]
    assert [e["content"] for e in evidence[phone.url]["evidence"]] == \
        ["Quintessa: I do love chess"]
    assert [t["device"] for t in evidence[phone.url]["heldElsewhere"]] == ["laptop"]
    # Nothing moves on a repeat.
    again = [await _synced(laptop, ns, shared, key), await _synced(phone, ns, shared, key)]
    assert [(r.changed_there, r.pulled_nodes) for r in again] == [(0, 0), (0, 0)], again


async def test_a_push_sends_only_what_moved_since_the_last_one_the_shared_side_took(
        services: tuple[str, Device, Device], db: Database, admin_token: str,
        shared_ns: str, sync_key: str) -> None:
    shared, laptop, _ = services
    ns = shared_ns
    key = sync_key
    _say(laptop, ns, "i1", "2026-05-01T09:00:00Z", "What Sam likes, listed")
    _learn_all(laptop, ns, [("likes", hobby) for hobby in HOBBIES], "i1")
    whole = await _synced(laptop, ns, shared, key)
    assert whole.pushed_records > 3 * len(HOBBIES) and whole.changed_there > len(HOBBIES)
    # Nothing moved: the push holds no record (it is still sent: the shared side stamps
    # what changed on it since).
    again = await _synced(laptop, ns, shared, key)
    assert (again.pushed_records, again.changed_there) == (0, 0)
    # One fact more: it goes, with what it touched (Sam, whose edges moved) and their ends.
    _learn(laptop, ns, "likes", "juggling", "i1")
    more = await _synced(laptop, ns, shared, key)
    assert 0 < more.pushed_records < whole.pushed_records
    found = _post(shared, admin_token, FACT, {"ns": ns, "p": "likes"})["facts"]["nodes"]
    assert sorted(f["object"] for f in found) == sorted([*HOBBIES, "juggling"])
    # --full sends everything again, and changes nothing there.
    full = await _synced(laptop, ns, shared, key, full=True)
    assert full.pushed_records > whole.pushed_records and full.changed_there == 0


async def test_a_summary_partly_covered_by_an_erased_turn_goes_stale_everywhere(
        services: tuple[str, Device, Device], db: Database, admin_token: str,
        shared_ns: str, sync_key: str) -> None:
    shared, laptop, phone = services
    ns = shared_ns
    key = sync_key
    _say(laptop, ns, "w1", "2026-05-01T09:00:00Z", "Zorblax: I sail")
    _say(laptop, ns, "w2", "2026-05-02T09:00:00Z", "Quintessa: and I row")
    sailing = _learn(laptop, ns, "likes", "sailing", "w1")
    laptop.gql("""mutation($ns: String!, $f: String!) { writeSummary(namespace: $ns, summary: {
      text: "Sam sails and rows", covers: ["w1", "w2"], cites: [$f],
      sessionId: "laptop-chat"}) { id } }""", ns=ns, f=sailing)
    await _synced(laptop, ns, shared, key)
    await _synced(phone, ns, shared, key)
    summary = """query($ns: String!) { summary(namespace: $ns, sessionId: "laptop-chat") {
      text stale } }"""
    sides = ((shared, admin_token), (laptop.url, laptop.token), (phone.url, phone.token))
    for url, token in sides:
        assert _post(url, token, summary, {"ns": ns})["summary"] == \
            {"text": "Sam sails and rows", "stale": False}, url

    # One of the two turns it covers is erased on the laptop: the summary stays, stale and
    # its text withdrawn, on every side; the fact from the other turn stays believed.
    laptop.gql("""mutation($ns: String!) { eraseEpisodes(namespace: $ns, ids: ["w2"]) {
      verified } }""", ns=ns)
    await _synced(laptop, ns, shared, key)
    await _synced(phone, ns, shared, key)
    for url, token in sides:
        assert _post(url, token, summary, {"ns": ns})["summary"] == \
            {"text": WITHDRAWN, "stale": True}, url
        found = _post(url, token, FACT, {"ns": ns, "p": "likes"})["facts"]["nodes"]
        assert [f["object"] for f in found] == ["sailing"], url
    assert await _strings_holding(db, ns, ("quintessa", "rows")) == []
